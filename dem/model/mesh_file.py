"""Triangle meshes from files or from memory, in metres: reading, units, and welding coincident vertices.

Which library reads what. meshio (a dependency of dem from the start) reads STL (ASCII and binary), OBJ, PLY,
OFF, VTK and VTU, Gmsh, Medit and many more, into plain NumPy arrays, without compiled extensions of its own;
that covers what scanners and CAD tools write. glTF (.gltf, .glb), which meshio does not read, is read with
pyvista (VTK's glTF reader), which the ``vis`` extra installs; glTF's axes are +y up (its specification), turned
here to dem's +z up by a rotation about x (x, y, z) → (x, −z, y). trimesh, which reads the same formats and more,
would add a dependency for what these two already do; its mesh objects are accepted as they are (anything with
``vertices`` and ``faces``), as are meshio meshes and (vertices, faces) pairs.

Units. A mesh file has no units: its numbers are what the tool that wrote it used, often millimetres. ``units``
names them (:data:`UNITS`); left out, they are taken as metres and a body more than :data:`MAX_EXTENT` across is
refused as a unit mistake (a 1.5 m statue written in millimetres reads as 1,500 m), naming the unit that
makes it plausible. ``units="m"`` says the metres are meant.

Welding. STL stores each triangle's corners separately; vertices that coincide (to 1e-9 of the mesh's size)
are merged into one, so that faces share edges and the surface can be checked for holes
(dem.model.mesh_checks). Faces that lose a corner in the merge (zero area) are dropped.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

UNITS = {"m": 1.0, "cm": 1e-2, "mm": 1e-3, "in": 0.0254, "ft": 0.3048}
"""Length units a mesh's coordinates may be in, and their size in metres."""
MAX_EXTENT = 100.0
"""[m] The largest body taken as metres without ``units`` being given: beyond it a unit mistake is likelier
than a rigid body that size."""
MIN_EXTENT = 1e-3
"""[m] The smallest body taken without a warning that its units may be wrong."""
PLAUSIBLE = (0.01, 30.0)
"""[m] Sizes of the bodies this engine is for (a vase to a bridge pier): the unit suggested for a mistake is
the first of mm, cm, in, ft (of m, ft, in, cm for a body too small) that brings the body into this range."""
WELD = 1e-9
"""Vertices closer than this × the mesh's bounding-box diagonal are one vertex."""
GLTF = (".gltf", ".glb")


@dataclass(frozen=True)
class TriMesh:
    """A triangle mesh: vertices (n, 3) [m], faces (m, 3) vertex indices, and where it came from."""

    vertices: np.ndarray
    faces: np.ndarray
    source: str = "mesh"

    @property
    def extent(self) -> np.ndarray:
        """Size of the bounding box along x, y, z [m]."""
        return np.ptp(self.vertices, axis=0) if len(self.vertices) else np.zeros(3)


def suffixes() -> tuple[str, ...]:
    """File name endings the readers know (meshio's and glTF's)."""
    import meshio

    return tuple(sorted(set(meshio.extension_to_filetypes) | set(GLTF)))


def load_mesh(mesh, *, units: str | None = None) -> TriMesh:
    """A :class:`TriMesh` in metres from a file path, a meshio.Mesh, an object with ``vertices`` and ``faces``
    (a trimesh.Trimesh, a dem MeshSolid), or a (vertices, faces) pair; welded, units applied and their size
    checked (module docstring). ValueError naming the file and what is wrong with it."""
    scale = _unit_scale(units)
    if isinstance(mesh, (str, Path)):
        src = str(mesh)
        vertices, faces = _read_file(Path(mesh))
    else:
        src = getattr(mesh, "source", None) or type(mesh).__name__
        vertices, faces = _arrays(mesh)
    what = f"mesh {src}"
    vertices = np.asarray(vertices, float).reshape(-1, 3) * scale
    faces = np.asarray(faces).reshape(-1, 3)
    if len(faces) < 4 or len(vertices) < 4:
        raise ValueError(f"{what}: a closed surface needs at least 4 triangles and 4 vertices, got {len(faces)} "
                         f"and {len(vertices)}")
    if not np.all(np.isfinite(vertices)):
        raise ValueError(f"{what}: has non-finite vertex coordinates (NaN or inf)")
    if not np.issubdtype(faces.dtype, np.integer) or faces.min() < 0 or faces.max() >= len(vertices):
        raise ValueError(f"{what}: faces must be vertex indices in [0, {len(vertices) - 1}]")
    vertices, faces = weld(vertices, faces.astype(np.int64))
    out = TriMesh(vertices, faces, src)
    check_units(float(np.max(out.extent)), units, src)
    return out


def _unit_scale(units: str | None) -> float:
    if units is None:
        return 1.0
    if units not in UNITS:
        raise ValueError(f"units must be one of {', '.join(UNITS)} (the length unit of the mesh's coordinates), "
                         f"got {units!r}")
    return UNITS[units]


def check_units(extent: float, units: str | None, source: str) -> None:
    """Refuse a body more than MAX_EXTENT across read as metres without ``units`` (a unit mistake, most
    likely); warn about one under MIN_EXTENT. Both messages name the unit that makes the size plausible."""
    given = "m" if units is None else units
    if extent > MAX_EXTENT and units is None:
        guess = _likely_unit(extent, 1.0, ("mm", "cm", "in", "ft"))
        hint = f"its coordinates look like {guess}: give units={guess}" if guess else "give its units"
        raise ValueError(f"mesh {source}: {extent:,.4g} m across read as metres, a body {extent / 1.5:,.0f} times a "
                         f"person's height: {hint} (units=m if it truly is that big)")
    if 0 < extent < MIN_EXTENT:
        guess = _likely_unit(extent, UNITS[given], ("m", "ft", "in", "cm", "mm"))
        hint = f"; if its coordinates are in {guess}, give units={guess}" if guess else ""
        warnings.warn(f"mesh {source}: {extent:.3g} m across (its coordinates read as {given}){hint}", stacklevel=3)


def _likely_unit(extent: float, scale: float, order) -> str | None:
    """The first unit of `order` that, instead of the unit of size `scale` [m], brings `extent` [m] into
    PLAUSIBLE (a body too big: the smaller units first; too small: the larger)."""
    raw = extent / scale
    for u in order:
        if UNITS[u] != scale and PLAUSIBLE[0] <= raw * UNITS[u] <= PLAUSIBLE[1]:
            return u
    return None


def _arrays(mesh) -> tuple[np.ndarray, np.ndarray]:
    """(vertices, faces) of an in-memory mesh: a meshio.Mesh, an object with vertices and faces, or a pair."""
    if hasattr(mesh, "points") and hasattr(mesh, "cells"):  # meshio.Mesh
        return np.asarray(mesh.points, float)[:, :3], _triangles(mesh.cells, "the meshio mesh")
    if hasattr(mesh, "vertices") and hasattr(mesh, "faces"):
        return np.asarray(mesh.vertices, float), np.asarray(mesh.faces)
    try:
        vertices, faces = mesh
        return np.asarray(vertices, float), np.asarray(faces)
    except (TypeError, ValueError):
        raise ValueError(f"mesh must be a file path, a meshio.Mesh, an object with vertices and faces, or a "
                         f"(vertices (n, 3) [m], faces (m, 3)) pair; got {type(mesh).__name__}") from None


def _triangles(cells, what: str) -> np.ndarray:
    """The triangles of meshio cell blocks; quads and polygons split into fans; other cells ignored unless there
    are no surface cells at all (a volume mesh)."""
    out = []
    kinds = []
    for block in cells:
        kinds.append(block.type)
        data = np.asarray(block.data, np.int64)
        if block.type == "triangle":
            out.append(data)
        elif block.type == "quad" or block.type.startswith("polygon"):
            for k in range(1, data.shape[1] - 1):
                out.append(data[:, [0, k, k + 1]])
    if not out:
        raise ValueError(f"{what} holds no surface triangles (cells: {', '.join(sorted(set(kinds))) or 'none'}): "
                         "give the body's closed surface")
    return np.concatenate(out)


def _read_file(path: Path) -> tuple[np.ndarray, np.ndarray]:
    if not path.exists():
        raise ValueError(f"mesh {path}: no such file")
    if path.is_dir():
        raise ValueError(f"mesh {path}: is a folder, not a mesh file")
    suffix = "".join(path.suffixes[-2:]) if path.name.endswith(".gz") else path.suffix
    suffix = suffix.lower()
    if suffix in GLTF:
        return _read_gltf(path)
    import meshio

    if suffix not in meshio.extension_to_filetypes:
        raise ValueError(f"mesh {path}: unknown file type {suffix or '(no suffix)'!r}; known: {', '.join(suffixes())}")
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # meshio's format sniffing overflows on some files
            m = meshio.read(path)
    except Exception as e:  # meshio raises its own ReadError, and KeyError/ValueError/IndexError on bad contents
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ValueError(f"mesh {path}: cannot be read as {suffix} ({msg})") from None
    return np.asarray(m.points, float)[:, :3], _triangles(m.cells, f"mesh {path}")


def _read_gltf(path: Path) -> tuple[np.ndarray, np.ndarray]:
    try:
        import pyvista as pv
    except ImportError:
        raise ValueError(f"mesh {path}: glTF is read with pyvista, which is not installed "
                         "(pip install -e '.[vis]'), or convert it to STL, OBJ or PLY") from None
    try:
        data = pv.read(str(path))
    except Exception as e:
        raise ValueError(f"mesh {path}: cannot be read as glTF ({e})") from None
    blocks = [data] if not isinstance(data, pv.MultiBlock) else list(_leaves(data))
    verts, faces, n = [], [], 0
    for b in blocks:
        surf = (b if isinstance(b, pv.PolyData) else b.extract_geometry()).triangulate()
        f = np.asarray(surf.faces).reshape(-1, 4)[:, 1:]
        verts.append(np.asarray(surf.points, float))
        faces.append(f + n)
        n += surf.n_points
    if not faces or n == 0:
        raise ValueError(f"mesh {path}: the glTF file holds no triangles")
    v = np.concatenate(verts)
    return np.column_stack([v[:, 0], -v[:, 2], v[:, 1]]), np.concatenate(faces)  # glTF's +y up → dem's +z up


def _leaves(mb):
    for b in mb:
        if b is None:
            continue
        if hasattr(b, "n_blocks"):
            yield from _leaves(b)
        else:
            yield b


def weld(vertices: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge vertices closer than WELD × the bounding-box diagonal (on a grid of that pitch), drop the vertices
    no face uses and the faces left with a repeated corner; the rest in their order."""
    diag = float(np.linalg.norm(np.ptp(vertices, axis=0))) or 1.0
    pitch = WELD * diag
    key = np.round((vertices - vertices.min(axis=0)) / pitch).astype(np.int64)
    order = np.lexsort(key.T[::-1])  # rows sorted; equal rows are the same vertex
    new = np.r_[True, np.any(key[order][1:] != key[order][:-1], axis=1)]
    group = np.cumsum(new) - 1
    inverse = np.empty(len(key), np.int64)
    inverse[order] = group
    first = order[new]
    f = inverse[faces]
    keep = (f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])
    f = f[keep]
    used = np.unique(f)
    remap = np.full(len(first), -1, np.int64)
    remap[used] = np.arange(len(used))
    v = vertices[first[used]]
    return np.ascontiguousarray(v), remap[f]


def bounding_diagonal(vertices: np.ndarray) -> float:
    """Length of the bounding box's diagonal [m]."""
    return float(math.sqrt(float(np.sum(np.ptp(vertices, axis=0) ** 2))))
