"""Acceleration pulses for a shaking table or a vehicle bed, beside the Eq. 42 sine and the records of
dem.scenes.tools: a Ricker wavelet (the idealised pulses of Drosos & Anastasopoulos 2015's shaking-table
tests of multi-drum columns), a one-sine acceleration pulse (Makris & Roussos 2000; Zhang & Makris 2001) and
a trapezoidal braking pulse (a vehicle's deceleration: Qi & Zhu 2025, §2's ü_g).

Each is sampled into a :class:`dem.model.base_motion.Recorded` (linear between samples; its velocity and
displacement are the exact integrals of that). The shaking pulses are baseline-corrected so that the table
ends at rest (their own velocities end at 0, so the correction is round-off); the braking pulse is not: the
vehicle ends slower than it started, and the bed keeps that velocity change.
"""

from __future__ import annotations

import math

import numpy as np

from ..model.base_motion import STANDARD_G, BaseMotion, Recorded
from .scene import Param
from .tools import RECORD_PARAMS, SINE_KEYS, base_signal

PULSES = ("none", "ricker", "one_sine")
PULSE_PARAMS = {
    "pulse": Param("none", "a pulse in place of the Eq. 42 sine: a Ricker wavelet or a one-sine acceleration "
                   "pulse (none: the sine, or the record)", choices=PULSES),
    "pulse_pga_g": Param(0.3, "peak acceleration of the pulse ÷ g", "", low=0, low_open=True),
    "pulse_frequency": Param(2.0, "pulse frequency: the Ricker wavelet's central frequency, 1/duration of the "
                             "one-sine pulse", "Hz", low=0, low_open=True),
}
"""Parameters of a scene that offers pulses (with :func:`table_signal`)."""

RICKER_HALF_WIDTH = 1.5
"""The Ricker wavelet is centred at t0 = 1.5/f and cut at |t − t0| = t0: its envelope e^{−π² f² τ²} is
e^{−22.2} = 2e-10 of the peak there."""


def ricker(pga_g: float, frequency: float, *, g: float = STANDARD_G, dt: float | None = None) -> Recorded:
    """a(t) = A (1 − 2π² f² τ²) e^{−π² f² τ²}, τ = t − t0, A = pga_g × g [m/s²], t0 = 1.5/f, on [0, 2 t0]
    (Ricker 1943's wavelet of central frequency f [Hz]; peak |a| = A at τ = 0)."""
    _check(pga_g, frequency)
    t0 = RICKER_HALF_WIDTH / frequency
    t = _samples(2 * t0, frequency, dt)
    c = (math.pi * frequency * (t - t0)) ** 2
    return Recorded(t, pga_g * g * (1 - 2 * c) * np.exp(-c))


def one_sine(pga_g: float, frequency: float, *, g: float = STANDARD_G, dt: float | None = None) -> Recorded:
    """a(t) = A sin(2π f t) on [0, 1/f], 0 after, A = pga_g × g [m/s²]: a one-sine acceleration pulse
    (Makris & Roussos 2000's type-A pulse; Zhang & Makris 2001)."""
    _check(pga_g, frequency)
    t = _samples(1.0 / frequency, frequency, dt)
    return Recorded(t, pga_g * g * np.sin(2 * math.pi * frequency * t))


def trapezoid(peak_g: float, rise: float, hold: float, fall: float, *, g: float = STANDARD_G) -> Recorded:
    """a(t) [m/s²] rising linearly from 0 to peak_g × g over `rise` [s], held for `hold` [s], falling to 0
    over `fall` [s], 0 after (validation.sliding.pulse.TrapezoidPulse's shape; peak_g signed: a vehicle
    driving towards +x that brakes has peak_g < 0). Sampled at its corners (and every 1 ms), linear in
    between: the pulse exactly. Not baseline-corrected (module docstring)."""
    if not (isinstance(peak_g, (int, float)) and math.isfinite(peak_g) and peak_g != 0):
        raise ValueError(f"peak_g must be finite and non-zero, got {peak_g!r}")
    for name, v in (("rise", rise), ("hold", hold), ("fall", fall)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be > 0 [s], got {v!r}")
    corners = np.cumsum([0.0, rise, hold, fall])
    t = np.unique(np.round(np.concatenate([corners, np.arange(0.0, corners[-1], 1e-3)]), 12))
    a = peak_g * g * np.interp(t, corners, [0.0, 1.0, 1.0, 0.0])
    return Recorded(t, a, baseline_correct=False)


def _check(pga_g: float, frequency: float) -> None:
    for name, v in (("pulse_pga_g", pga_g), ("pulse_frequency", frequency)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be > 0, got {v!r}")


def _samples(duration: float, frequency: float, dt: float | None) -> np.ndarray:
    """Sample times [s] on [0, duration], at most 1 ms and 1/400 of a period apart, the end a sample."""
    step = dt or min(1e-3, 1.0 / (400.0 * frequency))
    n = int(math.ceil(duration / step - 1e-9))
    return np.linspace(0.0, duration, n + 1)


def table_signal(p: dict, spec: dict[str, Param]) -> tuple[BaseMotion, dict]:
    """The table's motion from a scene's parameters: the pulse ``pulse`` (:data:`PULSE_PARAMS`) if it is not
    "none", else dem.scenes.tools.base_signal's (the Eq. 42 sine or a record). A pulse with a record, or with
    an Eq. 42 parameter changed, is a ValueError (it would be ignored); so are pulse parameters changed
    without a pulse."""
    kind = p["pulse"]
    if kind == "none":
        given = [k for k in PULSE_PARAMS if k != "pulse" and p[k] != spec[k].default]
        if given:
            raise ValueError(f"parameter {given[0]!r} applies to a pulse: give pulse=ricker or pulse=one_sine too")
        return base_signal(p, spec)
    if p["record"]:
        raise ValueError("pulse and record are two base motions: give one of them")
    changed = [k for k in SINE_KEYS if p[k] != spec[k].default]
    changed += [k for k in RECORD_PARAMS if k not in ("record", "direction_deg") and p[k] != spec[k].default]
    if changed:
        raise ValueError(f"parameter {changed[0]!r} does not apply to a pulse; the pulse takes pulse_pga_g and "
                         "pulse_frequency")
    make = ricker if kind == "ricker" else one_sine
    sig = make(p["pulse_pga_g"], p["pulse_frequency"])
    return sig, {"base_motion": f"{kind} pulse, {p['pulse_frequency']:g} Hz", "base_pga_g": p["pulse_pga_g"]}
