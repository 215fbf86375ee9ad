"""Walls: infinite planes and finite rectangular facets, fixed or moved by a prescribed velocity history.

A wall is a plane through ``origin`` with unit ``normal`` pointing to the side where bodies live. A
facet is the rectangle |(x−o)·u| ≤ a, |(x−o)·v| ≤ b of that plane (v = n × u). Walls translate; they do
not rotate. Their velocity is sampled on a uniform table and interpolated linearly inside the kernels,
so any signal (closed form or record) drives them the same way on every backend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .materials import Material


@dataclass(frozen=True)
class WallMotion:
    """Prescribed translation velocity of a wall [m/s], sampled every ``dt`` [s] from t = 0.

    ``velocity`` has shape (n, 3); beyond the last sample the last value is held.
    """

    velocity: np.ndarray
    dt: float

    def __post_init__(self):
        v = np.ascontiguousarray(self.velocity, dtype=np.float64)
        if v.ndim == 1:
            v = v.reshape(-1, 3) if v.size % 3 == 0 and v.size > 3 else v.reshape(1, 3)
        if v.ndim != 2 or v.shape[1] != 3 or v.shape[0] < 1:
            raise ValueError(f"velocity must have shape (n, 3), got {np.shape(self.velocity)}")
        if not np.all(np.isfinite(v)):
            raise ValueError("velocity must be finite")
        if not (np.isfinite(self.dt) and self.dt > 0):
            raise ValueError(f"dt must be > 0 [s], got {self.dt}")
        object.__setattr__(self, "velocity", v)

    @classmethod
    def constant(cls, velocity) -> WallMotion:
        return cls(np.asarray(velocity, float).reshape(1, 3), 1.0)

    @classmethod
    def from_function(cls, velocity: Callable[[np.ndarray], np.ndarray], t_end: float, dt: float) -> WallMotion:
        """Sample v(t) (vectorised, returns (n, 3) or (n,) for motion along ``direction``) on [0, t_end]."""
        t = np.arange(0.0, t_end + dt, dt)
        v = np.asarray(velocity(t), float)
        return cls(v.reshape(len(t), 3), dt)

    @classmethod
    def along(cls, direction, speed: np.ndarray, dt: float) -> WallMotion:
        """Velocity `speed` [m/s] sampled every dt [s] along a unit direction."""
        d = np.asarray(direction, float)
        d = d / np.linalg.norm(d)
        return cls(np.asarray(speed, float)[:, None] * d[None, :], dt)

    def at(self, t) -> np.ndarray:
        """Velocity at times t [s] (linear interpolation, the kernels' rule), shape (..., 3)."""
        t = np.asarray(t, float)
        s = np.clip(t / self.dt, 0.0, self.velocity.shape[0] - 1)
        i = np.minimum(np.floor(s).astype(int), self.velocity.shape[0] - 1)
        j = np.minimum(i + 1, self.velocity.shape[0] - 1)
        f = (s - i)[..., None]
        return self.velocity[i] * (1 - f) + self.velocity[j] * f


@dataclass(frozen=True)
class Wall:
    """A plane or finite facet [m]; see module docstring."""

    origin: np.ndarray
    normal: np.ndarray
    u_axis: np.ndarray
    material: Material
    half_extents: tuple[float, float] | None = None
    motion: WallMotion | None = None
    name: str = ""

    @property
    def v_axis(self) -> np.ndarray:
        return np.cross(self.normal, self.u_axis)

    def frame(self) -> np.ndarray:
        """Rows: origin, normal, u, v (4 × 3)."""
        return np.stack([self.origin, self.normal, self.u_axis, self.v_axis])


def make_wall(origin, normal, *, material: Material, u_axis=None, size: tuple[float, float] | None = None,
              motion: WallMotion | None = None, name: str = "") -> Wall:
    """Build and check a wall. ``size`` = (length along u, length along v) [m] makes it a facet."""
    o = np.asarray(origin, float).reshape(3)
    n = np.asarray(normal, float).reshape(3)
    if not np.all(np.isfinite(o)):
        raise ValueError(f"wall origin must be finite, got {origin}")
    ln = np.linalg.norm(n)
    if not ln > 0:
        raise ValueError(f"wall normal must be a nonzero vector, got {normal}")
    n = n / ln
    if u_axis is None:
        trial = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        u = trial - trial.dot(n) * n
    else:
        u = np.asarray(u_axis, float).reshape(3)
        u = u - u.dot(n) * n
    lu = np.linalg.norm(u)
    if not lu > 1e-12:
        raise ValueError("wall u_axis must not be parallel to the normal")
    u = u / lu
    half = None
    if size is not None:
        a, b = float(size[0]), float(size[1])
        if not (a > 0 and b > 0 and np.isfinite(a) and np.isfinite(b)):
            raise ValueError(f"wall size must be two lengths > 0 [m], got {size}")
        half = (a / 2.0, b / 2.0)
    return Wall(o, n, u, material, half, motion, name)
