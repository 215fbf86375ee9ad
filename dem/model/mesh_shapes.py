"""Closed triangle meshes made by the project, for scenes, tests and benchmarks: a box, a right prism on a
polygon (a stele), a many-sided cylinder, a tetrahedron, lofts through horizontal sections (a statue), the
convex hull of points (a stone from a seeded point cloud), and a bumpy stone of any number of faces; and a
mesh written as an STL file (binary, through meshio).

Every mesh is a :class:`dem.model.mesh_file.TriMesh` in metres, its faces counter-clockwise seen from outside.
Frames follow the builders': a box W × H × T as dem.box_clump (x across the width, y the thickness, z up,
centred), a prism as dem.prism_clump (polygon in x–z, extruded along y from −T/2 to T/2).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from .mesh_file import TriMesh
from .mesh_mass import mesh_moments


def box_mesh(width: float, height: float, thickness: float) -> TriMesh:
    """A W × H × T box [m] centred on the origin (x: W, y: T, z: H): 8 vertices, 12 triangles."""
    x, y, z = width / 2, thickness / 2, height / 2
    v = np.array([[sx * x, sy * y, sz * z] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return convex_hull_mesh(v, source=f"box {width:g} x {height:g} x {thickness:g} m")


def prism_mesh(polygon, thickness: float, *, source: str = "") -> TriMesh:
    """A right prism: the convex polygon (x, z) [m], counter-clockwise, extruded along y from −T/2 to T/2."""
    p = np.asarray(polygon, float)
    n = len(p)
    t = thickness / 2
    front = np.column_stack([p[:, 0], np.full(n, -t), p[:, 1]])  # y = −T/2
    back = np.column_stack([p[:, 0], np.full(n, t), p[:, 1]])
    v = np.concatenate([front, back])
    faces = []
    for k in range(1, n - 1):  # the two polygon faces as fans; counter-clockwise in (x, z) faces −y
        faces.append((0, k, k + 1))
        faces.append((n, n + k + 1, n + k))
    for k in range(n):  # the side faces
        j = (k + 1) % n
        faces.append((k, n + k, n + j))
        faces.append((k, n + j, j))
    return TriMesh(v, np.array(faces, np.int64), source or f"prism on a {n}-gon, {thickness:g} m thick")


def cylinder_mesh(radius: float, height: float, sides: int) -> TriMesh:
    """The prism on a regular `sides`-gon inscribed in a circle of `radius` [m] about z, from −H/2 to H/2."""
    a = 2 * math.pi * np.arange(sides) / sides
    ring = np.column_stack([radius * np.cos(a), radius * np.sin(a)])
    return loft_mesh([(-height / 2, ring), (height / 2, ring)], source=f"{sides}-sided cylinder")


def tetrahedron_mesh(points) -> TriMesh:
    """The tetrahedron on four points [m] (any order)."""
    return convex_hull_mesh(np.asarray(points, float), source="tetrahedron")


def convex_hull_mesh(points, *, source: str = "convex hull") -> TriMesh:
    """The convex hull of points [m] (SciPy's Qhull), triangles turned outward, unused points dropped."""
    from scipy.spatial import ConvexHull

    p = np.asarray(points, float)
    hull = ConvexHull(p)
    f = hull.simplices.copy()
    # Qhull's facet equations give each triangle's outward normal: turn those that disagree
    n = np.cross(p[f[:, 1]] - p[f[:, 0]], p[f[:, 2]] - p[f[:, 0]])
    flip = np.einsum("ij,ij->i", n, hull.equations[:, :3]) < 0
    f[flip] = f[flip][:, [0, 2, 1]]
    used = np.unique(f)
    remap = np.full(len(p), -1, np.int64)
    remap[used] = np.arange(len(used))
    return TriMesh(p[used], remap[f], source)


def loft_mesh(sections, *, apex=None, source: str = "loft") -> TriMesh:
    """A closed surface through horizontal sections (z [m], ring (n, 2) [m]) listed bottom to top, every ring
    with the same n points counter-clockwise seen from above, each star-shaped about its centroid; the bottom
    closed by a flat fan, the top by a fan to `apex` (x, y, z) [m] (default: a flat fan). Two sections at one
    height make a horizontal step (the inner ring must lie inside the outer)."""
    rings = [np.column_stack([np.asarray(r, float), np.full(len(r), float(z))]) for z, r in sections]
    n = len(rings[0])
    v = np.concatenate(rings + [rings[0].mean(axis=0, keepdims=True),
                                np.asarray(apex, float).reshape(1, 3) if apex is not None
                                else rings[-1].mean(axis=0, keepdims=True)])
    bottom, top = len(v) - 2, len(v) - 1
    faces = []
    for s in range(len(rings) - 1):
        lo, hi = s * n, (s + 1) * n
        for i in range(n):
            j = (i + 1) % n
            faces.append((lo + i, lo + j, hi + j))
            faces.append((lo + i, hi + j, hi + i))
    last = (len(rings) - 1) * n
    for i in range(n):
        j = (i + 1) % n
        faces.append((bottom, j, i))
        faces.append((last + i, last + j, top))
    return TriMesh(v, np.array(faces, np.int64), source)


def square_ring(half: float, n: int, center=(0.0, 0.0)) -> np.ndarray:
    """n points (a multiple of 8, so that the corners are among them) on a square of half-side `half` [m],
    where rays from its centre at angles 2πk/n meet it (the parametrisation :func:`loft_mesh` pairs rings by)."""
    a = 2 * math.pi * np.arange(n) / n
    c, s = np.cos(a), np.sin(a)
    k = half / np.maximum(np.abs(c), np.abs(s))
    return np.column_stack([center[0] + k * c, center[1] + k * s])


def ellipse_ring(ax: float, ay: float, n: int, center=(0.0, 0.0), bump=None) -> np.ndarray:
    """n points of an ellipse of semi-axes ax, ay [m] at angles 2πk/n about `center`; ``bump`` (angle [rad],
    height [m], width [rad]) adds a Gaussian bulge of the radius (an arm, a fold of drapery)."""
    a = 2 * math.pi * np.arange(n) / n
    r = 1.0 / np.sqrt((np.cos(a) / ax) ** 2 + (np.sin(a) / ay) ** 2)
    if bump is not None:
        at, h, w = bump
        d = np.angle(np.exp(1j * (a - at)))
        r = r + h * np.exp(-0.5 * (d / w) ** 2)
    return np.column_stack([center[0] + r * np.cos(a), center[1] + r * np.sin(a)])


def statue_mesh(*, sides: int = 48) -> TriMesh:
    """A standing figure on its own square pedestal, made from lofted sections (scenes/data/make_meshes.py
    writes it to scenes/data/statue.stl): pedestal 0.27 × 0.27 × 0.08 m, figure to 1.10 m, leaning 25 mm
    forward (+x) at the head, an arm held forward at the chest, a narrow neck: non-convex, and not
    symmetric front to back. Base face at z = 0, centred on the z axis."""
    if sides % 8:
        raise ValueError(f"sides must be a multiple of 8, got {sides}")
    lean = 0.025 / 1.1  # [m/m] the figure's axis leans forward

    def c(z):
        return (lean * z, 0.0)

    sec = [(0.0, square_ring(0.135, sides)), (0.08, square_ring(0.135, sides)),
           (0.08, ellipse_ring(0.105, 0.085, sides, c(0.08))),          # feet and hem of a robe
           (0.30, ellipse_ring(0.095, 0.075, sides, c(0.30))),
           (0.50, ellipse_ring(0.11, 0.08, sides, c(0.50))),            # hips
           (0.62, ellipse_ring(0.09, 0.068, sides, c(0.62), bump=(0.0, 0.05, 0.35))),   # forearm held forward
           (0.74, ellipse_ring(0.11, 0.075, sides, c(0.74), bump=(0.0, 0.07, 0.30))),
           (0.86, ellipse_ring(0.135, 0.07, sides, c(0.86))),           # shoulders
           (0.92, ellipse_ring(0.05, 0.045, sides, c(0.92))),           # neck
           (0.97, ellipse_ring(0.065, 0.075, sides, c(0.97))),          # head
           (1.05, ellipse_ring(0.06, 0.07, sides, c(1.05)))]
    return loft_mesh(sec, apex=(lean * 1.1, 0.0, 1.10), source="statue (scenes/data/make_meshes.py)")


def stone_mesh(seed: int, *, size=(0.40, 0.30, 0.70), points: int = 60, roughness: float = 0.15,
               bed: float = 0.55, bevel: float = 0.1, free_tilt: float = 10.0) -> TriMesh:
    """An irregular convex stone: the convex hull of `points` random points (NumPy's generator seeded with
    `seed`) on an ellipsoid of full sizes `size` (x, y, z) [m], each pushed out or in by up to `roughness` of
    its radius, with a flat bed: points lower than `bed` × the lower semi-axis below the centre, or less than
    `bevel` × that semi-axis above that plane, are put on it (a stone from a wall rests on a bedding face, and
    the faces beside the bed rise from it, not almost flat). Turned about z so that the longest edge of the bed
    that passes beside the centre of mass, and whose neighbouring face rises at least `free_tilt` [deg] from
    the bed (the stone tips that far on that edge before another face touches), lies along y on the +x side
    (the edge it is tilted onto and pivots on, rocking in x); moved so that the bed is at z = 0 with the
    centre of mass over the origin."""
    rng = np.random.default_rng(seed)
    d = rng.normal(size=(points, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    semi = 0.5 * np.asarray(size, float)
    p = d * semi * (1.0 + roughness * rng.uniform(-1.0, 1.0, size=(points, 1)))
    floor = -bed * semi[2]
    p[:, 2] = np.where(p[:, 2] < floor + bevel * bed * semi[2], floor, p[:, 2])
    hull = convex_hull_mesh(p, source=f"stone (seed {seed})")
    v, f = hull.vertices, hull.faces
    g = mesh_moments(v, f).centroid
    on_bed = np.isclose(v[:, 2], floor)
    from scipy.spatial import ConvexHull

    ring_idx = np.flatnonzero(on_bed)[ConvexHull(v[on_bed][:, :2]).vertices]  # counter-clockwise from above
    n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    best = None
    for k in range(len(ring_idx)):
        i, j = int(ring_idx[k]), int(ring_idx[(k + 1) % len(ring_idx)])
        a, b = v[i, :2], v[j, :2]
        t = (b - a) / np.linalg.norm(b - a)
        s = float((g[:2] - a) @ t)
        margin = min(s, float(np.linalg.norm(b - a)) - s)  # G's foot on the edge, away from its ends
        side = [q for q in range(len(f)) if {i, j} <= set(f[q].tolist()) and not on_bed[f[q]].all()]
        tilt = math.degrees(math.acos(np.clip(-n[side[0], 2], -1.0, 1.0))) if side else 0.0
        if margin > 0.0 and tilt >= free_tilt and (best is None or np.linalg.norm(b - a) > best[0]):
            best = (float(np.linalg.norm(b - a)), t)
    if best is None:
        raise ValueError(f"stone seed {seed}: no edge of its bed passes beside its centre of mass with its "
                         f"neighbouring face rising {free_tilt:g}° or more; try another seed")
    t = best[1]
    # the edge's outward normal (t turned −90°) to +x: rotate about z by −angle(normal)
    normal = np.array([t[1], -t[0]])
    ang = -math.atan2(normal[1], normal[0])
    rot = np.array([[math.cos(ang), -math.sin(ang), 0.0], [math.sin(ang), math.cos(ang), 0.0], [0.0, 0.0, 1.0]])
    v = (v - np.array([g[0], g[1], floor])) @ rot.T
    return TriMesh(v, f, hull.source)


def bumpy_stone_mesh(faces: int, *, size: float = 0.5, seed: int = 0) -> TriMesh:
    """A rounded stone of about `faces` triangles (a latitude–longitude sphere of diameter `size` [m] with
    smooth random bumps of ±8 % of its radius; non-convex), for the packing benchmark."""
    n_lon = max(8, int(round(math.sqrt(faces / 2.0))))
    n_lat = max(4, int(round(faces / (2.0 * n_lon))) + 1)
    rng = np.random.default_rng(seed)
    k = rng.normal(size=(12, 3))
    k /= np.linalg.norm(k, axis=1, keepdims=True)
    amp = rng.uniform(-1, 1, 12) * 0.08 / 3

    def radius(u):
        return 0.5 * size * (1.0 + np.sum(amp * np.cos(3.0 * np.arccos(np.clip(u @ k.T, -1, 1))), axis=1))

    theta = np.linspace(0.0, math.pi, n_lat + 1)[1:-1]
    phi = 2 * math.pi * np.arange(n_lon) / n_lon
    tt, pp = np.meshgrid(theta, phi, indexing="ij")
    u = np.column_stack([(np.sin(tt) * np.cos(pp)).ravel(), (np.sin(tt) * np.sin(pp)).ravel(), np.cos(tt).ravel()])
    poles = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]])
    u = np.concatenate([u, poles])
    v = u * radius(u)[:, None]
    rows = len(theta)
    north, south = rows * n_lon, rows * n_lon + 1
    f = []
    for i in range(rows - 1):
        for j in range(n_lon):
            a, b = i * n_lon + j, i * n_lon + (j + 1) % n_lon
            c, d = a + n_lon, b + n_lon
            f += [(a, c, d), (a, d, b)]
    for j in range(n_lon):
        jn = (j + 1) % n_lon
        f.append((north, j, jn))
        last = (rows - 1) * n_lon
        f.append((south, last + jn, last + j))
    return TriMesh(v, np.array(f, np.int64), f"bumpy stone of {len(f)} faces")


def write_stl(path: Path | str, mesh: TriMesh) -> Path:
    """Write `mesh` as a binary STL file (meshio); returns the path."""
    import meshio

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meshio.write(path, meshio.Mesh(np.asarray(mesh.vertices, float), [("triangle", np.asarray(mesh.faces))]),
                 file_format="stl", binary=True)
    return path
