"""Box clumps graded in height (Itiola & El Shamy 2024, §3, §5.1): small spheres in a base zone (and
optionally a top zone), large spheres in the core, on regular lattices, with edges where the box has them.

Template frame: x along the width W, y along the thickness T, z along the height H; origin at the box
centre. The lattice spacing is ``spacing_ratio`` × the sphere diameter (Itiola & El Shamy's (2024) "overlap ratio 0.75":
neighbouring centres 1.5 R apart), rounded down so the spheres fill each zone evenly and symmetrically.

Edges (``edges``). A box of spheres pivots on the sphere of its edge, so where that sphere sits sets the
rocking geometry. With b = W/2, h = H/2 and the edge sphere's centre at (b', −h') from the centre of mass
G (radius r), a block rocking onto that edge rolls on the sphere without slip; at tilt θ
(tests/physics/test_block_free_rocking.py, validation.rocking.pivot.PivotGeometry):
    G_z(θ) = r + b' sin θ + h' cos θ,   θ̇-arm² A(θ) = (r + b' sin θ + h' cos θ)² + (b' cos θ − h' sin θ)²,
    uplift from rest when |ü_g| > g b'/(h' + r),   V(θ) = m g G_z(θ) peaks at θ = atan(b'/h').
Housner's sharp block (Housner 1963) is G_z = b sin θ + h cos θ, A = b² + h², uplift at g b/h, V peaking
at α = atan(b/h).

- ``"true"`` (default): the outer rows of every zone are centred *on* the four side faces (x = ±W/2,
  y = ±T/2); the bottom row stays tangent to the bottom face and the top row to the top face. An edge
  sphere's centre is then at b' = b, h' = h − r, and its lowest point is the box's own bottom edge
  (b, −h). Then
      G_z(θ) = [b sin θ + h cos θ] + r (1 − cos θ),
      A(θ) = b² + h² + 2r (b sin θ − h (1 − cos θ)) + r² (…),
  so at θ = 0 the contact point, the lever arm and I_O = I_G + m A(0) are the sharp block's exactly, the
  uplift threshold g b'/(h' + r) = g b/h = g tan α is the sharp block's exactly, and so is the quasi-static
  tipping angle on a tilted base (the footprint ends at (b, −h)). What remains is r(1 − cos θ) ≤ r θ²/2 in
  the potential: relative to the drop from θ0 it is ≈ r θ0 / (2b) (Peña block, r = 5 mm, θ0 = 2.9°:
  1e-3), and it moves the angle where V peaks — the overturning angle of free rocking — to
  atan(b/(h − r)) ≈ α + r sin α cos α / h (Peña 14.18° for 14.04°; the Itiola & El Shamy (2024) pier with
  r = 80 mm 9.62° for 9.46°). The box's bottom and top faces, its mass and inertia from the solid box,
  and G are unchanged; the lateral envelope lies r outside the side faces (r of each zone).
- ``"rounded"``: every outer row is tangent to its face (the envelope inside the box, as before issue
  15): b' = b − r, h' = h − r, so the block rocks like a less slender one, α' = atan((b − r)/(h − r))
  (Peña: 13.63°, first impact 2.2 % late; the pier: α' = 0.917 α), and uplifts at g (b − r)/h.

With r1 = 5 mm, r2 = 25 mm and 0.15 m base and top zones, the Peña block (0.25 × 1.0 × 0.754 m) gets
146,320 spheres with true edges (3,570 in its bottom layer) and 136,120 with rounded edges (3,333);
Itiola & El Shamy 2024, Table 2 reports 132,231 without the zone sizes.
"""

from __future__ import annotations

import numpy as np

from .clump import Box, ClumpTemplate
from .lattice import ZONE_BASE, ZONE_CORE, ZONE_TOP, TemplateCache, axis_points, layer_heights, on_hull
from .sizing import check_box

__all__ = ["EDGES", "ZONE_BASE", "ZONE_CORE", "ZONE_TOP", "box_clump"]
EDGES = ("true", "rounded")
"""Edge layouts of :func:`box_clump` (module docstring)."""


def _zone(w: float, t: float, z_lo: float, z_hi: float, radius: float, ratio: float, centred: bool,
          step: tuple[float | None, float | None]) -> np.ndarray:
    s = ratio * 2.0 * radius
    xs = axis_points(w, radius, s, centred=centred, step=step[0])
    ys = axis_points(t, radius, s, centred=centred, step=step[1])
    zs = layer_heights(z_lo, z_hi, radius, s)
    g = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1)
    return g.reshape(-1, 3)


_CACHE = TemplateCache(16)  # templates kept: a batch of worlds builds the same scene many times


def box_clump(width: float, height: float, thickness: float, *, r_core: float, r_base: float | None = None,
              r_top: float | None = None, base_zone: float = 0.0, top_zone: float = 0.0,
              spacing_ratio: float = 0.75, edges: str = "true",
              zone_step: tuple[float | None, float | None] | None = None) -> ClumpTemplate:
    """Graded sphere packing of a W × H × T box [m] (see :func:`_build`). The same arguments give the same
    template object, built once (its arrays are read-only): a batch of 1,000 worlds of one scene builds its
    146,000-sphere block once, not 1,000 times."""
    key = (width, height, thickness, r_core, r_base, r_top, base_zone, top_zone, spacing_ratio, edges,
           None if zone_step is None else tuple(zone_step))
    return _CACHE.get(key, lambda: _build(
        width, height, thickness, r_core=r_core, r_base=r_base, r_top=r_top, base_zone=base_zone,
        top_zone=top_zone, spacing_ratio=spacing_ratio, edges=edges, zone_step=zone_step))


def _checked(width, height, thickness, r_core, r_base, r_top, base_zone, top_zone, spacing_ratio, edges, zone_step):
    """The arguments of :func:`_build` checked (a ValueError naming the first bad one and its range), with the
    zones' radii and zone_step filled in: (r_base, r_top, zone_step)."""
    for name, v in (("width", width), ("height", height), ("thickness", thickness), ("r_core", r_core)):
        if not (np.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be > 0 [m], got {v}")
    if edges not in EDGES:
        raise ValueError(f"edges must be one of {', '.join(EDGES)}, got {edges!r}")
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
    zone_step = (None, None) if zone_step is None else tuple(zone_step)
    if len(zone_step) != 2 or not all(s is None or (np.isfinite(s) and s > 0) for s in zone_step):
        raise ValueError(f"zone_step must be two spacings > 0 [m] (or None), got {zone_step}")
    return r_base, r_top, zone_step


def _build(width: float, height: float, thickness: float, *, r_core: float, r_base: float | None = None,
           r_top: float | None = None, base_zone: float = 0.0, top_zone: float = 0.0,
           spacing_ratio: float = 0.75, edges: str = "true",
           zone_step: tuple[float | None, float | None] | None = None) -> ClumpTemplate:
    """Graded sphere packing of a W × H × T box [m].

    Args:
        width, height, thickness: box size along x, z, y [m] (all > 0).
        r_core: sphere radius in the core [m].
        r_base: sphere radius in the base zone [m] (default r_core); r_top likewise for the top zone.
        base_zone, top_zone: heights of the small-sphere zones [m] (0: none), with base + top < H.
        spacing_ratio: centre spacing ÷ diameter, in (0, 1] (1: spheres touching; 0.75: Itiola & El Shamy 2024).
        edges: ``"true"`` (outer rows centred on the side faces: the box pivots on its own edges) or
            ``"rounded"`` (outer rows tangent to the side faces: it pivots r inside them); module docstring.
        zone_step: exact centre spacing (along x, along y) [m] of the base and top zones' lattices (of the
            whole box if it has one zone) instead of the one ``spacing_ratio`` gives, so that two bodies'
            lattices can be put in register (scenes/pier_deck.py); None along an axis keeps the default.
            The lattice spans (W or T, less 2r with rounded edges) must be whole numbers of steps.
    Hull spheres are those whose surface reaches the envelope's faces: distance from the centre to the
    nearest envelope face (the bottom and top faces; the side faces, or r outside them with true edges)
    less than R + spacing/2 (interior spheres of an overlapping lattice are covered by others).
    """
    check_box(width, height, thickness, r_core=r_core, r_base=r_base, r_top=r_top, base_zone=base_zone,
              top_zone=top_zone, spacing_ratio=spacing_ratio, edges=edges,
              zone_step=zone_step)  # refuses a packing too large for the memory
    r_base, r_top, zone_step = _checked(width, height, thickness, r_core, r_base, r_top, base_zone, top_zone,
                                        spacing_ratio, edges, zone_step)

    centred = edges == "true"
    h2 = height / 2.0
    parts, radii, zones = [], [], []
    core_lo = -h2 + base_zone
    core_hi = h2 - top_zone
    if base_zone > 0:
        p = _zone(width, thickness, -h2, core_lo, r_base, spacing_ratio, centred, zone_step)
        parts.append(p)
        radii.append(np.full(len(p), r_base))
        zones.append(np.full(len(p), ZONE_BASE))
        core_lo -= r_core  # let the core lattice reach into the small zone so no gap opens between them
        core_lo = max(core_lo, -h2)
    if top_zone > 0:
        p = _zone(width, thickness, core_hi, h2, r_top, spacing_ratio, centred, zone_step)
        parts.append(p)
        radii.append(np.full(len(p), r_top))
        zones.append(np.full(len(p), ZONE_TOP))
        core_hi = min(core_hi + r_core, h2)
    if core_hi - core_lo >= 2 * r_core:
        p = _zone(width, thickness, core_lo, core_hi, r_core, spacing_ratio, centred,
                  zone_step if base_zone == 0 and top_zone == 0 else (None, None))
        parts.append(p)
        radii.append(np.full(len(p), r_core))
        zones.append(np.full(len(p), ZONE_CORE))
    centers = np.concatenate(parts)
    r = np.concatenate(radii)
    zone = np.concatenate(zones)
    # distance from each centre to the nearest face of the envelope: the side faces lie r outside the box's
    # with true edges (a sphere centred on a face reaches r beyond it), the bottom and top faces are the box's
    half = np.array([width, thickness, height]) / 2.0
    gap = half - np.abs(centers)
    if centred:
        gap[:, :2] += r[:, None]
    hull = on_hull(np.min(gap, axis=1), r, spacing_ratio)
    return ClumpTemplate(centers, r, hull, Box((width, thickness, height)), zone)
