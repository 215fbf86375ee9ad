"""Right prisms on a convex polygon (a box, a wedge or voussoir, a trapezoid), packed with spheres graded
as dem.model.box_clump packs a box, and edge-true: the prism rests on its own faces and pivots on its own
edges.

Template frame: the polygon's vertices (x, z) [m], counter-clockwise, lie in the x–z plane — the plane of
rocking, or of an arch — and the prism extends along y from −T/2 to T/2 (its thickness). The origin is the
polygon's own; the centre of mass is the polygon's centroid at y = 0. A box W × H × T is the rectangle
±W/2 × ±H/2 (and then gives box_clump's spheres: tests/model/test_prism_drum.py).

Joint faces (``joints``: the polygon's edges, edge k running from vertex k to vertex k + 1; by default its
horizontal edges, the bottom and top faces) carry a zone ``zone`` [m] deep of small spheres (r_joint) in
layers parallel to the face; the core holds large spheres (r_core) in horizontal rows (Itiola & El Shamy
2024, §3: small spheres where a body touches another, large in the core; centres spaced ``spacing_ratio`` ×
the diameter, dem.model.lattice).

Edge-true. The layer that touches a joint face is tangent to it and runs from vertex to vertex: its end
spheres stand right over the face's two vertices, so a flat neighbour (the ground, a block in register)
meets the prism at its own vertices. Resting on face k, the prism pivots on the edge at a vertex, with the
centre of the edge sphere r inside the face right over the vertex: uplift under a held horizontal
acceleration at g b/h with b, h the vertex's horizontal and vertical distance from the centre of mass,
the solid's threshold exactly (the box's derivation, dem/model/box_clump.py: G_z(θ) = [b sin θ + h cos θ]
+ r(1 − cos θ)). Deeper layers and the core rows end centred on the side faces (the lateral envelope is r
outside them, as with box_clump's true edges); the core's rows are tangent to a horizontal face that is
not a joint. Two prisms whose joint faces have the same length, sphere size and spacing have the same
lattice on them: face to face they are in register (two voussoirs of one arch, two blocks of one width).

Hull spheres: those within half a spacing of the envelope (dem.model.lattice.on_hull); along an inclined
side face that is not a joint, whose rows end in steps, within a whole spacing of it.
"""

from __future__ import annotations

import numpy as np

from .clump import ClumpTemplate
from .lattice import (
    ZONE_BASE,
    ZONE_CORE,
    ZONE_JOINT0,
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
from .polygon import check_convex_polygon, chord, clip, edge_frames, extent, inside_distance, signed_area
from .sizing import check_sphere_count
from .solids import Prism

_CACHE = TemplateCache(16)
_FLAT = 1e-9  # an edge whose tangent's z is below this is horizontal


def prism_clump(vertices, thickness: float, *, r_core: float, r_joint: float | None = None, joints=None,
                zone: float = 0.0, spacing_ratio: float = 0.75) -> ClumpTemplate:
    """Graded, edge-true sphere packing of a right prism (module docstring).

    Args:
        vertices: the convex polygon (x, z) [m], counter-clockwise, n ≥ 3, no three collinear.
        thickness: its extent along y [m] (> 0).
        r_core: sphere radius in the core [m].
        r_joint: sphere radius in the joint zones [m] (default r_core).
        joints: indices of the edges that are joint faces (edge k: vertex k → k + 1); default: the
            horizontal edges. Ignored when ``zone`` is 0.
        zone: depth of the joint zones [m] (0: none; else ≥ 2 r_joint, and the zones must leave a core).
        spacing_ratio: centre spacing ÷ diameter, in (0, 1].
    The same arguments give the same template object (its arrays read-only), as box_clump's do.
    """
    try:
        key = (tuple(tuple(float(c) for c in p) for p in vertices), thickness, r_core, r_joint,
               None if joints is None else tuple(joints), zone, spacing_ratio)
    except (TypeError, ValueError):
        key = None  # _build says what is wrong
    return _CACHE.get(key, lambda: _build(vertices, thickness, r_core=r_core, r_joint=r_joint, joints=joints,
                                          zone=zone, spacing_ratio=spacing_ratio))


def _joint_edges(joints, tangent: np.ndarray, zone: float) -> tuple[int, ...]:
    n = len(tangent)
    if zone == 0:
        return ()
    if joints is None:
        return tuple(int(k) for k in np.flatnonzero(np.abs(tangent[:, 1]) < _FLAT))
    try:
        ks = tuple(int(k) for k in joints)
        ok = all(float(k) == int(k) for k in joints)
    except (TypeError, ValueError):
        ks, ok = (), False
    if not ok or any(not 0 <= k < n for k in ks) or len(set(ks)) != len(ks):
        raise ValueError(f"joints must be distinct edge indices in [0, {n - 1}] (edge k: vertex k → k + 1), "
                         f"got {joints!r}")
    return ks


def _build(vertices, thickness, *, r_core, r_joint, joints, zone, spacing_ratio) -> ClumpTemplate:
    v = check_convex_polygon(vertices)
    check_positive(thickness=thickness, r_core=r_core)
    r_joint = r_core if r_joint is None else r_joint
    check_positive(r_joint=r_joint)
    check_spacing_ratio(spacing_ratio)
    check_zone(zone, r_joint)
    tangent, normal, length = edge_frames(v)
    joint = _joint_edges(joints, tangent, zone)
    if zone > 0 and not joint:
        raise ValueError("zone > 0 needs joint faces: the polygon has no horizontal edge; name them with joints=")
    # the thinnest width of the polygon (over the edges' normals) must hold the largest sphere
    depth = np.max(inside_distance(v, v), axis=0)
    r_big = max(r_core, r_joint)
    if 2 * r_big > min(float(depth.min()), thickness):
        which = "r_core" if r_core >= r_joint else "r_joint"
        raise ValueError(f"{which}={r_big} m must be <= half the prism's smallest width, "
                         f"{min(float(depth.min()), thickness) / 2:.6g} m (of its thickness {thickness} m and the "
                         f"polygon's width {float(depth.min()):.6g} m: a prism at least one sphere wide)")
    offsets = {k: zone for k in joint}
    if zone > 0:
        core = clip(v, offsets)
        if core is None or len(core) < 3 or signed_area(core) <= 1e-12 * float(np.max(depth)) ** 2:
            raise ValueError(f"zone={zone} m is too deep: the joint zones leave no core (each must be less "
                             f"than the prism's width across its joint face, {float(depth[list(joint)].min())} m, "
                             "and opposite zones less than that together)")
    s_j, s_c = spacing(r_joint, spacing_ratio), spacing(r_core, spacing_ratio)
    _check_size(v, thickness, r_joint, s_j, r_core, s_c, zone, len(joint))

    ys_j = axis_points(thickness, r_joint, s_j, centred=True)
    ys_c = axis_points(thickness, r_core, s_c, centred=True)
    parts, radii, zones = [], [], []

    def add(points2d: np.ndarray, ys: np.ndarray, r: float, label: int):
        p = np.repeat(points2d, len(ys), axis=0)
        y = np.tile(ys, len(points2d))
        parts.append(np.column_stack([p[:, 0], y, p[:, 1]]))
        radii.append(np.full(len(p), r))
        zones.append(np.full(len(p), label))

    for k in joint:
        label = ZONE_BASE if normal[k, 1] > 1 - _FLAT else ZONE_TOP if normal[k, 1] < -1 + _FLAT else ZONE_JOINT0 + k
        for i, d in enumerate(layer_heights(0.0, zone, r_joint, s_j)):
            origin = v[k] + d * normal[k]
            span = (0.0, float(length[k])) if i == 0 else chord(v, origin, tangent[k])
            if span is None:
                continue
            u = axis_points(span[1] - span[0], r_joint, s_j, centred=True) + 0.5 * (span[0] + span[1])
            add(origin + u[:, None] * tangent[k], ys_j, r_joint, label)

    reach = {k: max(zone - r_core, 0.0) for k in joint}  # the core reaches r_core into the zones (box_clump)
    z_range = extent(v, (0.0, 1.0), offsets=reach)
    if z_range is not None and z_range[1] - z_range[0] >= 2 * r_core:
        for z in layer_heights(z_range[0], z_range[1], r_core, s_c):
            span = chord(v, (0.0, z), (1.0, 0.0), offsets=offsets)
            if span is None:
                continue
            x = axis_points(span[1] - span[0], r_core, s_c, centred=True) + 0.5 * (span[0] + span[1])
            add(np.column_stack([x, np.full(len(x), z)]), ys_c, r_core, ZONE_CORE)

    centers = np.concatenate(parts)
    r = np.concatenate(radii)
    zone_of = np.concatenate(zones)
    return ClumpTemplate(centers, r, _hull(v, thickness, centers, r, joint, tangent, spacing_ratio),
                         Prism(tuple(map(tuple, v.tolist())), float(thickness)), zone_of)


def _hull(v, thickness, centers, r, joint, tangent, ratio) -> np.ndarray:
    """Distance from each centre to the nearest face of the envelope (dem.model.lattice.on_hull): the joint
    faces and horizontal faces themselves (rows tangent to them), r outside the side faces and the end faces
    y = ±T/2 (rows centred on them), and a spacing deeper along an inclined side face (rows end in steps)."""
    dist = inside_distance(v, centers[:, [0, 2]])
    tangent_rows = np.array([k in joint or abs(tangent[k, 1]) < _FLAT for k in range(len(v))])
    vertical = np.abs(tangent[:, 0]) < _FLAT
    gap = dist + np.where(tangent_rows, 0.0, 1.0)[None, :] * r[:, None]
    gap -= np.where(tangent_rows | vertical, 0.0, ratio)[None, :] * r[:, None]
    ends = thickness / 2.0 - np.abs(centers[:, 1]) + r
    return on_hull(np.minimum(gap.min(axis=1), ends), r, ratio)


def _check_size(v, thickness, r_joint, s_j, r_core, s_c, zone, joint_count) -> None:
    """Refuse (dem.model.sizing) a packing too large for the memory, from an upper bound of its sphere count
    computed without allocating: per joint zone layers × the polygon's diameter × the thickness, and the
    core's rows × the diameter × the thickness."""
    diameter = float(np.max(np.linalg.norm(v[:, None, :] - v[None, :, :], axis=2)))
    n = joint_count * (axis_count(zone, r_joint, s_j, centred=False) * axis_count(diameter, r_joint, s_j, centred=True)
                       * axis_count(thickness, r_joint, s_j, centred=True))
    n += (axis_count(diameter, r_core, s_c, centred=False) * axis_count(diameter, r_core, s_c, centred=True)
          * axis_count(thickness, r_core, s_c, centred=True))
    check_sphere_count(n, f"a prism packing ({len(v)}-gon, {diameter:g} m across, {thickness:g} m thick)")
