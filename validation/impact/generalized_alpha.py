"""Generalized-α method for the clearance oscillator (Xu et al. 2022, §2.3 (2), Eqs. 28–31).

Positions and velocities follow Newmark's formulas with a pseudo-acceleration a in place of ẍ
(Xu et al. 2022, Eqs. 28–29); a is tied to the true acceleration by Xu et al. 2022, Eq. 30,

    (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) ẍ_{n+1} + α_f ẍ_n,      a_0 = ẍ_0,

and the equation of motion holds at t_{n+1} (the Arnold–Brüls / Erlicher reading of Xu et al. 2022, Eq. 30 and its
ref. [42]). The parameters come from the spectral radius at infinity ρ∞ (Xu et al. 2022, Eq. 31):
α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1), β = (1 + α_f − α_m)²/4, γ = 1/2 + α_f − α_m.
γ = 1/2 + α_f − α_m makes the method second-order accurate for every ρ∞ in [0, 1]; ρ∞ = 1 is the
trapezoidal rule. The unknown of each step is ẍ_{n+1}, found by Newton–Raphson on the residual.
"""

from __future__ import annotations

import numpy as np

from .newmark import _check_steps
from .oscillator import ClearanceOscillator, ContactMemory, OscillatorResult

__all__ = ["generalized_alpha", "generalized_alpha_parameters"]


def generalized_alpha_parameters(rho_inf: float) -> tuple[float, float, float, float]:
    """(α_m, α_f, β, γ) [-] from the spectral radius at infinity ``rho_inf`` in [0, 1] (Xu et al. 2022, Eq. 31)."""
    if not (0.0 <= rho_inf <= 1.0):
        raise ValueError(f"rho_inf must lie in [0, 1], got {rho_inf!r}")
    alpha_m = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0)
    alpha_f = rho_inf / (rho_inf + 1.0)
    beta = 0.25 * (1.0 + alpha_f - alpha_m) ** 2
    gamma = 0.5 + alpha_f - alpha_m
    return alpha_m, alpha_f, beta, gamma


def generalized_alpha(
    osc: ClearanceOscillator,
    x0: float,
    v0: float,
    t_end: float,
    dt: float,
    *,
    rho_inf: float = 0.8,
    tol: float = 1e-12,
    max_iterations: int = 50,
) -> OscillatorResult:
    """Integrate ``osc`` from x0 [m], v0 [m/s] to ``t_end`` [s] with fixed step ``dt`` [s].

    ``rho_inf``: high-frequency spectral radius in [0, 1] (Xu et al. 2022 does not print its value; 0.8 damps
    the contact's highest frequencies a little and keeps second order). ``tol``: Newton stop on the
    acceleration increment relative to |ẍ| + |F_max|/m. ``max_iterations`` per step.
    """
    steps = _check_steps(t_end, dt)
    alpha_m, alpha_f, beta, gamma = generalized_alpha_parameters(rho_inf)
    m, c, k, d = osc.mass, osc.damping, osc.stiffness, osc.clearance
    if abs(x0) > d:
        raise ValueError(f"x0 must lie within the clearance [-{d}, {d}] m, got {x0!r}")
    t = np.arange(steps + 1) * dt
    x = np.empty(steps + 1)
    v = np.empty(steps + 1)
    acc = np.empty(steps + 1)
    memory = ContactMemory()
    x[0], v[0] = x0, v0
    acc[0] = osc.free_acceleration(0.0, x0, v0)
    a_pseudo = acc[0]  # Xu et al. 2022, Eq. 30: a_0 = ẍ_0
    # Chain rule from the unknown ẍ_{n+1} to a_{n+1}, x_{n+1}, ẋ_{n+1} (Xu et al. 2022, Eqs. 28–30).
    da = (1.0 - alpha_f) / (1.0 - alpha_m)
    dx_da, dv_da = beta * dt * dt * da, gamma * dt * da
    iterations = 0
    for n in range(steps):
        xn, vn, an, t1 = x[n], v[n], acc[n], t[n + 1]
        trial = memory.candidates(osc, t[n], xn, vn, an, dt)
        f_ext = osc.external_force(t1)
        x_base = xn + dt * vn + (0.5 - beta) * dt * dt * a_pseudo  # Xu et al. 2022, Eq. 28 without a_{n+1}
        v_base = vn + (1.0 - gamma) * dt * a_pseudo  # Xu et al. 2022, Eq. 29 without a_{n+1}
        a_shift = (alpha_f * an - alpha_m * a_pseudo) / (1.0 - alpha_m)  # Xu et al. 2022, Eq. 30 without ẍ_{n+1}
        ai = an  # predictor
        scale = abs(an) + 1.0
        for _ in range(max_iterations):
            ap = a_shift + da * ai
            xi = x_base + beta * dt * dt * ap
            vi = v_base + gamma * dt * ap
            fc, dfx, dfv = osc.contact_force(xi, vi, trial)
            residual = m * ai + c * vi + k * xi - f_ext - fc  # equation of motion at t_{n+1}
            tangent = m + (c - dfv) * dv_da + (k - dfx) * dx_da
            step = -residual / tangent
            ai += step
            iterations += 1
            scale = max(scale, abs(ai))
            if abs(step) <= tol * scale:
                break
        else:
            raise RuntimeError(f"Newton–Raphson did not converge at t = {t1:.6g} s "
                               f"in {max_iterations} iterations")
        a_pseudo = a_shift + da * ai
        x[n + 1] = x_base + beta * dt * dt * a_pseudo
        v[n + 1] = v_base + gamma * dt * a_pseudo
        acc[n + 1] = ai
        memory.commit(osc, x[n + 1], trial)
    return OscillatorResult("generalized_alpha", t, x, v, acc, iterations)
