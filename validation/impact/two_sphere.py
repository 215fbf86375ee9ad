"""Single central impact of two spheres under each law of Xu et al. 2022, Table 2 (Xu et al. 2022, §2.2, Figs. 3–4).

The relative motion obeys m_eff δ̈ = −F_n(δ, δ̇) with m_eff = m1 m2/(m1 + m2), δ(0) = 0 and
δ̇(0) = δ̇⁻; the contact ends when δ returns to zero and the separation speed is −δ̇ there. It is
integrated with SciPy's DOP853 at tight tolerance and an event at δ = 0, so the result is limited by
the law, not by the integrator: compare with :func:`validation.impact.laws.separation_ratio_exact`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from .laws import HERTZ_EXPONENT, ImpactLaw, impact_force, sphere_contact_stiffness

__all__ = ["TwoSphereImpact", "two_sphere_impact", "hertz_contact_time"]


@dataclass(frozen=True)
class TwoSphereImpact:
    """History and summary of one impact.

    Arrays have shape (sample_count,) and share the time axis ``t``.
    """

    law: ImpactLaw
    t: np.ndarray
    """Time since first touch [s]."""
    delta: np.ndarray
    """Overlap δ [m]."""
    delta_dot: np.ndarray
    """Overlap rate δ̇ [m/s], > 0 while compressing."""
    force: np.ndarray
    """Normal force F_n [N]."""
    separation_speed: float
    """Relative speed at separation [m/s] (positive)."""
    contact_time: float
    """Duration of the contact [s]."""
    max_delta: float
    """Largest overlap [m]."""
    max_force: float
    """Largest force [N]."""
    stiffness: float
    """Contact stiffness K [N/m^n] used."""


def two_sphere_impact(
    law: ImpactLaw | str,
    *,
    youngs_modulus: float = 207e9,
    poisson_ratio: float = 0.3,
    radius_1: float = 0.010,
    radius_2: float = 0.0099,
    mass_1: float = 0.04,
    mass_2: float = 0.04,
    v_impact: float = 0.3,
    c_e: float = 0.5,
    n: float = HERTZ_EXPONENT,
    conformal: bool = True,
    rtol: float = 1e-11,
    sample_count: int = 400,
) -> TwoSphereImpact:
    """Integrate one impact of two spheres of the same material (Xu et al. 2022, §2.2 defaults).

    ``youngs_modulus`` E [Pa], ``poisson_ratio`` ν [-], radii [m] (``conformal`` as in
    :func:`~validation.impact.laws.sphere_contact_stiffness`), masses [kg] (Xu et al. 2022 gives "ball mass
    0.04 kg"; we read it as each ball, m_eff = 0.02 kg — the separation speed does not depend on it),
    ``v_impact`` δ̇⁻ [m/s], ``c_e`` restitution [-], ``rtol`` relative tolerance of DOP853,
    ``sample_count`` points of the returned history.
    """
    law = ImpactLaw(law)
    for name, value in (("mass_1", mass_1), ("mass_2", mass_2), ("v_impact", v_impact), ("rtol", rtol)):
        if not value > 0.0:
            raise ValueError(f"{name} must be > 0, got {value!r}")
    if not (0.0 < c_e <= 1.0):
        raise ValueError(f"c_e must lie in (0, 1], got {c_e!r}")
    k = sphere_contact_stiffness(
        youngs_modulus, poisson_ratio, radius_1, youngs_modulus, poisson_ratio, radius_2, conformal=conformal
    )
    m_eff = mass_1 * mass_2 / (mass_1 + mass_2)
    # Hertz scales: δ_max = ((n+1) m v² / (2K))^(1/(n+1)) from energy, t* = δ_max/v; used for tolerances.
    delta_scale = ((n + 1.0) * m_eff * v_impact**2 / (2.0 * k)) ** (1.0 / (n + 1.0))
    t_scale = delta_scale / v_impact

    def rhs(_t: float, y: np.ndarray) -> list[float]:
        return [y[1], -impact_force(law, y[0], y[1], k, c_e, v_impact, n=n) / m_eff]

    def separated(_t: float, y: np.ndarray) -> float:
        return y[0]

    separated.terminal = True
    separated.direction = -1.0

    sol = solve_ivp(
        rhs,
        (0.0, 50.0 * t_scale),
        [0.0, v_impact],
        method="DOP853",
        rtol=rtol,
        atol=[rtol * delta_scale, rtol * v_impact],
        events=separated,
        dense_output=True,
        first_step=1e-3 * t_scale,
    )
    if sol.status != 1:
        raise RuntimeError(f"two-sphere impact under {law.value} did not separate: {sol.message}")
    t_end = float(sol.t_events[0][0])
    y_end = sol.y_events[0][0]
    t = np.linspace(0.0, t_end, sample_count)
    delta, delta_dot = sol.sol(t)
    delta[-1], delta_dot[-1] = 0.0, y_end[1]
    force = np.array([impact_force(law, d, dd, k, c_e, v_impact, n=n)
                      for d, dd in zip(delta, delta_dot, strict=True)])
    return TwoSphereImpact(
        law=law,
        t=t,
        delta=delta,
        delta_dot=delta_dot,
        force=force,
        separation_speed=-float(y_end[1]),
        contact_time=t_end,
        max_delta=float(np.max(delta)),
        max_force=float(np.max(force)),
        stiffness=k,
    )


def hertz_contact_time(k: float, m_eff: float, v_impact: float, *, n: float = HERTZ_EXPONENT) -> float:
    """Closed-form Hertz contact duration [s] for n = 3/2 (Johnson, *Contact Mechanics*, §11.4).

    ``k`` [N/m^1.5], ``m_eff`` [kg], ``v_impact`` [m/s]. Only n = 1.5 is supported.
    """
    if n != HERTZ_EXPONENT:
        raise ValueError(f"n must be 1.5 for the closed-form contact time, got {n!r}")
    delta_max = (1.25 * m_eff * v_impact**2 / k) ** 0.4
    # Energy: δ̇² = v²(1 − (δ/δ_max)^{5/2}), so t_c = 2 δ_max/v ∫0^1 dx/√(1 − x^{5/2}) and the
    # integral is (2/5) B(2/5, 1/2) = (2/5) Γ(2/5) Γ(1/2) / Γ(9/10).
    integral = 0.4 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    return 2.0 * integral * delta_max / v_impact
