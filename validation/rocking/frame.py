"""Rocking frame: identical rocking columns capped by a free-standing beam (Makris & Vassiliou 2013).

The frame rocks like one column with the same slenderness α but a smaller frequency parameter and its
own restitution (Housner 1963; Zhang & Makris 2001; Itiola & El Shamy 2024, §5.2 applies it to the pier–deck bridge):

    p̄ = sqrt((1 + 2γ)/(1 + 3γ)) p,   e = [1 − 1.5 sin²α + 3γ cos 2α] / (1 + 3γ),

γ = cap-beam mass / total mass of the columns (Itiola & El Shamy 2024, §5.2: 612480 / (4 × 178176) = 0.86). The block
solvers are reused through RockingBlock.
"""

from __future__ import annotations

import math

import numpy as np

from validation.rocking._checks import in_range, non_negative
from validation.rocking.batch import BatchResult, solve_batch
from validation.rocking.block import RockingBlock
from validation.rocking.closed_form import STANDARD_GRAVITY, frequency_parameter, slenderness
from validation.rocking.result import RockingResult
from validation.rocking.signals import AccelLike
from validation.rocking.solver import solve


def frame_frequency_parameter(
    column_width: float, column_height: float, gamma: float, *, g: float = STANDARD_GRAVITY
) -> float:
    """p̄ = sqrt((1 + 2γ)/(1 + 3γ)) p [rad/s] (Itiola & El Shamy 2024, §5.2; Makris & Vassiliou 2013)."""
    gam = non_negative("gamma", gamma)
    return math.sqrt((1.0 + 2.0 * gam) / (1.0 + 3.0 * gam)) * frequency_parameter(column_width, column_height, g=g)


def frame_restitution(alpha: float, gamma: float) -> float:
    """e = [1 − 1.5 sin²α + 3γ cos 2α]/(1 + 3γ) [-] (Makris & Vassiliou 2013); γ = 0: Housner."""
    a = in_range("alpha", alpha, 0.0, 0.5 * math.pi)
    gam = non_negative("gamma", gamma)
    return (1.0 - 1.5 * math.sin(a) ** 2 + 3.0 * gam * math.cos(2.0 * a)) / (1.0 + 3.0 * gam)


def rocking_frame(
    column_width: float,
    column_height: float,
    gamma: float,
    *,
    restitution: float | None = None,
    g: float = STANDARD_GRAVITY,
) -> RockingBlock:
    """The frame as an equivalent RockingBlock (α of a column, p̄, frame restitution unless given)."""
    alpha = slenderness(column_width, column_height)
    e = frame_restitution(alpha, gamma) if restitution is None else restitution
    if not 0.0 <= e <= 1.0:
        raise ValueError(f"restitution: frame value {e:.4g} is outside [0, 1]; pass one explicitly")
    return RockingBlock(alpha, frame_frequency_parameter(column_width, column_height, gamma, g=g), e, g)


def frame_base_excited(
    column_width: float,
    column_height: float,
    gamma: float,
    accel: AccelLike,
    t_end: float,
    *,
    restitution: float | None = None,
    linear: bool = False,
    g: float = STANDARD_GRAVITY,
    **options,
) -> RockingResult:
    """Rocking angle of the frame's columns [rad] under base acceleration accel [m/s²] over t_end [s].

    options: as for solver.solve (method, dt, accel_dt, theta0, omega0, order, overturn_angle, ...).
    """
    block = rocking_frame(column_width, column_height, gamma, restitution=restitution, g=g)
    return solve(block, accel, t_end, linear=linear, **options)


def frame_base_excited_batch(
    column_width: float,
    column_height: float,
    gamma: float,
    accels: np.ndarray,
    dt: float,
    t_end: float,
    *,
    restitution: float | None = None,
    linear: bool = False,
    g: float = STANDARD_GRAVITY,
    **options,
) -> BatchResult:
    """Batched frame response to records accels [m/s²] (records × samples, every dt [s])."""
    block = rocking_frame(column_width, column_height, gamma, restitution=restitution, g=g)
    return solve_batch(block, accels, dt, t_end, linear=linear, **options)
