"""The contact solids of many bodies in padded arrays, and the geometric queries the pair search asks of them, for
many points at once, each point against its own body's solid (dem.model.contact_solid has the geometry).

A search of a drum column meets as many solids as it has drums, each of its own size, and a wall's blocks several;
asked one solid at a time, each query is a dozen NumPy calls on a few dozen points (some 20 classifications a search
on the column, ~0.5 ms each, most of it the calls' overhead). Here every part of every solid is a row of the same
arrays (its polygon padded to the longest), every query takes the solid (or part) of each point, and a search makes
one call per query whatever the number of solids (pair_search.py). ContactSolid's own queries are these on a table
of one solid, so the host has one implementation of each.
"""

from __future__ import annotations

import numpy as np

PRISM, FRUSTUM = 0, 1


class SolidTable:
    """The parts and faces of a list of ContactSolids (None: a body without one), padded (V the most vertices of a
    part, F the most faces of a solid, K the most parts of a solid):

    part arrays (P parts): ``kind``, ``nv`` (vertices), ``nedge`` (edges that bound the part: a frustum's last
    lies on the axis), ``half`` (a prism's half thickness [m]), ``offset`` (P, 3) [m], the box ``lo``, ``hi``
    (P, 3) [m] (ConvexPart.box), ``vert`` (P, V, 2) [m], ``edge`` (P, V, 2) [m] (from each vertex to the next),
    ``len2`` (P, V) [m²], ``nrm`` (P, V, 2) (each edge's outward unit normal), ``row`` (the part's header row in
    device_rows, from its solid's first);
    solid arrays (S solids): ``part0``, ``nparts`` (0 without a solid), the faces' outward unit normals ``fn``
    (S, F, 3), areas ``fa`` (S, F) [m²], codes ``fcode`` (S, F) (contact_solid.FACE_CODE) and ``fvalid`` (S, F).
    """

    def __init__(self, solids):
        parts = [part for s in solids if s is not None for part in s.parts]
        self.nparts = np.array([0 if s is None else len(s.parts) for s in solids], np.int64)
        self.part0 = np.concatenate([[0], np.cumsum(self.nparts)[:-1]]).astype(np.int64)
        self.max_parts = int(self.nparts.max(initial=0))
        n_p, n_v = len(parts), max([len(p.vertices) for p in parts], default=1)
        self.kind = np.array([p.kind for p in parts], np.int64)
        self.nv = np.array([len(p.vertices) for p in parts], np.int64)
        self.nedge = np.where(self.kind == PRISM, self.nv, self.nv - 1)
        self.half = np.array([p.half_thickness for p in parts], float)
        self.offset = np.array([p.offset for p in parts], float).reshape(n_p, 3)
        self.lo = np.array([p.box[0] for p in parts], float).reshape(n_p, 3)
        self.hi = np.array([p.box[1] for p in parts], float).reshape(n_p, 3)
        self.vert = np.zeros((n_p, n_v, 2))
        self.edge = np.zeros((n_p, n_v, 2))
        self.len2 = np.ones((n_p, n_v))
        self.nrm = np.zeros((n_p, n_v, 2))
        for k, p in enumerate(parts):
            v = np.asarray(p.vertices, float)
            e = np.roll(v, -1, axis=0) - v
            self.vert[k, :len(v)], self.edge[k, :len(v)] = v, e
            self.len2[k, :len(v)] = np.sum(e * e, axis=1)
            self.nrm[k, :len(v)] = np.column_stack([e[:, 1], -e[:, 0]]) / np.sqrt(np.sum(e * e, axis=1))[:, None]
        self.row = np.concatenate([s.part_rows for s in solids if s is not None] or [np.zeros(0)]).astype(np.int64)
        n_f = max([len(s.faces[1]) for s in solids if s is not None], default=1)
        self.fn = np.zeros((len(solids), n_f, 3))
        self.fa = np.zeros((len(solids), n_f))
        self.fcode = np.zeros((len(solids), n_f), np.int64)
        self.fvalid = np.zeros((len(solids), n_f), bool)
        for k, s in enumerate(solids):
            if s is not None:
                f = len(s.faces[1])
                self.fn[k, :f], self.fa[k, :f], self.fcode[k, :f], self.fvalid[k, :f] = (
                    s.faces[0], s.faces[1], s.face_codes, True)

    # ------------------------------------------------------------------ parts
    def box_distance(self, x, sol, k) -> np.ndarray:
        """The distance [m] of each point x (n, 3), template frame, to the box of part k (a number) of its solid
        sol (n,) (ConvexPart.box_distance), inf where that solid has no part k."""
        live = k < self.nparts[sol]
        pid = np.where(live, self.part0[sol] + k, 0)
        y = x - self.offset[pid]
        d = _norm(np.maximum(np.maximum(self.lo[pid] - y, y - self.hi[pid]), 0.0))
        return np.where(live, d, np.inf)

    def least_box_distance(self, x, sol) -> np.ndarray:
        """The least distance [m] of each point x (n, 3) to the boxes of its solid's parts (inf: no solid)."""
        out = np.full(len(x), np.inf)
        for k in range(self.max_parts):
            out = np.minimum(out, self.box_distance(x, sol, k))
        return out

    def part_distance(self, pid, p) -> tuple[np.ndarray, np.ndarray]:
        """Signed distance [m] of each point p (n, 3), in its part's frame, to its part pid (n,), and the unit normal
        (n, 3) (ContactSolid.signed_distance for one part)."""
        dist, normal = np.zeros(len(p)), np.zeros((len(p), 3))
        prism = self.kind[pid] == PRISM
        for sel, kind in ((np.flatnonzero(prism), self._prism), (np.flatnonzero(~prism), self._frustum)):
            if len(sel):
                dist[sel], normal[sel] = kind(pid[sel], p[sel])
        return dist, normal

    def _prism(self, pid, p):
        q = p[:, [0, 2]]
        smax, nmax, closest = self._polygon_distance(pid, q)
        half = self.half[pid]
        sy = np.abs(p[:, 1]) - half
        inside2 = smax <= 0.0
        inside = inside2 & (sy <= 0.0)
        cq = np.where(inside2[:, None], q, closest)
        c = np.column_stack([cq[:, 0], np.clip(p[:, 1], -half, half), cq[:, 1]])
        diff = p - c
        dist = _norm(diff)
        normal = diff / np.where(dist > 0, dist, 1.0)[:, None]
        side = smax >= sy
        face_n = np.where(side[:, None], np.column_stack([nmax[:, 0], np.zeros(len(p)), nmax[:, 1]]),
                          np.column_stack([np.zeros(len(p)), np.sign(p[:, 1]) + (p[:, 1] == 0), np.zeros(len(p))]))
        return np.where(inside, np.maximum(smax, sy), dist), np.where(inside[:, None], face_n, normal)

    def _frustum(self, pid, p):
        rho = np.hypot(p[:, 0], p[:, 1])
        radial = np.where(rho[:, None] > 0, p[:, :2] / np.where(rho > 0, rho, 1.0)[:, None], [1.0, 0.0])
        q = np.column_stack([rho, p[:, 2]])
        smax, nmax, closest = self._polygon_distance(pid, q)
        inside = smax <= 0.0
        diff = q - closest
        dist2 = _norm(diff)
        n2 = np.where(inside[:, None], nmax, diff / np.where(dist2 > 0, dist2, 1.0)[:, None])
        return np.where(inside, smax, dist2), np.column_stack([n2[:, 0:1] * radial, n2[:, 1]])

    def _polygon_distance(self, pid, q):
        """For 2-D points q (n, 2) and their parts' polygons (their first nedge edges bound it): (largest
        n_k·(q − v_k), its edge's outward normal (n, 2), closest boundary point (n, 2))."""
        smax = np.full(len(q), -np.inf)
        best2 = np.full(len(q), np.inf)
        edges = self.nedge[pid]
        n_e = int(edges.max(initial=0))
        vert, edge, nrms, len2 = (x[pid, :n_e] for x in (self.vert, self.edge, self.nrm, self.len2))
        k_side = np.zeros(len(q), np.int64)  # the edge of the largest n_k·(q − v_k), and the nearest edge
        k_near = np.zeros(len(q), np.int64)
        t_near = np.zeros(len(q))
        for k in range(n_e):
            live = k < edges
            a, e, nrm = vert[:, k], edge[:, k], nrms[:, k]
            d = q - a
            s = d[:, 0] * nrm[:, 0] + d[:, 1] * nrm[:, 1]
            take = live & (s > smax)
            smax = np.where(take, s, smax)
            k_side = np.where(take, k, k_side)
            t = np.clip((d[:, 0] * e[:, 0] + d[:, 1] * e[:, 1]) / len2[:, k], 0.0, 1.0)
            c = a + t[:, None] * e
            d2 = _dot(q - c, q - c)
            near = live & (d2 < best2)
            best2 = np.where(near, d2, best2)
            k_near = np.where(near, k, k_near)
            t_near = np.where(near, t, t_near)
        rows = np.arange(len(q))
        nmax = np.where(np.isfinite(smax)[:, None], nrms[rows, k_side], 0.0) if n_e else np.zeros((len(q), 2))
        closest = vert[rows, k_near] + t_near[:, None] * edge[rows, k_near] if n_e else np.zeros((len(q), 2))
        return smax, nmax, closest

    def _edge_values(self, pid, q):
        """n_k·(q − v_k) of each point q (n, 2) over each edge k of its part that bounds it, −inf past them (n, V)."""
        s = _dot(q[:, None] - self.vert[pid], self.nrm[pid])
        return np.where(np.arange(self.vert.shape[1])[None] < self.nedge[pid][:, None], s, -np.inf)

    @staticmethod
    def _meridian(x):
        return np.column_stack([np.sqrt(x[:, 0] * x[:, 0] + x[:, 1] * x[:, 1]), x[:, 2]])

    # ------------------------------------------------------------------ solids
    def nearest_parts(self, points, sol) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each point (n, 3), template frame of its solid sol (n,): its signed distance [m] to the nearest part,
        that part's index in the solid, the normal (as ContactSolid.signed_distance) and the distance to the next
        nearest part [m] (inf: one part)."""
        p = np.asarray(points, float).reshape(-1, 3)
        best = np.full(len(p), np.inf)
        second = np.full(len(p), np.inf)
        which = np.zeros(len(p), np.int64)
        normal = np.zeros((len(p), 3))
        for k in range(self.max_parts):
            sel = np.flatnonzero(k < self.nparts[sol])
            pid = self.part0[sol[sel]] + k
            d, n = self.part_distance(pid, p[sel] - self.offset[pid])
            b = best[sel]
            take = d < b
            second[sel] = np.where(take, b, np.minimum(second[sel], d))
            best[sel[take]] = d[take]
            which[sel[take]] = k
            normal[sel[take]] = n[take]
        return best, which, normal, second

    def part_rows(self, sol, parts) -> np.ndarray:
        """The header row (device_rows, from the solid's first) of part parts[i] of solid sol[i]."""
        return self.row[self.part0[sol] + parts]

    def face_margin(self, points, sol, parts) -> tuple[np.ndarray, np.ndarray]:
        """ContactSolid.face_margin, each point (n, 3) over part parts[i] of its solid sol[i]."""
        p = np.asarray(points, float).reshape(-1, 3)
        pid = self.part0[sol] + np.asarray(parts, np.int64)
        x = p - self.offset[pid]
        out = np.full(len(p), -1.0)
        face = np.zeros(len(p), np.int64)
        prism = np.flatnonzero(self.kind[pid] == PRISM)
        if len(prism):
            xp, pp = x[prism], pid[prism]
            q = xp[:, [0, 2]]
            s = self._edge_values(pp, q)
            k = np.argmax(s, axis=1)  # the first of equals, as on the device
            rows = np.arange(len(prism))
            smax = s[rows, k]
            inside_slab = self.half[pp] - np.abs(xp[:, 1])
            slab = (smax <= 0.0) & (inside_slab < 0.0)
            o, f = np.full(len(prism), -1.0), np.zeros(len(prism), np.int64)
            o[slab] = -smax[slab]
            f[slab] = np.where(xp[slab, 1] > 0.0, self.nv[pp][slab], self.nv[pp][slab] + 1)
            side = (smax > 0.0) & (inside_slab >= 0.0)
            e, length = self.edge[pp, k], np.sqrt(self.len2[pp, k])
            t = _dot(q - self.vert[pp, k], e) / length
            o[side] = np.minimum(np.minimum(t, length - t), inside_slab)[side]
            f[side] = k[side]
            out[prism], face[prism] = o, f
        cone = np.flatnonzero(self.kind[pid] != PRISM)
        if len(cone):
            xc, pc = x[cone], pid[cone]
            rho = np.hypot(xc[:, 0], xc[:, 1])
            v1, v2 = self.vert[pc, 1], self.vert[pc, 2]
            top, bottom = xc[:, 2] > v2[:, 1], xc[:, 2] < v1[:, 1]
            o = np.full(len(cone), -1.0)
            o[top] = (v2[:, 0] - rho)[top]
            o[bottom & ~top] = (v1[:, 0] - rho)[bottom & ~top]
            out[cone], face[cone] = o, np.where(top, 1, 0)
        return out, face

    def face_rules(self, points, sol, parts, faces, reach) -> np.ndarray:
        """ContactSolid.face_rules, each point (n, 3) over face faces[i] of part parts[i] of its solid sol[i]."""
        p = np.asarray(points, float).reshape(-1, 3)
        pid = self.part0[sol] + np.asarray(parts, np.int64)
        x = p - self.offset[pid]
        f = np.asarray(faces, np.int64)
        n_v = self.vert.shape[1]
        prism = self.kind[pid] == PRISM
        q = np.where(prism[:, None], x[:, [0, 2]], self._meridian(x))
        value = self._edge_values(pid, q)  # each face plane's distance: the edges' (a frustum's meridian), then ±y
        half = self.half[pid]
        value = np.column_stack([value, np.where(prism, x[:, 1] - half, -np.inf), np.where(prism, -x[:, 1] - half,
                                                                                             -np.inf)])
        n2 = self.nrm[pid]
        normal = np.concatenate([np.stack([n2[..., 0], np.zeros(n2.shape[:2]), n2[..., 1]], axis=2),
                                 np.broadcast_to([[[0.0, 1.0, 0.0], [0.0, -1.0, 0.0]]], (len(p), 2, 3))], axis=1)
        col = np.where(prism, np.where(f < self.nv[pid], f, n_v + f - self.nv[pid]), 2 * f)  # base, top: 0 and 2
        rows = np.arange(len(p))
        gap = value[rows, col][:, None] - value
        room = np.asarray(reach, float)[:, None] * _norm(normal[rows, col][:, None] - normal)
        ok = (gap > room) | (np.arange(value.shape[1])[None, :] == col[:, None])  # each plane but its own
        out = ok[:, 0].copy()
        for j in range(1, ok.shape[1]):
            out &= ok[:, j]
        return out

    def closed_face(self, points, sol, parts, reach) -> np.ndarray:
        """ContactSolid.closed_face, each point (n, 3) nearest part parts[i] of its solid sol[i]."""
        p = np.asarray(points, float).reshape(-1, 3)
        pid = self.part0[sol] + np.asarray(parts, np.int64)
        x = p - self.offset[pid]
        reach = np.asarray(reach, float)
        prism = self.kind[pid] == PRISM
        q = np.where(prism[:, None], x[:, [0, 2]], self._meridian(x))
        s = self._edge_values(pid, q)
        k = np.argmax(s, axis=1)  # the first of equals, as on the device
        rows = np.arange(len(p))
        ok = s[rows, k] > reach
        m = self.nv[pid]
        prev, nxt = (k - 1) % m, (k + 1) % m
        nk, npv, nnx = self.nrm[pid, k], self.nrm[pid, prev], self.nrm[pid, nxt]
        along_prev = np.column_stack([-npv[:, 1], npv[:, 0]])  # each edge's unit direction
        along_nxt = np.column_stack([-nnx[:, 1], nnx[:, 0]])
        ok &= (_dot(npv, nk) <= 0.0) | (_dot(q - self.vert[pid, k], along_prev) > reach)
        ok &= (_dot(nnx, nk) <= 0.0) | (-_dot(q - self.vert[pid, nxt], along_nxt) > reach)
        ok &= prism | (k != 1)  # a frustum's mantle is no flat face
        return np.where(ok, np.where(prism, k, k // 2), -1)  # a frustum's base, top

    def scan_faces(self, directions, sol, cos_limit) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """ContactSolid.scan_faces, each direction (n, 3) against the faces of its solid sol[i]."""
        return self.scan_dots(self.face_dots(directions, sol), sol, cos_limit)

    def unique_face(self, directions, sol, cos_limit) -> np.ndarray:
        """ContactSolid.unique_face, each direction (n, 3) against the faces of its solid sol[i]."""
        return self.unique_dots(self.face_dots(directions, sol), sol, cos_limit)

    def face_dots(self, directions, sol) -> np.ndarray:
        """The cosine between each direction (n, 3), a unit vector, and each face's outward normal of its solid
        sol[i], −inf past the solid's faces (n, F): the queries below take it, so that several ask it once."""
        d = np.asarray(directions, float).reshape(-1, 3)
        fn = self.fn[sol]
        dots = d[:, 0, None] * fn[..., 0] + d[:, 1, None] * fn[..., 1] + d[:, 2, None] * fn[..., 2]
        return np.where(self.fvalid[sol], dots, -np.inf)

    def scan_dots(self, dots, sol, cos_limit) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """scan_faces from the cosines :meth:`face_dots` gave."""
        cos_limit = np.asarray(cos_limit, float)
        areas = self.fa[sol]
        count = np.zeros(len(dots), np.int64)
        least, most = np.full(len(dots), np.inf), np.full(len(dots), -np.inf)
        for f in range(dots.shape[1]):  # a loop over the few faces: NumPy reduces a short last axis slowly
            ok = dots[:, f] > cos_limit
            count += ok
            least = np.where(ok, np.minimum(least, areas[:, f]), least)
            most = np.where(ok, np.maximum(most, areas[:, f]), most)
        return count, least, most

    def unique_dots(self, dots, sol, cos_limit) -> np.ndarray:
        """unique_face from the cosines :meth:`face_dots` gave."""
        cos_limit = np.asarray(cos_limit, float)
        codes = self.fcode[sol]
        count = np.zeros(len(dots), np.int64)
        code = np.zeros(len(dots), np.int64)
        for f in range(dots.shape[1]):
            ok = dots[:, f] > cos_limit
            count += ok
            code = np.where(ok & (count == 1), codes[:, f], code)
        return np.where(count == 0, 0, np.where(count == 1, code, -1))


def _dot(a, b) -> np.ndarray:
    """Σ a_k b_k over the last axis, summed in order (NumPy reduces a short last axis slowly)."""
    out = a[..., 0] * b[..., 0]
    for k in range(1, a.shape[-1]):
        out = out + a[..., k] * b[..., k]
    return out


def _norm(a) -> np.ndarray:
    """The Euclidean norm over the last axis."""
    return np.sqrt(_dot(a, a))
