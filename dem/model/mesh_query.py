"""Geometric questions about a closed triangle mesh that the mesh packer asks of many points at once: which
points are inside (vertical lines through a grid, crossing the surface), how far a point is from the
surface and where the nearest surface point is, and which faces make a flat face of the body.

Inside. Along a vertical line the surface is entered where its outward normal points down and left where it
points up; the winding number at a height is the count of entries less exits below it: 1 inside, 0 outside,
anything else a surface that passes through itself (dem.model.mesh_checks). A line through an edge or a vertex
must be counted once, not twice or never: a point on an edge belongs to the face on the side of an
infinitesimal shift (ε, ε²) in x, y (symbolic perturbation, the top-left rule of rasterisers), each edge's
test computed from its two vertices in index order so that both faces of an edge see the same number.

Distance. Each face is cut into pieces no wider than a cell (halving the longest edge, Rivara's longest-edge
bisection), and a k-d tree holds the pieces' centroids. Within a bound: every piece whose centroid is within
the bound plus its own radius of a point is found in one search of pairs (SciPy's sparse distance matrix), and
the exact point–triangle distance (Ericson 2004, §5.1.5) is taken over their faces, each face once. Without
one: the k nearest pieces, k growing until the k-th lies beyond the nearest plus the largest piece's radius.
Exact either way, in time that does not grow with the faces' count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

PAIRS = 300_000
"""Candidate (point, face) pairs per batch of a bounded distance query, at most about (~100 MiB)."""
CHUNK = 8_000
"""Points per batch of the distance query: its memory goes as CHUNK × the faces near a point (~30 for a
point r from a surface of faces smaller than r: ~100 MiB of temporaries), whatever the number of points."""


@dataclass(frozen=True)
class ColumnGrid:
    """Vertical lines at x = x0 + i dx (i < nx), y = y0 + j dy (j < ny) [m]; line index i ny + j."""

    x0: float
    dx: float
    nx: int
    y0: float
    dy: float
    ny: int

    def index(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return np.asarray(i, np.int64) * self.ny + np.asarray(j, np.int64)

    def xy(self, col: np.ndarray) -> np.ndarray:
        col = np.asarray(col, np.int64)
        return np.column_stack([self.x0 + (col // self.ny) * self.dx, self.y0 + (col % self.ny) * self.dy])


def column_crossings(vertices: np.ndarray, faces: np.ndarray, grid: ColumnGrid):
    """Where the grid's vertical lines cross the surface: (line index, z [m], +1 entering / −1 leaving going
    up), sorted by line then z (module docstring)."""
    v = np.asarray(vertices, float)
    f = np.asarray(faces, np.int64)
    x, y = v[:, 0], v[:, 1]
    s2 = (x[f[:, 1]] - x[f[:, 0]]) * (y[f[:, 2]] - y[f[:, 0]]) - (y[f[:, 1]] - y[f[:, 0]]) * (x[f[:, 2]] - x[f[:, 0]])
    keep = s2 != 0.0  # faces seen edge-on from above are never crossed
    f, s2 = f[keep], s2[keep]
    ccw = f.copy()
    flip = s2 < 0
    ccw[flip] = f[flip][:, [0, 2, 1]]
    sign = np.where(s2 > 0, -1, 1).astype(np.int64)  # outward normal up: leaving, going up
    xs, ys = x[ccw], y[ccw]
    # each face's lines: those over its bounding box, and one more on each side (a line on the box's edge
    # may fall outside it by a rounding of the division; the exact test below decides)
    i0 = np.maximum(np.ceil((xs.min(1) - grid.x0) / grid.dx) - 1, 0).astype(np.int64)
    i1 = np.minimum(np.floor((xs.max(1) - grid.x0) / grid.dx) + 1, grid.nx - 1).astype(np.int64)
    j0 = np.maximum(np.ceil((ys.min(1) - grid.y0) / grid.dy) - 1, 0).astype(np.int64)
    j1 = np.minimum(np.floor((ys.max(1) - grid.y0) / grid.dy) + 1, grid.ny - 1).astype(np.int64)
    ni, nj = np.maximum(i1 - i0 + 1, 0), np.maximum(j1 - j0 + 1, 0)
    count = ni * nj
    tri = np.repeat(np.arange(len(ccw)), count)
    local = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    i = i0[tri] + local // nj[tri]
    j = j0[tri] + local % nj[tri]
    px, py = grid.x0 + i * grid.dx, grid.y0 + j * grid.dy
    c = ccw[tri]
    inside = np.ones(len(tri), bool)
    e_val = []
    for e in range(3):
        p_idx, q_idx = c[:, e], c[:, (e + 1) % 3]
        fwd = p_idx < q_idx
        u = np.where(fwd, p_idx, q_idx)
        w = np.where(fwd, q_idx, p_idx)
        sg = np.where(fwd, 1.0, -1.0)
        dxc, dyc = x[w] - x[u], y[w] - y[u]
        val = sg * (dxc * (py - y[u]) - dyc * (px - x[u]))
        nx_in, ny_in = -sg * dyc, sg * dxc  # inward normal of the edge P → Q of a counter-clockwise triangle
        tie = (nx_in > 0) | ((nx_in == 0) & (ny_in > 0))
        inside &= (val > 0) | ((val == 0) & tie)
        e_val.append(val)
    tri, i, j, c = tri[inside], i[inside], j[inside], c[inside]
    e0, e1, e2 = (ev[inside] for ev in e_val)  # opposite corners 2, 0, 1 of the counter-clockwise triangle
    z = v[:, 2][c]
    total = e0 + e1 + e2
    zc = (e1 * z[:, 0] + e2 * z[:, 1] + e0 * z[:, 2]) / total
    col = grid.index(i, j)
    order = np.lexsort((zc, col))
    return col[order], zc[order], sign[tri][order]


def column_winding(vertices, faces, grid: ColumnGrid, *, what: str = "mesh", col=None, z=None):
    """Check that the surface is entered and left in turn along every line of `grid` (ValueError naming
    `what` and a line where it is not: a self-intersecting or inside-out surface); with points (line index
    `col`, height `z` [m]) also the winding number at each (1 inside, 0 outside)."""
    lines, zc, sign = column_crossings(vertices, faces, grid)
    if len(lines):
        start = np.r_[True, lines[1:] != lines[:-1]]
        total = np.cumsum(sign)
        before = np.r_[0, total[:-1]]
        base = np.maximum.accumulate(np.where(start, np.arange(len(lines)), 0))
        wind = total - before[base]
        last = np.r_[lines[1:] != lines[:-1], True]
        bad = (wind < 0) | (wind > 1) | (last & (wind != 0))
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            xy = grid.xy(lines[k:k + 1])[0]
            how = ("ends inside it" if last[k] and wind[k] != 0 else
                   f"has winding number {int(wind[k])} above z = {zc[k]:.4g} m")
            raise ValueError(f"{what} is self-intersecting or has faces inside out: the vertical line at "
                             f"x = {xy[0]:.4g} m, y = {xy[1]:.4g} m {how} (a closed surface is entered and left in "
                             "turn); repair it in a mesh tool")
    if col is None:
        return None
    col = np.asarray(col, np.int64)
    z = np.asarray(z, float)
    if not len(lines):
        return np.zeros(len(col), np.int64)
    # one sorted key over (line, z): lines apart by more than the height span, so that they do not mix
    span = float(max(np.ptp(zc), np.ptp(z) if len(z) else 0.0, 1.0)) * 4.0
    z0 = min(float(zc.min()), float(z.min()) if len(z) else 0.0)
    key_c = lines * span + (zc - z0)
    key_p = col * span + (z - z0)
    k = np.searchsorted(key_c, key_p, side="left")  # crossings strictly below the point (and on its line)
    total = np.r_[0, np.cumsum(sign)]
    first = np.searchsorted(lines, col, side="left")
    return total[k] - total[first]


def inside_points(vertices, faces, grid: ColumnGrid, col, z, *, what: str = "mesh") -> np.ndarray:
    """Mask of the points (line `col` of `grid`, height `z` [m]) inside the closed surface."""
    return column_winding(vertices, faces, grid, what=what, col=col, z=z) == 1


def face_normals(vertices: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit outward normals (m, 3) (NaN for faces of zero area) and areas (m,) [m²]."""
    v = np.asarray(vertices, float)
    f = np.asarray(faces, np.int64)
    n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    norm = np.linalg.norm(n, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = n / norm[:, None]
    return unit, 0.5 * norm


def closest_on_triangles(p, a, b, c) -> np.ndarray:
    """Closest point [m] to each p on triangle (a, b, c) (rows), by the Voronoi regions of its vertices and
    edges (Ericson 2004, §5.1.5, ClosestPtPointTriangle), vectorised: the regions are tested in that
    function's order, the first that holds wins."""
    ab, ac = b - a, c - a
    ap, bp, cp = p - a, p - b, p - c
    d1, d2 = np.einsum("ij,ij->i", ab, ap), np.einsum("ij,ij->i", ac, ap)
    d3, d4 = np.einsum("ij,ij->i", ab, bp), np.einsum("ij,ij->i", ac, bp)
    d5, d6 = np.einsum("ij,ij->i", ab, cp), np.einsum("ij,ij->i", ac, cp)
    va, vb, vc = d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = va + vb + vc
        out = a + ab * (vb / denom)[:, None] + ac * (vc / denom)[:, None]  # inside the face
        # in reverse order of precedence, each region overwriting those after it
        m = (va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0)
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        out = np.where(m[:, None], b + (c - b) * t[:, None], out)
        m = (vb <= 0) & (d2 >= 0) & (d6 <= 0)
        out = np.where(m[:, None], a + ac * (d2 / (d2 - d6))[:, None], out)
        out = np.where(((d6 >= 0) & (d5 <= d6))[:, None], c, out)
        m = (vc <= 0) & (d1 >= 0) & (d3 <= 0)
        out = np.where(m[:, None], a + ab * (d1 / (d1 - d3))[:, None], out)
        out = np.where(((d3 >= 0) & (d4 <= d3))[:, None], b, out)
        out = np.where(((d1 <= 0) & (d2 <= 0))[:, None], a, out)
    return out


class SurfaceDistance:
    """Distance from points to a triangle surface, and the nearest surface point (module docstring).

    Args:
        vertices, faces: the surface [m] (faces of zero area are left out: their points lie on their
            neighbours' edges).
        cell: largest size [m] of the pieces faces are cut into for the search (smaller: more pieces, fewer
            candidate faces per point).
    """

    def __init__(self, vertices: np.ndarray, faces: np.ndarray, *, cell: float):
        from scipy.spatial import cKDTree

        v = np.asarray(vertices, float)
        f = np.asarray(faces, np.int64)
        _n, area = face_normals(v, f)
        f = f[area > 0]
        self.faces = f
        self.a, self.b, self.c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
        pa, pb, pc, owner = bisect(self.a, self.b, self.c, cell)
        g = (pa + pb + pc) / 3.0
        radius = np.max(np.stack([np.linalg.norm(x - g, axis=1) for x in (pa, pb, pc)]), axis=0)
        self.centroids = g
        self.owner = owner
        self.radius = radius
        self.piece_radius = float(radius.max())
        self.piece_area = max(float(np.sum(0.5 * np.linalg.norm(np.cross(pb - pa, pc - pa), axis=1))) / len(pa),
                              1e-30)  # mean piece area [m²]
        self.tree = cKDTree(self.centroids)

    @property
    def piece_count(self) -> int:
        return len(self.owner)

    def query(self, points, bound: float = np.inf) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(distance [m], face index into ``faces``, nearest surface point [m]) of each point; distance inf
        (face −1, point NaN) where the surface is farther than `bound` [m]."""
        p = np.asarray(points, float).reshape(-1, 3)
        dist = np.full(len(p), np.inf)
        face = np.full(len(p), -1, np.int64)
        near = np.full((len(p), 3), np.nan)
        chunk = CHUNK
        if np.isfinite(bound):  # fewer points a batch where each has many faces near it
            per_point = math.pi * (bound + self.piece_radius) ** 2 / self.piece_area
            chunk = int(min(CHUNK, max(64, PAIRS / per_point)))
        for s in range(0, len(p), chunk):
            sl = slice(s, s + chunk)
            d, fi, q = self._query(p[sl], bound)
            dist[sl], face[sl], near[sl] = d, fi, q
        return dist, face, near

    def _query_bounded(self, p, bound):
        """Every piece within bound + the largest piece's radius of each point (one k-d tree search of pairs):
        among their faces, the nearest one of every point whose surface is within `bound`."""
        from scipy.spatial import cKDTree

        pairs = cKDTree(p).sparse_distance_matrix(self.tree, bound + self.piece_radius, output_type="ndarray")
        pairs = pairs[pairs["v"] - self.radius[pairs["j"]] <= bound]  # the piece itself within reach
        key = np.sort(pairs["i"].astype(np.int64) * len(self.faces) + self.owner[pairs["j"]])
        key = key[np.r_[True, key[1:] != key[:-1]]] if len(key) else key  # each face once per point
        pi, fi = key // len(self.faces), key % len(self.faces)
        dist, face, near = _nearest(p, pi, fi, self.a, self.b, self.c, len(p))
        far = dist > bound
        dist[far], face[far], near[far] = np.inf, -1, np.nan
        return dist, face, near

    def _query(self, p, bound):
        if np.isfinite(bound):
            return self._query_bounded(p, bound)
        reach = bound + self.piece_radius
        d0, _ = self.tree.query(p, k=1, distance_upper_bound=reach)
        dist = np.full(len(p), np.inf)
        face = np.full(len(p), -1, np.int64)
        near = np.full((len(p), 3), np.nan)
        todo = np.flatnonzero(np.isfinite(d0))
        k = 16
        while len(todo):
            kk = min(k, self.piece_count)
            dk, ik = self.tree.query(p[todo], k=kk)
            dk, ik = dk.reshape(len(todo), kk), ik.reshape(len(todo), kk)
            limit = d0[todo] + self.piece_radius  # the nearest face's piece nearest the point is within this
            complete = (dk[:, -1] > limit) | (kk == self.piece_count)
            rows = np.flatnonzero(complete)
            if len(rows):
                pts = todo[rows]
                cand = np.where(dk[rows] <= limit[rows, None], self.owner[np.minimum(ik[rows], self.piece_count - 1)],
                                -1)
                cand.sort(axis=1)  # each face once per point (a large face has many pieces)
                cand[:, 1:][cand[:, 1:] == cand[:, :-1]] = -1
                pi = np.repeat(np.arange(len(rows)), kk)
                fi = cand.reshape(-1)
                ok = fi >= 0
                pi, fi = pi[ok], fi[ok]
                q = closest_on_triangles(p[pts[pi]], self.a[fi], self.b[fi], self.c[fi])
                dd = np.linalg.norm(q - p[pts[pi]], axis=1)
                best = np.full(len(rows), np.inf)
                np.minimum.at(best, pi, dd)
                hit = dd == best[pi]
                first = np.full(len(rows), -1, np.int64)
                first[pi[hit][::-1]] = np.flatnonzero(hit)[::-1]
                dist[pts] = best
                face[pts] = fi[first]
                near[pts] = q[first]
            todo = todo[~complete]
            k *= 4
        far = dist > bound
        dist[far], face[far], near[far] = np.inf, -1, np.nan
        return dist, face, near


def _nearest(p, pi, fi, a, b, c, n):
    """For candidate pairs (point index pi, face index fi): the smallest exact distance of each of the n points,
    the face giving it (−1: none) and the nearest point on it."""
    if not len(pi):
        return np.full(n, np.inf), np.full(n, -1, np.int64), np.full((n, 3), np.nan)
    q = closest_on_triangles(p[pi], a[fi], b[fi], c[fi])
    dd = np.linalg.norm(q - p[pi], axis=1)
    best = np.full(n, np.inf)
    np.minimum.at(best, pi, dd)
    hit = np.flatnonzero(dd == best[pi])
    first = np.full(n, -1, np.int64)
    first[pi[hit][::-1]] = hit[::-1]
    face = np.where(first >= 0, fi[np.maximum(first, 0)], -1)
    near = np.where((first >= 0)[:, None], q[np.maximum(first, 0)], np.nan)
    return best, face, near


def bisect(a, b, c, cell: float):
    """Pieces of the triangles (a, b, c) no wider than `cell` [m] from their centroid to a corner: each piece
    wider than that is cut in two at the midpoint of its longest edge, until none is (a thin face gives pieces
    in a row, not a grid). Returns the pieces' corners and the index of the face each came from."""
    owner = np.arange(len(a))
    done = []
    while len(a):
        g = (a + b + c) / 3.0
        wide = np.max(np.stack([np.linalg.norm(x - g, axis=1) for x in (a, b, c)]), axis=0) > cell
        done.append((a[~wide], b[~wide], c[~wide], owner[~wide]))
        a, b, c, owner = a[wide], b[wide], c[wide], owner[wide]
        if not len(a):
            break
        # rotate corners so that the longest edge is b–c, then cut it at its midpoint m: (a, b, m), (a, m, c)
        lab, lbc, lca = (np.linalg.norm(b - a, axis=1), np.linalg.norm(c - b, axis=1), np.linalg.norm(a - c, axis=1))
        k = np.argmax(np.stack([lbc, lca, lab]), axis=0)  # 0: bc longest, 1: ca, 2: ab
        tri = np.stack([a, b, c], axis=1)
        idx = (np.arange(3)[None, :] + k[:, None]) % 3
        tri = np.take_along_axis(tri, idx[:, :, None], axis=1)
        a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
        m = 0.5 * (b + c)
        a, b, c, owner = (np.concatenate([a, a]), np.concatenate([b, m]), np.concatenate([m, c]),
                          np.concatenate([owner, owner]))
    return tuple(np.concatenate([d[i] for d in done]) for i in range(4))


def plane_faces(vertices: np.ndarray, faces: np.ndarray, direction, *, tol: float) -> tuple[np.ndarray, float]:
    """The faces lying in the body's supporting plane with outward normal `direction` (unit): every corner
    within `tol` [m] of the plane max(direction · x), the face's normal along `direction`; and that plane's
    offset [m]. A flat face of the body's convex hull that the mesh itself has."""
    d = np.asarray(direction, float)
    h = vertices @ d
    top = float(h.max())
    n, _area = face_normals(vertices, faces)
    on = np.all(h[faces] >= top - tol, axis=1) & (np.nan_to_num(n @ d, nan=-1.0) > 0.5)
    return np.flatnonzero(on), top


def boundary_loops(faces: np.ndarray) -> list[np.ndarray]:
    """The closed loops of vertex indices that bound a set of faces (edges used by one of them), each in the
    faces' winding direction (counter-clockwise about the outward normal for the outer rim)."""
    f = np.asarray(faces, np.int64)
    a, b = f.reshape(-1), np.roll(f, -1, axis=1).reshape(-1)
    und = np.column_stack([np.minimum(a, b), np.maximum(a, b)])
    _, inv, cnt = np.unique(und, axis=0, return_inverse=True, return_counts=True)
    once = cnt[inv.reshape(-1)] == 1
    nxt: dict[int, list[int]] = {}
    for s, e in zip(a[once].tolist(), b[once].tolist()):
        nxt.setdefault(s, []).append(e)
    loops = []
    while nxt:
        start = next(iter(nxt))
        loop = [start]
        cur = start
        while True:
            outs = nxt.get(cur)
            if not outs:
                break
            e = outs.pop()
            if not outs:
                del nxt[cur]
            if e == start:
                break
            loop.append(e)
            cur = e
        loops.append(np.array(loop, np.int64))
    return loops
