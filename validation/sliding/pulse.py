"""A trapezoidal base-acceleration pulse, as a vehicle's braking: ramp up, hold, ramp down.

a_g(t) [m/s²] is 0 before `start` [s], rises linearly to `peak` [m/s²] over `rise` [s], holds it for
`hold` [s], falls linearly to 0 over `fall` [s] and stays 0 after. `peak` is signed along +x: a vehicle
moving towards +x that brakes has peak < 0. rise = fall = 0 gives the rectangular pulse.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TrapezoidPulse:
    """peak [m/s²] (signed, ≠ 0); rise, hold, fall [s] (≥ 0, not all 0); start [s]."""

    peak: float
    rise: float
    hold: float
    fall: float
    start: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.peak) and self.peak != 0.0):
            raise ValueError(f"peak must be finite and non-zero m/s², got {self.peak!r}")
        for name in ("rise", "hold", "fall"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v >= 0.0):
                raise ValueError(f"{name} must be finite and >= 0 s, got {v!r}")
        if self.rise + self.hold + self.fall <= 0.0:
            raise ValueError("rise + hold + fall must be > 0 s")
        if not math.isfinite(self.start):
            raise ValueError(f"start must be finite, got {self.start!r}")

    @property
    def knots(self) -> np.ndarray:
        """Times [s] of the corners: start, end of rise, end of hold, end of fall."""
        return self.start + np.cumsum([0.0, self.rise, self.hold, self.fall])

    def __call__(self, t: np.ndarray | float) -> np.ndarray:
        """a_g(t) [m/s²] at times t [s]."""
        t = np.asarray(t, dtype=float)
        t0, t1, t2, t3 = self.knots
        up = np.clip((t - t0) / self.rise, 0.0, 1.0) if self.rise > 0 else (t >= t0).astype(float)
        down = np.clip((t3 - t) / self.fall, 0.0, 1.0) if self.fall > 0 else (t < t3).astype(float)
        return self.peak * np.where(t < t2, up, down) * (t >= t0)

    def samples(self, dt: float, *, t_end: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Times [s] and a_g [m/s²] every dt [s] from `start` to t_end (default: end of fall), with the corners
        included, so that linear interpolation between the samples is the pulse exactly."""
        if self.rise == 0.0 or self.fall == 0.0:
            raise ValueError("a pulse with a jump (rise or fall = 0) has no exact piecewise-linear samples")
        if not (math.isfinite(dt) and dt > 0.0):
            raise ValueError(f"dt must be finite and > 0 s, got {dt!r}")
        end = self.knots[-1] if t_end is None else float(t_end)
        knots = np.array([k for k in self.knots if k <= end] + [end])
        grid = np.arange(self.start, end, dt)
        grid = grid[np.min(np.abs(grid[:, None] - knots[None, :]), axis=1) > 1e-6 * dt]  # no near-duplicates
        t = np.union1d(grid, knots)
        return t, self(t)
