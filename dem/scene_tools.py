"""Helpers that scenes share: base shaking tables and resting one body on another."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from .base_motion import BaseMotion
from .walls import WallMotion


def shaking(signal: BaseMotion, *, direction=(1.0, 0.0, 0.0), t_end: float, delay: float = 0.0,
            dt: float | None = None) -> WallMotion:
    """A wall velocity table [m/s] that is still for `delay` [s] (bodies settle), then follows `signal`
    shifted by the delay, sampled every ``dt`` (default: the signal's table step) up to t_end [s]."""
    if delay < 0:
        raise ValueError(f"delay must be >= 0 [s], got {delay}")
    if not t_end > 0:
        raise ValueError(f"t_end must be > 0 [s], got {t_end}")
    step = float(dt or signal.table_dt)
    t = np.arange(0.0, t_end + 2 * step, step)
    return WallMotion.along(direction, np.asarray(signal.velocity(t - delay), float), step)


def resting_height(lower: np.ndarray, lower_r: np.ndarray, upper: np.ndarray, upper_r: np.ndarray) -> float:
    """Vertical shift [m] to apply to the `upper` spheres (world centres, radii) so that they just touch the
    `lower` spheres from above: the largest over laterally overlapping pairs of
    z_lower + √((r_l + r_u)² − d²) − z_upper, with d their horizontal distance. Where lattices do not line
    up, the upper body rests on its best-aligned pairs (its interface is "corrugated", Itiola & El Shamy 2024, §5.4)."""
    reach = float(lower_r.max() + upper_r.max())
    tree = cKDTree(lower[:, :2])
    best = -np.inf
    for k, nbrs in enumerate(tree.query_ball_point(upper[:, :2], reach)):
        if not nbrs:
            continue
        nb = np.asarray(nbrs)
        d2 = np.sum((lower[nb, :2] - upper[k, :2]) ** 2, axis=1)
        s = (lower_r[nb] + upper_r[k]) ** 2 - d2
        ok = s > 0
        if ok.any():
            best = max(best, float(np.max(lower[nb[ok], 2] + np.sqrt(s[ok]) - upper[k, 2])))
    if not np.isfinite(best):
        raise ValueError("the upper body does not lie above the lower one")
    return best
