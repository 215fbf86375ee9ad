"""The solid a body's spheres stand for, as the contacts between bodies see it: a union of convex parts, each a
right prism on a convex polygon (boxes, prisms, voussoirs, blocks of a wall) or a frustum of a cone (drums).

Another body's hull spheres meet it as they meet a wall (issue 29): one contact per sphere, with the sphere's
signed distance to the solid — the distance to its closest point outside, minus the depth of the nearest face
inside — so that the joint's pivot is the solid's own edge and a sphere slides on a flat face at exactly μ,
whatever the two packings (docs/joints.md). Each part is a 2-D convex polygon, counter-clockwise:
    PRISM    the polygon in the template's x–z plane, extruded along y over [−T/2, T/2]
             (dem.model.solids.Prism; dem.model.clump.Box: the rectangle of its x and z sizes, T its y size);
    FRUSTUM  the meridian trapezoid (0, −h/2), (R₀, −h/2), (R₁, h/2), (0, h/2) in (ρ, z), revolved about z
             (dem.model.solids.Frustum); its last edge, on the axis, bounds nothing.
A point p's distance to a prism: with q = (p_x, p_z) and the polygon's edges k (outward unit normals n_k), inside
both the polygon (max_k n_k·(q − v_k) ≤ 0) and the slab (|p_y| ≤ T/2) it is the larger of the two depths, along that
face's normal; outside, |p − c| to the closest point c = (closest point of the polygon to q, p_y clamped to the slab)
— exact, since the prism is the product of the polygon and the interval. A frustum: the same in the meridian plane
of p, the normal turned back about the axis. A union of parts (dem.model.solids.Composite: a capital, a glued
column): the least over its parts, exact outside, the depth in the part that holds the point inside.

The kernels compute the same (dem/physics/contact_solid.py) from the rows :func:`device_rows` lays out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .clump import Box
from .solids import Composite, Frustum, Prism

PRISM, FRUSTUM = 0, 1
MAX_PARTS = 8  # convex parts of one body's solid
MAX_VERTICES = 64  # vertices of one part's polygon
FACE_COS = 0.985  # cos 10°: a contact's normal within 10° of a flat face's meets that face (else an edge or corner)
SAME_AREA = 1e-6  # two faces whose areas differ by less than this fraction are the same size


@dataclass(frozen=True)
class ConvexPart:
    """One convex part in a template frame: `kind` (PRISM or FRUSTUM), its polygon's `vertices` (n, 2) [m]
    counter-clockwise, the prism's `half_thickness` [m] (0 for a frustum) and the `offset` of its own frame in the
    template frame [m]."""

    kind: int
    vertices: np.ndarray
    half_thickness: float
    offset: np.ndarray

    @property
    def bound(self) -> float:
        """Radius [m] of a sphere about the part's origin that holds it."""
        r2 = float(np.max(np.sum(self.vertices**2, axis=1)))
        return float(np.sqrt(r2 + self.half_thickness**2))


@dataclass(frozen=True)
class ContactSolid:
    """A body's solid for contacts: its convex parts (template frame)."""

    parts: tuple

    def signed_distance(self, points) -> tuple[np.ndarray, np.ndarray]:
        """Signed distance [m] of each point (n, 3) [m], template frame, to the solid (< 0 inside) and the unit
        normal (n, 3) from the solid towards the point (outside) or out of the nearest face (inside)."""
        p = np.asarray(points, float).reshape(-1, 3)
        best_d = np.full(len(p), np.inf)
        best_n = np.zeros((len(p), 3))
        for part in self.parts:
            d, n = _part_distance(part, p - part.offset)
            take = d < best_d
            best_d[take] = d[take]
            best_n[take] = n[take]
        return best_d, best_n

    def face_area(self, points, directions) -> np.ndarray:
        """Area [m²] of the flat face of the solid that meets each contact: the face whose outward normal lies
        within FACE_ANGLE of the direction (n, 3) and whose plane is nearest the point (n, 3) (template frame);
        −1 where none is (an edge, a corner, a drum's mantle)."""
        p = np.asarray(points, float).reshape(-1, 3)
        d = np.asarray(directions, float).reshape(-1, 3)
        best_gap = np.full(len(p), np.inf)
        area = np.full(len(p), -1.0)
        for part in self.parts:
            for normal, offset, a in _faces(part):
                x = p - part.offset
                ok = d @ normal > FACE_COS
                gap = np.abs(x @ normal - offset)
                take = ok & (gap < best_gap)
                best_gap[take] = gap[take]
                area[take] = a
        return area


def _faces(part: ConvexPart):
    """The flat faces of a convex part: (outward unit normal (3,), its plane's offset n·x [m], area [m²])."""
    v = part.vertices
    out = []
    if part.kind == PRISM:
        t = 2.0 * part.half_thickness
        for k in range(len(v)):
            e = v[(k + 1) % len(v)] - v[k]
            n2 = np.array([e[1], -e[0]]) / np.hypot(*e)
            out.append((np.array([n2[0], 0.0, n2[1]]), float(n2 @ v[k]), float(np.hypot(*e)) * t))
        a = polygon_area(v)
        out += [(np.array([0.0, 1.0, 0.0]), part.half_thickness, a),
                (np.array([0.0, -1.0, 0.0]), part.half_thickness, a)]
    else:
        out += [(np.array([0.0, 0.0, -1.0]), -v[1, 1], np.pi * v[1, 0] ** 2),
                (np.array([0.0, 0.0, 1.0]), v[2, 1], np.pi * v[2, 0] ** 2)]
    return out


def polygon_area(v) -> float:
    """Area [m²] of a polygon (n, 2), counter-clockwise (shoelace)."""
    v = np.asarray(v, float)
    return float(0.5 * np.sum(v[:, 0] * np.roll(v[:, 1], -1) - np.roll(v[:, 0], -1) * v[:, 1]))


def contact_solid(solid) -> ContactSolid | None:
    """The ContactSolid of a template's solid (dem.model.clump.Box, dem.model.solids.Prism, Frustum, Composite
    of these), or None for a template without one."""
    parts = _parts(solid, np.zeros(3))
    if parts is None:
        return None
    if len(parts) > MAX_PARTS:
        raise ValueError(f"a body's solid may have at most {MAX_PARTS} convex parts for contacts, got {len(parts)}")
    return ContactSolid(tuple(parts))


def _parts(solid, offset):
    if isinstance(solid, Box):
        sx, sy, sz = (0.5 * float(s) for s in solid.size)
        return [ConvexPart(PRISM, np.array([[-sx, -sz], [sx, -sz], [sx, sz], [-sx, sz]]), sy, offset)]
    if isinstance(solid, Prism):
        v = np.asarray(solid.vertices, float)
        if len(v) > MAX_VERTICES:
            raise ValueError(f"a prism's polygon may have at most {MAX_VERTICES} vertices for contacts, got {len(v)}")
        _check_convex(v)
        return [ConvexPart(PRISM, v, 0.5 * float(solid.thickness), offset)]
    if isinstance(solid, Frustum):
        h = 0.5 * float(solid.height)
        v = np.array([[0.0, -h], [float(solid.radius), -h], [float(solid.top_radius), h], [0.0, h]])
        return [ConvexPart(FRUSTUM, v, 0.0, offset)]
    if isinstance(solid, Composite):
        out = []
        for s, o in solid.parts:
            sub = _parts(s, offset + np.asarray(o, float))
            if sub is None:
                return None
            out += sub
        return out
    return None


def _check_convex(v: np.ndarray) -> None:
    """Refuse a polygon (n, 2) that is not convex and counter-clockwise (its faces would not bound a convex part)."""
    e = np.roll(v, -1, axis=0) - v
    turn = e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]
    if len(v) < 3 or np.any(turn <= 0.0) or np.any(np.sum(e * e, axis=1) == 0.0):
        k = int(np.argmin(turn)) if len(v) >= 3 else 0
        raise ValueError(f"a prism's polygon must be convex, counter-clockwise, without repeated vertices, for its "
                         f"faces to bound the body (vertex {(k + 1) % max(len(v), 1)} turns the wrong way)")


def _polygon_distance(v: np.ndarray, q: np.ndarray, edges: int):
    """For 2-D points q (n, 2) and the convex polygon v (m, 2), counter-clockwise, of which the first `edges`
    edges bound it: (largest n_k·(q − v_k), its edge's outward normal (n, 2), closest boundary point (n, 2))."""
    smax = np.full(len(q), -np.inf)
    nmax = np.zeros((len(q), 2))
    best2 = np.full(len(q), np.inf)
    closest = np.zeros((len(q), 2))
    for k in range(edges):
        a, b = v[k], v[(k + 1) % len(v)]
        e = b - a
        length2 = float(e @ e)
        nrm = np.array([e[1], -e[0]]) / np.sqrt(length2)
        s = (q - a) @ nrm
        take = s > smax
        smax[take] = s[take]
        nmax[take] = nrm
        t = np.clip(((q - a) @ e) / length2, 0.0, 1.0)
        c = a + t[:, None] * e
        d2 = np.sum((q - c) ** 2, axis=1)
        near = d2 < best2
        best2[near] = d2[near]
        closest[near] = c[near]
    return smax, nmax, closest


def _part_distance(part: ConvexPart, p: np.ndarray):
    if part.kind == PRISM:
        q = p[:, [0, 2]]
        smax, nmax, closest = _polygon_distance(part.vertices, q, len(part.vertices))
        sy = np.abs(p[:, 1]) - part.half_thickness
        inside2 = smax <= 0.0
        inside = inside2 & (sy <= 0.0)
        cq = np.where(inside2[:, None], q, closest)
        c = np.column_stack([cq[:, 0], np.clip(p[:, 1], -part.half_thickness, part.half_thickness), cq[:, 1]])
        diff = p - c
        dist = np.linalg.norm(diff, axis=1)
        normal = diff / np.where(dist > 0, dist, 1.0)[:, None]
        side = smax >= sy
        face_n = np.where(side[:, None], np.column_stack([nmax[:, 0], np.zeros(len(p)), nmax[:, 1]]),
                          np.column_stack([np.zeros(len(p)), np.sign(p[:, 1]) + (p[:, 1] == 0), np.zeros(len(p))]))
        dist = np.where(inside, np.maximum(smax, sy), dist)
        normal = np.where(inside[:, None], face_n, normal)
        return dist, normal
    rho = np.hypot(p[:, 0], p[:, 1])
    radial = np.where(rho[:, None] > 0, p[:, :2] / np.where(rho > 0, rho, 1.0)[:, None], [1.0, 0.0])
    q = np.column_stack([rho, p[:, 2]])
    smax, nmax, closest = _polygon_distance(part.vertices, q, len(part.vertices) - 1)
    inside = smax <= 0.0
    diff = q - closest
    dist2 = np.linalg.norm(diff, axis=1)
    n2 = np.where(inside[:, None], nmax, diff / np.where(dist2 > 0, dist2, 1.0)[:, None])
    dist = np.where(inside, smax, dist2)
    normal = np.column_stack([n2[:, 0:1] * radial, n2[:, 1]])
    return dist, normal


def device_rows(solid: ContactSolid, center) -> np.ndarray:
    """The solid's rows for the kernels (dem/physics/contact_solid.py), for a body whose centre of mass is
    `center` [m] in the template frame: a header (parts, loop iterations of one distance: Σ (vertices + 1) over the
    parts, 0, 0), then per part a header (kind, vertices,
    half thickness, bound [m]), its frame's origin relative to the centre of mass (x, y, z, area [m²]) [m] and a row
    (u, v, n_u, n_v) per vertex: the vertex [m] and the outward unit normal of the edge from it to the next
    (precomputed: the kernels take no square root for it). Shape (rows, 4)."""
    rows = [[len(solid.parts), sum(2 * len(p.vertices) + 1 for p in solid.parts), 0.0, 0.0]]
    for part in solid.parts:
        o = np.asarray(part.offset, float) - np.asarray(center, float)
        rows.append([part.kind, len(part.vertices), part.half_thickness, part.bound])
        rows.append([o[0], o[1], o[2], polygon_area(part.vertices)])
        v = np.asarray(part.vertices, float)
        e = np.roll(v, -1, axis=0) - v
        n = np.column_stack([e[:, 1], -e[:, 0]]) / np.sqrt(np.sum(e * e, axis=1))[:, None]
        rows += [[v[k, 0], v[k, 1], n[k, 0], n[k, 1]] for k in range(len(v))]
    return np.asarray(rows, float)
