"""The solid a closed triangle mesh bounds, and its mass properties computed exactly from the mesh.

Frame: the mesh's own coordinates [m] (after the units a reader applied, dem.model.mesh_file), which are the
clump template's frame (dem.model.mesh_clump). Faces are counter-clockwise seen from outside (outward normals),
as dem.model.mesh_checks requires.

Mass properties by the divergence theorem over the triangles (Mirtich 1996): each face (a, b, c) with a
reference point o spans a signed tetrahedron (o, a, b, c) of volume D/6, D = a·(b × c) with a, b, c taken
from o; the signed tetrahedra of a closed surface add up to its solid, whatever o. Per tetrahedron, with its
vertices 0, a, b, c relative to o (Tonon 2004, Eq. 2–7, in matrix form):
    ∫ dV = D/6,   ∫ x dV = D/24 (a + b + c),
    ∫ x xᵀ dV = D/120 (a aᵀ + b bᵀ + c cᵀ + (a + b + c)(a + b + c)ᵀ),
exact for polynomials of degree ≤ 2, so the sums are exact up to round-off. o is the mean of the vertices, so
that a mesh far from its origin loses no digits. The inertia tensor about the centre of mass x_G of a solid of
uniform density ρ is then I = ρ (tr(C) 𝟙 − C), C = ∫ (x − x_G)(x − x_G)ᵀ dV (products of inertia included).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .clump import MassProperties


@dataclass(frozen=True)
class MeshMoments:
    """Volume V [m³], centroid x_G [m] (3,), and the second moment C = ∫(x − x_G)(x − x_G)ᵀ dV [m⁵] (3, 3)."""

    volume: float
    centroid: np.ndarray
    second: np.ndarray


def mesh_moments(vertices: np.ndarray, faces: np.ndarray) -> MeshMoments:
    """Volume, centroid and second moment of the solid a closed, outward-oriented triangle mesh bounds
    (module docstring; Mirtich 1996, Tonon 2004). ``vertices`` (n, 3) [m], ``faces`` (m, 3) vertex indices."""
    v = np.asarray(vertices, float)
    f = np.asarray(faces, np.int64)
    o = v.mean(axis=0)
    a, b, c = v[f[:, 0]] - o, v[f[:, 1]] - o, v[f[:, 2]] - o
    d = np.einsum("ij,ij->i", a, np.cross(b, c))  # 6 × signed volume of each tetrahedron (o, a, b, c)
    vol = float(d.sum()) / 6.0
    s = a + b + c
    first = (d[:, None] * s).sum(axis=0) / 24.0
    second = (np.einsum("i,ij,ik->jk", d, a, a) + np.einsum("i,ij,ik->jk", d, b, b)
              + np.einsum("i,ij,ik->jk", d, c, c) + np.einsum("i,ij,ik->jk", d, s, s)) / 120.0
    if vol == 0.0:
        return MeshMoments(0.0, o, np.zeros((3, 3)))
    g = first / vol
    # about the centroid (parallel-axis shift of the second moment)
    return MeshMoments(vol, o + g, second - vol * np.outer(g, g))


@dataclass(frozen=True, eq=False)
class MeshSolid:
    """The solid a closed triangle mesh bounds, as a clump template's solid (dem.model.clump.Solid).

    Attributes:
        vertices: (n, 3) [m] in the template frame (read-only).
        faces: (m, 3) vertex indices, counter-clockwise seen from outside (read-only).
        source: where the mesh came from (a file name, or a description), for messages.
        notes: sentences about the body a run reports in summary.json (dem.model.mesh_clump: e.g. a body
            non-convex where it rests).
    """

    vertices: np.ndarray
    faces: np.ndarray
    source: str = ""
    notes: tuple = ()

    def __post_init__(self):
        v = np.array(self.vertices, float).reshape(-1, 3)
        f = np.array(self.faces, np.int64).reshape(-1, 3)
        v.flags.writeable = False
        f.flags.writeable = False
        object.__setattr__(self, "vertices", v)
        object.__setattr__(self, "faces", f)
        object.__setattr__(self, "_moments", mesh_moments(v, f))

    @property
    def moments(self) -> MeshMoments:
        return self._moments  # type: ignore[attr-defined]

    @property
    def volume(self) -> float:
        """Volume [m³] of the solid (divergence theorem, module docstring)."""
        return self.moments.volume

    def mass_properties(self, mass: float) -> MassProperties:
        """For ``mass`` [kg] of uniform density: the centre of mass [m] and the inertia tensor about it
        [kg·m²], I = ρ (tr(C) 𝟙 − C) with ρ = m / V (module docstring)."""
        m = self.moments
        rho = mass / m.volume
        inertia = rho * (np.trace(m.second) * np.eye(3) - m.second)
        return MassProperties(float(mass), m.centroid.copy(), 0.5 * (inertia + inertia.T))
