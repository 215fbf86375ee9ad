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
from .solid_table import FRUSTUM, PRISM, SolidTable
from .solids import Composite, Frustum, Prism

MAX_PARTS = 8  # convex parts of one body's solid
MAX_VERTICES = 64  # vertices of one part's polygon
FACE_COS = 0.985  # cos 10°: a contact's normal within 10° of a flat face's meets that face (else an edge or corner)
SAME_AREA = 1e-6  # two faces whose areas differ by less than this fraction are the same size
MAX_TURN = 0.17  # [rad]: the search names no face for bodies that may turn more between two searches (past
# about 10°, sin 10° = 0.174, no face is sure to hold a contact within 10° of its normal: _face_bounds)
IDLE, GENERAL = -2, -1  # an entry's hint (classify_entries): left out; the whole narrow phase each step
CARRY = 1  # steady_share: the share stays 1
FACE_CODE = 128  # a hint ≥ 0: part header row (from the solid's first) × FACE_CODE + the face's index in the part
# (the sphere's closest point on the solid stays in that face or on its rim)
# a hint ≤ SHARE_HINT: the share from the one face of the solid and the one of the sphere's own body that the
# contact's normal can meet within 10°: SHARE_HINT − (the solid's face's code × SHARE_SPAN + the own face's
# [+ AT_FACE]), each code as FACE_CODE's, 0 for none; with AT_FACE the solid's face named is also the one on which,
# or on whose rim, the sphere's closest point stays (as a face code's): the step measures the distance to that face
# alone, else the whole narrow phase
SHARE_HINT = -3
SHARE_SPAN = 1 << 14
AT_FACE = SHARE_SPAN * SHARE_SPAN  # (a share hint stays above −2³¹: it is kept as an i32)


@dataclass(frozen=True)
class ConvexPart:
    """One convex part in a template frame: `kind` (PRISM or FRUSTUM), its polygon's `vertices` (n, 2) [m]
    counter-clockwise, the prism's `half_thickness` [m] (0 for a frustum) and the `offset` of its own frame in the
    template frame [m]."""

    kind: int
    vertices: np.ndarray
    half_thickness: float
    offset: np.ndarray

    def __post_init__(self):
        # derived once (the pair search asks them for every body pair); private: the model's hash skips them
        v = self.vertices
        object.__setattr__(self, "_bound", float(np.sqrt(float(np.max(np.sum(v**2, axis=1))) + self.half_thickness**2)))
        if self.kind == PRISM:
            box = (np.array([v[:, 0].min(), -self.half_thickness, v[:, 1].min()]),
                   np.array([v[:, 0].max(), self.half_thickness, v[:, 1].max()]))
        else:
            rim = float(v[:, 0].max())
            box = np.array([-rim, -rim, v[:, 1].min()]), np.array([rim, rim, v[:, 1].max()])
        object.__setattr__(self, "_box", box)

    @property
    def bound(self) -> float:
        """Radius [m] of a sphere about the part's origin that holds it."""
        return self._bound

    @property
    def box(self) -> tuple[np.ndarray, np.ndarray]:
        """The least and largest corner [m] of a box about the part, in its own frame (a frustum's about its axis)."""
        return self._box


@dataclass(frozen=True)
class ContactSolid:
    """A body's solid for contacts: its convex parts (template frame); ``faces``: every part's flat faces, outward
    unit normals (F, 3) and areas (F,) [m²]; ``part_rows``: each part's header row in :func:`device_rows`, counted
    from the solid's first row."""

    parts: tuple

    def signed_distance(self, points) -> tuple[np.ndarray, np.ndarray]:
        """Signed distance [m] of each point (n, 3) [m], template frame, to the solid (< 0 inside) and the unit
        normal (n, 3) from the solid towards the point (outside) or out of the nearest face (inside)."""
        best, _which, normal, _second = self.nearest_parts(points)
        return best, normal

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

    def __post_init__(self):
        # what the pair search asks of every solid, made once (at construction: the model's hash sees it either way)
        rows = [(normal, a) for part in self.parts for normal, _offset, a in _faces(part)]
        object.__setattr__(self, "faces", (np.array([r[0] for r in rows]).reshape(-1, 3),
                                           np.array([r[1] for r in rows], float)))
        object.__setattr__(self, "part_rows", 1 + np.concatenate(
            [[0], np.cumsum([2 + len(part.vertices) for part in self.parts])[:-1]]).astype(np.int64))
        object.__setattr__(self, "face_codes", np.array(  # each face's code (FACE_CODE), in ``faces``' order
            [row * FACE_CODE + j for part, row in zip(self.parts, self.part_rows) for j in range(len(_faces(part)))],
            np.int64))
        object.__setattr__(self, "_table", SolidTable([self]))  # its queries: a table of one solid

    @property
    def table(self) -> SolidTable:
        """The solid as a SolidTable of one (solid 0): the queries the pair search asks of many solids at once."""
        return self._table

    def _one(self, points) -> tuple[np.ndarray, np.ndarray]:
        p = np.asarray(points, float).reshape(-1, 3)
        return p, np.zeros(len(p), np.int64)

    def unique_face(self, directions, cos_limit: float) -> np.ndarray:
        """For each direction (n, 3): the code (FACE_CODE) of the one flat face whose outward normal lies within the
        angle of cosine `cos_limit` (a number, or one per direction) of it, 0 where none does, −1 where several do."""
        return self._table.unique_face(*self._one(directions), cos_limit)

    def scan_faces(self, directions, cos_limit: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each direction (n, 3): how many flat faces have their outward normal within the angle of cosine
        `cos_limit` of it (a number, or one per direction), and the least and largest of their areas [m²] (inf and −inf
        where none has)."""
        return self._table.scan_faces(*self._one(directions), cos_limit)

    def nearest_parts(self, points) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each point (n, 3), template frame: its signed distance [m] to the nearest part, that part's index,
        the normal (as :meth:`signed_distance`) and the distance to the next nearest part [m] (inf: one part)."""
        return self._table.nearest_parts(*self._one(points))

    def face_margin(self, points, parts) -> tuple[np.ndarray, np.ndarray]:
        """How far [m] inside the boundary of a flat face of part `parts[i]` lies the projection of each point (n, 3),
        template frame, when the point is outside the part beyond that face's plane and its projection lies in the
        face (≤ 0 otherwise), and that face's index in the part (:func:`_faces`' order) (dem/physics/
        contact_solid.py, ``_face_margin``)."""
        return self._table.face_margin(*self._one(points), parts)

    def face_rules(self, points, parts, faces, reach) -> np.ndarray:
        """For each point (n, 3), template frame, over face `faces[i]` (:func:`_faces`' order) of part `parts[i]`:
        whether that face's plane stays the part's largest face-plane distance wherever the point moves by less than
        `reach` (n,) [m], inside the part as well as outside (the signed distance inside a convex part is the largest
        over its faces' planes: dem/physics/contact_solid.py, ``_part_distance``). Each face-plane distance changes by
        less than the reach (a frustum's in its meridian plane: the radius ρ is 1-Lipschitz), and the difference of
        two by less than the reach × |n_F − n_G|. Bool (n,)."""
        return self._table.face_rules(*self._one(points), parts, faces, reach)

    def closed_face(self, points, parts, reach) -> np.ndarray:
        """For each point (n, 3), template frame, nearest part `parts[i]`: the index (:func:`_faces`' order) of the
        flat face of that part on which, or on whose rim, its closest point of the part lies wherever the point moves
        by less than `reach` (n,) [m]; −1 where no face is sure to hold it (dem/physics/contact_solid.py,
        ``_closed_face``, has the reasoning)."""
        return self._table.closed_face(*self._one(points), parts, reach)


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


def classify_entries(table: SolidTable, own, sol, points, nearest, centre_distance, to_own, own_bound, bound,
                     own_first, skin: float) -> np.ndarray:
    """The hint of each entry of a sphere against a solid until the next pair search: IDLE (it takes no share of
    the stiffness at any pose the two bodies reach: left out), a face code ≥ 0 (its closest point on the solid stays
    in that flat face or on its rim and its share stays 1: the step measures its distance to that face alone), a
    share hint ≤ SHARE_HINT (the one face of each body its share can meet, and with AT_FACE the solid's also the face
    whose distance the step measures, as a face code's), or GENERAL.
    Entry i is a sphere of the body whose solid is `own[i]` (−1: none) of `table` against solid `sol[i]`, centred at
    `points[i]` (3,) [m] in that solid's template frame and at `centre_distance[i]` [m] from its body's centre of
    mass; `nearest`: table.nearest_parts(points, sol); to_own: the rotation from the solid's body frame to the
    sphere's (rotᵀ own_rot), (3, 3) or one per entry (n, 3, 3); own_bound, bound: the bounding radii [m] of the
    sphere's body and the solid's (numbers or (n,)); own_first: the sphere's body is the lower index (a bool or (n,)).
    So the entries of every body pair of a search are classified in one call (pair_search.py).
    The host's twin of dem/physics/contact_solid.py ``classify_entry`` (its docstring has the reasoning). Int (n,)."""
    out = np.full(len(points), GENERAL, np.int64)
    if len(points) == 0:
        return out
    own, sol = np.asarray(own, np.int64), np.asarray(sol, np.int64)
    turn = np.broadcast_to(skin / np.minimum(own_bound, bound), len(points))
    best, which, normal, second = nearest
    reach = skin * np.maximum(1.0, (centre_distance + skin) / bound)
    # no share is bounded for bodies that may turn more (face codes need one of 1)
    ok = (best > 0.0) & (second - best > 2.0 * reach) & ((own < 0) | (turn < MAX_TURN))
    idx = np.flatnonzero(ok)
    if len(idx) == 0:
        return out
    margin, face = table.face_margin(points[idx], sol[idx], which[idx])
    inner = margin > reach[idx]  # over one face, more than the reach inside its rim: the normal stays the face's
    # a centre within the reach of the solid may come inside it: over one face it still takes that face's plane and
    # normal where that plane stays the part's largest (SolidTable.face_rules); near an edge it is general
    deep = np.flatnonzero(best[idx] <= reach[idx])
    if len(deep):
        keep = np.ones(len(idx), bool)
        d = idx[deep]
        keep[deep] = inner[deep] & table.face_rules(points[d], sol[d], which[d], face[deep], reach[d])
        idx, face, inner = idx[keep], face[keep], inner[keep]
        if len(idx) == 0:
            return out
    edge = np.flatnonzero(~inner)  # else its closest point may leave the face
    e = idx[edge]
    face[edge] = table.closed_face(points[e], sol[e], which[e], reach[e])
    code = np.where(face >= 0, table.part_rows(sol[idx], which[idx]) * FACE_CODE + face, GENERAL)
    alone = own[idx] < 0  # a body without a solid: the share is 1 whatever the faces
    out[idx[alone]] = code[alone]
    idx, code, inner = idx[~alone], code[~alone], inner[~alone]
    if len(idx) == 0:
        return out
    s = np.where(inner, 0.0, reach[idx] / best[idx])  # the sine of the normal's turn in the solid's frame
    n = normal[idx]
    to_own = np.asarray(to_own, float)  # the direction the sphere's body looks back along, its own frame:
    back = -n @ to_own if to_own.ndim == 2 else -np.einsum("ni,nij->nj", n, to_own[idx])
    first = np.asarray(own_first, bool)
    turn = turn[idx]
    steady = steady_share(table, own[idx], sol[idx], back, n, s, turn, first if first.ndim == 0 else first[idx])
    out[idx[steady == IDLE]] = IDLE
    carry = (steady == CARRY) & (code >= 0)
    out[idx[carry]] = code[carry]
    rest = out[idx] == GENERAL  # the share hint: the two faces named
    sel = idx[rest]
    if len(sel) == 0:
        return out
    f_solid, f_own = _loose_faces(table, own[sel], sol[sel], back[rest], n[rest], s[rest], turn[rest])
    good = (f_solid >= 0) & (f_own >= 0) & (f_solid < SHARE_SPAN) & (f_own < SHARE_SPAN)
    at_face = np.where((code[rest] >= 0) & (code[rest] == f_solid), AT_FACE, 0)  # the distance: that face's
    out[sel[good]] = SHARE_HINT - (f_solid * SHARE_SPAN + f_own + at_face)[good]
    return out


def _face_bounds(s, turn):
    """For a contact normal that turns by less than ψ (sin ψ = s) in the solid's frame and less than ψ + `turn`
    [rad] in the sphere's body's: (cos(10° + ψ), its bound for the sphere's body, and bounds of cos(10° − ψ) and of
    cos(10° − ψ − turn), 2 where that angle may be ≤ 0). A face whose normal lies within the first (the third)
    angle of the normal now may (surely does) meet it within 10° till the next search."""
    sin_face = np.sqrt(1.0 - FACE_COS * FACE_COS)
    c = np.sqrt(1.0 - s * s)
    loose = FACE_COS * c - sin_face * s
    loose_own = loose * np.sqrt(1.0 - turn * turn) - (sin_face * c + FACE_COS * s) * turn
    both = np.minimum(s + turn, 1.0)
    tight = np.where(s < sin_face, FACE_COS * c + sin_face * s, 2.0)
    tight_own = np.where(both < sin_face, FACE_COS * np.sqrt(1.0 - both * both) + sin_face * both, 2.0)
    return loose, loose_own, tight, tight_own


def steady_share(table: SolidTable, own, sol, back, normal, s, turn, own_first) -> np.ndarray:
    """For contacts of a sphere of the body of solid own[i] against solid sol[i] (both of `table`) whose normal
    (n, 3) (the solid's frame; `back`, −normal in the sphere's body's frame) turns by less than ψ (sin ψ = s) there and
    ψ + turn [rad] in the sphere's body till the next search: IDLE where the share (dem/physics/contact_solid.py,
    ``sphere_side_share``) stays 0, CARRY where it stays 1, else GENERAL. It stays so when a face of each body
    surely meets the normal within 10° and every face that may meet it compares alike: the sphere's body's all
    larger (IDLE) or all smaller (CARRY) than the solid's, of one size as the first body's (own_first: a bool, or
    one per contact) decides. The host's twin of ``_steady_share`` there."""
    loose, loose_own, tight, tight_own = _face_bounds(np.asarray(s, float), turn)
    dots, dots_own = table.face_dots(normal, sol), table.face_dots(back, own)
    sure, _l, _m = table.scan_dots(dots, sol, tight)
    _c, least, most = table.scan_dots(dots, sol, loose)
    sure_own, _l, _m = table.scan_dots(dots_own, own, tight_own)
    _c, own_least, own_most = table.scan_dots(dots_own, own, loose_own)
    first = np.asarray(own_first, bool)  # one for all, or one per contact
    idle = np.where(first, own_least > most * (1.0 + SAME_AREA), own_least >= most * (1.0 - SAME_AREA))
    carry = np.where(first, own_most <= least * (1.0 + SAME_AREA), own_most < least * (1.0 - SAME_AREA))
    sure = (sure > 0) & (sure_own > 0)
    return np.where(sure & idle, IDLE, np.where(sure & carry, CARRY, GENERAL))


def _loose_faces(table, own, sol, back, normal, s, turn):
    """The codes of the one face of the solid and of the sphere's body that may meet the contact's normal within 10°
    till the next search (0: none, −1: several), as :func:`steady_share` bounds its turn."""
    loose, loose_own, _t, _to = _face_bounds(s, turn)
    return table.unique_face(normal, sol, loose), table.unique_face(back, own, loose_own)


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
