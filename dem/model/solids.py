"""Solid shapes a clump of spheres stands for, besides the box (dem.model.clump.Box): a right prism on a
convex polygon, a drum (a frustum of a cone, a cylinder when both radii are equal) and a body made of
several of them. Each gives its volume [m³] and, for a mass [kg] of uniform density, its mass
properties in the template frame (dem.model.clump.MassProperties): the centre of mass [m] and the
inertia tensor about it [kg·m²].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .clump import MassProperties
from .polygon import moments


@dataclass(frozen=True)
class Prism:
    """A right prism: the convex polygon `vertices` (x, z) [m], counter-clockwise, in the template's x–z
    plane, extruded along y from −thickness/2 to thickness/2 [m]."""

    vertices: tuple
    thickness: float

    @property
    def volume(self) -> float:
        return moments(np.asarray(self.vertices, float)).area * self.thickness

    def mass_properties(self, mass: float) -> MassProperties:
        """With ρT = m / A per unit area and the polygon's moments J about its centroid
        (dem.model.polygon.moments): I_xx = m T²/12 + ρT J_zz, I_yy = ρT (J_xx + J_zz),
        I_zz = m T²/12 + ρT J_xx, I_xz = −ρT J_xz, I_xy = I_yz = 0 (symmetric about y = 0)."""
        pm = moments(np.asarray(self.vertices, float))
        per_area = mass / pm.area
        t2 = mass * self.thickness**2 / 12.0
        i_xz = -per_area * pm.j_uv
        inertia = np.array([[t2 + per_area * pm.j_vv, 0.0, i_xz],
                            [0.0, per_area * (pm.j_uu + pm.j_vv), 0.0],
                            [i_xz, 0.0, t2 + per_area * pm.j_uu]])
        return MassProperties(float(mass), np.array([pm.centroid[0], 0.0, pm.centroid[1]]), inertia)


# 4-point Gauss–Legendre rule on [−1, 1]: exact for polynomials of degree ≤ 7 (the frustum's integrands
# r(z)⁴ and r(z)² z² are of degree 4)
_GL_X, _GL_W = np.polynomial.legendre.leggauss(4)


@dataclass(frozen=True)
class Frustum:
    """A drum: the solid of revolution about z of radius `radius` [m] at z = −height/2 and `top_radius` [m]
    at z = +height/2, linear in between (a cylinder when they are equal)."""

    radius: float
    height: float
    top_radius: float

    def _integrals(self):
        z = 0.5 * self.height * _GL_X
        w = 0.5 * self.height * _GL_W
        r = self.radius + (self.top_radius - self.radius) * (z / self.height + 0.5)
        return z, w, r

    @property
    def volume(self) -> float:
        _z, w, r = self._integrals()
        return float(np.pi * np.sum(w * r * r))

    def mass_properties(self, mass: float) -> MassProperties:
        """Slices dm = ρ π r(z)² dz: z_G = ∫z dm / m; I_zz = ∫ r²/2 dm; I_xx = I_yy = ∫ (r²/4 + (z − z_G)²) dm
        (a thin disc's inertia about its diameter plus the parallel axis)."""
        z, w, r = self._integrals()
        rho = mass / self.volume
        dm = rho * np.pi * w * r * r
        zg = float(np.sum(dm * z)) / mass
        i_zz = float(np.sum(dm * r * r)) / 2.0
        i_xx = float(np.sum(dm * (r * r / 4.0 + (z - zg) ** 2)))
        return MassProperties(float(mass), np.array([0.0, 0.0, zg]), np.diag([i_xx, i_xx, i_zz]))


@dataclass(frozen=True)
class Composite:
    """A solid made of `parts`, each a solid shifted by its offset [m] in the template frame, of one density
    (parts must not overlap: their volumes add up)."""

    parts: tuple  # ((solid, offset (3,)), ...)

    @property
    def volume(self) -> float:
        return float(sum(s.volume for s, _o in self.parts))

    def mass_properties(self, mass: float) -> MassProperties:
        """Each part takes mass × its share of the volume; centres and inertias combine by the parallel-axis
        theorem, I = Σ [I_k + m_k (|d_k|² 𝟙 − d_k d_kᵀ)] with d_k from the common centre of mass."""
        vol = self.volume
        props = [(s.mass_properties(mass * s.volume / vol), np.asarray(o, float)) for s, o in self.parts]
        center = sum(p.mass * (p.center + o) for p, o in props) / mass
        inertia = np.zeros((3, 3))
        for p, o in props:
            d = p.center + o - center
            inertia += p.inertia + p.mass * (float(d @ d) * np.eye(3) - np.outer(d, d))
        return MassProperties(float(mass), np.asarray(center, float), inertia)
