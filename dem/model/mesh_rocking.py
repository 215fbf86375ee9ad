"""The rigid rocking of a body that rests on a flat face, from its solid: the pivot edge it tips about in a
given direction, and the four numbers the rocking equation needs, m, R, α and I_O (Housner 1963; Zhang &
Makris 2001, eq. 1: θ'' = −(m g R / I_O)[sin(α sgn θ − θ) + (ü_g/g) cos(α sgn θ − θ)] for any rigid body
rocking in a plane about a pivot), with the statics of uplift under a held horizontal acceleration.

Frame: the template's (a mesh body's own coordinates [m]), z up; the body rests on its lowest plane z = z_min
on the face there (its support polygon: the convex hull of the mesh's vertices in that plane, as seen from
above). Tipping towards a horizontal direction d, the body pivots about the edge of the support polygon that
the ray from the centre of mass's foot G' along d leaves it by; with b the distance from G' to that edge's line
(perpendicular to it, in the plane), h the height of G above the plane and t the edge's unit direction:
    R = √(b² + h²),  α = atan(b / h),  I_O = tᵀ I_G t + m R²  (I_G about G, the parallel-axis theorem),
and p² = m g R / I_O. The body at rest uplifts when a held horizontal base acceleration, pushing it towards d
(the base accelerating along −d), exceeds a_u = g s / h with s the length of that ray inside the polygon
(moments about the edge of weight and inertia force, m a h = m g s; s = b when d is perpendicular to the
edge). Whether the motion stays planar past uplift depends on the edge: about an edge perpendicular to d it is,
exactly, while both its ends bear.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

G = 9.81
FLAT_TOL = 1e-7
"""Vertices within this × the body's size of its lowest plane are on it."""


@dataclass(frozen=True)
class PivotEdge:
    """Where and how a body resting on a flat face tips towards a horizontal direction (module docstring).

    Attributes:
        direction: the horizontal unit vector d it tips towards (3,).
        ends: the pivot edge's two end points [m] (2, 3) in the template frame, on the support plane.
        axis: the edge's unit direction t (3,), so that tipping towards d is a positive rotation about it.
        mass [kg]; center: centre of mass G [m] (3,); inertia_g: I_G [kg·m²] (3, 3).
        b [m]: G's foot to the edge's line; h [m]: G's height above the support plane; reach [m]: s, the
            ray from G's foot along d to the polygon's boundary.
    """

    direction: np.ndarray
    ends: np.ndarray
    axis: np.ndarray
    mass: float
    center: np.ndarray
    inertia_g: np.ndarray
    b: float
    h: float
    reach: float

    @property
    def radius(self) -> float:
        """R = √(b² + h²) [m], the edge to G."""
        return math.hypot(self.b, self.h)

    @property
    def alpha(self) -> float:
        """α = atan(b / h) [rad]."""
        return math.atan2(self.b, self.h)

    @property
    def inertia_axis(self) -> float:
        """tᵀ I_G t [kg·m²], about the axis through G parallel to the edge."""
        return float(self.axis @ self.inertia_g @ self.axis)

    @property
    def inertia_o(self) -> float:
        """I_O = tᵀ I_G t + m R² [kg·m²], about the edge."""
        return self.inertia_axis + self.mass * self.radius**2

    def p(self, g: float = G) -> float:
        """Frequency parameter p = √(m g R / I_O) [rad/s]."""
        return math.sqrt(self.mass * g * self.radius / self.inertia_o)

    @property
    def uplift_ratio(self) -> float:
        """a_u / g = s / h [-]: the held horizontal acceleration ÷ g that uplifts the body at rest (towards d)."""
        return self.reach / self.h

    def restitution_onto(self, other: PivotEdge) -> float:
        """θ̇⁺/θ̇⁻ at an impact that moves the pivot from this edge to `other`, an edge parallel to it on the far
        side of G, by angular momentum about the new pivot (Housner 1963 for any two edges): with the arms
        r_A = (b_A, h_A), r_B = (−b_B, h_B) from each pivot to G in the plane of rocking,
        e = (I_G + m r_A·r_B) / (I_G + m |r_B|²) (validation.rocking.pivot_restitution)."""
        i_g = self.inertia_axis
        dot = -self.b * other.b + self.h * other.h
        return (i_g + self.mass * dot) / (i_g + self.mass * (other.b**2 + other.h**2))

    def housner_restitution(self) -> float:
        """θ̇⁺/θ̇⁻ at an impact onto a symmetric twin edge, by angular momentum about the new pivot
        (Housner 1963): e = 1 − (2 m R² / I_O) sin²α (1 − 1.5 sin²α for a rectangle)."""
        return 1.0 - 2.0 * self.mass * self.radius**2 / self.inertia_o * math.sin(self.alpha) ** 2


def support_polygon(vertices: np.ndarray) -> tuple[np.ndarray, float]:
    """The convex hull (k, 2) [m], counter-clockwise seen from above, of the vertices on the lowest plane, and
    that plane's height z_min [m]."""
    from scipy.spatial import ConvexHull

    v = np.asarray(vertices, float)
    z0 = float(v[:, 2].min())
    size = float(np.linalg.norm(np.ptp(v, axis=0)))
    low = v[v[:, 2] <= z0 + FLAT_TOL * size][:, :2]
    if len(low) < 3:
        raise ValueError("the body has no flat face at its bottom (its lowest point is a vertex or an edge): it "
                         "cannot rest on a plane")
    hull = ConvexHull(low)
    return low[hull.vertices], z0


def ray_exit(polygon: np.ndarray, start: np.ndarray, direction: np.ndarray) -> tuple[float, int]:
    """Length [m] of the ray from `start` (inside the counter-clockwise convex `polygon`) along the unit
    `direction` to the polygon's boundary, and the index k of the edge (vertex k to k + 1) it leaves by."""
    best, edge = math.inf, -1
    n = len(polygon)
    for k in range(n):
        a, b = polygon[k], polygon[(k + 1) % n]
        e = b - a
        denom = direction[0] * e[1] - direction[1] * e[0]
        if abs(denom) < 1e-15:
            continue
        w = a - start
        t = (w[0] * e[1] - w[1] * e[0]) / denom  # along the ray
        u = (w[0] * direction[1] - w[1] * direction[0]) / denom  # along the edge
        if t >= 0 and -1e-12 <= u <= 1 + 1e-12 and t < best:
            best, edge = t, k
    if edge < 0:
        raise ValueError("the centre of mass does not stand over the support polygon: the body does not rest on "
                         "its base")
    return best, edge


def pivot_edge(vertices: np.ndarray, center, inertia_g, mass: float, *, towards=(1.0, 0.0, 0.0)) -> PivotEdge:
    """The :class:`PivotEdge` of a body (its mesh's vertices [m], centre of mass [m], I_G [kg·m²], mass [kg])
    resting on its lowest face, tipping towards the horizontal `towards` (module docstring)."""
    d = np.asarray(towards, float).reshape(3)
    d = np.array([d[0], d[1], 0.0])
    if not np.linalg.norm(d) > 0:
        raise ValueError(f"towards must be a horizontal direction, got {towards!r}")
    d /= np.linalg.norm(d)
    poly, z0 = support_polygon(vertices)
    g = np.asarray(center, float)
    foot = g[:2]
    reach, k = ray_exit(poly, foot, d[:2])
    a, b = poly[k], poly[(k + 1) % len(poly)]
    t2 = (b - a) / np.linalg.norm(b - a)
    normal = np.array([t2[1], -t2[0]])  # outward of a counter-clockwise polygon
    dist = float((a - foot) @ normal)
    axis = np.array([-t2[0], -t2[1], 0.0])  # tipping outward over the edge: a positive rotation about axis
    if np.cross(axis, [0.0, 0.0, 1.0])[:2] @ normal < 0:
        axis = -axis
    ends = np.array([[a[0], a[1], z0], [b[0], b[1], z0]])
    return PivotEdge(d, ends, axis, float(mass), g, np.asarray(inertia_g, float), dist, float(g[2] - z0), float(reach))


def uplift_ratio(center, height: float, polygon: np.ndarray, towards) -> float:
    """a_u / g [-] for a group of bodies standing on one support polygon (k, 2) [m] (counter-clockwise): their
    common centre of mass [m] (its foot) at `height` [m] above the support plane, tipping towards `towards`."""
    d = np.asarray(towards, float)[:2]
    d = d / np.linalg.norm(d)
    reach, _k = ray_exit(np.asarray(polygon, float), np.asarray(center, float)[:2], d)
    return reach / height
