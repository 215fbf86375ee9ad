"""The contact modulus that keeps a joint's closure law whatever the joint spheres' size.

Two blocks meet on a joint sphere on sphere, in register (dem.model.lattice: centres spaced s = 2 ρ r, ρ the
spacing ratio, r the joint spheres' radius); a block rests on a wall on such a lattice. Under a joint pressure
σ [Pa] each contact carries f = σ s², and the engine's Hertz law (dem.physics.contact_law: f = h_n δ^{3/2},
h_n = 2G√(2R̄)/(3(1−ν)), R̄ = r sphere on sphere in register and sphere on a wall; Itiola & El Shamy 2024,
§2.1) gives the joint's closure δ [m]:

    σ = 2G √2 δ^{3/2} / (3(1−ν) 4ρ² r^{3/2})    →    δ = r (6ρ²(1−ν) σ / (√2 G))^{2/3}.

With G (and E = 2G(1+ν)) fixed, a joint of spheres twice as large closes twice as far under the same pressure:
its normal stiffness, and the rocking stiffness of a block on it, go as 1/r. The joints of a column of drums
are then softer the coarser the packing; the 12-drum column under a Ricker pulse (0.4 g, 2 Hz) rocked 26 %
further on its first excursion with 40 mm joint spheres than with 15 mm ones, at the same E. The law depends
on E and r only through E/r^{3/2}: with

    E(r) = E_ref (r / r_ref)^{3/2}

a lattice of radius r closes as one of radius r_ref with modulus E_ref does, at every pressure. The shear
stiffness per unit area keeps too (k_s = 2G√(2R̄δ)/(2−ν) per contact, G ∝ E at a fixed ν, δ the same), and so
does the viscous damping of an interface whose dashpot mass is shared (ζ = β per interface, docs/damping.md).
The same column with the modulus scaled from r_ref = 15 mm rocked on its first excursion within 10 % at r =
10, 15, 20, 25 and 40 mm (0.80–0.88°; 0.80–1.01° unscaled): what is left is the lattice's own geometry near
the rim (the ring of rim spheres and the square lattice inside it), which moves with r.

The critical time step hardly moves with r either: the joints' stiffness is the same, and so are the bodies'
masses (dem.model.timestep, which sees the scaled modulus: 1.4e-4 s for that column at 15 mm, 1.3e-4 s at
40 mm).
"""

from __future__ import annotations

import math


def joint_modulus(young: float, radius: float, reference_radius: float | None) -> float:
    """Contact Young's modulus [Pa] for joint spheres of `radius` [m] that closes every joint as spheres of
    `reference_radius` [m] with modulus `young` [Pa] do: young · (radius / reference_radius)^{3/2} (module
    docstring). ``reference_radius=None``: `young` as it is (the contacts take the modulus given)."""
    for name, value in (("young", young), ("radius", radius)):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be > 0, got {value}")
    if reference_radius is None:
        return float(young)
    if not (math.isfinite(reference_radius) and reference_radius > 0):
        raise ValueError(f"stiffness_radius must be in (0, inf) m, got {reference_radius}")
    return float(young) * (float(radius) / float(reference_radius)) ** 1.5
