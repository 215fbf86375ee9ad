"""What a rocking run returns: θ(t), θ̇(t) on a uniform grid, impacts, the motion-state label."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np


class MotionState(enum.IntEnum):
    """State of a rigid block on a moving base (Qi & Zhu 2025, §2, Housner 1963; Zhang & Makris 2001)."""

    REST = 0
    """Full contact with the base, θ = θ̇ = 0."""
    ROCKING = 1
    """Pivoting on one corner, impacts at θ = 0."""
    OVERTURNED = 2
    """|θ| reached the overturning angle; nothing is computed after that."""


@dataclass
class RockingResult:
    """Response of a rocking block.

    t: output times [s], shape (n,), uniform step dt from 0.
    theta: rocking angle θ [rad], shape (n,); NaN after overturning.
    omega: angular velocity θ̇ [rad/s], shape (n,); NaN after overturning.
    states: MotionState code at each output time, shape (n,), int8.
    impact_times: times [s] of the impacts at θ = 0.
    uplift_times: times [s] at which the block left rest (|ü_g| > g tan α).
    overturned: whether |θ| reached the overturning angle.
    overturn_time: time [s] of overturning, or None.
    state: MotionState at the end of the run.
    """

    t: np.ndarray
    theta: np.ndarray
    omega: np.ndarray
    states: np.ndarray
    impact_times: list[float] = field(default_factory=list)
    uplift_times: list[float] = field(default_factory=list)
    overturned: bool = False
    overturn_time: float | None = None

    @property
    def state(self) -> MotionState:
        """Motion state at the end of the run (rest, rocking or overturned)."""
        return MotionState(int(self.states[-1]))

    @property
    def peak_theta(self) -> float:
        """Largest |θ| [rad] over the run (ignoring NaN after overturning)."""
        return float(np.nanmax(np.abs(self.theta))) if np.any(np.isfinite(self.theta)) else float("nan")
