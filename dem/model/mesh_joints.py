"""The joint faces of a mesh body: the flat faces where it rests on, or carries, another body (its base by
default), and the layers of small spheres that dem.model.mesh_clump lays on them, edge-true as
dem.model.prism_clump's and dem.model.drum_clump's.

A joint face is the part of the mesh that lies in the body's supporting plane of an outward direction d (the
plane max d·x over the vertices: a face of the body's convex hull), as many triangles as the mesh gives it,
possibly several pieces (two feet) or with holes. Its frame: u along its longest straight boundary edge, v =
n × u with n = −d the inward normal, origin at that edge's first vertex; coordinates (a, b) in the plane.

The layer on a joint face (the spheres' centres at r inside the face: tangent to it) is
- a ring along its boundary, each straight edge from vertex to vertex at a spacing ≤ s (exactly a given step
  when the edge is a whole number of steps), so that a sphere stands right over every vertex of the face and
  along every edge;
- inside the ring, the lattice a = i p_u, b = j p_v (p_u: the longest edge's spacing; p_v: the face's extent
  across it over a whole number ≤ s), less its points within half a pitch of the boundary, as drum_clump's
  disc. On a rectangle this is box_clump's layer on a face, sphere for sphere: two such faces of one step meet
  in register (dem.model.placement).
Edge-true ("true"): every boundary sphere's lowest point, the body resting on the face, is on the face's edge;
the body pivots about an edge of the face's convex hull on the spheres over that edge's two end vertices (and
those between), whose centres are r inside the face right over the edge, exactly as a box's edge spheres
(dem/model/box_clump.py: uplift under a held acceleration at g b/h of the solid, the pivot the solid's, the
potential r (1 − cos θ) above the sharp body's). "rounded": the ring runs r inside the boundary instead (the
body pivots r inside its edges).

Deeper layers of the joint zone (``zone`` [m] deep) lie at r + k s below the face, on the same lattice
extended over the body's section there, each sphere kept where it lies wholly inside the body.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lattice import layer_heights
from .mesh_query import ColumnGrid, boundary_loops, inside_points, plane_faces

FLAT_TOL = 1e-7
"""A vertex within this × the mesh's size of a supporting plane lies in it; a boundary vertex whose turn has a
sine below this is on a straight edge."""
NAMED = {"base": (0.0, 0.0, -1.0), "top": (0.0, 0.0, 1.0)}
"""Joint faces named by their outward normal."""


@dataclass
class JointFace:
    """A flat face of a mesh body that touches another body (module docstring).

    name: "base", "top" or "joint k"; normal: outward unit normal (3,); faces: the mesh's faces in it;
    origin (3,) [m], u, v (3,): its frame; loops: boundary loops, each (k, 2) [m] in (a, b), straight edges
    merged; area [m²] of the face, hull_area [m²] of its convex hull.
    """

    name: str
    normal: np.ndarray
    faces: np.ndarray
    origin: np.ndarray
    u: np.ndarray
    v: np.ndarray
    loops: list
    area: float
    hull_area: float

    @property
    def inward(self) -> np.ndarray:
        return -self.normal

    def to_plane(self, x: np.ndarray) -> np.ndarray:
        """(a, b) [m] of points x (k, 3) projected on the face's plane."""
        rel = np.asarray(x, float) - self.origin
        return np.column_stack([rel @ self.u, rel @ self.v])

    def depth(self, x: np.ndarray) -> np.ndarray:
        """How far points x (k, 3) lie inside the face's plane [m]."""
        return (np.asarray(x, float) - self.origin) @ self.inward

    def to_space(self, ab: np.ndarray, depth: float | np.ndarray) -> np.ndarray:
        ab = np.asarray(ab, float).reshape(-1, 2)
        return (self.origin + ab[:, :1] * self.u + ab[:, 1:] * self.v
                + np.reshape(depth, (-1, 1)) * self.inward)

    def segments(self) -> tuple[np.ndarray, np.ndarray]:
        """Every boundary edge as start and end points (k, 2) [m] in (a, b)."""
        starts = np.concatenate(self.loops)
        ends = np.concatenate([np.roll(lp, -1, axis=0) for lp in self.loops])
        return starts, ends


def joint_directions(joints) -> list[tuple[str, np.ndarray]]:
    """(name, outward unit normal) of each joint face asked for: "base", "top" or a direction (3,)."""
    if isinstance(joints, str):
        joints = (joints,)
    out = []
    for k, j in enumerate(joints):
        if isinstance(j, str):
            if j not in NAMED:
                raise ValueError(f"joints must name faces among {', '.join(NAMED)} or give outward normals (x, y, z), "
                                 f"got {j!r}")
            out.append((j, np.array(NAMED[j])))
            continue
        try:
            d = np.asarray(j, float).reshape(3)
        except (TypeError, ValueError):
            raise ValueError(f"joints must name faces among {', '.join(NAMED)} or give outward normals (x, y, z), "
                             f"got {j!r}") from None
        if not (np.all(np.isfinite(d)) and np.linalg.norm(d) > 0):
            raise ValueError(f"joints: a direction must be a finite non-zero (x, y, z), got {j!r}")
        out.append((f"joint {k}", d / np.linalg.norm(d)))
    return out


def find_joint_face(vertices, faces, name: str, direction, size: float) -> JointFace | None:
    """The joint face of outward normal `direction` (module docstring), or None where the body's supporting
    plane in that direction holds no face of the mesh (the body meets it at a vertex or an edge)."""
    tol = FLAT_TOL * size
    sel, _top = plane_faces(vertices, faces, direction, tol=tol)
    if not len(sel):
        return None
    normal = np.asarray(direction, float)
    n_in = -normal
    loops3 = [vertices[lp] for lp in boundary_loops(faces[sel])]
    loops3 = [_straighten(lp, tol) for lp in loops3]
    seg = [(lp[k], lp[(k + 1) % len(lp)]) for lp in loops3 for k in range(len(lp))]
    longest = max(seg, key=lambda e: float(np.linalg.norm(e[1] - e[0])))
    u = longest[1] - longest[0]
    u = u - (u @ normal) * normal
    u /= np.linalg.norm(u)
    v = np.cross(n_in, u)
    origin = longest[0] - ((longest[0] - vertices[faces[sel[0], 0]]) @ normal) * normal
    face = JointFace(name, normal, sel, origin, u, v, [], 0.0, 0.0)
    face.loops = [face.to_plane(lp) for lp in loops3]
    tri = vertices[faces[sel]]
    face.area = float(0.5 * np.sum(np.abs(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]) @ normal)))
    from scipy.spatial import ConvexHull

    pts = np.concatenate(face.loops)
    face.hull_area = float(ConvexHull(pts).volume) if len(pts) >= 3 else 0.0
    return face


def _straighten(loop: np.ndarray, tol: float) -> np.ndarray:
    """The loop without the vertices that lie on a straight edge (their two edges in line)."""
    while len(loop) > 3:
        prev, nxt = np.roll(loop, 1, axis=0), np.roll(loop, -1, axis=0)
        e1, e2 = loop - prev, nxt - loop
        l1, l2 = np.linalg.norm(e1, axis=1), np.linalg.norm(e2, axis=1)
        cross = np.linalg.norm(np.cross(e1, e2), axis=1)
        straight = (cross <= FLAT_TOL * l1 * l2) & (np.einsum("ij,ij->i", e1, e2) > 0) | (l1 <= tol)
        if not straight.any():
            break
        # drop every other straight vertex at a time, so that a run of them shrinks without skipping a corner
        k = np.flatnonzero(straight)
        keep = np.ones(len(loop), bool)
        keep[k[::2]] = False
        loop = loop[keep]
    return loop


def _steps(length: float, spacing: float, step: float | None) -> int:
    """Intervals of a straight edge of `length` [m]: exactly length/step when that is whole, else the fewest
    at most `spacing` apart."""
    if step is not None:
        n = length / step
        if abs(n - round(n)) <= 1e-6 * max(n, 1.0) and round(n) >= 1:
            return int(round(n))
        spacing = min(spacing, step)
    # 1e-6: an edge a whole number of spacings long, written in single precision (STL), stays that many
    return max(1, int(np.ceil(length / spacing * (1.0 - 1e-6))))


def layer(face: JointFace, radius: float, spacing: float, *, step: float | None = None,
          edges: str = "true") -> np.ndarray:
    """Centres [m] (k, 3) of the layer of spheres of `radius` [m] tangent to the joint face (module
    docstring), spaced ≤ `spacing` [m] (exactly `step` [m] in its lattice when given)."""
    inset = radius if edges == "rounded" else 0.0
    loops = [_offset(lp, inset) for lp in face.loops] if inset else face.loops
    ring = []
    for lp in loops:
        nxt = np.roll(lp, -1, axis=0)
        for p, q in zip(lp, nxt):
            n = _steps(float(np.linalg.norm(q - p)), spacing, step)
            t = np.arange(n)[:, None] / n
            ring.append(p + t * (q - p))
    ring = np.concatenate(ring)
    pu, pv = pitches(face, spacing, step)
    inner = lattice(face, pu, pv)
    starts, ends = face.segments()
    keep = region_contains(face, inner) & (boundary_distance(inner, starts, ends) >= inset + 0.5 * min(pu, pv) - 1e-12)
    pts = np.concatenate([ring, inner[keep]])
    return face.to_space(pts, radius)


def pitches(face: JointFace, spacing: float, step: float | None) -> tuple[float, float]:
    """The inner lattice's pitches (p_u, p_v) [m] (module docstring)."""
    starts, ends = face.segments()
    lengths = np.linalg.norm(ends - starts, axis=1)
    k = int(np.argmax(lengths))
    pu = float(lengths[k]) / _steps(float(lengths[k]), spacing, step)
    b = np.concatenate(face.loops)[:, 1]
    across = float(b.max() - b.min())
    pv = across / _steps(across, spacing, step) if across > 0 else pu
    if step is not None:
        pu = pv = float(step)
    return pu, pv


def lattice(face: JointFace, pu: float, pv: float, *, extent=None) -> np.ndarray:
    """Points (a, b) = (i p_u, j p_v) [m] over the face's bounding box in its plane (or `extent`:
    ((a_lo, b_lo), (a_hi, b_hi)) [m])."""
    pts = np.concatenate(face.loops)
    lo, hi = (pts.min(axis=0), pts.max(axis=0)) if extent is None else (np.asarray(extent[0]), np.asarray(extent[1]))
    i = np.arange(np.ceil(lo[0] / pu - 1e-9), np.floor(hi[0] / pu + 1e-9) + 1)
    j = np.arange(np.ceil(lo[1] / pv - 1e-9), np.floor(hi[1] / pv + 1e-9) + 1)
    ii, jj = np.meshgrid(i, j, indexing="ij")
    return np.column_stack([ii.ravel() * pu, jj.ravel() * pv])


def region_contains(face: JointFace, ab: np.ndarray) -> np.ndarray:
    """Mask of the points (a, b) inside the face (even–odd rule over its loops: pieces and holes)."""
    starts, ends = face.segments()
    inside = np.zeros(len(ab), bool)
    for s in range(0, len(ab), 20_000):
        p = ab[s:s + 20_000]
        x, y = p[:, None, 0], p[:, None, 1]
        (x0, y0), (x1, y1) = starts.T[:, None, :], ends.T[:, None, :]
        cross = (y0 > y) != (y1 > y)
        with np.errstate(invalid="ignore", divide="ignore"):
            xs = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        inside[s:s + 20_000] = np.sum(cross & (x < xs), axis=1) % 2 == 1
    return inside


def boundary_distance(ab: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Distance [m] from each point (a, b) to the nearest boundary edge."""
    out = np.full(len(ab), np.inf)
    d = ends - starts
    dd = np.maximum(np.einsum("ij,ij->i", d, d), 1e-300)
    for s in range(0, len(ab), 20_000):
        p = ab[s:s + 20_000]
        rel = p[:, None, :] - starts[None, :, :]
        t = np.clip(np.einsum("pkj,kj->pk", rel, d) / dd, 0.0, 1.0)
        near = starts[None] + t[..., None] * d[None]
        out[s:s + 20_000] = np.min(np.linalg.norm(p[:, None, :] - near, axis=2), axis=1)
    return out


def _offset(loop: np.ndarray, r: float) -> np.ndarray:
    """The loop moved `r` [m] towards the face's inside (on the right of its edges in (a, b): boundary loops run
    counter-clockwise about the outward normal), each vertex where its two moved edges meet."""
    e_out = np.roll(loop, -1, axis=0) - loop
    t_out = e_out / np.linalg.norm(e_out, axis=1, keepdims=True)
    t_in = np.roll(t_out, 1, axis=0)
    n_out = np.column_stack([t_out[:, 1], -t_out[:, 0]])
    n_in = np.column_stack([t_in[:, 1], -t_in[:, 0]])
    m = n_in + n_out
    return loop + r * m / (1.0 + np.einsum("ij,ij->i", n_in, n_out))[:, None]


def zone_layers(face: JointFace, vertices, faces, radius: float, spacing: float, zone: float, *,
                step: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Centres [m] of the joint zone's deeper layers (module docstring) before the inside-the-body test on
    distance, and whether each lies inside the body (the vertical-line test in the face's frame)."""
    depths = layer_heights(0.0, zone, radius, spacing)[1:] if zone > 0 else np.zeros(0)
    if not len(depths):
        return np.zeros((0, 3)), np.zeros(0, bool)
    pu, pv = pitches(face, spacing, step)
    rel = np.asarray(vertices, float) - face.origin
    local = np.column_stack([rel @ face.u, rel @ face.v, rel @ face.inward])  # a right-handed frame
    lo, hi = local[:, :2].min(axis=0), local[:, :2].max(axis=0)
    i0, i1 = int(np.ceil(lo[0] / pu)), int(np.floor(hi[0] / pu))
    j0, j1 = int(np.ceil(lo[1] / pv)), int(np.floor(hi[1] / pv))
    grid = ColumnGrid(i0 * pu, pu, max(i1 - i0 + 1, 1), j0 * pv, pv, max(j1 - j0 + 1, 1))
    cols = np.arange(grid.nx * grid.ny)
    col = np.tile(cols, len(depths))
    z = np.repeat(depths, len(cols))
    inside = inside_points(local, faces, grid, col, z)
    ab = grid.xy(col)
    return face.to_space(ab, z), inside
