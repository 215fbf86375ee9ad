"""Rigid block on a moving base, step by step: rest → uplift → rocking with impacts → rest or overturning.

Between impacts: Qi & Zhu 2025, Eq. 22 / 25 on one side (equations.py). At θ = 0: θ̇⁺ = e θ̇⁻ and the pivot moves
to the other corner (Qi & Zhu 2025, Eq. 23). From rest the block uplifts when |ü_g| > g tan α (Housner 1963),
towards θ > 0 for ü_g < 0. Methods (keyword `method`):

- "time_transform": Qi & Zhu 2025, §4.1. Fixed-step RK (order `order`, step dt = σ1) on the smooth intervals; the
  impact time comes from one RK step in s = ±ψ(x) to s = 0 (impact_time.py); after the impact a partial
  step rejoins the output grid.
- "rk2", "rk3", "rk4": Qi & Zhu's (2025) comparison methods, fixed-step RK with the impact applied at the end of the
  step in which θ changed sign (impact time known only to within the step, an O(dt) error).
- "adaptive": SciPy solve_ivp with event location (adaptive.py).

Bounces inside one step: a bounce from θ = 0 that comes back within the step is resolved, the next
impact located from θ = 0 by impact_time.hermite_impact, and the block rocks on. If ü_g pushes back
on both sides the block is chattering: once the rest of the bounce sequence fits in the step or in
CHATTER_WINDOW/p (impact_time.chatter_duration, Housner's finite-time accumulation of impacts) it is
put to rest for the rest of the step; so it is too once a post-impact |θ̇| falls below rest_omega (or after
MAX_BOUNCES_PER_STEP impacts in one step).
Overturning: |θ| reaching overturn_angle (default π/2: the block lies on its side; past α a strong
enough base pulse could still bring it back, so |θ| > α alone is not final).
"""

from __future__ import annotations

import math

import numpy as np

from validation.rocking._checks import choice, finite, in_range, positive
from validation.rocking.adaptive import solve_adaptive
from validation.rocking.block import RockingBlock
from validation.rocking.equations import angular_acceleration
from validation.rocking.impact_time import (
    chatter_duration,
    hermite_impact,
    time_transform_step,
    transform_is_safe,
)
from validation.rocking.result import MotionState, RockingResult
from validation.rocking.runge_kutta import TABLEAUS, rk_step
from validation.rocking.signals import AccelLike, as_acceleration
from validation.rocking.transitions import CHATTER_WINDOW, chatter_settles, uplift_time

METHODS = ("time_transform", "rk2", "rk3", "rk4", "adaptive")
"""Values of `method`."""

REST_OMEGA_FRACTION = 1e-6
"""Default rest_omega as a fraction of p α [rad/s]: after such an impact the next swing would reach
about (1e-6)²/2 α, far below any resolution of interest."""

ROUNDING_ANGLE = 1e-15
"""A step must take θ this far [rad] past 0 to count as a crossing. Right after uplift θ̈ = 0 (|ü_g| =
g tan α exactly), and a low-order first step can leave θ at ±1e-21 rad with the sign of a rounding
error; that is not an impact."""

MAX_BOUNCES_PER_STEP = 200
"""Guard against an endless impact sequence inside one step (e ≈ 1 with a vanishing bounce time);
with e <= 0.95 and rest_omega's default, 1e6-fold velocity decay takes < 300 impacts overall."""

DEFAULT_DT = 1e-3
"""Default output/integration step [s] when the base acceleration is not given as samples."""


def check_common(
    t_end: float, theta0: float, omega0: float, overturn_angle: float | None
) -> tuple[float, float, float, float]:
    """Validate shared inputs; return (t_end, theta0, omega0, overturn_angle)."""
    t_end = positive("t_end", t_end)
    over = 0.5 * math.pi if overturn_angle is None else in_range("overturn_angle", overturn_angle, 1e-9, math.pi)
    th0 = finite("theta0", theta0)
    if abs(th0) >= over:
        raise ValueError(f"theta0 must satisfy |theta0| < overturn_angle = {over:.6g} rad, got {theta0!r}")
    return t_end, th0, finite("omega0", omega0), over


def solve(
    block: RockingBlock,
    accel: AccelLike,
    t_end: float,
    *,
    linear: bool = False,
    method: str = "time_transform",
    dt: float | None = None,
    accel_dt: float | None = None,
    theta0: float = 0.0,
    omega0: float = 0.0,
    order: int = 4,
    overturn_angle: float | None = None,
    rest_omega: float | None = None,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    vertical: AccelLike = None,
) -> RockingResult:
    """Rocking response of `block` to base acceleration `accel` over [0, t_end] [s].

    vertical: the base's vertical acceleration ü_v [m/s², + up], as `accel` (None: none); the fixed-step
    methods only. Gravity as the block feels it is g + ü_v (equations.py): it sets the uplift threshold
    (g + ü_v) tan α and the restoring moment; g + ü_v must stay > 0 (the base never falls away faster than g).

    dt [s]: output step, and the integration step σ1 of the fixed-step methods (default accel_dt for
    sampled input, else 1e-3). accel_dt [s]: sample interval when accel is an array. theta0 [rad],
    omega0 [rad/s]: initial state (both 0: at rest). order: RK order of "time_transform" (2, 3, 4).
    rest_omega [rad/s]: post-impact |θ̇| below which the block is put to rest. rtol, atol: tolerances
    of "adaptive". See the module docstring for the methods.
    """
    choice("method", method, METHODS)
    if order not in TABLEAUS:
        raise ValueError(f"order must be one of {tuple(TABLEAUS)}, got {order!r}")
    t_end, theta0, omega0, over = check_common(t_end, theta0, omega0, overturn_angle)
    if dt is None:
        dt = accel_dt if (accel_dt is not None and np.ndim(accel) == 1) else DEFAULT_DT
    dt = positive("dt", dt)
    n = max(1, int(round(t_end / dt)))
    acc = as_acceleration(accel, accel_dt=accel_dt)
    vacc = None if vertical is None else as_acceleration(vertical, accel_dt=accel_dt)
    w_rest = REST_OMEGA_FRACTION * block.p * block.alpha if rest_omega is None else rest_omega
    if method == "adaptive":
        if vacc is not None:
            raise ValueError("vertical= needs a fixed-step method (time_transform, rk2, rk3, rk4), not adaptive")
        return solve_adaptive(block, acc, n, dt, theta0, omega0, linear, over, w_rest, rtol, atol)
    tab = TABLEAUS[order] if method == "time_transform" else TABLEAUS[int(method[2])]
    return _solve_fixed(block, acc, n, dt, theta0, omega0, linear, over, w_rest, tab, method != "time_transform",
                        vacc)


def _solve_fixed(block, acc_h, n, dt, theta0, omega0, linear, over, w_rest, tab, naive, vacc=None) -> RockingResult:
    """Fixed-step driver shared by "time_transform" (naive=False) and "rk2/3/4" (naive=True). With a vertical
    base acceleration `vacc`, the uplift and chatter tests read ü_g g/(g + ü_v) (|ü_g| > (g + ü_v) tan α is
    uplift) and the rate the full equation."""
    alpha, p, g, e = block.alpha, block.p, block.g, block.restitution
    thr = block.uplift_acceleration

    def vert(t):
        if vacc is None:
            return 0.0
        v = float(vacc(t))
        if not g + v > 0.0:
            raise ValueError(f"the base falls faster than g at t = {float(t):.6g} s (ü_v = {v:.6g} m/s²): the block "
                             "leaves it, which this model does not follow")
        return v

    def acc(t):  # the horizontal acceleration as the tests of uplift and chatter read it
        return acc_h(t) if vacc is None else float(acc_h(t)) * g / (g + vert(t))
    t_grid = np.arange(n + 1) * dt
    theta = np.full(n + 1, np.nan)
    omega = np.full(n + 1, np.nan)
    states = np.full(n + 1, MotionState.OVERTURNED, dtype=np.int8)
    impacts: list[float] = []
    uplifts: list[float] = []

    def rate_on(side: float):
        def rate(y):
            th, om, t = y
            return (om, angular_acceleration(th, side, acc_h(t), p=p, alpha=alpha, g=g, linear=linear,
                                             vertical=vert(t)), 1.0)

        return rate

    rocking = theta0 != 0.0 or omega0 != 0.0
    th, om = float(theta0), float(omega0)
    side = math.copysign(1.0, theta0 if theta0 != 0.0 else omega0)
    theta[0], omega[0] = th, om
    states[0] = MotionState.ROCKING if rocking else MotionState.REST
    overturn_time = None

    for k in range(n):
        t, t1 = k * dt, (k + 1) * dt
        rest_until_t1 = False
        bounces = 0  # impacts inside this step
        while True:
            if not rocking:
                if rest_until_t1:
                    break
                a0, a1 = float(acc(t)), float(acc(t1))
                if abs(a0) > thr:
                    t_u = t
                elif abs(a1) > thr:  # uplift (Housner 1963): locate |ü_g| = g tan α inside the step
                    t_u = uplift_time(acc, thr, t, t1, a0, a1)
                else:
                    break
                side = -math.copysign(1.0, float(acc(t_u)))  # ü_g < 0 lifts onto θ > 0
                uplifts.append(t_u)
                rocking, th, om, t = True, 0.0, 0.0, t_u
                continue
            h = dt if t == k * dt else t1 - t  # the fixed step, or the rest of it after an event
            if h <= 1e-15 * max(1.0, t1):
                break
            rate = rate_on(side)
            th1, om1, _ = rk_step(rate, (th, om, t), h, tab)
            if abs(th1) >= over:  # overturning, time by linear interpolation of |θ| over the step
                overturn_time = t + h * (over - abs(th)) / (abs(th1) - abs(th))
                break
            if side * th1 > -ROUNDING_ANGLE:
                th, om, t = float(th1), float(om1), t1
                break
            if naive:  # impact applied at the end of the step, θ already on the other side
                impacts.append(t1)
                th, om, side, t = float(th1), e * float(om1), -side, t1
                if abs(om) < w_rest:
                    rocking, th, om = False, 0.0, 0.0
                break
            a_t = float(acc(t))
            if th == 0.0 and not (side * a_t > thr or side * float(acc(t1)) > thr):
                # a bounce from θ = 0 back within the step while ü_g pushes back on both sides:
                # chattering. If its impacts accumulate before t1 (Housner 1963) → rest.
                g_here = abs(angular_acceleration(0.0, side, a_t, p=p, alpha=alpha, g=g, linear=linear))
                g_other = abs(angular_acceleration(0.0, -side, a_t, p=p, alpha=alpha, g=g, linear=linear))
                if float(chatter_duration(abs(om), g_here, g_other, e)) <= max(t1 - t, CHATTER_WINDOW / p):
                    rocking, om, rest_until_t1 = False, 0.0, True
                    continue
            thdd = angular_acceleration(th, side, acc_h(t), p=p, alpha=alpha, g=g, linear=linear, vertical=vert(t))
            if th != 0.0 and transform_is_safe(th, om, thdd):
                _, om_f, t_f = time_transform_step(rate, (th, om, t), tab)
            else:  # turning point inside the step, or a bounce from θ = 0: bracket the crossing first
                _, om_f, t_f = hermite_impact(_vector_rate(rate), (th, om, t), (th1, om1), h, tab, side)
                om_f, t_f = float(om_f[0]), float(t_f[0])
            t_f = min(max(float(t_f), t), t1)
            impacts.append(t_f)
            bounces += 1
            th, om, side, t = 0.0, e * float(om_f), -side, t_f  # Qi & Zhu 2025, Eq. 23, pivot changes
            if (
                abs(om) < w_rest
                or bounces > MAX_BOUNCES_PER_STEP
                or chatter_settles(block, linear, float(acc(t_f)), side, abs(om))
            ):  # chattering → rest
                rocking, om, rest_until_t1 = False, 0.0, True
        if overturn_time is not None:
            break
        theta[k + 1], omega[k + 1] = th, om
        states[k + 1] = MotionState.ROCKING if rocking else MotionState.REST

    return RockingResult(t_grid, theta, omega, states, impacts, uplifts, overturn_time is not None, overturn_time)


def _vector_rate(rate):
    """Adapt a scalar rate (floats) to hermite_impact's one-element arrays."""

    def f(y):
        return tuple(np.array([float(c)]) for c in rate(tuple(float(np.ravel(c)[0]) for c in y)))

    return f
