"""Drums: cylinders (or frustums: a top radius other than the bottom one, the taper of a column with
entasis) packed with spheres graded as dem.model.box_clump packs a box, and edge-true: the drum rests on
its own faces and pivots on its own rim.

Template frame: the axis along z, the origin on it at mid-height; the bottom face at z = −H/2 has radius
R, the top face at z = +H/2 radius R_t. Joint zones ``zone`` and ``top_zone`` [m] deep of small spheres
(r_joint) under the two faces, large spheres (r_core) in the core (Itiola & El Shamy 2024, §3; centres spaced
``spacing_ratio`` × the diameter, dem.model.lattice).

Each layer of spheres at height z is a disc of the drum's radius ρ there: a ring of spheres centred on
the rim, N of them (a multiple of 4, so that one sits at each of ±x and ±y) spaced ≤ one lattice spacing
round it, and inside it the square lattice that box_clump lays on a 2ρ × 2ρ face (dem.model.lattice.
axis_points, centred), less its points within half a step of the rim. The layer that touches a face is
the disc of that face's own radius (R at the bottom, R_t at the top), so its ring stands right over the
face's rim.

Edge-true. Rocking about y, the drum pivots on the ring sphere at x = ±R, whose centre is r inside the
bottom face right over the rim: as a box's edge sphere (dem/model/box_clump.py) its lowest point is the
solid's rim point (R, −H/2), the uplift threshold under a held horizontal acceleration is g R/h exactly
(h the height of the centre of mass above the base; H/2 for a cylinder), and the potential differs from the
rigid cylinder's by r(1 − cos θ). Between ring spheres (a direction other than ±x, ±y) the pivot is the
chord between two of them, at most R (1 − cos(π/N)) inside the rim (N ≥ 4πR/s: 0.3 % for R = 0.3 m and
r = 15 mm). The lateral envelope lies r outside the mantle, as box_clump's with true edges. Two drums with
the same face radius, sphere size and spacing have the same lattice on that face: stacked axis on axis
they meet in register, sphere on sphere.
"""

from __future__ import annotations

import math

import numpy as np

from .clump import ClumpTemplate
from .lattice import (
    ZONE_BASE,
    ZONE_CORE,
    ZONE_TOP,
    TemplateCache,
    axis_count,
    axis_points,
    check_positive,
    check_spacing_ratio,
    check_zone,
    layer_heights,
    on_hull,
    spacing,
)
from .sizing import check_sphere_count
from .solids import Frustum

_CACHE = TemplateCache(16)


def drum_clump(radius: float, height: float, *, top_radius: float | None = None, r_core: float,
               r_joint: float | None = None, zone: float = 0.0, top_zone: float | None = None,
               spacing_ratio: float = 0.75) -> ClumpTemplate:
    """Graded, edge-true sphere packing of a drum (module docstring).

    Args:
        radius: radius of the bottom face R [m] (> 0, ≥ every sphere radius).
        height: H [m] (> 0).
        top_radius: radius of the top face [m] (default R: a cylinder).
        r_core: sphere radius in the core [m].
        r_joint: sphere radius in the joint zones under both faces [m] (default r_core).
        zone: depth of the joint zone under the bottom face [m] (0: none; else ≥ 2 r_joint).
        top_zone: depth of the joint zone under the top face [m] (default ``zone``); the two < H together.
        spacing_ratio: centre spacing ÷ diameter, in (0, 1].
    The same arguments give the same template object (its arrays read-only), as box_clump's do.
    """
    key = (radius, height, top_radius, r_core, r_joint, zone, top_zone, spacing_ratio)
    return _CACHE.get(key, lambda: _build(radius, height, top_radius=top_radius, r_core=r_core, r_joint=r_joint,
                                          zone=zone, top_zone=zone if top_zone is None else top_zone,
                                          spacing_ratio=spacing_ratio))


def disc(rho: float, radius: float, step: float) -> np.ndarray:
    """Centres (x, y) [m] of one layer of spheres of `radius` [m] on a disc of radius `rho` [m] at spacing
    ≤ `step` [m]: the rim ring (a multiple of 4 spheres, one at angle 0) and the square lattice inside it."""
    n_ring = 4 * max(1, math.ceil(2 * math.pi * rho / (4 * step) - 1e-9))
    a = 2 * math.pi * np.arange(n_ring) / n_ring
    ring = np.column_stack([rho * np.cos(a), rho * np.sin(a)])
    g = axis_points(2 * rho, radius, step, centred=True)
    pitch = float(g[1] - g[0]) if len(g) > 1 else step
    xx, yy = np.meshgrid(g, g, indexing="ij")
    inner = np.column_stack([xx.ravel(), yy.ravel()])
    inner = inner[np.hypot(inner[:, 0], inner[:, 1]) < rho - 0.5 * pitch]
    return np.concatenate([ring, inner])


def _build(radius, height, *, top_radius, r_core, r_joint, zone, top_zone, spacing_ratio) -> ClumpTemplate:
    top_radius = radius if top_radius is None else top_radius
    r_joint = r_core if r_joint is None else r_joint
    check_positive(radius=radius, height=height, top_radius=top_radius, r_core=r_core, r_joint=r_joint)
    check_spacing_ratio(spacing_ratio)
    check_zone(zone, r_joint)
    check_zone(top_zone, r_joint, "top_zone")
    for name, r in (("r_joint", r_joint), ("r_core", r_core)):
        if r > min(radius, top_radius):
            raise ValueError(f"radius and top_radius must be >= {name} = {r} m (a drum at least one sphere "
                             f"wide), got {radius} m and {top_radius} m")
    if zone + top_zone >= height:
        raise ValueError(f"zone + top_zone must be < height = {height} m (the joint zones leave a core), got "
                         f"{zone} + {top_zone} m")
    h2 = height / 2.0
    s_j, s_c = spacing(r_joint, spacing_ratio), spacing(r_core, spacing_ratio)
    lo = max(-h2 + zone - r_core, -h2) if zone > 0 else -h2  # the core reaches r_core into the zones
    hi = min(h2 - top_zone + r_core, h2) if top_zone > 0 else h2
    _check_size(radius, top_radius, height, zone + top_zone, r_joint, s_j, r_core, s_c, hi - lo)
    layers = []  # (z [m], sphere radius [m], spacing [m], zone label)
    if zone > 0:
        layers += [(z, r_joint, s_j, ZONE_BASE) for z in layer_heights(-h2, -h2 + zone, r_joint, s_j)]
    if top_zone > 0:
        layers += [(z, r_joint, s_j, ZONE_TOP) for z in layer_heights(h2 - top_zone, h2, r_joint, s_j)]
    if hi - lo >= 2 * r_core:
        layers += [(z, r_core, s_c, ZONE_CORE) for z in layer_heights(lo, hi, r_core, s_c)]

    parts, radii, zones, rims = [], [], [], []
    tol = 1e-9 * height
    for z, r, s, label in layers:
        if z - r <= -h2 + tol:
            rho = radius  # the layer on the bottom face: its ring over the face's rim
        elif z + r >= h2 - tol:
            rho = top_radius
        else:
            rho = radius + (top_radius - radius) * (z + h2) / height
        xy = disc(rho, r, s)
        parts.append(np.column_stack([xy, np.full(len(xy), z)]))
        radii.append(np.full(len(xy), r))
        zones.append(np.full(len(xy), label))
        rims.append(np.full(len(xy), rho))
    centers = np.concatenate(parts)
    r = np.concatenate(radii)
    rim = np.concatenate(rims)
    # distance to the envelope: the faces (layers tangent to them), r outside the mantle (rings centred on it)
    gap = np.minimum(np.minimum(centers[:, 2] + h2, h2 - centers[:, 2]),
                     rim - np.hypot(centers[:, 0], centers[:, 1]) + r)
    return ClumpTemplate(centers, r, on_hull(gap, r, spacing_ratio), Frustum(float(radius), float(height),
                                                                           float(top_radius)),
                         np.concatenate(zones))


def _check_size(radius, top_radius, height, zone, r_joint, s_j, r_core, s_c, core_height) -> None:
    """Refuse (dem.model.sizing) a packing too large for the memory, from an upper bound of its sphere count
    computed without allocating: layers × (square lattice + ring) of the larger face."""
    rho = max(radius, top_radius)

    def per_layer(s: float) -> float:
        return (2 * rho / s + 2) ** 2 + 2 * math.pi * rho / s + 4

    n = 2 * axis_count(zone, r_joint, s_j, centred=False) * per_layer(s_j) if zone > 0 else 0.0  # a bound
    n += axis_count(max(core_height, 0.0), r_core, s_c, centred=False) * per_layer(s_c)
    check_sphere_count(n, f"a drum packing (radius {rho:g} m, height {height:g} m)")
