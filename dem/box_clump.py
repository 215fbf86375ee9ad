"""Box clumps graded in height (004 §3, §5.1): small spheres in a base zone (and optionally a top zone),
large spheres in the core, on lattices whose outermost spheres are tangent to the box faces.

Template frame: x along the width W, y along the thickness T, z along the height H; origin at the box
centre. The lattice spacing is ``spacing_ratio`` × the sphere diameter (004's "overlap ratio 0.75":
neighbouring centres 1.5 R apart), rounded down so the spheres fill each zone evenly and symmetrically.

With r1 = 5 mm, r2 = 25 mm and 0.15 m base and top zones, the Peña block (0.25 × 1.0 × 0.754 m) gets
134,800 spheres, 3,300 in its bottom layer; 004 Table 2 reports 132,231 without the zone sizes.
"""

from __future__ import annotations

import math

import numpy as np

from .clump import Box, ClumpTemplate
from .sizing import check_box

ZONE_BASE, ZONE_CORE, ZONE_TOP = 0, 1, 2


def _axis(length: float, radius: float, spacing: float) -> np.ndarray:
    """Centres from −L/2+R to L/2−R with a spacing no larger than `spacing` (symmetric)."""
    span = length - 2.0 * radius
    if span < -1e-12:
        raise ValueError(f"sphere radius {radius} m does not fit in a length of {length} m")
    n = max(1, math.ceil(span / spacing - 1e-9) + 1) if span > 1e-12 else 1
    return np.linspace(-span / 2, span / 2, n) if n > 1 else np.zeros(1)


def _zone(w: float, t: float, z_lo: float, z_hi: float, radius: float, ratio: float) -> np.ndarray:
    s = ratio * 2.0 * radius
    xs = _axis(w, radius, s)
    ys = _axis(t, radius, s)
    zs = _axis(z_hi - z_lo, radius, s) + 0.5 * (z_lo + z_hi)
    g = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1)
    return g.reshape(-1, 3)


def box_clump(width: float, height: float, thickness: float, *, r_core: float, r_base: float | None = None,
              r_top: float | None = None, base_zone: float = 0.0, top_zone: float = 0.0,
              spacing_ratio: float = 0.75) -> ClumpTemplate:
    """Graded sphere packing of a W × H × T box [m].

    Args:
        width, height, thickness: box size along x, z, y [m] (all > 0).
        r_core: sphere radius in the core [m].
        r_base: sphere radius in the base zone [m] (default r_core); r_top likewise for the top zone.
        base_zone, top_zone: heights of the small-sphere zones [m] (0: none), with base + top < H.
        spacing_ratio: centre spacing ÷ diameter, in (0, 1] (1: spheres touching; 0.75: 004).
    Hull spheres are those whose surface reaches the box surface: distance from centre to the nearest
    face less than R + spacing/2 (interior spheres of an overlapping lattice are covered by others).
    """
    check_box(width, height, thickness, r_core=r_core, r_base=r_base, r_top=r_top, base_zone=base_zone,
              top_zone=top_zone, spacing_ratio=spacing_ratio)  # refuses a packing too large for the memory
    for name, v in (("width", width), ("height", height), ("thickness", thickness), ("r_core", r_core)):
        if not (np.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be > 0 [m], got {v}")
    r_base = r_core if r_base is None else r_base
    r_top = r_core if r_top is None else r_top
    for name, v in (("r_base", r_base), ("r_top", r_top)):
        if not (np.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be > 0 [m], got {v}")
    if not 0.0 < spacing_ratio <= 1.0:
        raise ValueError(f"spacing_ratio must be in (0, 1], got {spacing_ratio}")
    if base_zone < 0 or top_zone < 0 or base_zone + top_zone >= height:
        raise ValueError(f"base_zone and top_zone must be >= 0 with base_zone + top_zone < height={height} m, "
                         f"got {base_zone}, {top_zone}")
    for name, r in (("r_core", r_core), ("r_base", r_base), ("r_top", r_top)):
        if 2 * r > min(width, thickness):
            raise ValueError(f"{name}={r} m is larger than half the smallest box side {min(width, thickness)} m")
    if base_zone > 0 and 2 * r_base > base_zone:
        raise ValueError(f"base_zone={base_zone} m must hold one sphere layer (>= 2 r_base = {2 * r_base} m)")
    if top_zone > 0 and 2 * r_top > top_zone:
        raise ValueError(f"top_zone={top_zone} m must hold one sphere layer (>= 2 r_top = {2 * r_top} m)")

    h2 = height / 2.0
    parts, radii, zones = [], [], []
    core_lo = -h2 + base_zone
    core_hi = h2 - top_zone
    if base_zone > 0:
        p = _zone(width, thickness, -h2, core_lo, r_base, spacing_ratio)
        parts.append(p)
        radii.append(np.full(len(p), r_base))
        zones.append(np.full(len(p), ZONE_BASE))
        core_lo -= r_core  # let the core lattice reach into the small zone so no gap opens between them
        core_lo = max(core_lo, -h2)
    if top_zone > 0:
        p = _zone(width, thickness, core_hi, h2, r_top, spacing_ratio)
        parts.append(p)
        radii.append(np.full(len(p), r_top))
        zones.append(np.full(len(p), ZONE_TOP))
        core_hi = min(core_hi + r_core, h2)
    if core_hi - core_lo >= 2 * r_core:
        p = _zone(width, thickness, core_lo, core_hi, r_core, spacing_ratio)
        parts.append(p)
        radii.append(np.full(len(p), r_core))
        zones.append(np.full(len(p), ZONE_CORE))
    centers = np.concatenate(parts)
    r = np.concatenate(radii)
    zone = np.concatenate(zones)
    half = np.array([width, thickness, height]) / 2.0
    face_gap = np.min(half - np.abs(centers), axis=1)  # distance from centre to nearest face
    hull = face_gap < r + spacing_ratio * r + 1e-9
    return ClumpTemplate(centers, r, hull, Box((width, thickness, height)), zone)
