"""A body from a mesh file: a statue, a stele, a cabinet, a scanned stone, packed with spheres graded as
dem.model.box_clump packs a box, its mass, centre of mass and inertia from the mesh itself.

What it reads: a closed triangle mesh (STL, OBJ, PLY, OFF, VTK, glTF, ...: dem.model.mesh_file), in the units
given, checked (dem.model.mesh_checks: closed, oriented outward, one part, a volume, not self-intersecting)
before anything is packed. Template frame: the mesh's own coordinates [m]; the solid is the mesh
(dem.model.mesh_mass.MeshSolid: mass properties exact, by the divergence theorem over the triangles).

How it packs (Itiola & El Shamy 2024, §3: small spheres where the body touches others, large in the core):
- joint faces (``joints``, by default the body's base: its flat face on its convex hull facing down): a layer
  of spheres of radius r_surface tangent to the face, edge-true (dem.model.mesh_joints: a sphere over every
  vertex and along every edge, so that the body pivots on the edges of its own convex hull and uplifts under a
  held acceleration at g b/h of the solid), and, ``surface_zone`` deep, layers below it;
- the skin: one layer of r_surface spheres r_surface inside the rest of the surface (dem.model.mesh_skin),
  rounding convex edges with radius r_surface, reaching into concave ones;
- the core: a cubic lattice of r_core spheres (spacing ratio × 2 r_core) wholly inside the body, below the
  joint zones.
Hull spheres (the only ones a run's contacts see): the joint layers and the skin, and any other sphere within
half a spacing of the surface (dem.model.lattice.on_hull).

Edge-true, and what it leaves. On a joint face the body's sphere envelope is its own face, and its rocking
about an edge of that face is the solid's: the edge spheres' centres are r inside the face right over the
edge, so the contact point at θ = 0 is the solid's edge, the lever arms b, h and I_O are the solid's, the uplift
threshold g b/h the solid's exactly, and the potential differs from the sharp body's by r (1 − cos θ) ≤ r θ²/2
(dem/model/box_clump.py derives it for a box; the derivation holds for any edge of a flat face: it uses only
the edge sphere's centre at r above the edge line). Away from the joint faces the envelope is the surface
rounded by r_surface at convex edges and corners (the body within r (√2 − 1) of a box's edge is not there)
and corrugated between spheres (the surface at most ~0.55 r outside them). A non-convex body (a statue) is
packed inside its own surface: its concave parts (a neck, the space under an arm) are there, reached by the
skin's spheres of both sides; what it gives up is every part thinner than 2 r_surface (a finger, the edge of a
cloak: the packing leaves it out, and says how much of the surface that is). Where a body rests on a face of
its convex hull that its mesh does not fill (two feet, a concave underside) it stands on the rims of the
footprint, pivoting about the hull's edges between them as the solid does; the run notes it.

Bad input is refused before anything is packed, in one ValueError naming the mesh and the parameter or the
mesh's defect (and the allowed range); a packing larger than the machine's memory is refused from an estimate
of its sphere count (dem.model.sizing).
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np

from .clump import ClumpTemplate
from .lattice import (
    ZONE_BASE,
    ZONE_CORE,
    ZONE_JOINT0,
    ZONE_SURFACE,
    ZONE_TOP,
    TemplateCache,
    axis_points,
    check_positive,
    check_spacing_ratio,
    on_hull,
    spacing,
)
from .mesh_checks import check_closed_surface
from .mesh_file import bounding_diagonal, load_mesh
from .mesh_joints import JointFace, find_joint_face, joint_directions, layer, zone_layers
from .mesh_mass import MeshSolid
from .mesh_query import ColumnGrid, SurfaceDistance, face_normals, inside_points
from .mesh_skin import SKIN_SPACING, face_samples, skin
from .sizing import check_sphere_count

EDGES = ("true", "rounded")
"""Edge layouts of the joint faces (as dem.box_clump's)."""
UNCOVERED_SHARE = 0.02
"""Share of the surface [-] the packing may leave uncovered (farther than r_surface from every sphere) before
the spheres are refused as larger than the body's thinnest parts; less is a note (from NOTE_SHARE). A box
leaves none (its corners lie within 0.99 r of its spheres), a sharp wedge some (r (1/sin(β/2) − 1) at an edge of
angle β)."""
NOTE_SHARE = 0.005
"""Share of the surface [-] left uncovered from which the packing notes it."""
_CACHE = TemplateCache(16)


def mesh_clump(mesh, *, r_core: float, r_surface: float | None = None, surface_zone: float = 0.0, joints=None,
               edges: str = "true", units: str | None = None, spacing_ratio: float = 0.75,
               zone_step: float | None = None) -> ClumpTemplate:
    """Graded sphere packing of the body a closed triangle mesh bounds (module docstring).

    Args:
        mesh: a mesh file's path (a format dem.model.mesh_file reads), a meshio.Mesh, an object with
            ``vertices`` and ``faces`` (a trimesh.Trimesh), or a (vertices (n, 3), faces (m, 3)) pair.
        r_core: sphere radius in the core [m].
        r_surface: sphere radius of the skin and the joint faces [m] (default r_core).
        surface_zone: depth of the small-sphere zone under the joint faces [m] (0: one layer; else ≥ 2 r_surface).
        joints: the faces that touch other bodies: "base" (the flat face facing −z), "top" (+z), outward
            normals (x, y, z), or a sequence of them; default: the base where the body has one (else none,
            with a note); () for none.
        edges: "true" (the joint faces' rings on their edges: the body pivots on its own edges) or "rounded"
            (r_surface inside them).
        units: length unit of the mesh's coordinates, one of dem.model.mesh_file.UNITS (default metres, with
            a body over 100 m across refused as a likely unit mistake).
        spacing_ratio: centre spacing ÷ diameter, in (0, 1].
        zone_step: exact lattice step on the joint faces [m] (to meet another body's face in register,
            dem.model.placement), instead of the one spacing_ratio gives.
    Returns a ClumpTemplate whose solid is the mesh (:class:`dem.model.mesh_mass.MeshSolid`); the same
    arguments (the same file, unchanged) give the same template object.
    """
    key = _cache_key(mesh, r_core, r_surface, surface_zone, joints, edges, units, spacing_ratio, zone_step)
    return _CACHE.get(key, lambda: _build(mesh, r_core=r_core, r_surface=r_surface, surface_zone=surface_zone,
                                          joints=joints, edges=edges, units=units, spacing_ratio=spacing_ratio,
                                          zone_step=zone_step))


def _cache_key(mesh, *args):
    try:
        if isinstance(mesh, (str, Path)):
            st = Path(mesh).stat()
            ident = ("file", str(Path(mesh).resolve()), st.st_mtime_ns, st.st_size)
        else:
            v, f = (mesh.vertices, mesh.faces) if hasattr(mesh, "vertices") else mesh
            h = hashlib.sha1(np.ascontiguousarray(v, float).tobytes())
            h.update(np.ascontiguousarray(f, np.int64).tobytes())
            ident = ("mesh", h.hexdigest())
        key = (ident, *(tuple(a) if isinstance(a, list) else a for a in args))
        hash(key)
        return key
    except (OSError, TypeError, ValueError, AttributeError):
        return None  # _build says what is wrong


def check_parameters(r_core, r_surface, surface_zone, edges, spacing_ratio, zone_step) -> float:
    """The packing's parameters checked (ValueError naming the first bad one and its range); r_surface."""
    check_positive(r_core=r_core)
    r_surface = r_core if r_surface is None else r_surface
    check_positive(r_surface=r_surface)
    check_spacing_ratio(spacing_ratio)
    if edges not in EDGES:
        raise ValueError(f"edges must be one of {', '.join(EDGES)}, got {edges!r}")
    if not (isinstance(surface_zone, (int, float)) and math.isfinite(surface_zone) and surface_zone >= 0):
        raise ValueError(f"surface_zone must be >= 0 [m], got {surface_zone!r}")
    if 0 < surface_zone < 2 * r_surface:
        raise ValueError(f"surface_zone={surface_zone} m must hold one sphere layer (>= 2 r_surface = "
                         f"{2 * r_surface} m), or be 0")
    if zone_step is not None:
        check_positive(zone_step=zone_step)
    return float(r_surface)


def _build(mesh, *, r_core, r_surface, surface_zone, joints, edges, units, spacing_ratio, zone_step):
    r_s = check_parameters(r_core, r_surface, surface_zone, edges, spacing_ratio, zone_step)
    directions = joint_directions(("base",) if joints is None else joints)
    tm = load_mesh(mesh, units=units)
    check_closed_surface(tm)
    what = f"mesh {tm.source}"
    v, f = tm.vertices, tm.faces
    extent = tm.extent
    thin_side = float(np.min(extent))
    if 2 * r_s > thin_side:
        raise ValueError(f"r_surface={r_s} m must be <= half the body's smallest extent, {thin_side / 2:.6g} m "
                         f"({what} is {_dims(extent)}): spheres larger than the body")
    s_s, s_c = spacing(r_s, spacing_ratio), spacing(r_core, spacing_ratio)
    solid = MeshSolid(v, f, tm.source)
    area = float(np.sum(np.linalg.norm(np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]]), axis=1))) / 2
    zone = max(surface_zone, 2 * r_s)
    estimate = (4.0 / SKIN_SPACING**2) * area / s_s**2 + area * zone / s_s**3 + solid.volume / s_c**3
    check_sphere_count(estimate, f"a mesh packing ({what}, {_dims(extent)}, r_surface {r_s:g} m)")

    size = bounding_diagonal(v)
    faces_j, notes = _joint_faces(v, f, directions, joints is None, size, what)
    dist = SurfaceDistance(v, f, cell=s_s)
    centers, radii, zones, kind = [], [], [], []

    def add(x, r, label, k):
        centers.append(np.asarray(x, float).reshape(-1, 3))
        radii.append(np.full(len(centers[-1]), r))
        zones.append(np.full(len(centers[-1]), label, np.int8))
        kind.append(np.full(len(centers[-1]), k, np.int8))

    for k, jf in enumerate(faces_j):
        add(layer(jf, r_s, s_s, step=zone_step, edges=edges), r_s, _label(jf, k), 0)
    fixed = np.concatenate(centers) if centers else np.zeros((0, 3))
    exclude = _beside_joints(v, f, faces_j, r_s, s_s) if faces_j else None
    skin_x, _over = skin(v, f, dist, r_s, s_s, fixed=fixed, exclude=exclude)
    add(skin_x, r_s, ZONE_SURFACE, 1)
    for k, jf in enumerate(faces_j):
        x, inside = zone_layers(jf, v, f, r_s, s_s, surface_zone, step=zone_step)
        x = x[inside]
        d, _fi, _q = dist.query(x, bound=r_s)
        add(x[np.isinf(d)], r_s, _label(jf, k), 2)
    add(_core(v, f, dist, r_core, s_c, faces_j, zone, what), r_core, ZONE_CORE, 2)

    x, r, z, kind = (np.concatenate(a) for a in (centers, radii, zones, kind))
    notes += _coverage(v, f, x, r, r_s, area, s_s, dist, what)
    # the joint layers and the skin are the hull; of the others, those within half a spacing of the surface
    hull = kind < 2
    deep = np.flatnonzero(~hull)
    if len(deep):
        d, _fi, _q = dist.query(x[deep], bound=float(r[deep].max()) * (1.0 + spacing_ratio) + 1e-12)
        hull[deep] = on_hull(d, r[deep], spacing_ratio)
    solid = MeshSolid(v, f, tm.source, tuple(notes))
    return ClumpTemplate(x, r, hull, solid, z)


def solid_notes(model) -> list[str]:
    """The notes of a model's bodies from meshes (their solids' ``notes``: a body non-convex where it rests,
    without a flat base, or with parts thinner than its spheres left out), each once, naming the body."""
    out = []
    for cs in model.clumps:
        for n in getattr(cs.template.solid, "notes", ()) or ():
            line = f"body '{cs.name}': {n}"
            if line not in out:
                out.append(line)
    return out


def _dims(extent) -> str:
    return " × ".join(f"{float(e):.4g}" for e in extent) + " m"


def _label(face: JointFace, k: int) -> int:
    return ZONE_BASE if face.name == "base" else ZONE_TOP if face.name == "top" else ZONE_JOINT0 + k


def _joint_faces(v, f, directions, default: bool, size: float, what: str) -> tuple[list[JointFace], list[str]]:
    """The joint faces asked for (ValueError where one asked for does not exist) and notes: no flat base
    (the default), a base the mesh does not fill (non-convex where it rests)."""
    faces, notes = [], []
    for name, d in directions:
        jf = find_joint_face(v, f, name, d, size)
        if jf is None:
            if default:
                notes.append(f"{what} has no flat face at its bottom (its lowest point is a vertex or an edge): no "
                             "joint face; it rests on its skin's spheres")
                continue
            facing = "(" + ", ".join(f"{float(c):.6g}" for c in d) + ")"
            raise ValueError(f"joints: {what} has no flat face on its convex hull facing {facing} "
                             "(the body meets that side's supporting plane at a vertex or an edge); turn the mesh so "
                             "that it rests on a face, or leave that joint out")
        faces.append(jf)
        if jf.area < (1.0 - 1e-6) * jf.hull_area:
            notes.append(f"{what} is non-convex where it rests ({jf.name} face): its mesh fills "
                         f"{100 * jf.area / jf.hull_area:.1f} % of the convex hull of that face; it stands on the "
                         "face's pieces and pivots about the hull's edges between them")
    return faces, notes


def _beside_joints(v, f, faces_j: list[JointFace], r: float, s: float):
    """The mask function of skin candidates to leave out beside the joint faces: nearer to a joint face than
    r + s/2 (they would touch what touches the face, beside its own layer)."""
    sel = np.concatenate([jf.faces for jf in faces_j])
    near = SurfaceDistance(v, f[sel], cell=s)

    def exclude(x):
        d, _fi, _q = near.query(x, bound=r + 0.25 * s)
        return np.isfinite(d)

    return exclude


def _core(v, f, dist: SurfaceDistance, r: float, s: float, faces_j, zone: float, what: str) -> np.ndarray:
    """The core's cubic lattice of spacing s, tangent to the bounding box, kept where a sphere of radius r
    lies wholly inside the body and below the joint zones (it reaches r into them, as box_clump's core)."""
    lo, hi = v.min(axis=0), v.max(axis=0)
    axes = [axis_points(float(hi[k] - lo[k]), r, s, centred=False) + 0.5 * float(hi[k] + lo[k]) for k in range(3)]
    if any(float(hi[k] - lo[k]) < 2 * r for k in range(3)):
        return np.zeros((0, 3))
    xs, ys, zs = axes
    step = [float(a[1] - a[0]) if len(a) > 1 else 1.0 for a in (xs, ys)]
    grid = ColumnGrid(float(xs[0]), step[0], len(xs), float(ys[0]), step[1], len(ys))
    cols = np.arange(grid.nx * grid.ny)
    col = np.tile(cols, len(zs))
    z = np.repeat(zs, len(cols))
    inside = inside_points(v, f, grid, col, z, what=what)
    x = np.column_stack([grid.xy(col[inside]), z[inside]])
    for jf in faces_j:
        x = x[jf.depth(x) >= zone - r]
    d, _fi, _q = dist.query(x, bound=r)
    return x[np.isinf(d)]


def _coverage(v, f, x, r, r_s: float, area: float, s: float, dist: SurfaceDistance, what: str) -> list[str]:
    """What the packing leaves out: surface points (about one per (s/2)² of every face) farther than r_surface
    from every sphere. More than UNCOVERED_SHARE of the surface: ValueError (the spheres are larger than the
    body's thinnest parts, naming the thinnest place found); less, but some: a note."""
    from scipy.spatial import cKDTree

    _n, areas = face_normals(v, f)
    ok = areas > 0
    over, _owner = face_samples(v, f[ok], areas[ok], 0.5 * s)
    k = min(8, len(x))
    dd, ii = cKDTree(x).query(over, k=k)
    gap = np.min(dd.reshape(len(over), k) - r[ii.reshape(len(over), k)], axis=1)
    out = gap > r_s
    share = float(np.mean(out)) if len(out) else 0.0
    if share < NOTE_SHARE:
        return []
    worst = over[int(np.argmax(gap))]
    # how thick the body is where it is left out: the median over (up to) 15 of those places, so that a sharp
    # corner among them does not stand for the whole
    places = over[out][np.linspace(0, int(out.sum()) - 1, min(15, int(out.sum()))).astype(int)]
    thick = float(np.median([_thickness(q, dist, r_s) for q in places]))
    where = "(" + ", ".join(f"{c:.4g}" for c in worst) + ") m"
    if share > UNCOVERED_SHARE:
        raise ValueError(f"r_surface={r_s} m is too large for {what}: parts of it thinner than its spheres "
                         f"(2 r_surface = {2 * r_s:g} m) are left out, {100 * share:.1f} % of its surface (the "
                         f"body is about {thick:.3g} m thick where it is, the farthest from a sphere at {where}); "
                         f"give r_surface < {max(thick, 1e-9) / 2:.3g} m (at most {100 * UNCOVERED_SHARE:g} % of "
                         "the surface may be left out)")
    return [f"{what}: {100 * share:.2f} % of its surface lies farther than r_surface = {r_s:g} m from its spheres "
            f"(sharp corners and edges, parts thinner than 2 r_surface: about {thick:.3g} m thick there; the farthest "
            f"at {where})"]


def _thickness(point: np.ndarray, dist: SurfaceDistance, r_s: float) -> float:
    """About how thick the body is at a surface point: twice the largest ball inside it through the point's
    surroundings (bisection on the ball's radius along the inward direction of the nearest face)."""
    d, fi, q = dist.query(point[None], bound=np.inf)
    a, b, c = dist.a[fi[0]], dist.b[fi[0]], dist.c[fi[0]]
    n = np.cross(b - a, c - a)
    n = -n / np.linalg.norm(n)
    lo, hi = 0.0, 4.0 * r_s
    for _ in range(30):
        t = 0.5 * (lo + hi)
        dt, _f, _q = dist.query((q[0] + t * n)[None], bound=np.inf)
        lo, hi = (t, hi) if dt[0] >= t * (1 - 1e-9) else (lo, t)
    return 2.0 * lo
