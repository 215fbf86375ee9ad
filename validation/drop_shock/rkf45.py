"""Embedded Runge–Kutta 4(5) with Cash–Karp coefficients and step-size control (the notes, §8).

Cash & Karp, ACM TOMS 16 (1990) 201; the tableau as in Numerical Recipes §16.2. Each attempted step
takes six stages, forms the 5th- and 4th-order solutions and accepts the step when the scaled error
err = max_i |y5_i − y4_i| / s_i is ≤ tol, with s_i = max(|y_i|, |y5_i|, floor_i): a relative error
with a per-component floor so that components passing through zero do not force tiny steps. After
each attempt the step becomes

    h_new = safety · h · (tol / err)^exponent                                        (the notes, §8)

limited to [h/10, 5h] and to [h_min, h_max]. A step at h_min is accepted even if err > tol and
counted as *forced*. The 5th-order solution is propagated (local extrapolation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["CashKarpStats", "integrate_cash_karp", "cash_karp_step"]

# Cash–Karp tableau.
_C = np.array([0.0, 1.0 / 5.0, 3.0 / 10.0, 3.0 / 5.0, 1.0, 7.0 / 8.0])
_A = [
    [],
    [1.0 / 5.0],
    [3.0 / 40.0, 9.0 / 40.0],
    [3.0 / 10.0, -9.0 / 10.0, 6.0 / 5.0],
    [-11.0 / 54.0, 5.0 / 2.0, -70.0 / 27.0, 35.0 / 27.0],
    [1631.0 / 55296.0, 175.0 / 512.0, 575.0 / 13824.0, 44275.0 / 110592.0, 253.0 / 4096.0],
]
_B5 = np.array([37.0 / 378.0, 0.0, 250.0 / 621.0, 125.0 / 594.0, 0.0, 512.0 / 1771.0])
_B4 = np.array([2825.0 / 27648.0, 0.0, 18575.0 / 48384.0, 13525.0 / 55296.0, 277.0 / 14336.0, 1.0 / 4.0])


@dataclass
class CashKarpStats:
    """Counters of one integration."""

    accepted: int = 0
    """Accepted steps."""
    rejected: int = 0
    """Rejected attempts (err > tol, step retried smaller)."""
    forced: int = 0
    """Steps accepted at h_min with err > tol."""
    rhs_evaluations: int = 0
    """Right-hand-side evaluations."""


def cash_karp_step(
    f: Callable[[float, np.ndarray], np.ndarray],
    t: float,
    y: np.ndarray,
    h: float,
    k1: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One Cash–Karp step: returns (y5, y5 − y4). ``k1`` = f(t, y) may be passed to save an evaluation."""
    k = [f(t, y) if k1 is None else k1]
    for i in range(1, 6):
        yi = y + h * sum(a * kj for a, kj in zip(_A[i], k, strict=True))
        k.append(f(t + _C[i] * h, yi))
    ks = np.array(k)
    y5 = y + h * (_B5 @ ks)
    return y5, h * ((_B5 - _B4) @ ks)


def integrate_cash_karp(
    f: Callable[[float, np.ndarray], np.ndarray],
    t0: float,
    y0: np.ndarray,
    t_end: float,
    *,
    tol: float,
    floor: np.ndarray,
    h_max: float,
    h_min: float,
    h0: float | None = None,
    safety: float = 0.9,
    exponent: float = 0.2,
    post_step: Callable[[np.ndarray], np.ndarray] | None = None,
    t_out: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, CashKarpStats]:
    """Integrate y' = f(t, y) from ``t0`` to ``t_end`` [s].

    ``tol`` relative error target per step [-]; ``floor`` per-component magnitude below which the
    error is measured absolutely (same units as y); ``h_max``, ``h_min``, ``h0`` step limits and first
    step [s]; ``safety`` (0, 1) and ``exponent`` (> 0) of the step update; ``post_step`` maps an
    accepted state to the stored one (e.g. quaternion normalisation); ``t_out`` increasing times [s]
    the steps must land on — if given, only those are recorded, otherwise every accepted step is.

    Returns (t, y, err, stats): times (n,), states (n, len(y0)), err/tol of each recorded step (0 for
    the initial point and for points between outputs when ``t_out`` is given).
    """
    if not tol > 0.0:
        raise ValueError(f"tol must be > 0, got {tol!r}")
    if not (0.0 < safety < 1.0):
        raise ValueError(f"safety must lie in (0, 1), got {safety!r}")
    if not exponent > 0.0:
        raise ValueError(f"exponent must be > 0, got {exponent!r}")
    if not (0.0 < h_min <= h_max):
        raise ValueError(f"need 0 < h_min <= h_max, got h_min={h_min!r}, h_max={h_max!r}")
    if not t_end > t0:
        raise ValueError(f"t_end must be > t0, got t0={t0!r}, t_end={t_end!r}")
    stats = CashKarpStats()

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        stats.rhs_evaluations += 1
        return f(t, y)

    targets = None if t_out is None else np.asarray(t_out, dtype=float)
    if targets is not None and (np.any(np.diff(targets) <= 0) or targets[0] < t0 or targets[-1] > t_end):
        raise ValueError("t_out must be increasing and lie within [t0, t_end]")
    next_out = 0
    t, y = t0, np.array(y0, dtype=float)
    ts, ys, errs = [], [], []
    if targets is None or targets[0] == t0:
        ts.append(t), ys.append(y.copy()), errs.append(0.0)
        next_out = 1 if targets is not None else 0
    h = min(h_max, h0 if h0 is not None else h_max)
    k1 = rhs(t, y)
    while t < t_end:
        stop = t_end if targets is None or next_out >= len(targets) else targets[next_out]
        h_try = min(h, stop - t)
        landing = h_try == stop - t
        y5, delta = cash_karp_step(rhs, t, y, h_try, k1)
        scale = np.maximum(np.maximum(np.abs(y), np.abs(y5)), floor)
        err = float(np.max(np.abs(delta) / scale)) / tol
        if err > 1.0 and h_try > h_min:
            stats.rejected += 1
            h = max(h_min, h_try * max(0.1, safety * err ** (-exponent)))
            continue
        if err > 1.0:
            stats.forced += 1
        stats.accepted += 1
        t = stop if landing else t + h_try
        y = post_step(y5) if post_step is not None else y5
        k1 = rhs(t, y)
        if targets is None:
            ts.append(t), ys.append(y.copy()), errs.append(err)
        elif landing and next_out < len(targets):
            ts.append(t), ys.append(y.copy()), errs.append(err)
            next_out += 1
        grow = 5.0 if err == 0.0 else min(5.0, safety * err ** (-exponent))
        proposal = h_try * grow
        if h_try < h:  # shortened only to land on a stop: keep h unless even this step was too large
            proposal = min(h, proposal)
        h = min(h_max, max(h_min, proposal))
    return np.array(ts), np.array(ys), np.array(errs), stats
