"""Is a triangle mesh the closed surface of one solid body? The checks dem.model.mesh_clump makes before it
packs anything, each failure a ValueError naming the mesh and what is wrong with it.

- closed (watertight): every edge belongs to exactly two faces; an edge of one face lies on a hole's rim, an
  edge of three or more on a non-manifold seam;
- consistently oriented: the two faces of an edge run it in opposite directions (a flipped face runs it the
  same way as its neighbour);
- one part: every face reaches every other across edges (two separate solids, or a shell inside a shell, are
  several parts);
- outward normals: the signed volume (dem.model.mesh_mass) is positive; negative when every face is inside out;
- a volume: not zero, beside the mesh's size;
- not self-intersecting: vertical lines through the body cross its surface entering and leaving in turn, the
  winding number along each 0 or 1 (dem.model.mesh_query.column_winding; a surface that passes through itself
  encloses parts twice, or inside out). Lines are sampled on a grid, so a crossing smaller than the grid's pitch
  can go unseen here; the packing's own lines (dem.model.mesh_clump) check again at its lattice's pitch.
"""

from __future__ import annotations

import numpy as np

from .mesh_file import TriMesh, bounding_diagonal
from .mesh_mass import mesh_moments
from .mesh_query import ColumnGrid, column_winding

ZERO_VOLUME = 1e-9
"""A mesh whose volume is below this × the cube of its bounding-box diagonal has none."""
CHECK_COLUMNS = 61
"""Vertical lines per side of the self-intersection check's grid (an odd count, off the mesh's symmetry
planes' usual places)."""


def edge_table(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected edges of a triangle mesh: (edges (k, 2) as (low, high) vertex indices, the number of faces
    using each, and for each face corner i the edge index of the edge from corner i to corner i + 1, (m, 3))."""
    f = np.asarray(faces, np.int64)
    a = f.reshape(-1)
    b = np.roll(f, -1, axis=1).reshape(-1)
    n = int(f.max()) + 1 if len(f) else 1
    key = np.minimum(a, b) * n + np.maximum(a, b)  # one integer per undirected edge (faster than rows)
    uniq, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    return np.column_stack([uniq // n, uniq % n]), counts, inverse.reshape(-1, 3)


def edge_faces(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For a closed, consistently oriented mesh: the undirected edges (k, 2) and their two faces (k, 2), the
    first face the one that runs the edge from low to high vertex index."""
    f = np.asarray(faces, np.int64)
    edges, _counts, corner_edge = edge_table(f)
    forward = (f < np.roll(f, -1, axis=1)).reshape(-1)
    face_of = np.repeat(np.arange(len(f)), 3)
    out = np.full((len(edges), 2), -1, np.int64)
    e = corner_edge.reshape(-1)
    out[e[forward], 0] = face_of[forward]
    out[e[~forward], 1] = face_of[~forward]
    return edges, out


def check_closed_surface(mesh: TriMesh) -> float:
    """Raise ValueError (module docstring) unless `mesh` is the closed, outward-oriented surface of one solid;
    returns its volume [m³]."""
    v, f = mesh.vertices, mesh.faces
    what = f"mesh {mesh.source}"
    edges, counts, corner_edge = edge_table(f)
    if np.any(counts == 1):
        k = int(np.flatnonzero(counts == 1)[0])
        raise ValueError(f"{what} is open (not watertight): {int(np.sum(counts == 1))} edges belong to one face only, "
                         f"the rims of holes (one from {_pt(v[edges[k, 0]])} to {_pt(v[edges[k, 1]])}); close it "
                         "(fill its holes) in a mesh tool")
    if np.any(counts > 2):
        k = int(np.flatnonzero(counts > 2)[0])
        raise ValueError(f"{what} is not a manifold surface: {int(np.sum(counts > 2))} edges belong to three or more "
                         f"faces (one from {_pt(v[edges[k, 0]])} to {_pt(v[edges[k, 1]])}); a body's surface has two "
                         "faces on every edge")
    directed = f.reshape(-1) * len(v) + np.roll(f, -1, axis=1).reshape(-1)
    _, dcount = np.unique(directed, return_counts=True)
    if np.any(dcount > 1):
        raise ValueError(f"{what} is not consistently oriented: {int(np.sum(dcount > 1))} edges are run the same "
                         "way by both their faces (some faces are flipped); make its normals consistent (point "
                         "them all outward) in a mesh tool")
    parts = _component_count(len(f), corner_edge)
    if parts > 1:
        raise ValueError(f"{what} has {parts} disconnected parts: a body is one closed surface; give each part as "
                         "a body of its own (a file each), or join them")
    vol = mesh_moments(v, f).volume
    diag = bounding_diagonal(v)
    if abs(vol) <= ZERO_VOLUME * diag**3:
        raise ValueError(f"{what} encloses no volume ({vol:.3g} m³ for a body {diag:.3g} m across): it is flat "
                         "or folded onto itself")
    if vol < 0:
        raise ValueError(f"{what} has inverted normals: its faces point inward (signed volume {vol:.6g} m³); reverse "
                         "the order of every face's vertices (flip its normals) in a mesh tool")
    check_winding(mesh, CHECK_COLUMNS)
    return vol


def check_winding(mesh: TriMesh, columns: int) -> None:
    """Self-intersection check on a `columns` × `columns` grid of vertical lines over the mesh (module
    docstring)."""
    lo, hi = mesh.vertices.min(axis=0), mesh.vertices.max(axis=0)
    step = (hi[:2] - lo[:2]) / columns
    grid = ColumnGrid(lo[0] + 0.5 * step[0], step[0], columns, lo[1] + 0.5 * step[1], step[1], columns)
    column_winding(mesh.vertices, mesh.faces, grid, what=f"mesh {mesh.source}")


def _component_count(n_faces: int, corner_edge: np.ndarray) -> int:
    """Faces connected through shared edges (each edge's two faces, the mesh being manifold by then): how many
    groups (scipy's connected components)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    e = corner_edge.reshape(-1)
    face = np.repeat(np.arange(n_faces), 3)
    order = np.argsort(e, kind="stable")
    pair = face[order].reshape(-1, 2)  # every edge twice in a row: its two faces
    adj = coo_matrix((np.ones(len(pair)), (pair[:, 0], pair[:, 1])), shape=(n_faces, n_faces))
    return int(connected_components(adj, directed=False)[0])


def _pt(p) -> str:
    return "(" + ", ".join(f"{float(c):.4g}" for c in p) + ") m"
