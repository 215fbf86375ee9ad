"""Normal impact force laws of Xu et al. 2022, Table 2, as pure functions of plain numbers.

Every law here has the form

    F_n = K δ^n (1 + D(c_e) δ̇ / δ̇⁻)                                   (Xu et al. 2022, Eq. 3, 5, 8, 9, 13)

with δ the overlap [m] (> 0 in contact), δ̇ its rate [m/s] (> 0 while compressing), δ̇⁻ > 0 the
approach speed at the start of the contact [m/s], K the contact stiffness [N/m^n], n the exponent
(3/2 for Hertz) and D a dimensionless damping factor fixed by the coefficient of restitution c_e:

| law                 | D(c_e)                 | source (Xu et al. 2022)                              |
|---------------------|------------------------|------------------------------------------------------|
| Hertz               | 0                      | Eq. 3                                                |
| Hunt–Crossley       | 3 (1 − c_e) / 2        | Eq. 5 with b from Eq. 6: b = 3K(1 − c_e)/(2δ̇⁻)      |
| Lankarani–Nikravesh | 3 (1 − c_e²) / 4       | Eq. 8                                                |
| Gonthier            | (1 − c_e²) / c_e       | Eq. 10 (χ = dK/(c_e δ̇⁻), d = 1 − c_e²); see below   |
| Flores              | 8 (1 − c_e) / (5 c_e)  | Eq. 12–13                                            |

Readings of the printed text (docs/references.md):
- Xu et al. 2022, Eq. 9 and Table 2 print Gonthier's factor as (1 − c_e²)/c_e²; Xu et al.'s (2022) own Eq. 10 gives
  (1 − c_e²)/c_e, and only that form yields the separation speed c_e·v that Xu et al. 2022, §2.2 reports. We use
  (1 − c_e²)/c_e.
- Table 2 prints Lankarani–Nikravesh as Kδ^n + D δ̇⁻; Eq. 8 (the published law) has δ̇ in the damping
  term. A term in the constant δ̇⁻ would not dissipate energy over a closed loop, so we follow Eq. 8.
- Eq. 5 prints "b δ^n δ" without the dot; the Hunt–Crossley law has δ̇ there.

The functions are written so that the engine can mirror them one-for-one as Taichi ``@ti.func``s:
only scalar arithmetic, ``**`` and ``max``; no NumPy, no allocation. The law is unilateral: the force is
clipped at zero (no adhesion) and is zero for δ ≤ 0.
"""

from __future__ import annotations

import math
from enum import Enum

__all__ = [
    "ImpactLaw",
    "damping_factor",
    "hertz_force",
    "hunt_crossley_force",
    "lankarani_nikravesh_force",
    "gonthier_force",
    "flores_force",
    "impact_force",
    "impact_force_gradient",
    "damped_power_law_gradient",
    "sphere_contact_stiffness",
    "separation_ratio_exact",
    "separation_ratio_of_factor",
]

HERTZ_EXPONENT = 1.5
"""Hertz exponent n for sphere–sphere contact [-] (Xu et al. 2022, Eq. 3)."""


class ImpactLaw(str, Enum):
    """The five normal impact laws of Xu et al. 2022, Table 2."""

    HERTZ = "hertz"
    HUNT_CROSSLEY = "hunt_crossley"
    LANKARANI_NIKRAVESH = "lankarani_nikravesh"
    GONTHIER = "gonthier"
    FLORES = "flores"


def _check_restitution(c_e: float) -> None:
    if not (0.0 < c_e <= 1.0):
        raise ValueError(f"c_e (coefficient of restitution) must lie in (0, 1], got {c_e!r}")


def damping_factor(law: ImpactLaw | str, c_e: float) -> float:
    """Dimensionless damping factor D(c_e) [-] in F = K δ^n (1 + D δ̇/δ̇⁻) (table in the module doc).

    ``c_e`` is the coefficient of restitution in (0, 1]; D = 0 for Hertz and for c_e = 1.
    """
    law = ImpactLaw(law)
    _check_restitution(c_e)
    if law is ImpactLaw.HERTZ:
        return 0.0
    if law is ImpactLaw.HUNT_CROSSLEY:
        return 1.5 * (1.0 - c_e)  # Xu et al. 2022, Eq. 6 solved for b, divided by K/δ̇⁻
    if law is ImpactLaw.LANKARANI_NIKRAVESH:
        return 0.75 * (1.0 - c_e * c_e)  # Xu et al. 2022, Eq. 8
    if law is ImpactLaw.GONTHIER:
        return (1.0 - c_e * c_e) / c_e  # Xu et al. 2022, Eq. 10 (not Eq. 9's /c_e², docs/references.md)
    return 1.6 * (1.0 - c_e) / c_e  # Flores, Xu et al. 2022, Eq. 12


def damped_power_law_gradient(
    delta: float, delta_dot: float, k: float, d: float, v_impact: float, n: float
) -> tuple[float, float, float]:
    """Generic kernel of all five laws: F = K δ^n (1 + d δ̇/δ̇⁻) [N], ∂F/∂δ [N/m], ∂F/∂δ̇ [N·s/m].

    ``delta`` overlap [m], ``delta_dot`` overlap rate [m/s], ``k`` stiffness [N/m^n], ``d`` the
    dimensionless factor of :func:`damping_factor`, ``v_impact`` δ̇⁻ > 0 [m/s] (unused when d = 0),
    ``n`` exponent [-]. Returns zeros for δ ≤ 0 and where the law would pull (clipped, no adhesion).
    This is the function the engine mirrors as a Taichi ``@ti.func`` (scalars only).
    """
    if delta <= 0.0:
        return 0.0, 0.0, 0.0
    ratio = d / v_impact if d != 0.0 else 0.0
    factor = 1.0 + ratio * delta_dot
    if factor <= 0.0:
        return 0.0, 0.0, 0.0
    elastic = k * delta**n
    return elastic * factor, n * k * delta ** (n - 1.0) * factor, elastic * ratio


def _damped_power_law(delta: float, delta_dot: float, k: float, d: float, v_impact: float, n: float) -> float:
    """K δ^n (1 + d δ̇/δ̇⁻) clipped at zero [N]; zero for δ ≤ 0."""
    if delta <= 0.0:
        return 0.0
    return max(0.0, k * delta**n * (1.0 + d * delta_dot / v_impact))


def hertz_force(delta: float, k: float, *, n: float = HERTZ_EXPONENT) -> float:
    """Hertz force K δ^n [N] for overlap ``delta`` [m], stiffness ``k`` [N/m^n] (Xu et al. 2022, Eq. 3)."""
    return k * delta**n if delta > 0.0 else 0.0


def hunt_crossley_force(
    delta: float, delta_dot: float, k: float, c_e: float, v_impact: float, *, n: float = HERTZ_EXPONENT
) -> float:
    """Hunt–Crossley force K δ^n + b δ^n δ̇ [N], b = 3K(1 − c_e)/(2 δ̇⁻) (Xu et al. 2022, Eq. 5–6).

    ``delta`` overlap [m], ``delta_dot`` overlap rate [m/s] (> 0 compressing), ``k`` [N/m^n],
    ``c_e`` restitution [-], ``v_impact`` approach speed δ̇⁻ > 0 [m/s].
    """
    return _damped_power_law(delta, delta_dot, k, 1.5 * (1.0 - c_e), v_impact, n)


def lankarani_nikravesh_force(
    delta: float, delta_dot: float, k: float, c_e: float, v_impact: float, *, n: float = HERTZ_EXPONENT
) -> float:
    """Lankarani–Nikravesh force K δ^n [1 + 3(1 − c_e²) δ̇ / (4 δ̇⁻)] [N] (Xu et al. 2022, Eq. 8).

    Units as :func:`hunt_crossley_force`.
    """
    return _damped_power_law(delta, delta_dot, k, 0.75 * (1.0 - c_e * c_e), v_impact, n)


def gonthier_force(
    delta: float, delta_dot: float, k: float, c_e: float, v_impact: float, *, n: float = HERTZ_EXPONENT
) -> float:
    """Gonthier force K δ^n [1 + (1 − c_e²)/c_e · δ̇/δ̇⁻] [N] (Xu et al. 2022, Eq. 10; docs/references.md). Units as
    Hunt–Crossley."""
    return _damped_power_law(delta, delta_dot, k, (1.0 - c_e * c_e) / c_e, v_impact, n)


def flores_force(
    delta: float, delta_dot: float, k: float, c_e: float, v_impact: float, *, n: float = HERTZ_EXPONENT
) -> float:
    """Flores force K δ^n [1 + 8(1 − c_e)/(5 c_e) · δ̇/δ̇⁻] [N] (Xu et al. 2022, Eq. 13). Units as Hunt–Crossley."""
    return _damped_power_law(delta, delta_dot, k, 1.6 * (1.0 - c_e) / c_e, v_impact, n)


def impact_force(
    law: ImpactLaw | str,
    delta: float,
    delta_dot: float,
    k: float,
    c_e: float,
    v_impact: float,
    *,
    n: float = HERTZ_EXPONENT,
) -> float:
    """Normal force [N] of ``law`` (see the module table). Arguments as :func:`hunt_crossley_force`.

    ``v_impact`` (δ̇⁻ [m/s]) must be > 0 for the damped laws; it is ignored by Hertz.
    """
    return impact_force_gradient(law, delta, delta_dot, k, c_e, v_impact, n=n)[0]


def impact_force_gradient(
    law: ImpactLaw | str,
    delta: float,
    delta_dot: float,
    k: float,
    c_e: float,
    v_impact: float,
    *,
    n: float = HERTZ_EXPONENT,
) -> tuple[float, float, float]:
    """Force F [N] and its partial derivatives ∂F/∂δ [N/m] and ∂F/∂δ̇ [N·s/m].

    Used by the implicit integrators' Newton–Raphson tangent (Xu et al. 2022, Eq. 26). Both derivatives are zero
    where the force is clipped (δ ≤ 0 or a damped law that would pull).
    """
    d = damping_factor(law, c_e)
    if delta > 0.0 and d != 0.0 and not v_impact > 0.0:
        raise ValueError(f"v_impact (approach speed δ̇⁻) must be > 0 m/s for {ImpactLaw(law).value}, "
                         f"got {v_impact!r}")
    return damped_power_law_gradient(delta, delta_dot, k, d, v_impact, n)


def sphere_contact_stiffness(
    e1: float, nu1: float, r1: float, e2: float, nu2: float, r2: float, *, conformal: bool = True
) -> float:
    """Hertz contact stiffness K [N/m^1.5] of two spheres (Xu et al. 2022, Eq. 4).

    ``e1, e2`` Young's moduli [Pa], ``nu1, nu2`` Poisson ratios [-], ``r1, r2`` radii [m].
    K = 4 / (3π(σ1 + σ2)) · √R_eff with σ_i = (1 − ν_i²)/(π E_i). Xu et al. 2022, Eq. 4 prints
    R_eff = R1 R2/(R1 − R2): a ball of radius R2 inside a spherical seat of radius R1 > R2, as in a
    clearance joint (``conformal=True``, the default, used for Xu et al. 2022, §2.2). ``conformal=False`` gives the
    external contact R_eff = R1 R2/(R1 + R2).
    """
    for name, value in (("e1", e1), ("e2", e2), ("r1", r1), ("r2", r2)):
        if not value > 0.0:
            raise ValueError(f"{name} must be > 0, got {value!r}")
    for name, value in (("nu1", nu1), ("nu2", nu2)):
        if not (-1.0 < value < 0.5):
            raise ValueError(f"{name} (Poisson ratio) must lie in (-1, 0.5), got {value!r}")
    if conformal:
        if not r1 > r2:
            raise ValueError(f"conformal contact needs r1 > r2 (seat around ball), got r1={r1!r}, r2={r2!r}")
        r_eff = r1 * r2 / (r1 - r2)
    else:
        r_eff = r1 * r2 / (r1 + r2)
    sigma1 = (1.0 - nu1 * nu1) / (math.pi * e1)
    sigma2 = (1.0 - nu2 * nu2) / (math.pi * e2)
    return 4.0 / (3.0 * math.pi * (sigma1 + sigma2)) * math.sqrt(r_eff)  # Xu et al. 2022, Eq. 4


def separation_ratio_exact(law: ImpactLaw | str, c_e: float) -> float:
    """Exact ratio of separation to approach speed [-] of a free impact under ``law`` with restitution
    ``c_e``: :func:`separation_ratio_of_factor` of :func:`damping_factor`."""
    return separation_ratio_of_factor(damping_factor(law, c_e))


def separation_ratio_of_factor(d: float) -> float:
    """Exact ratio of separation to approach speed [-] for F = K δ^n (1 + d δ̇/δ̇⁻), d ≥ 0 [-].

    For m δ̈ = −K δ^n (1 + χ δ̇) with χ = d/δ̇⁻, writing δ̈ = δ̇ dδ̇/dδ gives
    m δ̇ dδ̇ / (1 + χ δ̇) = −K δ^n dδ. Integrating compression (δ̇⁻ → 0) and restitution (0 → −δ̇⁺) up to
    the same δ_max and equating, with a = d and b = χ δ̇⁺ = d δ̇⁺/δ̇⁻:

        a − ln(1 + a) = −b − ln(1 − b),       δ̇⁺/δ̇⁻ = b / a.

    The ratio is independent of m, K, n and δ̇⁻, and the force never needs clipping (b < 1). This is
    the known restitution behaviour of the family (cf. Gonthier et al. 2004); it is the yardstick for
    the numerically integrated two-sphere impact of Xu et al. 2022, §2.2.
    """
    if not d >= 0.0:
        raise ValueError(f"d (damping factor) must be >= 0, got {d!r}")
    if d == 0.0:
        return 1.0
    target = d - math.log1p(d)
    # g(b) = −b − ln(1 − b) increases on (0, 1) from 0 to ∞: bisection to machine precision.
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if -mid - math.log1p(-mid) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi) / d
