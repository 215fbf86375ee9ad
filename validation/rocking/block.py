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
    def from_body(
        cls, mass: float, radius: float, alpha: float, inertia_o: float, *, restitution: float | None = None,
        g: float = STANDARD_GRAVITY,
    ) -> RockingBlock:
        """Any rigid body rocking in a plane about a pivot edge (a statue, a stele, a stone; Housner 1963):
        mass m [kg], R [m] from the pivot to the centre of mass, α [rad] R's angle from the vertical at rest,
        I_O [kg·m²] about the pivot. p² = m g R / I_O; restitution None: :func:`body_restitution`. The
        rectangle is the case I_O = (4/3) m R² (p² = 3g/(4R))."""
        positive("mass", mass)
        positive("radius", radius)
        positive("inertia_o", inertia_o)
        in_range("alpha", alpha, 1e-9, 0.5 * math.pi - 1e-9)
        if inertia_o < mass * radius**2 * (1.0 - 1e-12):
            raise ValueError(f"inertia_o must be >= m R² = {mass * radius**2:.6g} kg m² (the parallel-axis "
                             f"theorem), got {inertia_o!r}")
        e = body_restitution(mass, radius, alpha, inertia_o) if restitution is None else restitution
        if e < 0.0 and restitution is None:
            raise ValueError(f"restitution: 1 - 2 m R^2 sin^2(alpha) / I_O = {e:.4g} < 0: the body does not rock "
                             "onto its other edge (Qi & Zhu 2025, Eq. 17); pass a restitution in [0, 1]")
        return cls(alpha, math.sqrt(mass * positive("g", g) * radius / inertia_o), e, g)

    @classmethod
    def rectangle(
        cls, width: float, height: float, *, restitution: float | None = None, g: float = STANDARD_GRAVITY
    ) -> RockingBlock:
        """Block of full width × height [m]; restitution None uses Housner's e = 1 − 1.5 sin²α."""
        alpha = slenderness(width, height)
        return cls(alpha, frequency_parameter(width, height, g=g), resolve_restitution(alpha, restitution), g)


def body_restitution(mass: float, radius: float, alpha: float, inertia_o: float) -> float:
    """θ̇⁺/θ̇⁻ [-] of a rigid body rocking onto its twin edge (the pivot mirrored through the vertical through
    G), by conservation of angular momentum about the new pivot (Housner 1963):
    e = 1 − (2 m R² / I_O) sin²α; 1 − 1.5 sin²α for a rectangle (I_O = 4 m R² / 3, Qi & Zhu 2025, Eq. 24)."""
    return 1.0 - 2.0 * mass * radius**2 / inertia_o * math.sin(alpha) ** 2


def pivot_restitution(mass: float, inertia_g: float, arm_before, arm_after) -> float:
    """θ̇⁺/θ̇⁻ [-] at an impact that moves the pivot of a rigid body rocking in a plane from edge A to edge B,
    by conservation of angular momentum about B (Housner 1963, for any pair of edges): with r_A = G − A and
    r_B = G − B in the plane of rocking [m] and I_G [kg·m²] about G,
    e = (I_G + m r_A·r_B) / (I_G + m |r_B|²); the twin edges of a symmetric body give body_restitution."""
    a = tuple(float(c) for c in arm_before)
    b = tuple(float(c) for c in arm_after)
    return (inertia_g + mass * (a[0] * b[0] + a[1] * b[1])) / (inertia_g + mass * (b[0] ** 2 + b[1] ** 2))


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
