"""Closed-form slip of a rigid block (no rocking) on a base driven by a trapezoidal acceleration pulse.

The block rests on the base with Coulomb friction μ; u [m] is its displacement relative to the base, along
+x. While it sticks, friction supplies the block's acceleration a_g, which it can as long as |a_g| ≤ μ g.
Once |a_g| > μ g it slides, opposed by kinetic friction of the same μ:

    ü = −a_g − μ g sign(u̇)                                    (Newton's second law for the block, relative
                                                               to the base: m(ü + a_g) = −μ m g sign(u̇))

and it stops when u̇ returns to 0 (then sticks if |a_g| ≤ μ g). Under a one-signed pulse of peak A = |a_g|max
> μ g the block slides once, in the direction d = −sign(peak) (it lags the base: forwards when a vehicle
brakes), from t_s where |a_g| first exceeds μ g; with f(t) = |a_g(t)| − μ g, u̇ = d ∫ f and u = d ∫∫ f. On
each straight piece of the trapezoid f is linear in time, so u̇ is a quadratic and u a cubic in time,
and the stop time is the root of a quadratic. For the rectangular pulse (rise = fall = 0) of duration T:

    slip = (A − μg) T²/2 + (A − μg)² T² / (2 μ g) = A (A − μg) T² / (2 μ g)     (hold phase + run-out at −μg)

(Newmark 1965, "Effects of earthquakes on dams and embankments", Géotechnique 15(2), 139–160: his
rectangular-pulse result u_m = V² (1 − N/A) / (2 g N) with pulse acceleration A g, duration t₀, V = A g t₀
and resistance N g = μ g, which is the same expression.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from validation.sliding.pulse import TrapezoidPulse

STANDARD_GRAVITY = 9.81
"""g [m/s²]."""


@dataclass(frozen=True)
class SlipSolution:
    """Slip of the block relative to the base.

    slip: final relative displacement u [m] (signed along +x; 0 if it never slides).
    start, stop: times [s] the block starts and stops sliding (None if it never slides).
    peak_speed: largest |u̇| [m/s].
    pieces: (t_a [s], u_a [m], w_a [m/s], c0 [m/s²], c1 [m/s³]) for each piece of the slide, in order: from
        t_a on, |u̇| = w_a + c0 τ + c1 τ²/2 and |u| = u_a + w_a τ + c0 τ²/2 + c1 τ³/6 with τ = t − t_a.
    direction: sign of the slip, −sign(peak) [-].
    """

    slip: float
    start: float | None
    stop: float | None
    peak_speed: float
    pieces: tuple[tuple[float, float, float, float, float], ...]
    direction: float

    def displacement(self, t: np.ndarray | float) -> np.ndarray:
        """u(t) [m] at times t [s]."""
        return self._evaluate(t, velocity=False)

    def velocity(self, t: np.ndarray | float) -> np.ndarray:
        """u̇(t) [m/s] at times t [s]."""
        return self._evaluate(t, velocity=True)

    def _evaluate(self, t: np.ndarray | float, *, velocity: bool) -> np.ndarray:
        t = np.asarray(t, dtype=float)
        out = np.zeros_like(t)
        if self.start is None:
            return out
        for t_a, u_a, w_a, c0, c1 in self.pieces:
            tau = t - t_a
            mask = tau >= 0.0
            if velocity:
                val = w_a + c0 * tau + 0.5 * c1 * tau**2
            else:
                val = u_a + w_a * tau + 0.5 * c0 * tau**2 + c1 * tau**3 / 6.0
            out = np.where(mask, self.direction * val, out)
        after = t >= self.stop
        return np.where(after, 0.0 if velocity else self.slip, out)


def _stop_time(w_a: float, c0: float, c1: float) -> float:
    """Smallest τ > 0 [s] with w_a + c0 τ + c1 τ²/2 = 0, given w_a > 0; inf if none."""
    if c1 == 0.0:
        return -w_a / c0 if c0 < 0.0 else math.inf
    disc = c0 * c0 - 2.0 * c1 * w_a
    if disc < 0.0:
        return math.inf
    root = math.sqrt(disc)
    # Two forms of the same root, each free of cancellation on its side of c0 = 0.
    tau = (c0 + root) / -c1 if c0 >= 0.0 else 2.0 * w_a / (root - c0)
    return tau if tau > 0.0 else math.inf


def trapezoid_slip(pulse: TrapezoidPulse, mu: float, *, g: float = STANDARD_GRAVITY) -> SlipSolution:
    """Closed-form slip of a block with friction μ [-] on a base driven by `pulse` (a_g [m/s²] vs t [s])."""
    if not (math.isfinite(mu) and mu > 0.0):
        raise ValueError(f"mu must be finite and > 0, got {mu!r}")
    amp, direction = abs(pulse.peak), -math.copysign(1.0, pulse.peak)
    mug = mu * g
    if amp <= mug:
        return SlipSolution(0.0, None, None, 0.0, (), direction)
    t0, t1, t2, t3 = (float(k) for k in pulse.knots)
    t_s = t0 + pulse.rise * mug / amp
    # f = |a_g| − μg on each piece, as (t_a, c0, c1): f = c0 + c1 (t − t_a).
    spans = []
    if pulse.rise > 0.0:
        spans.append((t_s, 0.0, amp / pulse.rise))
    if pulse.hold > 0.0:
        spans.append((t1, amp - mug, 0.0))
    if pulse.fall > 0.0:
        spans.append((t2, amp - mug, -amp / pulse.fall))
    spans.append((t3, -mug, 0.0))
    ends = [s[0] for s in spans[1:]] + [math.inf]

    u = w = peak = 0.0
    pieces = []
    for (t_a, c0, c1), t_b in zip(spans, ends):
        pieces.append((t_a, u, w, c0, c1))
        length = t_b - t_a
        tau = _stop_time(w, c0, c1) if w > 0.0 else math.inf
        if c1 < 0.0 and c0 > 0.0:  # |u̇| peaks inside the piece, where f = 0
            tau_f = min(-c0 / c1, tau, length)
            peak = max(peak, w + c0 * tau_f + 0.5 * c1 * tau_f**2)
        if tau <= length:
            u += w * tau + 0.5 * c0 * tau**2 + c1 * tau**3 / 6.0
            return SlipSolution(direction * u, t_s, t_a + tau, peak, tuple(pieces), direction)
        u += w * length + 0.5 * c0 * length**2 + c1 * length**3 / 6.0
        w += c0 * length + 0.5 * c1 * length**2
        peak = max(peak, w)
    raise AssertionError("unreachable: the last piece decelerates at μg and always stops")
