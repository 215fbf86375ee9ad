"""Clump templates: a rigid body's spheres in its own frame, which of them are on the hull, and its
mass properties computed from the spheres (Itiola & El Shamy 2024, Eq. 13–16) or from the solid shape they stand for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class MassProperties:
    """Mass [kg], centre of mass in the template frame [m], inertia tensor about it [kg·m²]."""

    mass: float
    center: np.ndarray
    inertia: np.ndarray

    def as_dict(self) -> dict:
        return {"mass": float(self.mass), "center": self.center.tolist(), "inertia": self.inertia.tolist()}


@dataclass(frozen=True)
class Box:
    """Solid box centred on the template origin with edges along its axes: size (x, y, z) [m]."""

    size: tuple[float, float, float]

    @property
    def volume(self) -> float:
        return float(np.prod(self.size))

    def mass_properties(self, mass: float) -> MassProperties:
        a, b, c = self.size
        inertia = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
        return MassProperties(float(mass), np.zeros(3), inertia)


class Solid(Protocol):
    """What a template's solid gives: its volume [m³] and its mass properties for a mass [kg] of uniform
    density (Box here; Prism, Frustum and Composite in dem.model.solids)."""

    @property
    def volume(self) -> float: ...

    def mass_properties(self, mass: float) -> MassProperties: ...


@dataclass(frozen=True)
class ClumpTemplate:
    """Spheres of a rigid body in its template frame.

    Attributes:
        centers: sphere centres [m], shape (n, 3).
        radii: sphere radii [m], shape (n,).
        hull: True for spheres that can touch the outside and enter contact detection, shape (n,).
        solid: the solid the spheres stand for (for mass from the solid), or None.
        zone: small integer label per sphere (dem.model.lattice: 0 base, 1 core, 2 top, 3 + k joint face k of
            a prism), shape (n,).
    """

    centers: np.ndarray
    radii: np.ndarray
    hull: np.ndarray
    solid: Solid | None = None
    zone: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self):
        c = np.ascontiguousarray(self.centers, dtype=np.float64).reshape(-1, 3)
        r = np.ascontiguousarray(self.radii, dtype=np.float64).reshape(-1)
        h = np.ascontiguousarray(self.hull, dtype=bool).reshape(-1)
        if c.shape[0] == 0:
            raise ValueError("a clump needs at least one sphere")
        if r.shape[0] != c.shape[0] or h.shape[0] != c.shape[0]:
            raise ValueError("centers, radii and hull must have the same length")
        if not np.all(np.isfinite(c)):
            raise ValueError("sphere centers must be finite")
        if not np.all(r > 0) or not np.all(np.isfinite(r)):
            bad = float(r[~(r > 0) | ~np.isfinite(r)][0])
            raise ValueError(f"sphere radius must be > 0 [m], got {bad}")
        if not h.any():
            raise ValueError("a clump needs at least one hull sphere")
        z = np.zeros(c.shape[0], np.int8) if self.zone is None else np.asarray(self.zone, np.int8)
        object.__setattr__(self, "centers", c)
        object.__setattr__(self, "radii", r)
        object.__setattr__(self, "hull", h)
        object.__setattr__(self, "zone", z)

    @property
    def sphere_count(self) -> int:
        return int(self.radii.shape[0])

    @property
    def hull_count(self) -> int:
        return int(self.hull.sum())

    def sphere_volume(self) -> float:
        """Σ (4/3)πR³ [m³]: counts overlaps more than once (why Itiola & El Shamy 2024 uses a fictitious density)."""
        return float(4.0 / 3.0 * np.pi * np.sum(self.radii**3))

    def mass_from_spheres(self, density: float) -> MassProperties:
        """Itiola & El Shamy 2024, Eq. 13–16: m = Σm_p, x_G = Σm_p x_p/m, I = Σ m_p[(|r|²𝟙 − r rᵀ) + (2/5)R_p²𝟙]."""
        if not density > 0:
            raise ValueError(f"density must be > 0 [kg/m³], got {density}")
        m_p = density * 4.0 / 3.0 * np.pi * self.radii**3
        m = float(m_p.sum())
        xg = (m_p[:, None] * self.centers).sum(0) / m
        r = self.centers - xg
        r2 = np.einsum("ij,ij->i", r, r)
        inertia = np.eye(3) * float(np.sum(m_p * (r2 + 0.4 * self.radii**2))) - np.einsum("i,ij,ik->jk", m_p, r, r)
        return MassProperties(m, xg, inertia)

    def mass_from_solid(self, *, mass: float | None = None, density: float | None = None) -> MassProperties:
        """Mass properties of the solid shape, from its mass or its density."""
        if self.solid is None:
            raise ValueError("this clump template has no solid shape; use mass from spheres")
        if mass is None:
            if density is None or not density > 0:
                raise ValueError(f"density must be > 0 [kg/m³], got {density}")
            mass = density * self.solid.volume
        if not mass > 0:
            raise ValueError(f"mass must be > 0 [kg], got {mass}")
        return self.solid.mass_properties(float(mass))

    def bounding_radius(self, center: np.ndarray) -> float:
        """Largest |x_p − center| + R_p over hull spheres [m]."""
        d = np.linalg.norm(self.centers[self.hull] - center, axis=1) + self.radii[self.hull]
        return float(d.max())


def single_sphere(radius: float) -> ClumpTemplate:
    """A clump of one sphere (a ball)."""
    return ClumpTemplate(np.zeros((1, 3)), np.array([radius]), np.array([True]))


def spheres(centers, radii, *, hull=None, solid: Solid | None = None) -> ClumpTemplate:
    """A clump from explicit spheres; every sphere is on the hull unless a mask is given."""
    centers = np.asarray(centers, dtype=float).reshape(-1, 3)
    radii = np.broadcast_to(np.asarray(radii, dtype=float), (centers.shape[0],))
    hull = np.ones(centers.shape[0], bool) if hull is None else hull
    return ClumpTemplate(centers, radii, hull, solid)
