"""Slip of a rigid block (no rocking) on a base driven by any sampled acceleration history, step by step.

Same model as `closed_form`: stick while |a_g| ≤ μ g; slide with ü = −a_g − μ g sign(u̇) (u [m] relative to
the base); stop when u̇ = 0, then stick, or slide back at once if |a_g| > μ g still. a_g(t) [m/s²] is the
linear interpolation of the samples, and 0 after the last one (the base then moves at constant velocity).
A stick phase ends at the exact crossing |a_g| = μ g of the interpolant; a slide phase is integrated by
SciPy's `solve_ivp` (DOP853, rtol RTOL) with a terminal event at u̇ = 0, located by root finding on the
dense output (Hairer, Nørsett & Wanner 1993, *Solving Ordinary Differential Equations I*, 2nd ed., Ch. II:
the Dormand–Prince 8(5,3) pair and its dense output), not at a grid point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from validation.sliding.closed_form import STANDARD_GRAVITY

RTOL = 1e-11
"""solve_ivp's relative tolerance [-] in slide phases (absolute: ATOL [m, m/s])."""
ATOL = 1e-13


@dataclass(frozen=True)
class SlipHistory:
    """t [s], u [m], u̇ [m/s] at the solver's steps and the phase ends, shape (k,), t non-decreasing;
    slides: (start, stop) [s] of each slide phase (stop = the run's end if it was still sliding)."""

    t: np.ndarray
    u: np.ndarray
    v: np.ndarray
    slides: tuple[tuple[float, float], ...]

    @property
    def slip(self) -> float:
        """u [m] at the end of the run."""
        return float(self.u[-1])


def _first_exceedance(t: np.ndarray, a: np.ndarray, limit: float, t_from: float) -> tuple[float, float] | None:
    """First time ≥ t_from [s] with |a| > limit [m/s²] on the linear interpolant, and the sign of a there."""
    i0 = max(int(np.searchsorted(t, t_from, side="right")) - 1, 0)
    for i in range(i0, len(t) - 1):
        ta, tb, aa, ab = t[i], t[i + 1], a[i], a[i + 1]
        lo = max(ta, t_from)
        a_lo = aa + (ab - aa) * (lo - ta) / (tb - ta)
        if abs(a_lo) > limit:
            return lo, math.copysign(1.0, a_lo)
        if abs(ab) > limit:  # |a| ≤ limit at lo, > limit at tb: it crosses ±limit in between
            level = math.copysign(limit, ab)
            return lo + (level - a_lo) / (ab - a_lo) * (tb - lo), math.copysign(1.0, ab)
    return None


def slip_history(t: np.ndarray, a_g: np.ndarray, mu: float, *, g: float = STANDARD_GRAVITY,
                 t_end: float | None = None) -> SlipHistory:
    """Relative slip u(t) [m] of a block with friction μ [-] on a base with acceleration samples a_g [m/s²] at t [s].

    t must increase strictly. The run ends at t_end [s]; by default at the last sample, or, if the block is
    still sliding then, when it stops.
    """
    t = np.asarray(t, dtype=float)
    a = np.asarray(a_g, dtype=float)
    if t.ndim != 1 or t.shape != a.shape or len(t) < 2 or not np.all(np.diff(t) > 0.0):
        raise ValueError("t and a_g must be 1-D of equal length >= 2, t strictly increasing")
    if not (math.isfinite(mu) and mu > 0.0):
        raise ValueError(f"mu must be finite and > 0, got {mu!r}")
    mug = mu * g
    # Without t_end, integrate past the samples until the block stops: it is slower than ∫|a_g| dt then,
    # and decelerates at μg, so this horizon is never reached.
    end = float(t_end) if t_end is not None else math.inf
    horizon = min(end, t[-1] + 1.01 * np.abs(a).max() * (t[-1] - t[0]) / mug + (t[-1] - t[0]))
    max_step = 4.0 * float(np.median(np.diff(t)))  # no step strides over a feature of the samples

    def rhs(time: float, y: np.ndarray, d: float) -> list[float]:
        return [y[1], -float(np.interp(time, t, a, right=0.0)) - mug * d]

    ts, us, vs, slides = [t[0]], [0.0], [0.0], []
    now, u = float(t[0]), 0.0
    while (hit := _first_exceedance(t, a, mug, now)) is not None and hit[0] < horizon:
        start, sign_a = hit
        d = -sign_a  # the block lags the base

        def stopped(time: float, y: np.ndarray, d: float) -> float:
            return y[1]

        stopped.terminal = True
        stopped.direction = -d  # u̇ comes back to 0 from the side of d; u̇ = 0 at the start does not count
        sol = solve_ivp(rhs, (start, horizon), [u, 0.0], method="DOP853", rtol=RTOL, atol=ATOL, events=stopped,
                        args=(d,), max_step=max_step)
        ts += sol.t.tolist()
        us += sol.y[0].tolist()
        vs += sol.y[1].tolist()
        if not sol.t_events[0].size:  # still sliding at t_end
            slides.append((start, float(sol.t[-1])))
            now, u = float(sol.t[-1]), float(sol.y[0, -1])
            break
        # A terminal event ends the solution at the event: its last point is the stop.
        now, u = float(sol.t_events[0][0]), float(sol.y_events[0][0][0])
        vs[-1] = 0.0
        slides.append((start, now))
    last = max(now, float(t[-1])) if t_end is None else end
    if last > ts[-1]:
        ts.append(last)
        us.append(u)
        vs.append(vs[-1])
    return SlipHistory(np.asarray(ts), np.asarray(us), np.asarray(vs), tuple(slides))
