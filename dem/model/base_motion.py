"""Base motion: a prescribed ground acceleration a(t) [m/s²] with its velocity v(t) [m/s] and displacement
d(t) [m] along one direction, and its conversion to a wall's velocity table (below).

Signals
- :class:`RampedSine`: Itiola & El Shamy 2024, Eq. 42, read as below.
- :class:`ExponentialSine`: Qi & Zhu 2025, Eq. 44, a(t) = A0 (1 − e^{−βt}) sin ωt.
- :class:`Recorded`: an accelerogram from arrays, a CSV file or a PEER NGA ``.AT2`` file.

Every signal offers ``acceleration(t)``, ``velocity(t)``, ``displacement(t)`` (floats or NumPy arrays of
t [s]; a float in gives a float out), ``duration`` [s] (the acceleration is 0 after it) and
``wall_motion(direction, dt=, t_end=)``. The base starts from rest at d = 0 at t = 0; velocity and
displacement are the exact integrals of the acceleration *as returned*, baseline correction included,
so the three stay consistent at every t, not only at samples.

Reading of Itiola & El Shamy 2024, Eq. 42. The paper prints a velocity whose pieces do not balance dimensionally (the
plateau is ``ü_max cos ωt``). This module reads it as the acceleration a(t) = b g env(t) sin ωt, ω = 2π f, with env
rising linearly 0 → 1 on [0, T], 1 on [T, L1], falling linearly 1 → 0 on [L1, L2], 0 after. Its exact
integral has the printed shapes: A(ωt cos ωt − sin ωt) on the ramp with A = −b g/(T ω²), −(b g/ω) cos ωt
on the plateau (so Eq. 42's ü_max stands for −b g/ω), A'(ωs cos ωs − sin ωs), s = t − L2, on the fade.
Defaults are Eq. 42's (T = 4.5 s, L1 = 14.5 s, L2 = 16 s, f = 1 Hz). §5.1's prose ("persists for 16 s
and gradually diminishes to zero over 16 to 20 s") is the other reading: ``RampedSine(hold_end=16,
stop=20)``. With ωT, ωL1, ωL2 whole multiples of π (both readings at 1 Hz) the raw integral already ends
at v(L2) = 0; otherwise it does not.

Baseline correction (all signals, same rule). The constant acceleration c = v_raw(t1)/(t1 − t0) is
subtracted over the correction window [t0, t1] (RampedSine: [0, L2]; ExponentialSine: [0, duration],
off by default; Recorded: the record's span), so v(t1) = 0 exactly and the base holds still afterwards at
d(t1) = d_raw(t1) − c (t1 − t0)²/2. At Itiola & El Shamy's (2024) defaults c is 0 to rounding (1e-17 m/s²) and the base
ends displaced by d(L2) = 0.0703 m (b = 0.5) and 0.0141 m (b = 0.1). A linear ramp of R seconds spanning
an odd number of half-periods (ωR = 9π for T = 4.5 s, 3π for the 1.5 s fade) leaves a net drift
4 b g/(R ω³), an even number none, and the plateau none: 0.0176 + 0.0527 m at b = 0.5. The prose
reading (L1 = 16, L2 = 20 s, a 4 s fade, 8π) ends at 0.0176 m (b = 0.5) and 0.0035 m (b = 0.1).
Recorded signals may also remove a least-squares polynomial from the displacement
(``detrend_degree``), keeping v(t1) = 0.

Wall table. ``wall_motion`` samples v(t) every ``dt`` from t = 0 into :class:`dem.model.walls.WallMotion`, which
the kernels interpolate linearly. The table's velocity equals v(t) at the samples; its integral (the
trapezoid rule on v) differs from d(t) by at most ``dt² · max|a|`` (composite-trapezoid error
dt²/12·|a(t) − a(0)| plus ≤ dt²/8·|jump| at each of the ≤ 2 steps of a), i.e. 4.9e-6 m at 0.5 g with
the default dt = 1 ms (measured: 4.1e-7 m). Between samples the interpolated velocity is within
dt²/8 · max|ȧ| of v(t) (4.3e-6 m/s for Eq. 42 at 0.5 g, 1 Hz; measured 3.8e-6), or dt·|jump|/4 next
to a step of a that falls between samples. The default is ``TABLE_DT`` = 1e-3 s, finer for sines faster
than 1 Hz (period/1000) and for records sampled faster than 1 kHz (their median interval), and shrunk
slightly so that the end of the signal is a sample.

Demo::

    from dem.model.base_motion import RampedSine, Recorded
    eq42 = RampedSine(pga_g=0.5)              # Itiola & El Shamy 2024, Eq. 42: 0.5 g, 1 Hz, ramps at 4.5, 14.5, 16 s
    eq42.velocity(16.0), eq42.displacement(30.0)   # (0.0 m/s, 0.0703 m): the base ends at rest
    motion = eq42.wall_motion((1, 0, 0))     # WallMotion, velocity every 1 ms over [0, 16 s]
    builder.add_wall((0, 0, 0), (0, 0, 1), material=granite, size=(1.0, 0.75), motion=motion)
    quake = Recorded.from_at2("RSN6_IMPVALL.I_I-ELC180.AT2")      # values in g, NPTS checked
    quake.wall_motion((1, 0, 0), t_end=40.0)
"""

from __future__ import annotations

import csv
import math
import re
from abc import ABC, abstractmethod
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from .at2 import read_at2
from .walls import WallMotion

STANDARD_G = 9.81
"""Gravity [m/s²] used to convert accelerations given in g (Itiola & El Shamy 2024, §5 uses 9.81)."""
TABLE_DT = 1e-3
"""Default interval [s] of a wall's velocity table; see the module docstring for the error it gives."""

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[EeDd][-+]?\d+)?")


def _finite(name: str, value, *, lo: float = -math.inf, strict: bool = False, unit: str = "") -> float:
    """Return value as a float if finite and ≥ lo (> lo if strict), else ValueError naming it and the range."""
    v = float(value)
    ok = math.isfinite(v) and (v > lo if strict else v >= lo)
    if not ok:
        rng = "finite" if lo == -math.inf else f"finite and {'>' if strict else '>='} {lo:g}"
        raise ValueError(f"{name} must be {rng}{' ' + unit if unit else ''}, got {value!r}")
    return v


def _out(t, values: np.ndarray):
    """A float for scalar input, else the array."""
    return float(values) if np.ndim(t) == 0 else values


class _Baseline:
    """A displacement correction p(s), s = t − t0, subtracted over [t0, t1]; p(0) = p'(0) = 0 and
    p'(t1 − t0) = v_raw(t1), so the corrected base starts from rest and ends at rest. p is a polynomial in
    u = s/(t1 − t0); after t1 it continues linearly so the corrected displacement holds still."""

    def __init__(self, t0: float, t1: float, coef: np.ndarray):
        self.t0, self.span = t0, t1 - t0
        self.p = np.polynomial.Polynomial(coef)  # in u, coef[0] = coef[1] = 0
        self.dp, self.ddp = self.p.deriv(1), self.p.deriv(2)
        self.acceleration = float(self.ddp(0.0)) / self.span**2  # [m/s²] at t0 (the constant c if quadratic)

    @classmethod
    def constant(cls, t0: float, t1: float, v_end: float) -> _Baseline:
        # constant acceleration c = v_end/(t1 − t0): p = c s²/2 = (v_end (t1 − t0)/2) u²
        return cls(t0, t1, np.array([0.0, 0.0, 0.5 * v_end * (t1 - t0)]))

    def avd(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s = t - self.t0
        u = np.clip(s / self.span, 0.0, 1.0)
        a = np.where((s >= 0.0) & (s <= self.span), self.ddp(u) / self.span**2, 0.0)
        v = self.dp(u) / self.span
        d = self.p(u) + self.dp(1.0) / self.span * np.clip(s - self.span, 0.0, None)
        return a, v, d


class BaseMotion(ABC):
    """A base acceleration a(t) [m/s²] along one direction with its exact integrals (see module docstring)."""

    _baseline: _Baseline | None = None

    @property
    @abstractmethod
    def duration(self) -> float:
        """Time [s] after which the acceleration is 0 (math.inf if it never stops)."""

    @property
    @abstractmethod
    def table_dt(self) -> float:
        """Default interval [s] of the wall velocity table."""

    @abstractmethod
    def _raw(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Uncorrected (a [m/s²], v [m/s], d [m]) at t [s], from rest at t = 0."""

    def _avd(self, t) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        tt = np.asarray(t, dtype=float)
        a, v, d = self._raw(tt)
        if self._baseline is not None:
            ca, cv, cd = self._baseline.avd(tt)
            a, v, d = a - ca, v - cv, d - cd
        return a, v, d

    @property
    def baseline_acceleration(self) -> float:
        """Correction acceleration [m/s²] subtracted at the start of the window (0 if uncorrected)."""
        return 0.0 if self._baseline is None else self._baseline.acceleration

    def acceleration(self, t):
        """Base acceleration [m/s²] at t [s]."""
        return _out(t, self._avd(t)[0])

    def velocity(self, t):
        """Base velocity [m/s] at t [s]: the exact integral of the acceleration from rest at t = 0."""
        return _out(t, self._avd(t)[1])

    def displacement(self, t):
        """Base displacement [m] at t [s]: the exact integral of the velocity from 0 at t = 0."""
        return _out(t, self._avd(t)[2])

    def wall_motion(self, direction=(1.0, 0.0, 0.0), *, dt: float | None = None,
                    t_end: float | None = None) -> WallMotion:
        """Velocity table of a wall moving along ``direction`` (normalised), sampled every dt [s] on
        [0, t_end]; the kernels hold the last value after t_end. Defaults: t_end = ``duration``, dt =
        ``table_dt`` or slightly less so that t_end is a sample."""
        if t_end is None:
            if not math.isfinite(self.duration):
                raise ValueError("t_end [s] is required: this signal never stops (duration = inf)")
            t_end = self.duration
        t_end = _finite("t_end", t_end, lo=0.0, unit="[s]")
        if dt is None:  # table_dt, shrunk so that t_end (where a may step to 0) falls on a sample
            dt = t_end / math.ceil(t_end / self.table_dt - 1e-9) if t_end > 0.0 else self.table_dt
        dt = _finite("dt", dt, lo=0.0, strict=True, unit="[s]")
        d = np.asarray(direction, dtype=float)
        if d.shape != (3,) or not np.all(np.isfinite(d)) or not np.linalg.norm(d) > 0.0:
            raise ValueError(f"direction must be a finite nonzero 3-vector, got {direction!r}")
        n = int(math.ceil(t_end / dt - 1e-9)) + 1
        t = np.arange(n) * dt
        return WallMotion.along(d, np.asarray(self.velocity(t), dtype=float), dt)


class _EnvelopeSine:
    """amp · env(t) · sin(ω t) with env piecewise linear on knots from 0, 0 outside; exact integrals."""

    def __init__(self, amp: float, omega: float, knots, levels):
        seg = [(knots[k], knots[k + 1], levels[k], levels[k + 1]) for k in range(len(knots) - 1)
               if knots[k + 1] > knots[k]]
        self.amp, self.omega = amp, omega
        self.t0 = np.array([s[0] for s in seg])
        self.e0 = np.array([s[2] for s in seg])
        self.m = np.array([(s[3] - s[2]) / (s[1] - s[0]) for s in seg])
        self.end = seg[-1][1]
        v, d = [0.0], [0.0]
        for k, s in enumerate(seg):
            vk, dk = self._vd(k, np.array(s[1]), v[-1], d[-1])
            v.append(float(vk))
            d.append(float(dk))
        self.v0, self.d0 = np.array(v[:-1]), np.array(d[:-1])
        self.v_end, self.d_end = v[-1], d[-1]

    def _fg(self, k, t):
        # On a segment env = e + m t' (t' = t − t0); with ∫ = antiderivative in t:
        # F = ∫ env sin ωt = −env cos ωt/ω + m sin ωt/ω²,  G = ∫ F = −env sin ωt/ω² − 2 m cos ωt/ω³.
        w, m = self.omega, self.m[k]
        env = self.e0[k] + m * (t - self.t0[k])
        f = -env * np.cos(w * t) / w + m * np.sin(w * t) / w**2
        g = -env * np.sin(w * t) / w**2 - 2.0 * m * np.cos(w * t) / w**3
        return f, g

    def _vd(self, k, t, v0, d0):
        f, g = self._fg(k, t)
        f0, g0 = self._fg(k, self.t0[k])
        return v0 + self.amp * (f - f0), d0 + (v0 - self.amp * f0) * (t - self.t0[k]) + self.amp * (g - g0)

    def envelope(self, t: np.ndarray) -> np.ndarray:
        k = np.clip(np.searchsorted(self.t0, t, side="right") - 1, 0, len(self.t0) - 1)
        env = self.e0[k] + self.m[k] * (t - self.t0[k])
        return np.where((t >= 0.0) & (t <= self.end), env, 0.0)

    def avd(self, t: np.ndarray):
        tc = np.clip(t, 0.0, self.end)
        k = np.clip(np.searchsorted(self.t0, tc, side="right") - 1, 0, len(self.t0) - 1)
        v, d = self._vd(k, tc, self.v0[k], self.d0[k])
        d = d + self.v_end * np.clip(t - self.end, 0.0, None)
        a = self.amp * self.envelope(t) * np.sin(self.omega * t)
        return a, np.where(t < 0.0, 0.0, v), np.where(t < 0.0, 0.0, d)


@dataclass(frozen=True, kw_only=True)
class RampedSine(BaseMotion):
    """Itiola & El Shamy 2024, Eq. 42 as read below: a(t) = b g env(t) sin(2π f t) [m/s²], baseline-corrected to rest.

    pga_g: b, peak acceleration in g [-] (0.5, and 0.1 for the low-intensity bridge); frequency f [Hz];
    ramp_end T, hold_end L1, stop L2 [s], 0 ≤ T ≤ L1 ≤ L2, L2 > 0: env rises 0 → 1 on [0, T], is 1 on
    [T, L1], falls 1 → 0 on [L1, L2], 0 after; g [m/s²]. baseline_correct subtracts the constant
    acceleration v_raw(L2)/L2 over [0, L2] so that v(L2) = 0 (0 to rounding at the defaults).
    """

    pga_g: float = 0.5
    frequency: float = 1.0
    ramp_end: float = 4.5
    hold_end: float = 14.5
    stop: float = 16.0
    g: float = STANDARD_G
    baseline_correct: bool = True
    _sig: _EnvelopeSine = field(init=False, repr=False, compare=False)
    _baseline: _Baseline | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        b = _finite("pga_g", self.pga_g, lo=0.0, unit="[g]")
        f = _finite("frequency", self.frequency, lo=0.0, strict=True, unit="[Hz]")
        g = _finite("g", self.g, lo=0.0, strict=True, unit="[m/s²]")
        T = _finite("ramp_end", self.ramp_end, lo=0.0, unit="[s]")
        L1 = _finite("hold_end", self.hold_end, lo=0.0, unit="[s]")
        L2 = _finite("stop", self.stop, lo=0.0, strict=True, unit="[s]")
        if not (T <= L1 <= L2):
            raise ValueError(f"need 0 <= ramp_end <= hold_end <= stop [s], got {T!r}, {L1!r}, {L2!r}")
        # Itiola & El Shamy 2024, Eq. 42
        sig = _EnvelopeSine(b * g, 2.0 * math.pi * f, (0.0, T, L1, L2), (0.0, 1.0, 1.0, 0.0))
        object.__setattr__(self, "_sig", sig)
        base = _Baseline.constant(0.0, L2, sig.v_end) if self.baseline_correct else None
        object.__setattr__(self, "_baseline", base)

    @property
    def omega(self) -> float:
        """Angular frequency ω = 2π f [rad/s]."""
        return 2.0 * math.pi * self.frequency

    @property
    def duration(self) -> float:
        return float(self.stop)

    @property
    def table_dt(self) -> float:
        return min(TABLE_DT, 1e-3 / self.frequency)

    def envelope(self, t):
        """env(t) [-] of Itiola & El Shamy 2024, Eq. 42."""
        return _out(t, self._sig.envelope(np.asarray(t, dtype=float)))

    def _raw(self, t):
        return self._sig.avd(t)


@dataclass(frozen=True)
class ExponentialSine(BaseMotion):
    """Qi & Zhu 2025, Eq. 44: a(t) = A0 (1 − e^{−βt}) sin(ω t) [m/s²] for 0 ≤ t ≤ duration, 0 after.

    amplitude A0 [m/s²] (Qi & Zhu 2025, Table 1: 2 g); omega ω [rad/s]; beta β [1/s] (1.76); duration [s] (inf:
    never stops). The exact velocity oscillates about A0 β²/(ω(β² + ω²)) ≠ 0, so the base drifts, as
    the signal prescribes; baseline_correct (needs a finite duration) brings it to rest at ``duration``
    by a constant acceleration over [0, duration], as for the other signals.
    """

    amplitude: float
    omega: float
    beta: float
    _: KW_ONLY
    duration: float = math.inf
    baseline_correct: bool = False
    _baseline: _Baseline | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _finite("amplitude", self.amplitude, lo=0.0, unit="[m/s²] (flip the wall direction for the other sign)")
        _finite("omega", self.omega, lo=0.0, strict=True, unit="[rad/s]")
        _finite("beta", self.beta, lo=0.0, unit="[1/s]")
        if not (float(self.duration) > 0.0):
            raise ValueError(f"duration must be > 0 [s] (inf: never stops), got {self.duration!r}")
        base = None
        if self.baseline_correct:
            if not math.isfinite(self.duration):
                raise ValueError("duration must be finite [s] when baseline_correct is set")
            base = _Baseline.constant(0.0, float(self.duration), float(self._raw(np.array(self.duration))[1]))
        object.__setattr__(self, "_baseline", base)

    @property
    def table_dt(self) -> float:
        return min(TABLE_DT, 2.0 * math.pi / (1000.0 * self.omega))

    def _raw(self, t):
        a0, w, b = self.amplitude, self.omega, self.beta
        end = float(self.duration)
        tc = np.clip(t, 0.0, end)
        den = b * b + w * w
        e = np.exp(-b * tc)
        s = (w - e * (b * np.sin(w * tc) + w * np.cos(w * tc))) / den  # ∫0^t e^{−βτ} sin ωτ dτ
        c = (b + e * (w * np.sin(w * tc) - b * np.cos(w * tc))) / den  # ∫0^t e^{−βτ} cos ωτ dτ
        v = a0 * ((1.0 - np.cos(w * tc)) / w - s)  # Qi & Zhu 2025, Eq. 44 integrated once
        # ∫0^t s dτ = (ω t − ∫ e^{−βτ}(β sin + ω cos) dτ)/(β² + ω²) = (ω t − β s − ω c)/(β² + ω²)
        d = a0 * (tc / w - np.sin(w * tc) / w**2 - (w * tc - b * s - w * c) / den)
        if math.isfinite(end):
            v_end = a0 * ((1.0 - math.cos(w * end)) / w
                          - (w - math.exp(-b * end) * (b * math.sin(w * end) + w * math.cos(w * end))) / den)
            d = d + v_end * np.clip(t - end, 0.0, None)
        a = np.where((t >= 0.0) & (t <= end), a0 * (1.0 - np.exp(-b * t)) * np.sin(w * t), 0.0)
        return a, np.where(t < 0.0, 0.0, v), np.where(t < 0.0, 0.0, d)


class Recorded(BaseMotion):
    """A recorded accelerogram: samples a_i [m/s²] at times t_i [s] (0 ≤ t_0 < t_1 < …), linearly
    interpolated between samples and 0 outside [t_0, t_n]. Velocity and displacement integrate the
    interpolant exactly (trapezoid on the samples for v, exact cubic for d).

    baseline_correct: subtract the constant acceleration v_raw(t_n)/(t_n − t_0) over [t_0, t_n] so that
    v(t_n) = 0. detrend_degree (int ≥ 3, needs baseline_correct): further subtract from the displacement
    the polynomial Σ q_k (s^k − k s² S^{k−2}/2), k = 3..degree (s = t − t_0, S = t_n − t_0), fitted by
    least squares to the corrected displacement at the samples; these terms leave d(t_0), v(t_0) and
    v(t_n) unchanged, so the base still starts and ends at rest.
    """

    def __init__(self, t, a, *, baseline_correct: bool = True, detrend_degree: int | None = None):
        t = np.array(t, dtype=float)
        a = np.array(a, dtype=float)
        if t.ndim != 1 or a.shape != t.shape or t.size < 2:
            raise ValueError(f"t and a must be 1-D arrays of the same length >= 2, got shapes {t.shape}, {a.shape}")
        if not (np.all(np.isfinite(t)) and np.all(np.isfinite(a))):
            raise ValueError("t [s] and a [m/s²] must be finite")
        if t[0] < 0.0:
            raise ValueError(f"t must start at >= 0 [s], got t[0] = {t[0]!r}")
        bad = np.flatnonzero(np.diff(t) <= 0.0)
        if bad.size:
            raise ValueError(f"t must increase strictly [s]: t[{bad[0] + 1}] = {t[bad[0] + 1]!r} <= t[{bad[0]}]")
        if detrend_degree is not None:
            if not baseline_correct:
                raise ValueError("detrend_degree needs baseline_correct=True")
            if int(detrend_degree) != detrend_degree or not (3 <= detrend_degree <= t.size - 1):
                raise ValueError(f"detrend_degree must be an int in [3, {t.size - 1}] or None, got {detrend_degree!r}")
        t.flags.writeable = False
        a.flags.writeable = False
        self.time, self.samples = t, a
        self.baseline_correct, self.detrend_degree = bool(baseline_correct), detrend_degree
        h = np.diff(t)
        self._slope = np.diff(a) / h
        self._v = np.concatenate(([0.0], np.cumsum(0.5 * h * (a[1:] + a[:-1]))))
        # d_{i+1} = d_i + h v_i + h² (2 a_i + a_{i+1})/6: exact for linear a on the interval
        self._d = np.concatenate(([0.0], np.cumsum(h * self._v[:-1] + h * h * (2.0 * a[:-1] + a[1:]) / 6.0)))
        self._baseline = None
        if baseline_correct:
            base = _Baseline.constant(t[0], t[-1], self._v[-1])
            if detrend_degree is not None:
                base = self._detrend(base, int(detrend_degree))
            self._baseline = base

    def _detrend(self, base: _Baseline, degree: int) -> _Baseline:
        u = (self.time - self.time[0]) / base.span
        resid = self._d - base.p(u)
        k = np.arange(3, degree + 1)
        basis = u[:, None] ** k[None, :] - 0.5 * k[None, :] * u[:, None] ** 2  # ψ_k(0) = ψ_k'(0) = ψ_k'(1) = 0
        q, *_ = np.linalg.lstsq(basis, resid, rcond=None)
        coef = np.zeros(degree + 1)
        coef[2] = base.p.coef[2] - 0.5 * np.dot(k, q)
        coef[3:] = q
        return _Baseline(self.time[0], self.time[-1], coef)

    def __repr__(self) -> str:
        return f"Recorded(n={self.time.size}, t=[{self.time[0]:g}, {self.time[-1]:g}] s)"

    @property
    def peak_acceleration(self) -> float:
        """PGA [m/s²]: the largest |sample| of the record as given (before the baseline correction, which
        shifts the acceleration by ``baseline_acceleration``; intensity measures refer to the record)."""
        return float(np.max(np.abs(self.samples)))

    def scaled(self, factor: float) -> Recorded:
        """The record with every sample multiplied by ``factor`` [-] (> 0; flip the wall direction for the
        other sign), same times and baseline options. Velocity and displacement scale by the same factor,
        since both are linear in the samples (baseline correction and detrending included)."""
        f = _finite("scale factor", factor, lo=0.0, strict=True)
        return Recorded(self.time, self.samples * f, baseline_correct=self.baseline_correct,
                        detrend_degree=self.detrend_degree)

    @property
    def duration(self) -> float:
        return float(self.time[-1])

    @property
    def table_dt(self) -> float:
        return min(TABLE_DT, float(np.median(np.diff(self.time))))

    def _raw(self, t):
        tp, ap = self.time, self.samples
        tc = np.clip(t, tp[0], tp[-1])
        i = np.clip(np.searchsorted(tp, tc, side="right") - 1, 0, tp.size - 2)
        tau = tc - tp[i]
        m = self._slope[i]
        inside = (t >= tp[0]) & (t <= tp[-1])
        a = np.where(inside, ap[i] + m * tau, 0.0)
        v = self._v[i] + ap[i] * tau + 0.5 * m * tau**2
        d = self._d[i] + self._v[i] * tau + 0.5 * ap[i] * tau**2 + m * tau**3 / 6.0
        d = d + self._v[-1] * np.clip(t - tp[-1], 0.0, None)
        return a, np.where(t < tp[0], 0.0, v), np.where(t < tp[0], 0.0, d)

    @classmethod
    def from_csv(cls, path: str | Path, *, units: Literal["m/s2", "g"] = "m/s2", time_column: int | str = 0,
                 accel_column: int | str = 1, delimiter: str | None = None, g: float = STANDARD_G,
                 baseline_correct: bool = True, detrend_degree: int | None = None) -> Recorded:
        """Read t [s] and a [units] columns from a CSV file: blank lines and lines starting with '#' are
        skipped; a first row that is not all numbers is a header, and columns may then be named.
        delimiter: None splits on commas, semicolons or whitespace."""
        scale = _unit_scale(units, g)
        rows: list[list[str]] = []
        lines: list[int] = []
        try:
            fh = open(path, newline="")
        except OSError as err:
            raise ValueError(f"{path}: cannot read the record file ({err.strerror or err})") from None
        with fh:
            for lineno, line in enumerate(fh, 1):
                s = line.strip()
                if not s or s.startswith("#"):
                    continue
                if delimiter is None:
                    fields = [f for f in re.split(r"[,;\s]+", s) if f]
                else:
                    fields = [f.strip() for f in next(csv.reader([s], delimiter=delimiter))]
                rows.append([f.strip().strip('"').strip("'") for f in fields])
                lines.append(lineno)
        if not rows:
            raise ValueError(f"{path}: no data rows")
        header = None
        if not all(_NUMBER.fullmatch(f) for f in rows[0]):
            header, rows, lines = rows[0], rows[1:], lines[1:]
        if not rows:
            raise ValueError(f"{path}: no data rows after the header")
        cols = []
        for name, col in (("time_column", time_column), ("accel_column", accel_column)):
            if isinstance(col, str):
                if header is None or col not in header:
                    raise ValueError(f"{name} {col!r} not found in the header {header!r} of {path}")
                col = header.index(col)
            if not 0 <= col < len(rows[0]):
                raise ValueError(f"{name} must be a column index in [0, {len(rows[0]) - 1}], got {col!r}")
            cols.append(col)
        t, a = [], []
        for lineno, row in zip(lines, rows):
            try:
                t.append(float(row[cols[0]]))
                a.append(float(row[cols[1]]))
            except (IndexError, ValueError) as err:
                raise ValueError(f"{path}:{lineno}: cannot read time/acceleration from {row!r}") from err
        return cls(np.array(t), np.array(a) * scale, baseline_correct=baseline_correct,
                   detrend_degree=detrend_degree)

    @classmethod
    def from_at2(cls, path: str | Path, *, g: float = STANDARD_G, baseline_correct: bool = True,
                 detrend_degree: int | None = None) -> Recorded:
        """Read a PEER NGA ``.AT2`` file (:func:`dem.model.at2.read_at2`: 4 header lines, the 4th with NPTS
        and DT [s], then NPTS accelerations in g; NPTS is checked, errors name the file and line); t_i = i DT."""
        rec = read_at2(path)
        return cls(np.arange(rec.npts) * rec.dt, rec.values_g * _unit_scale("g", g),
                   baseline_correct=baseline_correct, detrend_degree=detrend_degree)


def _unit_scale(units: str, g: float) -> float:
    if units == "m/s2":
        return 1.0
    if units == "g":
        return _finite("g", g, lo=0.0, strict=True, unit="[m/s²]")
    raise ValueError(f"units must be 'm/s2' or 'g', got {units!r}")
