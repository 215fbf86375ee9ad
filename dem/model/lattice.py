"""What the clump builders share (dem.model.box_clump, prism_clump, drum_clump): regular rows of sphere
centres, the zone labels, the hull test, the checks of sphere sizes, and the cache of built templates.

Grading (Itiola & El Shamy 2024, §3, §5.1): small spheres in a zone along each face that carries or
touches another body (a joint), large spheres in the core. Lattices: centres spaced ``spacing_ratio`` ×
the diameter (Itiola & El Shamy's (2024) "overlap ratio 0.75": neighbouring centres 1.5 R apart), the
spacing rounded down so that a row fills its span evenly and symmetrically (:func:`axis_points`). A row
across a joint face is tangent to it (the body rests on its face); a row that ends on a side face is
centred on it (the body pivots on its own edge: dem/model/box_clump.py derives the geometry).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

ZONE_BASE, ZONE_CORE, ZONE_TOP = 0, 1, 2
"""Zone labels of a template's spheres (ClumpTemplate.zone): the bottom joint zone, the core, the top joint
zone; prism_clump labels a joint zone on a face that is neither bottom nor top ZONE_JOINT0 + its edge index
(dem.model.mesh_clump: ZONE_JOINT0 + the joint's index)."""
ZONE_JOINT0 = 3
ZONE_SURFACE = 100
"""Zone label of a mesh body's skin: its surface layer away from its joint faces (dem.model.mesh_clump)."""


def spacing(radius: float, ratio: float) -> float:
    """Centre spacing [m] of spheres of `radius` [m] at ``spacing_ratio`` `ratio` (spacing ÷ diameter)."""
    return ratio * 2.0 * radius


def axis_points(length: float, radius: float, spacing: float, *, centred: bool,
                step: float | None = None) -> np.ndarray:
    """Symmetric centres along one side of `length` [m]: from −L/2+R to L/2−R (tangent to the faces) or
    from −L/2 to L/2 (``centred`` on them), with the largest spacing ≤ `spacing` that fills the span evenly,
    or exactly `step` [m] (the span must then be a whole number of steps)."""
    span = length if centred else length - 2.0 * radius
    if span < -1e-12:
        raise ValueError(f"sphere radius {radius} m does not fit in a length of {length} m")
    if step is not None:
        n = span / step
        if abs(n - round(n)) > 1e-6 * max(n, 1.0):
            raise ValueError(f"zone_step={step} m must divide the lattice span {span} m into whole steps")
        n = int(round(n)) + 1
    else:
        n = max(1, math.ceil(span / spacing - 1e-9) + 1) if span > 1e-12 else 1
    return np.linspace(-span / 2, span / 2, n) if n > 1 else np.zeros(1)


def axis_count(length: float, radius: float, spacing: float, *, centred: bool) -> float:
    """How many centres :func:`axis_points` places (a float, computed without allocating: counts can
    exceed 2⁶³ for absurd inputs, which dem.model.sizing then refuses)."""
    span = length if centred else length - 2.0 * radius
    if span <= 1e-12:
        return 1.0
    return max(1.0, math.ceil(span / spacing - 1e-9) + 1.0)


def layer_heights(z_lo: float, z_hi: float, radius: float, spacing: float) -> np.ndarray:
    """Heights [m] of the sphere layers that fill the slab z_lo ≤ z ≤ z_hi, the outer layers tangent to
    its faces."""
    return axis_points(z_hi - z_lo, radius, spacing, centred=False) + 0.5 * (z_lo + z_hi)


def on_hull(gap: np.ndarray, radii: np.ndarray, ratio: float) -> np.ndarray:
    """Hull flags: a sphere can touch the outside when its centre is nearer the envelope than its radius
    plus half a spacing (`gap` [m]: distance from the centre to the nearest face of the envelope); deeper
    spheres of an overlapping lattice are covered by others."""
    return gap < radii + ratio * radii + 1e-9


def check_positive(**values: float) -> None:
    """ValueError naming the first value that is not a finite number > 0 [m]."""
    for name, v in values.items():
        try:
            ok = math.isfinite(float(v)) and float(v) > 0
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(f"{name} must be a finite number > 0 [m], got {v!r}")


def check_spacing_ratio(ratio: float) -> None:
    if not (isinstance(ratio, (int, float)) and 0.0 < ratio <= 1.0):
        raise ValueError(f"spacing_ratio must be in (0, 1], got {ratio!r}")


def check_zone(zone: float, radius: float, name: str = "zone") -> None:
    """A joint zone of depth `zone` [m] (0: none) must hold one layer of spheres of `radius` [m]."""
    if not (isinstance(zone, (int, float)) and math.isfinite(zone) and zone >= 0):
        raise ValueError(f"{name} must be >= 0 [m], got {zone!r}")
    if 0 < zone < 2 * radius:
        raise ValueError(f"{name}={zone} m must hold one sphere layer (>= 2 r_joint = {2 * radius} m), or be 0")


class TemplateCache:
    """The same builder arguments give the same template object, built once, its arrays read-only: a batch
    of 1,000 worlds of one scene builds its 146,000-sphere block once, not 1,000 times."""

    def __init__(self, size: int = 16):
        self.size = size
        self._items: dict = {}

    def get(self, key, build: Callable[[], object]):
        try:
            hit = self._items.get(key)
        except TypeError:  # unhashable arguments: the builder says what is wrong with them
            key, hit = None, None
        if hit is not None:
            return hit
        tpl = build()
        for a in (tpl.centers, tpl.radii, tpl.hull, tpl.zone):
            a.flags.writeable = False
        if key is not None:
            if len(self._items) >= self.size:
                self._items.pop(next(iter(self._items)))
            self._items[key] = tpl
        return tpl
