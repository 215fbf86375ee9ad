"""The rocking body as the solvers see it: slenderness α, frequency parameter p, restitution e.

One equation covers the free-standing block (Qi & Zhu 2025, Eq. 22) and the rocking frame (Makris & Vassiliou
2013, frame.py): θ̈ = −p² [sin(α sgnθ − θ) + (ü_g/g) cos(α sgnθ − θ)], impacts θ̇⁺ = e θ̇⁻ at θ = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from validation.rocking._checks import in_range, positive
from validation.rocking.closed_form import (
    STANDARD_GRAVITY,
    frequency_parameter,
    housner_restitution,
    slenderness,
)


@dataclass(frozen=True)
class RockingBlock:
    """Parameters of a rigid rocking body.

    alpha: slenderness angle α [rad], tan α = b/h (Qi & Zhu 2025, §2), in (0, π/2).
    p: frequency parameter [rad/s] (p² = 3g/(4R) for a rectangular block).
    restitution: ratio e = θ̇⁺/θ̇⁻ [-] across an impact at θ = 0, in [0, 1] (Qi & Zhu 2025, Eq. 23).
    g: gravitational acceleration [m/s²].
    """

    alpha: float
    p: float
    restitution: float
    g: float = STANDARD_GRAVITY

    def __post_init__(self) -> None:
        in_range("alpha", self.alpha, 1e-9, 0.5 * math.pi - 1e-9)
        positive("p", self.p)
        in_range("restitution", self.restitution, 0.0, 1.0)
        positive("g", self.g)

    @property
    def uplift_acceleration(self) -> float:
        """Base acceleration [m/s²] a block at rest must exceed to uplift, g tan α (Housner 1963)."""
        return self.g * math.tan(self.alpha)

    @classmethod
    def rectangle(
        cls, width: float, height: float, *, restitution: float | None = None, g: float = STANDARD_GRAVITY
    ) -> RockingBlock:
        """Block of full width × height [m]; restitution None uses Housner's e = 1 − 1.5 sin²α."""
        alpha = slenderness(width, height)
        return cls(alpha, frequency_parameter(width, height, g=g), resolve_restitution(alpha, restitution), g)


def resolve_restitution(alpha: float, restitution: float | None) -> float:
    """Return the given restitution [-] (checked in [0, 1]) or Housner's (Qi & Zhu 2025, Eq. 24) when None.

    Housner's value is negative when h/b < 1/√2 (sin²α > 2/3): the block then does not rock about
    its other corner after an impact (Qi & Zhu 2025, Eq. 17) and a restitution must be given explicitly.
    """
    if restitution is not None:
        return in_range("restitution", restitution, 0.0, 1.0)
    e = housner_restitution(alpha)
    if e < 0.0:
        raise ValueError(
            f"restitution: Housner's 1 - 1.5 sin^2(alpha) = {e:.4g} < 0 for alpha = {alpha:.4g} rad "
            "(h/b < 1/sqrt(2): the block does not rock, 000 Eq. 17); pass a restitution in [0, 1]"
        )
    return e
