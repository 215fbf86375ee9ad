"""What the scenes of bodies from meshes share (scenes/mesh_body.py, scenes/scanned_stone.py,
scenes/museum_statue.py): their packing and contact parameters, the packing sizes chosen from the body's size,
one body standing on a shaking table (released from a tilt, or shaken by the sine or a record of
dem.scenes.tools), and what a run and a sweep read about it.

Rocking. The table shakes along x (``direction_deg`` turns it); the body rocks about y. Its pivots are the
edges of its base's support polygon that it tips over towards +x and −x (dem.model.mesh_rocking: b, h, R, α,
I_O from the mesh, exactly), and the scene's slenderness α is the smaller of the two (the side that uplifts
first, at a/g = s/h). Released from a tilt θ0 (``theta0_deg`` > 0 leans it onto its +x edge, < 0 onto its −x
edge), the body turns about y from resting on its base, and is then lowered until it touches the table. The
rigid reference (``dem sweep --engine rigid``) is the body about its weaker pivot, p² = m g R / I_O, with the
restitution that conserves its angular momentum about the other pivot (validation.rocking.pivot_restitution);
for a body that is not symmetric the rigid model, symmetric by construction, is that side's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..model.materials import DAMPING_MASSES, Material
from ..model.mesh_clump import EDGES, mesh_clump
from ..model.mesh_file import UNITS, load_mesh
from ..model.mesh_rocking import PivotEdge, pivot_edge, support_polygon
from ..model.model import ModelBuilder
from ..model.timestep import AUTO_SAFETY, estimate_critical_timestep
from .scene import Param
from .tools import SHEAR_UNLOADING, base_signal, rigid_reference, rocking_body, shaking, shaking_direction

G = 9.81
UNIT_CHOICES = ("auto",) + tuple(UNITS)
"""``units`` of a scene: "auto" is metres with a body over 100 m across refused as a unit mistake
(dem.model.mesh_file)."""
AUTO_RADIUS = 1.0 / 16.0
"""r_surface = 0 takes this × the body's smallest extent (16 spheres' radii across its thinnest side)."""
CORE_RATIO = 2.5
"""r_core = 0 takes this × r_surface."""


def packing_params() -> dict[str, Param]:
    """The packing and contact parameters of a mesh body's scene."""
    return {
        "units": Param("auto", "length unit of the mesh's coordinates (auto: metres, refusing a body over 100 m "
                       "across as a unit mistake)", choices=UNIT_CHOICES),
        "density": Param(2500.0, "density of the body (mass and inertia from its mesh)", "kg/m^3", low=0,
                         low_open=True),
        "mass": Param(0.0, "mass of the body (0: density × the mesh's volume)", "kg", low=0),
        "r_surface": Param(0.0, "sphere radius of the skin and the base face (0: 1/16 of the body's smallest "
                           "extent)", "m", low=0),
        "r_core": Param(0.0, "sphere radius in the core (0: 2.5 r_surface)", "m", low=0),
        "surface_zone": Param(0.0, "depth of the small-sphere zone under the base (0: one layer)", "m", low=0),
        "edges": Param("true", "the base's ring of spheres on its edges (true: pivots on the body's edges) or "
                       "r_surface inside them (rounded)", choices=EDGES),
        "spacing_ratio": Param(0.75, "sphere centre spacing ÷ diameter", "", low=0, high=1, low_open=True),
        "E": Param(50e9, "Young's modulus of the contacts (G = E/(2(1+ν)))", "Pa", low=0, low_open=True),
        "nu": Param(0.25, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
        "mu": Param(0.7, "friction coefficient", "", low=0),
        "beta_n": Param(0.15, "normal critical-damping ratio", "", low=0, high=1),
        "beta_s": Param(0.15, "shear critical-damping ratio", "", low=0, high=1),
        "damping_mass": Param("body", "dashpot mass: the body's at every contact or shared among an interface's "
                              "contacts (docs/damping.md)", choices=DAMPING_MASSES),
        "shear_unloading": SHEAR_UNLOADING,
    }


def radii(p: dict, extent) -> tuple[float, float]:
    """(r_surface, r_core) [m]: the parameters, or where 0 the sizes chosen from the body's extent [m]."""
    r_s = p["r_surface"] or round(AUTO_RADIUS * float(np.min(extent)), 4)
    r_c = p["r_core"] or CORE_RATIO * r_s
    return float(r_s), float(r_c)


def material(p: dict) -> Material:
    return Material.hertz(young=p["E"], poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                          damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                          shear_unloading=p["shear_unloading"], density=p["density"])


def units(p: dict) -> str | None:
    return None if p["units"] == "auto" else p["units"]


def body_name(path: str, given: str) -> str:
    """A name for a body's history columns: `given`, else the mesh file's stem, lower case, letters, digits
    and underscores only."""
    raw = given or Path(path).stem or "body"
    name = "".join(c if c.isalnum() else "_" for c in raw.lower()).strip("_") or "body"
    return name if not name[0].isdigit() else f"b_{name}"


def rotation_y(theta: float) -> np.ndarray:
    """Rotation about +y by θ [rad]: θ > 0 moves the top towards +x."""
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def pivots(template, mass_props, *, horizontal=(1.0, 0.0, 0.0)) -> tuple[PivotEdge, PivotEdge]:
    """The pivot edges a mesh body (its template and mass properties, template frame) tips over towards
    +horizontal and −horizontal."""
    v = template.solid.vertices
    h = np.asarray(horizontal, float)
    return (pivot_edge(v, mass_props.center, mass_props.inertia, mass_props.mass, towards=h),
            pivot_edge(v, mass_props.center, mass_props.inertia, mass_props.mass, towards=-h))


def pivot_info(e: PivotEdge) -> dict:
    """A pivot edge's figures for summary.json."""
    return {"b_m": e.b, "h_m": e.h, "R_m": e.radius, "alpha_rad": e.alpha, "I_O_kg_m2": e.inertia_o,
            "p_rad_s": e.p(G), "uplift_threshold_g": e.uplift_ratio, "ends_m": e.ends.tolist()}


def rigid_info(weak: PivotEdge, other: PivotEdge, *, g: float = G) -> dict:
    """The rigid reference of a sweep's rigid engine for a body rocking about its weaker pivot
    (dem.scenes.tools.rigid_reference; module docstring)."""
    e = min(max(weak.restitution_onto(other), 0.0), 1.0)
    return rigid_reference(weak.alpha, weak.p(g), restitution=e, width=2 * weak.b, height=2 * weak.h, g=g)


def standing_body(b: ModelBuilder, template, mat: Material, *, mass: float | None, density: float,
                  theta0: float = 0.0, name: str, at=(0.0, 0.0, 0.0)) -> int:
    """Add the body standing on the plane z = at[2] with its base's lowest point there and the foot of its
    centre of mass over (at[0], at[1]), turned by θ0 [rad] about y (the top towards +x for θ0 > 0) and lowered
    until its lowest sphere touches the plane."""
    rot = rotation_y(theta0)
    props = template.mass_from_solid(mass=mass or None, density=density)
    rel = (template.centers - props.center) @ rot.T
    lowest = float(np.min(rel[:, 2] - template.radii))
    position = np.array([at[0], at[1], at[2] - lowest])
    return b.add_clump(template, material=mat, mass=mass or None, density=density, orientation=rot,
                       position=position, position_is_template_origin=False, name=name)


def choose_dt(p: dict, model) -> float:
    """The scene's time step [s]: ``dt``, or where 0 AUTO_SAFETY × the model's critical estimate rounded down to
    1, 2 or 5 × a power of ten (so that worlds of one batch of similar bodies, which step together, mostly
    ask for the same; ``--dt`` settles it where they do not)."""
    if p["dt"] > 0:
        return float(p["dt"])
    dt = AUTO_SAFETY * estimate_critical_timestep(model).dt
    decade = 10.0 ** math.floor(math.log10(dt))
    return max(m for m in (1.0, 2.0, 5.0) if m * decade <= dt * (1 + 1e-12)) * decade


@dataclass
class StandingBody:
    """A mesh body standing on a shaking table, built (:func:`build_standing`): the model and where the body,
    the table and their interface are in it, the body's pivots (dem.model.mesh_rocking) towards +x and −x and
    the weaker of them, its sphere radius on the base, the table's direction of motion, and the scene's info."""

    model: object
    body: str
    clump: int
    table: int
    interface: int
    template: object
    plus: PivotEdge
    minus: PivotEdge
    r_surface: float
    direction: tuple
    info: dict

    @property
    def weak(self) -> PivotEdge:
        return self.plus if self.plus.uplift_ratio <= self.minus.uplift_ratio else self.minus

    @property
    def other(self) -> PivotEdge:
        return self.minus if self.weak is self.plus else self.plus


def build_standing(p: dict, spec: dict, mesh, *, body: str, motion=None) -> StandingBody:
    """The model of a mesh body standing on a shaking table (module docstring), for scenes/mesh_body.py and
    scenes/scanned_stone.py (dem.run.standing_body makes its probes and events). ``spec``: the scene's PARAMS;
    ``mesh``: a path or a mesh (dem.model.mesh_file); ``motion``: the table's dem.model.walls.WallMotion
    instead of the one the parameters ask for (a test's held acceleration)."""
    extent = load_mesh(mesh, units=units(p)).extent
    r_s, r_c = radii(p, extent)
    tpl = mesh_clump(mesh, r_core=r_c, r_surface=r_s, surface_zone=p["surface_zone"], edges=p["edges"],
                     units=units(p), spacing_ratio=p["spacing_ratio"])
    mat = material(p)
    signal, motion_info = base_signal(p, spec)
    d = shaking_direction(p)
    if motion is None:
        motion = shaking(signal, direction=d, t_end=p["t_end"])
    else:
        motion_info = {"base_motion": "given", "base_pga_g": float(np.max(np.abs(np.diff(motion.velocity, axis=0)))
                                                                   / motion.dt / G)}
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    c = standing_body(b, tpl, mat, mass=p["mass"], density=p["density"], theta0=math.radians(p["theta0_deg"]),
                      name=body)
    size = float(np.max(extent))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=mat, u_axis=(1, 0, 0), size=(4 * size + 2.0, 4 * size + 2.0),
                       motion=motion, name="table")
    iface = b.add_interface("base", c, wall=table)
    model = b.finalize()
    props = model.clumps[c].mass_props
    plus, minus = pivots(tpl, props)
    sb = StandingBody(model, body, c, table, iface, tpl, plus, minus, r_s, d, {})
    weak, other = sb.weak, sb.other
    sb.info = {"mass_kg": props.mass, "weight_N": props.mass * G, "alpha_rad": weak.alpha, "p_rad_s": weak.p(G),
               "uplift_threshold_g": weak.uplift_ratio,
               "mesh": {"source": tpl.solid.source, "extent_m": [float(e) for e in extent],
                        "volume_m3": tpl.solid.volume, "r_surface_m": r_s, "r_core_m": r_c,
                        "sphere_count": tpl.sphere_count, "hull_sphere_count": tpl.hull_count,
                        "notes": list(tpl.solid.notes)},
               "pivots": {"+x": pivot_info(plus), "-x": pivot_info(minus)},
               "rocking_bodies": [rocking_body(f"{body}_theta_deg", body, width=2 * weak.b, height=2 * weak.h,
                                               edge_radius=r_s, edges=p["edges"], ground_disp="table_disp")],
               "rigid_reference": rigid_info(weak, other)} | motion_info
    return sb


def feet(template, r: float) -> np.ndarray:
    """Template-frame centres [m] of the base ring's spheres at the corners of the support polygon (the
    footprint's rounded corners that dem.run.events watches for sliding)."""
    poly, z0 = support_polygon(template.solid.vertices)
    return np.column_stack([poly, np.full(len(poly), z0 + r)])
