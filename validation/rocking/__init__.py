"""Analytical and semi-analytical rigid-rocking references (Qi & Zhu 2025, §2–§5; Housner 1963; Zhang & Makris 2001).

Plain NumPy/SciPy, independent of the DEM engine. Angles in rad, times in s, accelerations in m/s².
θ > 0 when the block pivots on the corner a negative base acceleration lifts it onto.

Entry points: free_rocking, base_excited (a rectangle; body_free_rocking, body_base_excited for any rigid body
as RockingBlock.from_body(m, R, α, I_O)) (step by step, methods "time_transform" of Qi & Zhu 2025, §4, "rk2/3/4",
"adaptive"), base_excited_batch (vectorised over records). Modules: closed_form (Housner's closed
forms), signals (base motions), motion_states (Qi & Zhu 2025, §2 impulses and post-impact states), shenton
(initiation modes), frame (rocking frame), impact_time (Qi & Zhu's (2025) time transformation).
"""

from validation.rocking.api import base_excited, body_base_excited, body_free_rocking, free_rocking
from validation.rocking.batch import BatchResult, base_excited_batch
from validation.rocking.block import RockingBlock, body_restitution, pivot_restitution
from validation.rocking.frame import frame_base_excited, frame_base_excited_batch, rocking_frame
from validation.rocking.result import MotionState, RockingResult
from validation.rocking.signals import (
    ExponentialSine,
    SampledRecord,
    cosine_pulse,
    ramped_sine,
    sine_pulse,
)

__all__ = [
    "BatchResult",
    "ExponentialSine",
    "MotionState",
    "RockingBlock",
    "RockingResult",
    "SampledRecord",
    "base_excited",
    "base_excited_batch",
    "body_base_excited",
    "body_free_rocking",
    "body_restitution",
    "cosine_pulse",
    "frame_base_excited",
    "frame_base_excited_batch",
    "free_rocking",
    "pivot_restitution",
    "ramped_sine",
    "rocking_frame",
    "sine_pulse",
]
