"""A masonry arch of voussoirs: a circular arch (semicircular, or segmental on two abutments) of `n` equal
voussoirs with radial joints, each an edge-true prism (dem.model.prism_clump) whose joint faces carry
small spheres in register with its neighbours'.

Geometry (the arch's plane is x–z, its depth along y). Centre-line radius R, thickness t (intrados R − t/2,
extrados R + t/2), embrace β (π: semicircular). Voussoir i spans φ_i … φ_{i+1}, φ_i = (π − β)/2 + iβ/n,
from +x towards +z; joint i is the radial segment at φ_i, from the intrados to the extrados (joint 0 the
right springing, joint n the left one), as in validation.arch (which builds the same arch for the limit
analysis). A voussoir is the convex quadrilateral of its joints' end points: its intrados and extrados
are chords of the circles (an annular sector is not convex: its intrados is concave), so it is lighter
than the annular sector by 1 − sin Δ/Δ (Δ = β/n: 2 % for 9 voussoirs of a semicircle) and its centroid
sits slightly outwards; validation.arch.Assembly built from the same quadrilaterals is the rigid reference
(tests/physics/test_arch_collapse.py).

Springings. A semicircular arch without abutments stands with its springing joints on the base (they are
horizontal); with ``abutment_height`` h > 0 (needed when β < π: the springing joints are inclined) each
springing rests on an abutment, a prism whose top face is the springing joint, whose sides drop vertically
from its two ends to the base, h below the intrados springing point. Joint faces in register: neighbouring
voussoirs share the joint segment (length t) and the depth, so their joint layers are one lattice; an
abutment's top face is the springing joint itself.
"""

from __future__ import annotations

import math

import numpy as np

from .assembly import Assembly, Joint
from .lattice import check_positive
from .prism_clump import prism_clump

VOUSSOIR_JOINTS = (1, 3)
"""The edges of a voussoir's quadrilateral (intrados φ_{i+1} → φ_i, joint φ_i, extrados, joint φ_{i+1})
that are its joints."""


def voussoir_polygons(radius: float, thickness: float, n: int, *, embrace: float = math.pi) -> list[np.ndarray]:
    """Vertices (x, z) [m] of the n voussoirs, counter-clockwise, the arch's centre at the origin: voussoir i
    is (intrados at φ_{i+1}, intrados at φ_i, extrados at φ_i, extrados at φ_{i+1})."""
    r_in, r_out = radius - thickness / 2, radius + thickness / 2
    phi = (math.pi - embrace) / 2 + embrace * np.arange(n + 1) / n
    u = np.column_stack([np.cos(phi), np.sin(phi)])
    return [np.array([r_in * u[i + 1], r_in * u[i], r_out * u[i], r_out * u[i + 1]]) for i in range(n)]


def abutment_polygon(radius: float, thickness: float, embrace: float, height: float, *, left: bool) -> np.ndarray:
    """Vertices (x, z) [m] of an abutment under the right (or left) springing joint, counter-clockwise: the
    joint on top, vertical sides down to z = (intrados springing height) − height."""
    r_in, r_out = radius - thickness / 2, radius + thickness / 2
    phi = (math.pi - embrace) / 2
    p_in, p_out = r_in * np.array([math.cos(phi), math.sin(phi)]), r_out * np.array([math.cos(phi), math.sin(phi)])
    z_b = p_in[1] - height
    right = np.array([[p_in[0], z_b], [p_out[0], z_b], p_out, p_in])
    return right if not left else (right * [-1.0, 1.0])[::-1]


def _check_voussoirs(radius: float, thickness: float, n: int, embrace: float, r_big: float, zone: float) -> None:
    """ValueError naming ``voussoirs`` and its allowed range where the n voussoirs cannot be built: one
    voussoir spanning π (its intrados chord through the arch's centre: a degenerate quadrilateral, its
    vertices collinear), or voussoirs narrower than one sphere (prism_clump needs 2 r ≤ the polygon's width
    across each edge: across the intrados chord t cos(Δ/2), across a radial joint r_out sin Δ (its far
    extrados corner), Δ = embrace/n), or whose two joint zones (``zone`` deep, each along its joint) would
    leave no core between them (they meet first at the extrados chord's middle, r_out sin(Δ)/2 from either
    joint)."""
    if embrace / n >= math.pi - 1e-12:
        raise ValueError(f"voussoirs must be >= 2 for an embrace of {math.degrees(embrace):.6g}° (one voussoir "
                         f"spanning 180° would have its intrados chord through the arch's centre), got {n}")
    r_out, delta = radius + thickness / 2, embrace / n
    across = thickness * math.cos(delta / 2)  # the width across the intrados chord
    if 2 * r_big > across * (1 + 1e-12):
        raise ValueError(f"r_core and r_joint must be <= half the voussoirs' width across the intrados, "
                         f"thickness × cos(embrace / 2n) / 2 = {across / 2:.6g} m, got {r_big} m")
    if 2 * r_big > r_out * math.sin(min(delta, math.pi / 2)) * (1 + 1e-12):
        n_max = int(embrace / math.asin(min(1.0, 2 * r_big / r_out)))
        raise ValueError(f"voussoirs must be <= {n_max} for this arch (radius {radius} m, thickness {thickness} m, "
                         f"embrace {math.degrees(embrace):.6g}°): each voussoir at least one sphere "
                         f"(2 × {r_big} m) wide across its joints, got {n}")
    if isinstance(zone, (int, float)) and zone >= r_out * math.sin(min(delta, math.pi / 2)) / 2:
        raise ValueError(f"zone must be < {r_out * math.sin(min(delta, math.pi / 2)) / 2:.6g} m with {n} voussoirs "
                         f"(a voussoir's two joint zones must leave a core between them; or fewer voussoirs), "
                         f"got {zone} m")


def arch(builder, *, radius: float, thickness: float, voussoirs: int, embrace: float = math.pi, depth: float,
         material, density: float | None = None, r_core: float, r_joint: float | None = None, zone: float,
         spacing_ratio: float = 0.75, base: int, abutment_height: float = 0.0, position=(0.0, 0.0),
         name: str = "") -> Assembly:
    """Build the arch (module docstring) on the horizontal wall `base`, its centre line's plane y =
    position[1], its centre above x = position[0]. Bodies: ``voussoir1`` … ``voussoirN`` (and
    ``abutment_right``, ``abutment_left``), prefixed ``<name>_`` if named; joints ``joint0`` … ``jointN``
    (the radial joints; 0 and N the springings, on the base or on the abutments) and, with abutments,
    ``abutment_right_base``, ``abutment_left_base``. Each joint's interface is recorded on the body above
    or, between voussoirs, on voussoir i (joint i between voussoirs i − 1 and i), with the joint's normal
    and tangent (dem.model.assembly.Joint; its load: half the arch's weight). Returns the Assembly."""
    check_positive(radius=radius, thickness=thickness, depth=depth)
    if isinstance(voussoirs, bool) or not isinstance(voussoirs, (int, np.integer)) or voussoirs < 1:
        raise ValueError(f"voussoirs must be an integer >= 1, got {voussoirs!r}")
    if thickness >= 2 * radius:
        raise ValueError(f"thickness must be < 2 × radius = {2 * radius} m (an intrados), got {thickness} m")
    if not (isinstance(embrace, (int, float)) and 0 < embrace <= math.pi + 1e-12):
        raise ValueError(f"embrace must be in (0, π] rad, got {embrace!r}")
    if not (isinstance(abutment_height, (int, float)) and math.isfinite(abutment_height) and abutment_height >= 0):
        raise ValueError(f"abutment_height must be >= 0 [m], got {abutment_height!r}")
    if embrace < math.pi - 1e-9 and abutment_height == 0:
        raise ValueError("a segmental arch (embrace < π) needs abutments: give abutment_height > 0 [m]")
    if not 0 <= base < len(builder.walls) or not np.allclose(np.abs(builder.walls[base].normal), [0, 0, 1]):
        raise ValueError(f"base must be the index of a horizontal wall in [0, {len(builder.walls)})")
    _check_voussoirs(radius, thickness, voussoirs, embrace, max(r_core, r_core if r_joint is None else r_joint), zone)
    g = float(np.linalg.norm(builder.gravity))
    prefix = f"{name}_" if name else ""
    z0 = float(builder.walls[base].origin[2])
    r_in = radius - thickness / 2
    centre = np.array([position[0], z0 + abutment_height - r_in * math.sin((math.pi - embrace) / 2)])
    kw = dict(r_core=r_core, r_joint=r_joint, zone=zone, spacing_ratio=spacing_ratio)
    polys = voussoir_polygons(radius, thickness, voussoirs, embrace=embrace)

    def add(poly, joints, body):
        tpl = prism_clump(poly, depth, joints=joints, **kw)
        return builder.add_clump(tpl, material=material, density=density, position=(centre[0], position[1],
                                                                                      centre[1]), name=body)

    bodies = [add(p, VOUSSOIR_JOINTS, f"{prefix}voussoir{i + 1}") for i, p in enumerate(polys)]
    names = [builder.clumps[c].name for c in bodies]
    abutments = []
    if abutment_height > 0:
        for side, left in (("right", False), ("left", True)):
            poly = abutment_polygon(radius, thickness, embrace, abutment_height, left=left)
            # its base and top faces: edges 0 and 2 of either polygon (abutment_polygon)
            abutments.append(add(poly, (0, 2), f"{prefix}abutment_{side}"))
    weight = g * sum(builder.clumps[c].mass_props.mass for c in bodies)
    phi = (math.pi - embrace) / 2 + embrace * np.arange(voussoirs + 1) / voussoirs
    joints = []

    def record(jname, upper, lower, mid, normal, tangent, on_wall, width=thickness):
        slot = builder.add_interface(jname, upper, wall=base) if on_wall else \
            builder.add_interface(jname, upper, other=lower)
        center = np.array([mid[0], position[1], mid[1]]) - builder.clumps[upper].position  # body frame = world's
        joints.append(Joint(jname, upper, None if on_wall else lower, slot, tuple(center), width, weight / 2,
                            float(mid[1]), tuple(normal), tuple(tangent)))

    for i in range(voussoirs + 1):
        u = np.array([math.cos(phi[i]), math.sin(phi[i])])
        mid = centre + radius * u
        tangent = np.array([u[0], 0.0, u[1]])  # along the joint, intrados → extrados
        normal = np.array([-u[1], 0.0, u[0]])  # towards increasing φ: into voussoir i
        if 0 < i < voussoirs:
            record(f"{prefix}joint{i}", bodies[i], bodies[i - 1], mid, normal, tangent, False)
        else:
            upper = bodies[0] if i == 0 else bodies[-1]
            into = normal if i == 0 else -normal
            support = abutments[0 if i == 0 else 1] if abutments else None
            record(f"{prefix}joint{i}", upper, support, mid, into, tangent, support is None)
    for c in abutments:
        spec = builder.clumps[c]
        poly = np.asarray(spec.template.solid.vertices)
        foot = poly[np.isclose(poly[:, 1], poly[:, 1].min())]
        bottom = np.array([foot[:, 0].mean(), poly[:, 1].min()]) + centre
        record(f"{spec.name}_base", c, None, bottom, np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0]), True,
               float(np.ptp(foot[:, 0])))
    all_bodies = tuple(bodies + abutments)
    all_names = tuple(names + [builder.clumps[c].name for c in abutments])
    top = float(centre[1] + (radius + thickness / 2) * max(np.sin(phi)))
    return Assembly(name, all_bodies, all_names, tuple(joints), z0, top)
