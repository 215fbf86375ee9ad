"""Analytical and semi-analytical rigid-rocking references (seed 000 §2–§5; spec §7).

Plain NumPy/SciPy, independent of the DEM engine. Angles in rad, times in s, accelerations in m/s².
"""

from validation.rocking.api import base_excited, free_rocking
from validation.rocking.batch import BatchResult, base_excited_batch
from validation.rocking.block import RockingBlock
from validation.rocking.result import MotionState, RockingResult

__all__ = [
    "BatchResult",
    "MotionState",
    "RockingBlock",
    "RockingResult",
    "base_excited",
    "base_excited_batch",
    "free_rocking",
]
