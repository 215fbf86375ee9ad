"""Scaling a record to an intensity: by a factor, to a peak ground acceleration, or to a spectral
acceleration at a period (linear scaling: every sample times one factor, so the whole response spectrum,
velocity and displacement scale by it too).

Intensity measures refer to the record's samples as given, before the base-motion baseline correction
(which shifts the acceleration by a constant of typically < 1e-3 g; dem.model.base_motion).
"""

from __future__ import annotations

import math

import numpy as np

from ..model.base_motion import STANDARD_G, Recorded
from .spectrum import DAMPING, response_spectrum, spectral_acceleration


def sampled(rec: Recorded) -> tuple[np.ndarray, float]:
    """The record's samples [m/s²] on a uniform grid from t = 0 and its interval [s]: the samples
    themselves when they are uniform from t = 0 (AT2 files, most CSVs), else the piecewise-linear record
    resampled at its smallest interval."""
    t, a = rec.time, rec.samples
    h = np.diff(t)
    if t[0] == 0.0 and np.allclose(h, h[0], rtol=1e-9, atol=0.0):
        return a, float(h[0])
    dt = float(h.min())
    grid = np.arange(0.0, t[-1] + 0.5 * dt, dt)
    return np.interp(grid, t, a, left=0.0, right=0.0), dt


def pga_g(rec: Recorded, g: float = STANDARD_G) -> float:
    """Peak ground acceleration of a record [g]."""
    return rec.peak_acceleration / g


def sa_g(rec: Recorded, period: float, *, damping: float = DAMPING, g: float = STANDARD_G) -> float:
    """5 %-damped (by default) pseudo-spectral acceleration of a record at ``period`` [s], in g."""
    a, dt = sampled(rec)
    return float(spectral_acceleration(a, dt, period, damping=damping)) / g


def sa_g_many(recs: list[Recorded], period: float, *, damping: float = DAMPING, g: float = STANDARD_G) -> np.ndarray:
    """:func:`sa_g` of many records [g], in one vectorised pass per sample interval (records of one interval
    are padded to the longest; the padding is not looked at, so each value is that record's own)."""
    out = np.empty(len(recs))
    groups: dict[float, list[int]] = {}
    samples = [sampled(r) for r in recs]
    for i, (_, dt) in enumerate(samples):
        groups.setdefault(dt, []).append(i)
    for dt, idx in groups.items():
        n = max(samples[i][0].size for i in idx)
        acc = np.zeros((len(idx), n))
        for row, i in enumerate(idx):
            acc[row, : samples[i][0].size] = samples[i][0]
        lengths = [samples[i][0].size for i in idx]
        psa = response_spectrum(acc, dt, [period], damping=damping, lengths=lengths).psa[:, 0]
        out[idx] = psa / g
    return out


def factor_for(rec: Recorded, *, scale: float = 1.0, target_pga_g: float = 0.0, target_sa_g: float = 0.0,
               sa_period: float = 1.0, damping: float = DAMPING, g: float = STANDARD_G) -> float:
    """The factor [-] that scales ``rec``: ``scale`` alone, or (when > 0) the factor that brings its PGA to
    ``target_pga_g`` [g] or its Sa(sa_period) to ``target_sa_g`` [g] — at most one target, and with a
    target ``scale`` must stay 1 (ValueError naming the conflict)."""
    if not (math.isfinite(scale) and scale > 0.0):
        raise ValueError(f"scale must be a finite factor > 0, got {scale!r}")
    targets = [(n, v) for n, v in (("target_pga_g", target_pga_g), ("target_sa_g", target_sa_g)) if v]
    if len(targets) > 1:
        raise ValueError("give at most one of target_pga_g and target_sa_g")
    if targets and scale != 1.0:
        raise ValueError(f"give either scale or {targets[0][0]}, not both")
    if not targets:
        return float(scale)
    name, value = targets[0]
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be > 0 [g], got {value!r}")
    if name == "target_pga_g":
        now = pga_g(rec, g)
    else:
        if not (math.isfinite(sa_period) and sa_period > 0.0):
            raise ValueError(f"sa_period must be > 0 [s], got {sa_period!r}")
        now = sa_g(rec, sa_period, damping=damping, g=g)
    if not now > 0.0:
        raise ValueError(f"the record has no {'PGA' if name == 'target_pga_g' else 'Sa'} to scale (all zero)")
    return value / now
