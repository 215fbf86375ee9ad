"""The skin of a mesh body: one layer of spheres of radius r just inside its whole surface, away from its joint
faces (dem.model.mesh_joints), spaced about as a lattice of the same spacing would be.

Where a sphere may stand: its centre at r inside the surface and nowhere nearer to it (the sphere touches the
surface and does not cross it). Candidates:
- on every face, about one point per (s/3)² of its area, moved r inward along the face's normal: the first
  points of the R2 low-discrepancy sequence (Roberts 2018) folded into the triangle, floor(area / (s/3)² + U)
  of them, U a seeded uniform number (a face smaller than that gets one point or none, as often as its area
  asks);
- along every convex edge, points of the edge moved to r inside both its faces (x = q + r (n_A + n_B) /
  (1 + n_A·n_B), n the faces' inward normals): the rounded edge's spheres, which no face's points reach; at
  every convex vertex, the point r inside the plane of every face there (a box's corner sphere; where more
  than three planes do not meet in one point, the point along their mean inward normal m that is at least r
  inside each, v + r m / min(n·m));
- a candidate nearer than r (to 1e-9) to any part of the surface is dropped (near a convex edge or corner,
  where the body is thinner than 2r, or where another part of it comes close).
On a flat face the candidates are a plane at r inside it; at a convex edge the skin rounds the edge with radius
r about the line r inside both faces; a concave edge (a crease, an armpit) is reached by the spheres of both
its faces. What the skin gives up is the body within r of a convex edge or corner (a box's edge: r(√2 − 1)
between its spheres and the edge; a sharper wedge more: r (1/sin(β/2) − 1) at an edge of angle β) and any part
of the body thinner than 2r (left out: dem.model.mesh_clump measures what it leaves uncovered).

Spacing. The candidates are thinned to a set no two closer than ``SKIN_SPACING`` × s (s = the lattice spacing,
ratio × 2r) in which every dropped candidate has a kept one that near: a maximal independent set of the
candidates' "too near" graph, found in rounds (Luby 1986: in each round, every candidate whose priority beats
all its undecided neighbours' is kept, and its neighbours dropped). The joint faces' spheres are kept first,
the corners' and the convex edges' candidates before the faces' (an edge keeps its rounding), ties broken by
a seeded shuffle: the same mesh gives the same skin.
"""

from __future__ import annotations

import numpy as np

from .mesh_checks import edge_faces
from .mesh_query import SurfaceDistance, face_normals

SKIN_SPACING = 0.8
"""Least distance between two skin spheres ÷ the lattice spacing s. Measured on a 0.3 m box with r = 10 mm:
0.92 × the spheres a lattice of spacing s puts on a face, 99 % of the surface within 0.55 r of the spheres'
envelope (a lattice's holes: 0.46 r), all of it within 0.99 r (its corners); 0.9 gave 0.76 × a lattice's
count and 0.64 r at 99 %."""
SAMPLE = 1.0 / 3.0
"""Candidates on the faces: one per (SAMPLE s)² of area."""
DIST_TOL = 1e-9
"""A candidate is r from the surface when its distance is at least r (1 − DIST_TOL)."""
EDGE_TURN = 0.35
"""[rad] (20°) An edge whose faces turn by more than this gets its rounding's candidates, a vertex whose faces
do its corner's: over a gentler edge the faces' own candidates leave a gap of at most r × the turn (0.35 r),
less than the thinning leaves between spheres anyway (a scanned stone's 100,000 faces turn by a degree or two at
each edge, and would add half a million candidates that change nothing)."""
SEED = 20240531
"""Seed of the shuffle that breaks ties between candidates (any fixed value: the skin is reproducible)."""


def candidates(vertices, faces, radius: float, spacing: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate centres [m] (k, 3), their priority class (3 at a corner, 2 on a convex edge, 1 on a face), and
    the surface points they stand over (k, 3) (module docstring)."""
    v = np.asarray(vertices, float)
    f = np.asarray(faces, np.int64)
    n_out, area = face_normals(v, f)
    ok = area > 0
    h = 0.5 * spacing  # candidates along an edge
    pts, over, cls = [], [], []
    # faces: about area / (SAMPLE s)² points each, where a low-discrepancy sequence puts them
    idx = np.flatnonzero(ok)
    q, owner = face_samples(v, f[idx], area[idx], SAMPLE * spacing)
    over.append(q)
    pts.append(q - radius * n_out[idx[owner]])
    cls.append(np.ones(len(q), np.int8))
    # convex edges: points along the edge moved to r inside both faces
    edges, ef = edge_faces(f)
    fa, fb = ef[:, 0], ef[:, 1]
    good = (fa >= 0) & (fb >= 0) & ok[np.maximum(fa, 0)] & ok[np.maximum(fb, 0)]
    edges, fa, fb = edges[good], fa[good], fb[good]
    na, nb = -n_out[fa], -n_out[fb]  # inward
    # convex where face B's far corner lies behind face A's plane
    far = v[np.sum(f[fb], axis=1) - edges[:, 0] - edges[:, 1]]
    cosang = np.einsum("ij,ij->i", na, nb)
    convex = (np.einsum("ij,ij->i", far - v[edges[:, 0]], na) > 0) & (cosang < np.cos(EDGE_TURN))
    edges, na, nb, cosang = edges[convex], na[convex], nb[convex], cosang[convex]
    if len(edges):
        p0, p1 = v[edges[:, 0]], v[edges[:, 1]]
        m = (na + nb) / (1.0 + cosang)[:, None]
        ne = np.maximum(1, np.ceil(np.linalg.norm(p1 - p0, axis=1) / h)).astype(np.int64)
        e_idx = np.repeat(np.arange(len(edges)), ne + 1)
        t = (np.arange(len(e_idx)) - np.repeat(np.cumsum(ne + 1) - (ne + 1), ne + 1)) / ne[e_idx]
        q = p0[e_idx] + t[:, None] * (p1 - p0)[e_idx]
        over.append(q)
        pts.append(q + radius * m[e_idx])
        cls.append(np.full(len(q), 2, np.int8))
    # convex corners: the point along the faces' mean inward normal m that lies r inside the plane of every face
    # at the vertex, x = v + r m / min(n·m) (a box's corner: r inside all three faces)
    b_sum = np.zeros((len(v), 3))
    n_in = -np.nan_to_num(n_out)
    for k in range(3):
        np.add.at(b_sum, f[ok, k], n_in[ok])
    avg = b_sum / np.maximum(np.linalg.norm(b_sum, axis=1, keepdims=True), 1e-300)
    least = np.full(len(v), np.inf)
    for k in range(3):
        np.minimum.at(least, f[ok, k], np.einsum("ij,ij->i", n_in[ok], avg[f[ok, k]]))
    sharp = (least < np.cos(0.5 * EDGE_TURN)) & (least > 0.05)  # turns by more than half EDGE_TURN (not a needle)
    if sharp.any():
        over.append(v[sharp])
        pts.append(v[sharp] + radius * avg[sharp] / least[sharp, None])
        cls.append(np.full(int(sharp.sum()), 2, np.int8))
        # and, where it exists, the point r inside every face's plane (least squares over them: exact where three
        # planes meet; where more do not meet in one point, it is too near one of them and the distance test
        # drops it), preferred: a corner of three faces keeps its own corner sphere
        m_sum = np.zeros((len(v), 3, 3))
        for k in range(3):
            np.add.at(m_sum, f[ok, k], np.einsum("ij,ik->ijk", n_in[ok], n_in[ok]))
        well = sharp & (np.linalg.cond(m_sum) < 1e6)
        if well.any():
            m_v = np.linalg.solve(m_sum[well], b_sum[well][:, :, None])[:, :, 0]
            over.append(v[well])
            pts.append(v[well] + radius * m_v)
            cls.append(np.full(int(well.sum()), 3, np.int8))
    return np.concatenate(pts), np.concatenate(cls), np.concatenate(over)


def face_samples(vertices, faces, areas, pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """Points [m] on the faces, about one per pitch² of area (module docstring), and the face of each."""
    rng = np.random.default_rng(SEED)
    count = np.floor(areas / pitch**2 + rng.random(len(areas))).astype(np.int64)
    owner = np.repeat(np.arange(len(faces)), count)
    k = np.arange(len(owner)) - np.repeat(np.cumsum(count) - count, count) + 1
    g = 1.32471795724474602596  # the plastic number: R2's generator (Roberts 2018)
    uv = np.mod(0.5 + np.outer(k, [1.0 / g, 1.0 / g**2]), 1.0)
    fold = uv.sum(axis=1) > 1.0
    uv[fold] = 1.0 - uv[fold]
    a, b, c = (vertices[faces[owner, i]] for i in range(3))
    return a + uv[:, :1] * (b - a) + uv[:, 1:] * (c - a), owner


def skin(vertices, faces, distance: SurfaceDistance, radius: float, spacing: float, *, fixed: np.ndarray,
         exclude=None) -> tuple[np.ndarray, np.ndarray]:
    """Centres [m] (k, 3) of the skin spheres (module docstring) and the surface points they stand over, given
    the spheres already placed (``fixed``, (j, 3): the joint faces' layers, kept first) and ``exclude``, a
    function of candidate centres returning the mask of those to leave out (beside a joint face)."""
    pts, cls, over = candidates(vertices, faces, radius, spacing)
    d, _f, _q = distance.query(pts, bound=radius * (1.0 + 1e-6))
    keep = ~(d < radius * (1.0 - DIST_TOL))
    if exclude is not None:
        keep &= ~exclude(pts)
    pts, cls, over = pts[keep], cls[keep], over[keep]
    pts, first = _dedupe(pts, 1e-9 * spacing)
    cls, over = cls[first], over[first]
    fixed = np.asarray(fixed, float).reshape(-1, 3)
    allp = np.concatenate([fixed, pts])
    rng = np.random.default_rng(SEED)
    priority = np.concatenate([np.full(len(fixed), 4.0), cls + rng.random(len(pts))])
    chosen = thin(allp, SKIN_SPACING * spacing, priority, np.arange(len(fixed)))
    chosen = chosen[chosen >= len(fixed)] - len(fixed)
    return pts[chosen], over[chosen]


def _dedupe(pts: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Points that coincide (to `tol` [m], on a grid) once; the index of each kept one."""
    key = np.round(pts / tol).astype(np.int64) if tol > 0 else pts
    _, first = np.unique(key, axis=0, return_index=True)
    first = np.sort(first)
    return pts[first], first


def thin(points: np.ndarray, radius: float, priority: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """Indices of a maximal set of points no two closer than `radius` [m], containing the `fixed` ones (which
    may be closer to each other), chosen by `priority` in rounds (module docstring: Luby 1986)."""
    from scipy.spatial import cKDTree

    n = len(points)
    pairs = cKDTree(points).query_pairs(radius, output_type="ndarray")
    i, j = pairs[:, 0], pairs[:, 1]
    UNDECIDED, KEPT, DROPPED = 0, 1, 2
    state = np.zeros(n, np.int8)
    state[fixed] = KEPT

    def drop_neighbours():
        hit = np.zeros(n, bool)
        hit[j[state[i] == KEPT]] = True
        hit[i[state[j] == KEPT]] = True
        state[hit & (state == UNDECIDED)] = DROPPED

    drop_neighbours()
    while np.any(state == UNDECIDED):
        live = (state[i] == UNDECIDED) & (state[j] == UNDECIDED)
        best = (state == UNDECIDED).copy()
        li, lj = i[live], j[live]
        lose_i = priority[li] < priority[lj]
        best[li[lose_i]] = False
        best[lj[~lose_i]] = False
        state[best] = KEPT
        drop_neighbours()
    return np.flatnonzero(state == KEPT)
