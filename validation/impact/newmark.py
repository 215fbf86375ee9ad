"""Newmark-β with Newton–Raphson iterations for the clearance oscillator (Xu et al. 2022, §2.3 (1), Eqs. 14–27).

Each step solves the equation of motion at t_{n+1} (Xu et al. 2022, Eq. 19) for x_{n+1}, with ẋ_{n+1} and ẍ_{n+1}
expressed through the Newmark assumptions (Xu et al. 2022, Eqs. 17–18). The wall force is nonlinear, so the
residual Ψ(x_{n+1}) (Xu et al. 2022, Eq. 23) is driven to zero by Newton–Raphson with the tangent of Xu et al. 2022, Eq.
26, stopping on the relative increment of Xu et al. 2022, Eq. 27.

With γ = 1/2, β = 1/4 (average acceleration, the default) the method is unconditionally stable and
second-order accurate; other (γ, β) must satisfy Xu et al. 2022, Eq. 16.
"""

from __future__ import annotations

import math

import numpy as np

from .oscillator import ClearanceOscillator, ContactMemory, OscillatorResult

__all__ = ["newmark_newton"]


def _check_steps(t_end: float, dt: float) -> int:
    if not dt > 0.0:
        raise ValueError(f"dt must be > 0 s, got {dt!r}")
    if not t_end > 0.0:
        raise ValueError(f"t_end must be > 0 s, got {t_end!r}")
    steps = round(t_end / dt)
    if abs(steps * dt - t_end) > 1e-9 * t_end:
        raise ValueError(f"t_end / dt must be an integer, got t_end={t_end!r}, dt={dt!r}")
    return steps


def newmark_newton(
    osc: ClearanceOscillator,
    x0: float,
    v0: float,
    t_end: float,
    dt: float,
    *,
    gamma: float = 0.5,
    beta: float = 0.25,
    tol: float = 1e-12,
    max_iterations: int = 50,
) -> OscillatorResult:
    """Integrate ``osc`` from x0 [m], v0 [m/s] to ``t_end`` [s] with fixed step ``dt`` [s].

    ``gamma``, ``beta``: Newmark parameters (Xu et al. 2022, Eq. 16 requires γ ≥ 1/2, β ≥ (1/2 + γ)²/4).
    ``tol``: Newton stop on |Δx| / (|x| + d) (Xu et al. 2022, Eq. 27, with the clearance d as a floor so that
    x ≈ 0 does not stall it). ``max_iterations``: Newton iterations per step before RuntimeError.
    """
    steps = _check_steps(t_end, dt)
    if gamma < 0.5 or beta < 0.25 * (0.5 + gamma) ** 2:
        raise ValueError(
            f"gamma, beta must satisfy gamma >= 0.5 and beta >= (0.5 + gamma)^2 / 4 (003 Eq. 16), "
            f"got gamma={gamma!r}, beta={beta!r}"
        )
    m, c, k, d = osc.mass, osc.damping, osc.stiffness, osc.clearance
    t = np.arange(steps + 1) * dt
    x = np.empty(steps + 1)
    v = np.empty(steps + 1)
    a = np.empty(steps + 1)
    memory = ContactMemory()
    if abs(x0) > d:
        raise ValueError(f"x0 must lie within the clearance [-{d}, {d}] m, got {x0!r}")
    x[0], v[0], a[0] = x0, v0, osc.free_acceleration(0.0, x0, v0)
    c1 = 1.0 / (beta * dt * dt)  # ∂ẍ/∂x_{n+1}, Xu et al. 2022, Eq. 18
    c2 = gamma / (beta * dt)  # ∂ẋ/∂x_{n+1}, Xu et al. 2022, Eq. 17
    k_lin = c1 * m + c2 * c + k  # linear part of the tangent, Xu et al. 2022, Eq. 21
    iterations = 0
    for n in range(steps):
        xn, vn, an, t1 = x[n], v[n], a[n], t[n + 1]
        trial = memory.candidates(osc, t[n], xn, vn, an, dt)
        f_ext = osc.external_force(t1)
        xi = xn + dt * vn + 0.5 * dt * dt * an  # predictor: free flight to second order
        for _ in range(max_iterations):
            ai = c1 * (xi - xn) - vn / (beta * dt) - (0.5 / beta - 1.0) * an  # Xu et al. 2022, Eq. 18
            vi = vn + dt * ((1.0 - gamma) * an + gamma * ai)  # Xu et al. 2022, Eq. 14
            fc, dfx, dfv = osc.contact_force(xi, vi, trial)
            psi = m * ai + c * vi + k * xi - f_ext - fc  # Xu et al. 2022, Eq. 23
            kt = k_lin - dfx - c2 * dfv  # Xu et al. 2022, Eq. 26
            dx = -psi / kt  # Xu et al. 2022, Eq. 25
            xi += dx
            iterations += 1
            if abs(dx) <= tol * (abs(xi) + d):  # Xu et al. 2022, Eq. 27
                break
        else:
            raise RuntimeError(f"Newton–Raphson did not converge at t = {t1:.6g} s "
                               f"in {max_iterations} iterations")
        ai = c1 * (xi - xn) - vn / (beta * dt) - (0.5 / beta - 1.0) * an
        vi = vn + dt * ((1.0 - gamma) * an + gamma * ai)
        x[n + 1], v[n + 1], a[n + 1] = xi, vi, ai
        memory.commit(osc, xi, trial)
    if not math.isfinite(x[-1]):
        raise RuntimeError("Newmark integration produced non-finite values")
    return OscillatorResult("newmark_newton", t, x, v, a, iterations)
