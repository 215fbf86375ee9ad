"""Ground motion in three components: a record set (two horizontal components and a vertical, or any subset)
moving one table together.

A :class:`MotionSet` holds up to three signals (dem.model.base_motion.BaseMotion: a record, a sine, ...): the
first horizontal component (along the shaking direction), the second (along the horizontal direction 90°
from it, towards +y from +x) and the vertical (along +z, up). Each keeps its own baseline correction, so each
component of the table ends at rest. Its table (:meth:`wall_motion`) is the sum of the three, a wall velocity
[m/s] of shape (n, 3), which is what the kernels read for every moving wall (dem.model.walls.WallMotion): the
table moves in 3D with no change below the model layer.

As a single signal, a set is its first horizontal component (``acceleration``, ``velocity``, ``displacement``
[m/s², m/s, m] along it, ``duration``, ``peak_acceleration``), so that code written for one component (a
scene's summary facts, a horizontal-only reference) reads the component it always read; the others are
:attr:`transverse` and :attr:`vertical` (None: not given). A set without a first horizontal component reads
0 there.

Vertical ground acceleration a_v changes gravity as the bodies feel it, g + a_v: for a rigid block rocking
about an edge (Housner 1963 with a vertical base motion; Zhang & Makris 2001):
θ̈ = −p² [(1 + a_v/g) sin(α sgnθ − θ) + (a_h/g) cos(α sgnθ − θ)] (validation.rocking takes ``vertical=``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .base_motion import BaseMotion
from .walls import WallMotion

VERTICAL = (0.0, 0.0, 1.0)


@dataclass(frozen=True)
class MotionSet:
    """Up to three components of ground motion (module docstring). Give at least one."""

    horizontal: BaseMotion | None = None
    transverse: BaseMotion | None = None
    vertical: BaseMotion | None = None

    def __post_init__(self):
        if self.horizontal is None and self.transverse is None and self.vertical is None:
            raise ValueError("a motion set needs at least one component (horizontal, transverse or vertical)")

    @property
    def components(self) -> list[tuple[str, BaseMotion]]:
        """The given components, named: ('horizontal' | 'transverse' | 'vertical', signal)."""
        return [(k, s) for k, s in (("horizontal", self.horizontal), ("transverse", self.transverse),
                                    ("vertical", self.vertical)) if s is not None]

    @property
    def duration(self) -> float:
        """Time [s] after which every component's acceleration is 0."""
        return max(s.duration for _k, s in self.components)

    @property
    def table_dt(self) -> float:
        """The finest of the components' table intervals [s]."""
        return min(s.table_dt for _k, s in self.components)

    @property
    def peak_acceleration(self) -> float:
        """The first horizontal component's PGA [m/s²] (0 without one)."""
        return float(getattr(self.horizontal, "peak_acceleration", 0.0)) if self.horizontal is not None else 0.0

    def scaled(self, factor: float) -> MotionSet:
        """Every component scaled by one factor (a set keeps its components' ratios)."""
        return MotionSet(*(None if s is None else s.scaled(factor)
                           for s in (self.horizontal, self.transverse, self.vertical)))

    def _first(self, name: str, t):
        if self.horizontal is None:
            return np.zeros_like(np.asarray(t, float)) if np.ndim(t) else 0.0
        return getattr(self.horizontal, name)(t)

    def acceleration(self, t):
        """First horizontal component's acceleration [m/s²] at t [s]."""
        return self._first("acceleration", t)

    def velocity(self, t):
        """First horizontal component's velocity [m/s] at t [s]."""
        return self._first("velocity", t)

    def displacement(self, t):
        """First horizontal component's displacement [m] at t [s]."""
        return self._first("displacement", t)

    def directions(self, direction=(1.0, 0.0, 0.0)) -> dict[str, np.ndarray]:
        """Unit world vectors of the components for a first horizontal component along ``direction``
        (horizontal): the transverse 90° from it towards +y from +x, the vertical up."""
        d = np.asarray(direction, float)
        d = np.array([d[0], d[1], 0.0])
        if not np.linalg.norm(d) > 0.0:
            raise ValueError(f"the shaking direction must be horizontal and nonzero, got {direction!r}")
        d /= np.linalg.norm(d)
        return {"horizontal": d, "transverse": np.array([-d[1], d[0], 0.0]), "vertical": np.array(VERTICAL)}

    def vector(self, quantity: str, t, direction=(1.0, 0.0, 0.0)) -> np.ndarray:
        """The table's acceleration, velocity or displacement (``quantity``) [m/s², m/s, m] at times t [s], as
        world vectors, shape (len(t), 3)."""
        t = np.atleast_1d(np.asarray(t, float))
        axes = self.directions(direction)
        out = np.zeros((t.size, 3))
        for name, s in self.components:
            out += np.asarray(getattr(s, quantity)(t), float).reshape(-1, 1) * axes[name][None, :]
        return out

    def wall_motion(self, direction=(1.0, 0.0, 0.0), *, dt: float | None = None,
                    t_end: float | None = None, delay: float = 0.0) -> WallMotion:
        """The table's velocity table [m/s], shape (n, 3), every dt [s] (default: the finest component's)
        on [0, t_end] (default: the set's duration), still for ``delay`` [s] first."""
        t_end = self.duration + delay if t_end is None else float(t_end)
        if not (math.isfinite(t_end) and t_end > 0):
            raise ValueError(f"t_end must be > 0 [s], got {t_end}")
        step = float(dt or self.table_dt)
        t = np.arange(0.0, t_end + 2 * step, step) - delay
        v = np.where(t[:, None] >= 0.0, self.vector("velocity", np.maximum(t, 0.0), direction), 0.0)
        return WallMotion(v, step)
