"""Base-motion signals for the rocking references: acceleration, velocity and displacement of the base.

Self-contained on purpose (the engine has its own wall-motion module; `validation` must not depend on
`dem`). Every signal is a callable t ↦ ü_g(t) [m/s²] and also offers velocity(t) [m/s] and
displacement(t) [m], the exact integrals from rest at t = 0. All accept floats or NumPy arrays of t [s].
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from validation.rocking._checks import finite, non_negative, positive
from validation.rocking.closed_form import STANDARD_GRAVITY

AccelLike = Callable[[float], float] | np.ndarray | Sequence[float] | float | None
"""Anything the solvers accept as a base acceleration: a signal, a callable a(t) [m/s²], samples
[m/s²] at a given interval (keyword accel_dt), a constant [m/s²], or None (no base motion)."""


class _Signal:
    """Shared call protocol: calling a signal returns its acceleration."""

    def acceleration(self, t):  # pragma: no cover - overridden
        raise NotImplementedError

    def __call__(self, t):
        return self.acceleration(t)


def _out(t, values: np.ndarray):
    """Return a float for scalar input, else the array."""
    return float(values) if np.ndim(t) == 0 else values


@dataclass(frozen=True)
class EnvelopeSine(_Signal):
    """ü_g(t) = amplitude · env(t) · sin(ω t), env piecewise linear through (knots, levels), 0 outside.

    amplitude [m/s²]; omega [rad/s]; knots [s] increasing from 0; levels [-] at the knots.
    Velocity and displacement are the exact integrals. baseline_correct removes the end velocity by a
    constant acceleration over [0, knots[-1]] so that the base comes to rest (dem/model/base_motion.py's reading).
    """

    amplitude: float
    omega: float
    knots: tuple[float, ...]
    levels: tuple[float, ...]
    baseline_correct: bool = True
    _v_start: tuple[float, ...] = field(init=False, repr=False)
    _d_start: tuple[float, ...] = field(init=False, repr=False)
    _a_corr: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        finite("amplitude", self.amplitude)
        positive("omega", self.omega)
        if len(self.knots) != len(self.levels) or len(self.knots) < 2:
            raise ValueError("knots and levels must have the same length >= 2")
        if self.knots[0] != 0.0 or np.any(np.diff(self.knots) <= 0.0):
            raise ValueError(f"knots must start at 0 and increase strictly, got {self.knots!r}")
        v, d = [0.0], [0.0]
        for k in range(len(self.knots) - 1):
            v_end, d_end = self._integrate_segment(k, self.knots[k + 1], v[-1], d[-1])
            v.append(float(v_end))
            d.append(float(d_end))
        object.__setattr__(self, "_v_start", tuple(v))
        object.__setattr__(self, "_d_start", tuple(d))
        corr = v[-1] / self.knots[-1] if self.baseline_correct else 0.0
        object.__setattr__(self, "_a_corr", corr)

    def _coeffs(self, k: int) -> tuple[float, float]:
        t0, t1 = self.knots[k], self.knots[k + 1]
        c1 = (self.levels[k + 1] - self.levels[k]) / (t1 - t0)
        return self.levels[k] - c1 * t0, c1  # env = c0 + c1 t on segment k

    def _integrate_segment(self, k: int, t, v0: float, d0: float):
        # ∫(c0 + c1τ) sin ωτ dτ = F(τ), ∫F = G(τ): exact for a linear envelope.
        c0, c1 = self._coeffs(k)
        w, a = self.omega, self.amplitude
        ta = self.knots[k]

        def big_f(tau):
            return -(c0 + c1 * tau) * np.cos(w * tau) / w + c1 * np.sin(w * tau) / w**2

        def big_g(tau):
            return -(c0 + c1 * tau) * np.sin(w * tau) / w**2 - 2.0 * c1 * np.cos(w * tau) / w**3

        v = v0 + a * (big_f(t) - big_f(ta))
        d = d0 + (v0 - a * big_f(ta)) * (t - ta) + a * (big_g(t) - big_g(ta))
        return v, d

    def _segment_index(self, t: np.ndarray) -> np.ndarray:
        return np.clip(np.searchsorted(self.knots, t, side="right") - 1, 0, len(self.knots) - 2)

    def envelope(self, t):
        """Envelope env(t) [-]."""
        tt = np.asarray(t, dtype=float)
        env = np.interp(tt, self.knots, self.levels, left=0.0, right=0.0)
        return _out(t, env)

    def acceleration(self, t):
        """Base acceleration [m/s²]."""
        tt = np.asarray(t, dtype=float)
        a = self.amplitude * np.interp(tt, self.knots, self.levels, left=0.0, right=0.0) * np.sin(self.omega * tt)
        a = a - np.where((tt >= 0.0) & (tt <= self.knots[-1]), self._a_corr, 0.0)
        return _out(t, a)

    def velocity(self, t):
        """Base velocity [m/s], exact integral of the acceleration from rest at t = 0."""
        tt = np.asarray(t, dtype=float)
        v = np.zeros_like(tt)
        k = self._segment_index(tt)
        for seg in range(len(self.knots) - 1):
            sel = (k == seg) & (tt >= 0.0)
            v[sel], _ = self._integrate_segment(seg, tt[sel], self._v_start[seg], self._d_start[seg])
        end = self.knots[-1]
        v = np.where(tt > end, self._v_start[-1], v)
        v = v - self._a_corr * np.clip(tt, 0.0, end)
        return _out(t, v)

    def displacement(self, t):
        """Base displacement [m], exact integral of the velocity from 0 at t = 0."""
        tt = np.asarray(t, dtype=float)
        d = np.zeros_like(tt)
        k = self._segment_index(tt)
        for seg in range(len(self.knots) - 1):
            sel = (k == seg) & (tt >= 0.0)
            _, d[sel] = self._integrate_segment(seg, tt[sel], self._v_start[seg], self._d_start[seg])
        end = self.knots[-1]
        d = np.where(tt > end, self._d_start[-1] + self._v_start[-1] * (tt - end), d)
        tc = np.clip(tt, 0.0, end)
        d = d - self._a_corr * (0.5 * tc * tc + end * np.clip(tt - end, 0.0, None))
        return _out(t, d)


def ramped_sine(
    *,
    b: float = 0.5,
    frequency: float = 1.0,
    ramp_end: float = 4.5,
    plateau_end: float = 14.5,
    stop: float = 16.0,
    g: float = STANDARD_GRAVITY,
) -> EnvelopeSine:
    """Itiola & El Shamy 2024, Eq. 42 ramped sine, read as ü_g = b g env(t) sin(2π f t)
    (dem/model/base_motion.py's reading).

    b: peak acceleration as a fraction of g [-] (0.5 and 0.1 in Itiola & El Shamy 2024, §5); frequency f [Hz];
    env rises linearly 0 → 1 on [0, T = ramp_end], stays 1 until L1 = plateau_end, falls to 0 at
    L2 = stop [s], 0 after. Eq. 42 prints the velocity, not the acceleration; with Itiola & El Shamy's (2024) values
    (ωT = 9π, ωL1 = 29π) this reading reproduces its velocity pieces and the velocity returns to 0 at
    L2 by itself; for other parameters a constant baseline correction enforces it.
    """
    positive("frequency", frequency)
    positive("ramp_end", ramp_end)
    if not (ramp_end <= plateau_end < stop):
        raise ValueError(f"need ramp_end <= plateau_end < stop [s], got {ramp_end!r}, {plateau_end!r}, {stop!r}")
    knots = (0.0, float(ramp_end), float(plateau_end), float(stop))
    levels = (0.0, 1.0, 1.0, 0.0)
    if ramp_end == plateau_end:
        knots, levels = (0.0, float(ramp_end), float(stop)), (0.0, 1.0, 0.0)
    return EnvelopeSine(finite("b", b) * positive("g", g), 2.0 * math.pi * frequency, knots, levels)


@dataclass(frozen=True)
class ExponentialSine(_Signal):
    """Qi & Zhu 2025, Eq. 44: ü_g(t) = A0 (1 − e^{−βt}) sin(ω t) for 0 <= t <= duration, 0 after.

    amplitude A0 [m/s²]; beta β [1/s] (1.76 in Qi & Zhu 2025, Table 1); omega ω [rad/s]; duration [s] or None
    (never stops). Velocity and displacement are the exact integrals (they drift: the signal has a
    non-zero mean velocity, as in Qi & Zhu 2025).
    """

    amplitude: float
    beta: float
    omega: float
    duration: float | None = None

    def __post_init__(self) -> None:
        finite("amplitude", self.amplitude)
        non_negative("beta", self.beta)
        positive("omega", self.omega)
        if self.duration is not None:
            positive("duration", self.duration)

    def _clip(self, t):
        tt = np.asarray(t, dtype=float)
        end = np.inf if self.duration is None else self.duration
        return tt, np.clip(tt, 0.0, end), end

    def acceleration(self, t):
        """Base acceleration [m/s²]."""
        tt, _, end = self._clip(t)
        inside = (tt >= 0.0) & (tt <= end)
        a = self.amplitude * (1.0 - np.exp(-self.beta * tt)) * np.sin(self.omega * tt)
        return _out(t, np.where(inside, a, 0.0))

    def _sc(self, t):
        b, w = self.beta, self.omega
        den = b * b + w * w
        e = np.exp(-b * t)
        s = (w - e * (b * np.sin(w * t) + w * np.cos(w * t))) / den  # ∫0^t e^{−βτ} sin ωτ dτ
        c = (b + e * (w * np.sin(w * t) - b * np.cos(w * t))) / den  # ∫0^t e^{−βτ} cos ωτ dτ
        return s, c, den

    def _vd(self, tc):
        w, a0 = self.omega, self.amplitude
        s, c, den = self._sc(tc)
        v = a0 * ((1.0 - np.cos(w * tc)) / w - s)
        d = a0 * ((tc / w - np.sin(w * tc) / w**2) - (w * tc - (self.beta * s + w * c)) / den)
        return v, d

    def velocity(self, t):
        """Base velocity [m/s] from rest at t = 0."""
        _, tc, _ = self._clip(t)
        return _out(t, self._vd(tc)[0])

    def displacement(self, t):
        """Base displacement [m] from 0 at t = 0."""
        tt, tc, end = self._clip(t)
        v, d = self._vd(tc)
        return _out(t, d + v * np.clip(tt - end, 0.0, None) if np.isfinite(end) else d)


@dataclass(frozen=True)
class TrigPulse(_Signal):
    """One full cycle of a sine or cosine acceleration pulse (Makris & Roussos 2000 type pulses).

    ü_g = amplitude · sin(ωp τ) (kind "sine") or amplitude · cos(ωp τ) (kind "cosine"), τ = t − start,
    for 0 <= τ <= period, 0 otherwise; ωp = 2π/period. amplitude [m/s²], period [s], start [s].
    Both return the base to rest (velocity 0 after the pulse); the cosine pulse also to its start.
    """

    amplitude: float
    period: float
    kind: str = "sine"
    start: float = 0.0

    def __post_init__(self) -> None:
        finite("amplitude", self.amplitude)
        positive("period", self.period)
        non_negative("start", self.start)
        if self.kind not in ("sine", "cosine"):
            raise ValueError(f"kind must be 'sine' or 'cosine', got {self.kind!r}")

    def _tau(self, t):
        tau = np.asarray(t, dtype=float) - self.start
        return tau, np.clip(tau, 0.0, self.period)

    def acceleration(self, t):
        """Base acceleration [m/s²]."""
        tau, _ = self._tau(t)
        w = 2.0 * math.pi / self.period
        trig = np.sin(w * tau) if self.kind == "sine" else np.cos(w * tau)
        return _out(t, np.where((tau >= 0.0) & (tau <= self.period), self.amplitude * trig, 0.0))

    def velocity(self, t):
        """Base velocity [m/s] from rest."""
        _, tc = self._tau(t)
        w = 2.0 * math.pi / self.period
        v = (1.0 - np.cos(w * tc)) / w if self.kind == "sine" else np.sin(w * tc) / w
        return _out(t, self.amplitude * v)

    def displacement(self, t):
        """Base displacement [m] from 0."""
        _, tc = self._tau(t)
        w = 2.0 * math.pi / self.period
        d = tc / w - np.sin(w * tc) / w**2 if self.kind == "sine" else (1.0 - np.cos(w * tc)) / w**2
        return _out(t, self.amplitude * d)


def sine_pulse(amplitude: float, period: float, *, start: float = 0.0) -> TrigPulse:
    """One-sine acceleration pulse: amplitude [m/s²] · sin(2π (t − start)/period) over one period [s]."""
    return TrigPulse(amplitude, period, "sine", start)


def cosine_pulse(amplitude: float, period: float, *, start: float = 0.0) -> TrigPulse:
    """One-cosine acceleration pulse: amplitude [m/s²] · cos(2π (t − start)/period) over one period [s]."""
    return TrigPulse(amplitude, period, "cosine", start)


@dataclass(frozen=True)
class SampledRecord(_Signal):
    """A base-acceleration record sampled every dt, linearly interpolated; after its last sample it
    ramps to 0 over one interval and stays 0 (the same as padding the record with zeros).

    samples: accelerations [m/s²] at t = 0, dt, 2dt, …; dt: sample interval [s].
    Velocity and displacement integrate the interpolant exactly (no baseline correction).
    """

    samples: np.ndarray
    dt: float
    _v: np.ndarray = field(init=False, repr=False)
    _d: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        a = np.asarray(self.samples, dtype=float)
        if a.ndim != 1 or a.size < 1 or not np.all(np.isfinite(a)):
            raise ValueError("samples must be a 1-D array of finite accelerations [m/s²]")
        a = np.append(a, 0.0)  # ramp to rest over one interval, as a batch record padded with zeros
        dt = positive("dt", self.dt)
        v = np.concatenate(([0.0], np.cumsum(0.5 * dt * (a[1:] + a[:-1]))))
        d = np.concatenate(([0.0], np.cumsum(dt * v[:-1] + dt * dt * (2.0 * a[:-1] + a[1:]) / 6.0)))
        object.__setattr__(self, "samples", a)
        object.__setattr__(self, "_v", v)
        object.__setattr__(self, "_d", d)

    @property
    def duration(self) -> float:
        """Time [s] from which the acceleration is 0: one interval after the last given sample."""
        return (self.samples.size - 1) * self.dt

    def _locate(self, t):
        tt = np.asarray(t, dtype=float)
        i = np.clip(np.floor(tt / self.dt).astype(int), 0, self.samples.size - 2)
        tau = np.clip(tt, 0.0, self.duration) - i * self.dt
        slope = (self.samples[i + 1] - self.samples[i]) / self.dt
        return tt, i, tau, slope

    def acceleration(self, t):
        """Base acceleration [m/s²] (linear interpolation; 0 before 0 and after the last sample)."""
        if isinstance(t, float):  # fast scalar path for the step-by-step solver
            if t < 0.0 or t > self.duration:
                return 0.0
            x = t / self.dt
            i = min(int(x), self.samples.size - 2)
            f = x - i
            return float(self.samples[i] * (1.0 - f) + self.samples[i + 1] * f)
        tt, i, tau, slope = self._locate(t)
        a = self.samples[i] + slope * tau
        return _out(t, np.where((tt >= 0.0) & (tt <= self.duration), a, 0.0))

    def velocity(self, t):
        """Base velocity [m/s] from rest at t = 0."""
        _, i, tau, slope = self._locate(t)
        return _out(t, np.where(np.asarray(t) < 0, 0.0, self._v[i] + self.samples[i] * tau + 0.5 * slope * tau**2))

    def displacement(self, t):
        """Base displacement [m] from 0 at t = 0 (moves on at the final velocity after the record)."""
        tt, i, tau, slope = self._locate(t)
        d = self._d[i] + self._v[i] * tau + 0.5 * self.samples[i] * tau**2 + slope * tau**3 / 6.0
        d = d + self._v[-1] * np.clip(tt - self.duration, 0.0, None)
        return _out(t, np.where(tt < 0, 0.0, d))


def as_acceleration(accel: AccelLike, *, accel_dt: float | None = None) -> Callable[[float], float]:
    """Normalise a base acceleration to a function t [s] ↦ ü_g [m/s²].

    accel: a signal (anything with .acceleration), a callable, a 1-D array of samples [m/s²] at
    interval accel_dt [s] (required then), a constant [m/s²], or None (no base motion).
    """
    if accel is None:
        return lambda t: 0.0
    if hasattr(accel, "acceleration"):
        return accel.acceleration
    if callable(accel):
        return accel
    if np.ndim(accel) == 0:
        c = finite("accel", float(accel))
        return lambda t: c
    if accel_dt is None:
        raise ValueError("accel_dt [s] is required when accel is an array of samples")
    return SampledRecord(np.asarray(accel, dtype=float), accel_dt).acceleration
