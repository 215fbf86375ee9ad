"""The "adaptive" method: SciPy's DOP853 with event location on each smooth interval (Housner 1963; Zhang & Makris
2001).

Each rocking interval is one solve_ivp call with two terminal events: the impact θ = 0 (approached
from the current side) and overturning |θ| = overturn_angle. Grid values come from the dense output.
Rest and uplift follow solver.py; the step is capped at the output step dt so that no short pulse in
the base motion is stepped over.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

from validation.rocking.block import RockingBlock
from validation.rocking.equations import angular_acceleration
from validation.rocking.result import MotionState, RockingResult
from validation.rocking.transitions import chatter_settles, uplift_time

CHATTER_INTERVAL = 1e-12
"""An impact this soon [s] after the previous one (relative to max(1, t)) is chattering: rest."""


def _accel_on_grid(acc, t_grid: np.ndarray) -> np.ndarray:
    try:
        a = np.asarray(acc(t_grid), dtype=float)
        if a.shape == t_grid.shape:
            return a
    except (TypeError, ValueError):
        pass
    return np.array([float(acc(float(t))) for t in t_grid])


def solve_adaptive(
    block: RockingBlock,
    acc,
    n: int,
    dt: float,
    theta0: float,
    omega0: float,
    linear: bool,
    over: float,
    w_rest: float,
    rtol: float,
    atol: float,
) -> RockingResult:
    """Adaptive-step solution on the grid t = k dt, k = 0..n (arguments as in solver.solve)."""
    alpha, p, g, e = block.alpha, block.p, block.g, block.restitution
    thr = block.uplift_acceleration
    t_grid = np.arange(n + 1) * dt
    a_grid = _accel_on_grid(acc, t_grid)
    theta = np.full(n + 1, np.nan)
    omega = np.full(n + 1, np.nan)
    states = np.full(n + 1, MotionState.OVERTURNED, dtype=np.int8)
    impacts: list[float] = []
    uplifts: list[float] = []
    t_end = t_grid[-1]

    rocking = theta0 != 0.0 or omega0 != 0.0
    th, om, t = float(theta0), float(omega0), 0.0
    side = math.copysign(1.0, theta0 if theta0 != 0.0 else omega0)
    k = 0  # next grid index to fill
    overturn_time = None
    while k <= n:
        if not rocking:
            # rest: θ = 0 until |ü_g| first exceeds g tan α (checked at the grid points)
            j = k + int(np.argmax(np.abs(a_grid[k:]) > thr)) if np.any(np.abs(a_grid[k:]) > thr) else n + 1
            theta[k:j], omega[k:j], states[k:j] = 0.0, 0.0, MotionState.REST
            if j > n:
                break
            t_lo = max(t, t_grid[j - 1]) if j > 0 else 0.0
            a_lo = float(acc(t_lo))
            if abs(a_lo) > thr:
                t_u = t_lo
            else:
                t_u = uplift_time(acc, thr, t_lo, t_grid[j], a_lo, float(acc(t_grid[j])))
            side = -math.copysign(1.0, float(acc(t_u)))
            uplifts.append(t_u)
            rocking, th, om, t, k = True, 0.0, 0.0, t_u, j
            continue

        def rhs(s, y, side=side):
            return (
                y[1],
                angular_acceleration(y[0], side, float(acc(s)), p=p, alpha=alpha, g=g, linear=linear),
            )

        def impact(s, y, side=side):
            return side * y[0]

        def overturn(s, y):
            return abs(y[0]) - over

        impact.terminal, impact.direction = True, -1.0
        overturn.terminal, overturn.direction = True, 1.0
        sol = solve_ivp(
            rhs,
            (t, t_end),
            [th, om],
            method="DOP853",
            rtol=rtol,
            atol=atol,
            max_step=dt,
            events=(impact, overturn),
            dense_output=True,
        )
        t_stop = float(sol.t[-1])
        j = k + int(np.searchsorted(t_grid[k:], t_stop, side="right"))
        if j > k:
            y = sol.sol(t_grid[k:j])
            theta[k:j], omega[k:j], states[k:j] = y[0], y[1], MotionState.ROCKING
        k = j
        if sol.status == -1:
            raise RuntimeError(f"solve_ivp failed at t = {t_stop:.6g} s: {sol.message}")
        if sol.status == 0:  # reached t_end
            break
        if sol.t_events[1].size:
            overturn_time = float(sol.t_events[1][0])
            break
        t_f, om_f = float(sol.t_events[0][0]), float(sol.y_events[0][0][1])
        if t_f - t <= CHATTER_INTERVAL * max(1.0, t):
            # chattering: rest at least until the next output point (as the fixed-step solver does)
            rocking, th, om, t = False, 0.0, 0.0, float(t_grid[min(k, n)])
            continue
        impacts.append(t_f)
        th, om, side, t = 0.0, e * om_f, -side, t_f  # Qi & Zhu 2025, Eq. 23
        if abs(om) < w_rest or chatter_settles(block, linear, float(acc(t_f)), side, abs(om)):
            rocking, om = False, 0.0
    return RockingResult(t_grid, theta, omega, states, impacts, uplifts, overturn_time is not None, overturn_time)
