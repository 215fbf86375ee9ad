"""The rigid block a DEM block of spheres rocks like: a block rolling without slip on the spheres of its
base edges (Housner's block with rounded edges).

A DEM block stands on its bottom layer of spheres (radius r), so it pivots about the sphere of its edge, not a
sharp corner: with b' = horizontal distance from the centre of mass G to the edge sphere's centre and h' =
height of G above it (b' = W/2 with the box builder's default true edges, W/2 − r with rounded ones; h' =
H/2 − r either way, dem/model/box_clump.py), the block rolls without slip on the edge and
    V(θ) = m g (r + R' cos(α' − θ)),  α' = atan(b'/h'),  R' = √(b'² + h'²),
    T(θ) = ½ (m A(θ) + I_G) θ̇²,  A(θ) = (r + b' sin θ + h' cos θ)² + (b' cos θ − h' sin θ)²
(tests/physics/test_block_free_rocking.py). The potential is Housner's with (α', R'); the inertia varies by
m(2 r R'(cos(α' − θ) − cos α')) ≈ 2e-4 of I_O over the Peña block's ±3°. The validation cases and the sweep's
rigid engine (``--rigid-geometry edge``) therefore use Housner's equation with α = α' and p² = m g R' / I_O,
I_O = I_G + m A(0), through the rectangle that has that α and p (:meth:`PivotGeometry.equivalent_rectangle`),
checked against the exact rolling quarter period (:meth:`PivotGeometry.quarter_period`). From rest the block
uplifts when the base acceleration exceeds g tan α_u, tan α_u = b'/(h' + r) (the contact point is r below the
edge's centre).

Independent of the DEM engine, like the rest of validation.rocking: :func:`pivot_geometry` and
:func:`template_pivot_geometry` read a model's clump (``clumps[k].template`` with ``centers`` and ``radii``,
``mass``, ``inertia``) by attribute, without importing dem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from validation.rocking.closed_form import STANDARD_GRAVITY as G


@dataclass(frozen=True)
class PivotGeometry:
    """A DEM block's rocking geometry about the spheres of its base edges (module docstring).

    half_width b' [m], height h' [m] of G above the edge sphere's centre, edge_radius r [m], mass [kg],
    inertia_g: I_G about the rocking axis [kg·m²]; g [m/s²].
    """

    half_width: float
    height: float
    edge_radius: float
    mass: float
    inertia_g: float
    g: float = G

    @property
    def alpha(self) -> float:
        """Slenderness of the rocking motion α' = atan(b'/h') [rad] (where V(θ) peaks)."""
        return math.atan2(self.half_width, self.height)

    @property
    def radius(self) -> float:
        """R' = √(b'² + h'²) [m], edge centre to G."""
        return math.hypot(self.half_width, self.height)

    @property
    def inertia_o(self) -> float:
        """I_O = I_G + m A(0) [kg·m²], about the contact point at θ = 0."""
        return self.inertia_g + self.mass * (self.half_width**2 + (self.height + self.edge_radius) ** 2)

    @property
    def p(self) -> float:
        """Frequency parameter p = √(m g R' / I_O) [rad/s]."""
        return math.sqrt(self.mass * self.g * self.radius / self.inertia_o)

    @property
    def uplift_alpha(self) -> float:
        """α_u = atan(b'/(h' + r)) [rad]: from rest the block uplifts when |ü_g| > g tan α_u."""
        return math.atan2(self.half_width, self.height + self.edge_radius)

    def equivalent_rectangle(self, *, alpha: float | None = None) -> tuple[float, float]:
        """(width, height) [m] of the sharp-cornered rectangle with this p (p² = 3g/(4R)) and slenderness
        `alpha` [rad] (default α'; pass uplift_alpha where the uplift threshold matters more than the
        swing)."""
        a = self.alpha if alpha is None else alpha
        big_r = 3.0 * self.g / (4.0 * self.p**2)
        return 2.0 * big_r * math.sin(a), 2.0 * big_r * math.cos(a)

    def quarter_period(self, theta0: float) -> float:
        """Exact time [s] from rest at θ0 [rad] to the impact at θ = 0 of the block rolling on its edge
        (tests/physics/test_block_free_rocking.py)."""
        from scipy.integrate import quad

        b, h, r, m = self.half_width, self.height, self.edge_radius, self.mass

        def integrand(u: float) -> float:  # θ = θ0 (1 − u²) removes the turning-point singularity
            th = theta0 * (1 - u * u)
            a = (r + b * math.sin(th) + h * math.cos(th)) ** 2 + (b * math.cos(th) - h * math.sin(th)) ** 2
            s, c = 0.5 * (theta0 - th), 0.5 * (theta0 + th)
            drop = 2 * math.sin(s) * (b * math.cos(c) - h * math.sin(c))
            return math.sqrt((m * a + self.inertia_g) / (2 * m * self.g * drop)) * 2 * theta0 * u

        return quad(integrand, 0.0, 1.0, epsabs=1e-13, epsrel=1e-12, limit=200)[0]

    def release_energy(self, theta0: float) -> float:
        """Potential energy [J] released between rest at θ0 [rad] and θ = 0: m g R'(cos(α' − θ0) − cos α')."""
        return self.mass * self.g * self.radius * (math.cos(self.alpha - abs(theta0)) - math.cos(self.alpha))

    def force_ratio_at_rest_peak(self, theta: float) -> float:
        """|contact force| ÷ weight at a peak (θ̇ = 0) at angle θ [rad]: F = m(a_G − g) with
        a_G = (dG/dθ) θ̈ and θ̈ = −(dV/dθ)/(m A + I_G)."""
        b, h, r, m = self.half_width, self.height, self.edge_radius, self.mass
        th = abs(theta)
        a = (r + b * math.sin(th) + h * math.cos(th)) ** 2 + (b * math.cos(th) - h * math.sin(th)) ** 2
        dz = b * math.cos(th) - h * math.sin(th)  # dG_z/dθ
        dx = r + b * math.sin(th) + h * math.cos(th)  # dG_x/dθ (rolling)
        thdd = -m * self.g * dz / (m * a + self.inertia_g)
        return math.hypot(dx * thdd / self.g, 1.0 + dz * thdd / self.g)


def pivot_geometry(model, clump: int = 0, *, axis: int = 1, g: float = G) -> PivotGeometry:
    """The PivotGeometry of a box clump of `model` rocking about body axis `axis` (1: y; the other
    horizontal axis is the rocking direction); see :func:`template_pivot_geometry`."""
    spec = model.clumps[clump]
    return template_pivot_geometry(spec.template, spec.mass_props.center, float(model.mass[clump]),
                                   float(model.inertia[clump][axis, axis]), axis=axis, g=g)


def template_pivot_geometry(template, center: np.ndarray, mass: float, inertia_g: float, *, axis: int = 1,
                            g: float = G) -> PivotGeometry:
    """PivotGeometry of a clump template (dem.ClumpTemplate) with centre of mass `center` [m] (template
    frame), `mass` [kg] and I_G [kg·m²] about body axis `axis`: the bottom layer is the spheres touching the
    lowest plane; b' is the largest horizontal offset of their centres from G along the rocking direction."""
    c, r = template.centers, template.radii
    low = c[:, 2] - r
    bottom = np.isclose(low, low.min(), atol=1e-9)
    across = 0 if axis == 1 else 1
    edge_r = float(np.max(r[bottom]))
    b = float(np.max(np.abs(c[bottom, across] - center[across])))
    h = float(center[2] - (low.min() + edge_r))
    return PivotGeometry(b, h, edge_r, float(mass), float(inertia_g), g)
