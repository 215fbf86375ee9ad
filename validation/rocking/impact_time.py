"""Qi & Zhu's (2025) impact-time algorithm: time transformation s = ψ(x) and one RK step to s = 0 (Qi & Zhu 2025,
§3–4).

Between impacts the state x = [θ, θ̇, t] follows dx/dt = f(x) (Qi & Zhu 2025, Eq. 25). The impact surface is the
hyperplane ψ(x) = θ = 0 (Qi & Zhu 2025, Eq. 27, 29). Once a fixed-step RK step [t_k, t_k + σ1] shows
ψ(x_k) ψ(x_{k+1}) < 0, the algorithm returns to x_k and changes the independent variable from t to
s = ±ψ(x) (Qi & Zhu 2025, Eq. 30; sign chosen so that s0 = s(t_k) < 0, Step 2 of §4.1):

    dy/ds = f(y) / Ψ(y),  Ψ = ±ψ_x f = ±θ̇,  s ∈ [s0, 0]                            (Qi & Zhu 2025, Eq. 31, 39)

One RK step of size σ2 = −s0 = |θ_k| then lands on s = 0: the θ component of dy/ds is exactly ±1
(Qi & Zhu 2025, Eq. 36–37), so θ(t_f) = 0 up to rounding, and the t component gives the impact time t_f.
The error is O(σ1^{p+1}) + O(|s0|^{q+1}) (Qi & Zhu 2025, Eq. 43).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from validation.rocking.runge_kutta import State, Tableau, rk_step

TRANSFORM_EPSILON = 0.2
"""Largest ε = 2|θ̈_k θ_k|/θ̇_k² for which the one-step transform from x_k is used. dt/ds = 1/θ̇ varies
on the scale |s| ~ θ̇²/|θ̈|, so ε/2 is the expansion parameter of the s-step and its relative error
grows like (ε/2)^{q+1} (1e-5 at ε = 0.2, q = 4). Near a turning point (larger ε, or moving away from
θ = 0 at t_k) the crossing is bracketed first instead (hermite_impact)."""


def time_transform_step(rate: Callable[[State], State], y_k: State, tab: Tableau) -> State:
    """State y(0) = x(t_f) on the impact surface θ = 0, from x_k = (θ_k, θ̇_k, t_k) (Qi & Zhu 2025, Eq. 39).

    rate: f(x) returning (θ̇, θ̈, 1); components may be arrays (one impact per record).
    """
    theta_k = y_k[0]
    # Qi & Zhu 2025, §4.1 Step 2: ψ(x_k) < 0 → s = ψ, Ψ = ψ_x f;  ψ(x_k) > 0 → s = −ψ, Ψ = −ψ_x f.
    orient = -np.sign(theta_k)

    def g(y: State) -> State:
        f = rate(y)
        big_psi = orient * f[0]  # Ψ(y) = ±ψ_x f(y) = ±θ̇ (ψ_x = d = [1, 0, 0], Qi & Zhu 2025, Eq. 29)
        return tuple(fc / big_psi for fc in f)

    sigma2 = np.abs(theta_k)  # one step from s0 = −|θ_k| to 0 (Qi & Zhu 2025, Eq. 37)
    return rk_step(g, y_k, sigma2, tab)


def transform_is_safe(theta_k: float | np.ndarray, omega_k: float | np.ndarray, thetadd_k: float | np.ndarray):
    """True where the one-step transform is accurate: moving towards θ = 0 with ε <= TRANSFORM_EPSILON.

    theta_k [rad], omega_k [rad/s], thetadd_k [rad/s²] at the start of the crossing step.
    """
    towards = theta_k * omega_k < 0.0
    return towards & (2.0 * np.abs(thetadd_k * theta_k) <= TRANSFORM_EPSILON * omega_k * omega_k)


def hermite_impact(
    rate: Callable[[State], State],
    y_k: State,
    y_k1: State,
    h: float | np.ndarray,
    tab: Tableau,
    side: float | np.ndarray,
) -> State:
    """Impact state for crossings the one-step transform cannot take (a turning point in the step, or
    a step that starts on θ = 0: a bounce after an impact or uplift that returns within the step).

    Vectorised over records; side: the side (±1) the block is on during the step. The cubic Hermite
    interpolant of θ through (θ, θ̇) at both ends of the step brackets the first crossing after the
    start (sampled at BRACKET_POINTS points, then Newton); one RK step from y_k of that length lands
    within O(h⁴) of θ = 0, and one transformed step (Qi & Zhu 2025, Eq. 39) from there puts θ on 0. Where even
    that is ill posed (grazing contact, θ̇ ≈ 0) the estimate is kept. Returns (0, θ̇(t_f), t_f).
    """
    th0, om0, t0 = (np.atleast_1d(np.asarray(c, dtype=float)) for c in y_k)
    th1, om1 = (np.atleast_1d(np.asarray(c, dtype=float)) for c in y_k1[:2])
    hh = np.broadcast_to(np.asarray(h, dtype=float), th0.shape)
    side = np.broadcast_to(np.asarray(side, dtype=float), th0.shape)

    # cubic Hermite interpolant θ(u) = c0 + c1 u + c2 u² + c3 u³ on u = (t − t_k)/h ∈ [0, 1]
    c0, c1 = th0, hh * om0
    c2 = 3.0 * (th1 - th0) - hh * (2.0 * om0 + om1)
    c3 = 2.0 * (th0 - th1) + hh * (om0 + om1)

    def cubic(u):
        return c0 + u * (c1 + u * (c2 + u * c3))

    grid = np.linspace(0.0, 1.0, BRACKET_POINTS + 1)[1:, None]  # u = 0 excluded: θ may start at 0
    crossed = side * cubic(grid) <= 0.0  # (points, records); the last point always crossed
    j = np.argmax(crossed, axis=0)
    lo, hi = j / BRACKET_POINTS, (j + 1) / BRACKET_POINTS
    f_lo, f_hi = cubic(lo), cubic(hi)
    u = np.where(f_lo != f_hi, lo + (hi - lo) * f_lo / (f_lo - f_hi), hi)  # regula falsi start
    for _ in range(NEWTON_STEPS):  # Newton on the cubic, kept inside the bracket
        d = c1 + u * (2.0 * c2 + 3.0 * u * c3)
        with np.errstate(divide="ignore", invalid="ignore"):
            u_new = u - cubic(u) / d
        u = np.where(np.isfinite(u_new) & (u_new >= lo) & (u_new <= hi), u_new, u)
    y = rk_step(rate, (th0, om0, t0), u * hh, tab)
    f = rate(y)
    ok = (y[0] != 0.0) & (f[0] * f[0] >= 4.0 * np.abs(f[1] * y[0]))  # no turning point near y
    with np.errstate(divide="ignore", invalid="ignore"):  # entries not ok are discarded below
        z = time_transform_step(rate, y, tab)
    return np.zeros_like(th0), np.where(ok, z[1], y[1]), np.where(ok, z[2], y[2])


BRACKET_POINTS = 16
"""Points at which hermite_impact samples the interpolant to bracket the first crossing."""

NEWTON_STEPS = 3
"""Newton steps on the cubic inside that bracket (from a regula-falsi start): the root of the
interpolant to far below its own O(h⁴) accuracy; the transformed step then removes the residual θ
(its error grows like that residual to the power q + 1)."""


def chatter_duration(speed, decel_here, decel_other, restitution: float):
    """Time [s] for a bounce sequence from θ = 0 to die out, under constant angular decelerations.

    The block leaves θ = 0 at |θ̇| = speed [rad/s] on a side where θ̈ pushes it back with magnitude
    decel_here [rad/s²], returns after 2 speed/decel_here at the same speed, is struck down to
    e·speed on the other side (decel_other), and so on: the durations form two geometric series,
    T = 2 speed (1/decel_here + e/decel_other) / (1 − e²) — Housner's finite-time accumulation of
    impacts. Valid while the bounces are short against 1/p and against changes of ü_g; inf if e = 1
    or a deceleration is 0. Vectorised.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        t = 2.0 * speed * (1.0 / decel_here + restitution / decel_other) / (1.0 - restitution * restitution)
    return np.where(np.isfinite(t) & (t >= 0.0), t, np.inf)
