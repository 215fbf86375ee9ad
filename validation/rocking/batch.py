"""Batched rocking solver: thousands of sampled base-acceleration records at once, vectorised NumPy.

Same model and methods as solver.py ("time_transform" of Qi & Zhu 2025, §4.1, or the fixed-step "rk2/3/4" with
the impact at the step end), with one array entry per record. Records are linearly interpolated between
samples, as SampledRecord does, and the integration step h = dt/substeps never straddles a sample, so
every method integrates the same piecewise-smooth forcing. Events (impacts, uplift, overturning) are
handled on the subset of records they concern, still vectorised; the arithmetic is that of solver.py
step for step, so a batch run reproduces the scalar runs of the same records bitwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from validation.rocking._checks import choice, positive
from validation.rocking.block import RockingBlock
from validation.rocking.closed_form import STANDARD_GRAVITY
from validation.rocking.equations import angular_acceleration
from validation.rocking.impact_time import (
    chatter_duration,
    hermite_impact,
    time_transform_step,
    transform_is_safe,
)
from validation.rocking.result import MotionState
from validation.rocking.runge_kutta import TABLEAUS, rk_step
from validation.rocking.solver import (
    MAX_BOUNCES_PER_STEP,
    REST_OMEGA_FRACTION,
    ROUNDING_ANGLE,
    check_common,
)
from validation.rocking.transitions import CHATTER_WINDOW, chatter_settles

_REST, _ROCKING, _OVERTURNED = int(MotionState.REST), int(MotionState.ROCKING), int(MotionState.OVERTURNED)

BATCH_METHODS = ("time_transform", "rk2", "rk3", "rk4")
"""Values of `method` for the batched solver."""


@dataclass
class BatchResult:
    """Responses of a batch of records (R records, n output samples every dt from t = 0).

    t: output times [s], shape (n,). theta: rocking angle [rad], shape (R, n), NaN after overturning.
    omega: angular velocity [rad/s], shape (R, n). states: MotionState codes, shape (R, n), int8.
    overturned: shape (R,). overturn_time [s]: shape (R,), NaN if not overturned.
    impact_count: impacts per record, shape (R,). uplift_time [s]: first uplift, NaN if never.
    """

    t: np.ndarray
    theta: np.ndarray
    omega: np.ndarray
    states: np.ndarray
    overturned: np.ndarray
    overturn_time: np.ndarray
    impact_count: np.ndarray
    uplift_time: np.ndarray


def base_excited_batch(
    width: float,
    height: float,
    accels: np.ndarray,
    dt: float,
    t_end: float,
    *,
    restitution: float | None = None,
    linear: bool = False,
    method: str = "time_transform",
    order: int = 4,
    substeps: int = 1,
    g: float = STANDARD_GRAVITY,
    overturn_angle: float | None = None,
    rest_omega: float | None = None,
) -> BatchResult:
    """Rocking of a width × height [m] block under each row of `accels` [m/s²] sampled every dt [s].

    accels: shape (records, samples); a record shorter than t_end is followed by zeros (free rocking).
    Output every dt up to t_end [s]; integration step dt/substeps. restitution None: Housner's.
    method: "time_transform" (order 2, 3 or 4) or "rk2"/"rk3"/"rk4". All blocks start at rest.
    """
    block = RockingBlock.rectangle(width, height, restitution=restitution, g=g)
    return solve_batch(
        block, accels, dt, t_end, linear=linear, method=method, order=order, substeps=substeps,
        overturn_angle=overturn_angle, rest_omega=rest_omega,
    )  # fmt: skip


def solve_batch(
    block: RockingBlock,
    accels: np.ndarray,
    dt: float,
    t_end: float,
    *,
    linear: bool = False,
    method: str = "time_transform",
    order: int = 4,
    substeps: int = 1,
    overturn_angle: float | None = None,
    rest_omega: float | None = None,
) -> BatchResult:
    """Batched solution for a given RockingBlock (arguments as in base_excited_batch)."""
    choice("method", method, BATCH_METHODS)
    if order not in TABLEAUS:
        raise ValueError(f"order must be one of {tuple(TABLEAUS)}, got {order!r}")
    if int(substeps) != substeps or substeps < 1:
        raise ValueError(f"substeps must be an integer >= 1, got {substeps!r}")
    dt = positive("dt", dt)
    t_end, _, _, over = check_common(t_end, 0.0, 0.0, overturn_angle)
    acc_in = np.asarray(accels, dtype=float)
    if acc_in.ndim == 1:
        acc_in = acc_in[None, :]
    if acc_in.ndim != 2 or acc_in.shape[1] < 1 or not np.all(np.isfinite(acc_in)):
        raise ValueError("accels must be a finite array of shape (records, samples) [m/s²]")
    n_out = max(2, int(round(t_end / dt)) + 1)
    n_rec = acc_in.shape[0]
    acc = np.zeros((n_rec, max(acc_in.shape[1], n_out) + 1))
    acc[:, : acc_in.shape[1]] = acc_in
    return _march(block, acc, dt, n_out, int(substeps), linear, method, TABLEAUS[order], over, rest_omega)


def _march(block, acc, dt, n_out, m, linear, method, tab, over, rest_omega) -> BatchResult:
    """March all records through n_out − 1 sample intervals of m steps each."""
    return _BatchMarch(block, acc, dt, m, linear, method, tab, over, rest_omega).run(n_out)


class _BatchMarch:
    """State of all records (struct of arrays) and the per-step event handling."""

    def __init__(self, block, acc, dt, m, linear, method, tab, over, rest_omega):
        self.block = block
        self.alpha, self.p, self.g, self.e = block.alpha, block.p, block.g, block.restitution
        self.thr = block.uplift_acceleration
        self.linear, self.over = linear, over
        self.naive = method != "time_transform"
        self.tab = TABLEAUS[int(method[2])] if self.naive else tab
        self.w_rest = REST_OMEGA_FRACTION * self.p * self.alpha if rest_omega is None else rest_omega
        self.acc_t = np.ascontiguousarray(acc.T)  # (samples, records): one contiguous row per time
        self.acc_flat = self.acc_t.ravel()
        # The interpolant can exceed g tan α inside an interval only if a sample at its ends does.
        self.hot_t = np.abs(self.acc_t) > self.thr
        self.dt, self.m, self.h = dt, m, dt / m
        n_rec = acc.shape[0]
        self.th = np.zeros(n_rec)  # θ [rad]
        self.om = np.zeros(n_rec)  # θ̇ [rad/s]
        self.side = np.ones(n_rec)  # pivot corner, sgn θ between impacts
        self.mode = np.zeros(n_rec, dtype=np.int8)  # MotionState codes
        self.over_t = np.full(n_rec, np.nan)
        self.up_t = np.full(n_rec, np.nan)
        self.n_imp = np.zeros(n_rec, dtype=np.int64)

    def accel(self, rows, t):
        """Base acceleration [m/s²] of records `rows` (None: all) at times t [s], scalar or per record.

        The same arithmetic as SampledRecord.acceleration, so that batch and scalar runs agree to
        rounding; stages that overshoot the sample interval read the next one, as a callable would.
        """
        n = self.acc_t.shape[0]
        if np.ndim(t) == 0:
            x = t / self.dt
            i = min(int(x), n - 2)
            f = x - i
            lo, hi = self.acc_t[i], self.acc_t[i + 1]
            if rows is not None:
                lo, hi = lo[rows], hi[rows]
            return lo * (1.0 - f) + hi * f
        x = t / self.dt
        i = np.minimum(x.astype(np.int64), n - 2)
        f = x - i
        flat = i * self.acc_t.shape[1] + rows  # index into the (samples, records) array, row-major
        return self.acc_flat[flat] * (1.0 - f) + self.acc_flat[flat + self.acc_t.shape[1]] * f

    def rate(self, sd, rows):
        """f(x) = (θ̇, θ̈, 1) of Qi & Zhu 2025, Eq. 25 for records `rows` (None: all) on sides sd."""
        p, alpha, g, linear = self.p, self.alpha, self.g, self.linear

        def f(y):
            a = self.accel(rows, y[2])
            return (y[1], angular_acceleration(y[0], sd, a, p=p, alpha=alpha, g=g, linear=linear), 1.0)

        return f

    def main_step(self, t0: float, r: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """rk_step of size h for records r (None: all), written out for speed (the hot loop).

        Same operations in the same order as rk_step with rate(side, r), so the results agree
        bitwise; ü_g/g is evaluated once per distinct stage time.
        """
        tab, h, p, g = self.tab, self.h, self.p, self.g
        if r is None:
            th, om, sa = self.th, self.om, self.side * self.alpha
        else:
            th, om, sa = self.th[r], self.om[r], self.side[r] * self.alpha
        a_over_g: dict[float, np.ndarray] = {}
        k_th: list[np.ndarray] = []
        k_om: list[np.ndarray] = []
        for a_i in tab.a:
            thi, omi, ti = th, om, t0
            for j, aij in enumerate(a_i):
                if aij != 0.0:
                    thi = thi + (h * aij) * k_th[j]
                    omi = omi + (h * aij) * k_om[j]
                    ti = ti + (h * aij) * 1.0
            if ti not in a_over_g:
                a_over_g[ti] = self.accel(r, ti) / g
            phi = sa - thi
            k_th.append(omi)
            if self.linear:
                k_om.append(-p * p * (phi + a_over_g[ti]))  # Qi & Zhu 2025, §3, linearised
            else:
                k_om.append(-p * p * (np.sin(phi) + a_over_g[ti] * np.cos(phi)))  # Qi & Zhu 2025, Eq. 22
        th1, om1 = th, om
        for bi, kt, ko in zip(tab.b, k_th, k_om, strict=True):
            if bi != 0.0:
                th1 = th1 + (h * bi) * kt
                om1 = om1 + (h * bi) * ko
        return th1, om1

    def run(self, n_out: int) -> BatchResult:
        n_rec, m, h = self.acc_t.shape[1], self.m, self.h
        theta = np.empty((n_rec, n_out))
        omega = np.empty((n_rec, n_out))
        states = np.empty((n_rec, n_out), dtype=np.int8)
        theta[:, 0], omega[:, 0], states[:, 0] = 0.0, 0.0, _REST
        for k in range((n_out - 1) * m):
            t0, t1 = k * h, (k + 1) * h
            rested = self.step_rocking(t0, t1)
            i = min(k // m, self.hot_t.shape[0] - 2)  # sample interval of this step (exact, unlike t0/dt)
            hot = self.hot_t[i] | self.hot_t[i + 1]
            rest = (self.mode == _REST) & ~rested & hot
            if rest.any():
                self.uplift(np.flatnonzero(rest), t0, t1)
            if (k + 1) % m == 0:
                j = (k + 1) // m
                gone = self.mode == _OVERTURNED
                theta[:, j] = np.where(gone, np.nan, self.th)
                omega[:, j] = np.where(gone, np.nan, self.om)
                states[:, j] = self.mode
        return BatchResult(
            np.arange(n_out) * self.dt, theta, omega, states, np.isfinite(self.over_t), self.over_t,
            self.n_imp, self.up_t,
        )  # fmt: skip

    def step_rocking(self, t0: float, t1: float) -> np.ndarray:
        """Advance rocking records over [t0, t1]; return the mask of records put to rest in it."""
        th, om, side, mode, h = self.th, self.om, self.side, self.mode, self.h
        rested = np.zeros(th.shape, dtype=bool)
        r = np.flatnonzero(mode == _ROCKING)
        if r.size == 0:
            return rested
        th1, om1 = self.main_step(t0, None if r.size == th.size else r)
        a_th1 = np.abs(th1)
        over_now = a_th1 >= self.over
        cross = ~over_now & (side[r] * th1 <= -ROUNDING_ANGLE)
        smooth = ~(over_now | cross)
        if over_now.any():  # overturning time by linear interpolation of |θ| over the step
            o = r[over_now]
            a_th = np.abs(th[o])
            self.over_t[o] = t0 + h * (self.over - a_th) / (a_th1[over_now] - a_th)
            mode[o] = _OVERTURNED
        if cross.any():
            c = r[cross]
            if self.naive:  # impact at the step end, θ already on the other side (Qi & Zhu 2025, Table 2 RK)
                th[c], om[c], side[c] = th1[cross], self.e * om1[cross], -side[c]
                self.n_imp[c] += 1
                low = c[np.abs(om[c]) < self.w_rest]
                th[low], om[low], mode[low], rested[low] = 0.0, 0.0, _REST, True
            else:
                self.impacts(c, th1[cross], om1[cross], t0, t1, rested)
        s = r[smooth]
        th[s], om[s] = th1[smooth], om1[smooth]
        return rested

    def impacts(self, c, th1, om1, t0: float, t1: float, rested: np.ndarray) -> None:
        """Qi & Zhu 2025, §4.1 Steps 2–4 for the records c whose θ changed sign in [t0, t1], then every further
        impact inside the step (bounces from θ = 0 that return before t1), as in solver.py."""
        th, om, side, mode = self.th, self.om, self.side, self.mode
        fresh = th[c] == 0.0  # the step started on θ = 0 (after an impact or uplift)
        if fresh.any():
            chatter = fresh & self.chatter_ends(c, side[c], om[c], np.full(c.size, t0), t1)
            q = c[chatter]
            th[q], om[q], mode[q], rested[q] = 0.0, 0.0, _REST, True
            keep = ~chatter
            c, th1, om1 = c[keep], th1[keep], om1[keep]
            if c.size == 0:
                return
        sd = side[c]
        y_k = (th[c], om[c], np.full(c.size, t0))
        safe = (y_k[0] != 0.0) & transform_is_safe(y_k[0], y_k[1], self.rate(sd, c)(y_k)[1])
        t_f = np.empty(c.size)
        om_f = np.empty(c.size)
        if safe.any():
            s = np.flatnonzero(safe)
            z = time_transform_step(self.rate(sd[s], c[s]), tuple(x[s] for x in y_k), self.tab)
            om_f[s], t_f[s] = z[1], z[2]
        if not safe.all():  # turning point inside the step, or a bounce from θ = 0
            u = np.flatnonzero(~safe)
            z = hermite_impact(
                self.rate(sd[u], c[u]), tuple(x[u] for x in y_k), (th1[u], om1[u]), self.h, self.tab, sd[u]
            )
            om_f[u], t_f[u] = z[1], z[2]
        t_start = y_k[2]
        for bounce in range(1, MAX_BOUNCES_PER_STEP + 2):
            t_f = np.clip(t_f, t_start, t1)
            self.n_imp[c] += 1
            sd = -sd
            om_new = self.e * om_f  # Qi & Zhu 2025, Eq. 23
            low = (np.abs(om_new) < self.w_rest) | chatter_settles(
                self.block, self.linear, self.accel(c, t_f), sd, np.abs(om_new)
            )
            if bounce > MAX_BOUNCES_PER_STEP:
                low[:] = True
            if low.any():  # chattering → rest for the rest of the step
                q = c[low]
                side[q], th[q], om[q], mode[q], rested[q] = sd[low], 0.0, 0.0, _REST, True
                keep = ~low
                c, sd, om_new, t_f = c[keep], sd[keep], om_new[keep], t_f[keep]
                if c.size == 0:
                    return
            # rejoin the grid: partial step from (0, θ̇⁺, t_f) to t1 on the new side
            rate = self.rate(sd, c)
            y = rk_step(rate, (np.zeros(c.size), om_new, t_f), t1 - t_f, self.tab)
            back = sd * y[0] <= -ROUNDING_ANGLE  # bounced back inside the step: another impact
            done = ~back
            q = c[done]
            side[q], th[q], om[q] = sd[done], y[0][done], y[1][done]
            if not back.any():
                return
            c, sd, t_start, y_end, om_new = c[back], sd[back], t_f[back], (y[0][back], y[1][back]), om_new[back]
            chatter = self.chatter_ends(c, sd, om_new, t_start, t1)  # solver.py
            if chatter.any():
                q = c[chatter]
                side[q], th[q], om[q], mode[q], rested[q] = sd[chatter], 0.0, 0.0, _REST, True
                keep = ~chatter
                c, sd, t_start, om_new = c[keep], sd[keep], t_start[keep], om_new[keep]
                y_end = (y_end[0][keep], y_end[1][keep])
                if c.size == 0:
                    return
            y_b = (np.zeros(c.size), om_new, t_start)
            z = hermite_impact(self.rate(sd, c), y_b, y_end, t1 - t_start, self.tab, sd)
            om_f, t_f = z[1], z[2]

    def chatter_ends(self, c: np.ndarray, sd: np.ndarray, om0: np.ndarray, ta: np.ndarray, tb: float):
        """Records c bouncing from θ = 0 at ta [s] on sides sd with θ̇ om0 [rad/s], pushed back on both
        sides, whose impacts accumulate before tb [s] or within CHATTER_WINDOW/p (solver.py)."""
        a_t = self.accel(c, ta)
        lifts = (sd * a_t > self.thr) | (sd * self.accel(c, tb) > self.thr)
        kw = {"p": self.p, "alpha": self.alpha, "g": self.g, "linear": self.linear}
        g_here = np.abs(angular_acceleration(0.0, sd, a_t, **kw))
        g_other = np.abs(angular_acceleration(0.0, -sd, a_t, **kw))
        window = np.maximum(tb - ta, CHATTER_WINDOW / self.p)
        return ~lifts & (chatter_duration(np.abs(om0), g_here, g_other, self.e) <= window)

    def uplift(self, r: np.ndarray, t0: float, t1: float) -> None:
        """Records r at rest: uplift where |ü_g| exceeds g tan α in [t0, t1] (Housner 1963)."""
        thr = self.thr
        a0 = self.accel(r, t0)
        a1 = self.accel(r, t1)
        now = np.abs(a0) > thr
        later = ~now & (np.abs(a1) > thr)
        go = now | later
        if not go.any():
            return
        r, a0, a1, now, later = r[go], a0[go], a1[go], now[go], later[go]
        # ü_g is linear on the step (it never straddles a sample): solve |ü_g(t_u)| = g tan α
        t_u = np.where(now, t0, t0 + (t1 - t0) * (np.copysign(thr, a1) - a0) / np.where(later, a1 - a0, 1.0))
        sd = -np.sign(np.where(now, a0, a1))  # ü_g < 0 lifts onto θ > 0
        y = rk_step(self.rate(sd, r), (np.zeros(r.size), np.zeros(r.size), t_u), t1 - t_u, self.tab)
        ok = sd * y[0] > -ROUNDING_ANGLE  # a pulse reversing inside the step: back to rest
        r, t_u = r[ok], t_u[ok]
        self.side[r], self.th[r], self.om[r] = sd[ok], y[0][ok], y[1][ok]
        self.mode[r] = _ROCKING
        first = np.isnan(self.up_t[r])
        self.up_t[r[first]] = t_u[first]
