"""A single rocking bridge pier on a shaken base (Itiola & El Shamy 2024, §5.1, Table 3).

A 5 m × 1.6 m × 9.6 m concrete pier (length along y × width along x × height; 178,176 kg) stands free on a
base facet that moves along x with Itiola & El Shamy 2024, Eq. 42 (a ramped 1 Hz sine, 0.5 g): the pier rocks about its
bottom edges (α = atan(0.8/4.8) = 9.46°, p = √(3g/4R) = 1.23 rad/s, uplift above g tan α = 0.167 g).

Readings: G = E/(2(1+ν)) = 10.78 GPa for Table 3's E = 25 GPa, ν = 0.16 (Table 3: 10.8 GPa); mass and
inertia of the solid pier; r1 = 80 mm spheres in 0.4 m base and top zones and r2 = 200 mm in the core, on
lattices spaced 0.75 × the diameter (7,776 balls; Itiola & El Shamy 2024 reports 65,851 for its denser packing);
Δt = 1e-4 s (Itiola & El Shamy 2024: 1e-5 s) — the critical step with implicit dashpots is 1.8e-3 s, and
halving Δt changes the peak rocking angle by less than 2 % (benchmarks/bench_bridges.py). The outer rows
are centred on the side faces (``edges=true``, dem/model/box_clump.py): the pier pivots on its own edges and
uplifts at g tan α. With ``edges=rounded`` (5,911 balls) it pivots 80 mm inside them, as a pier of
α' = 0.917 α, and uplifts at 0.150 g.
"""

import math

from dem import Material, ModelBuilder, Param, Scene, box_clump
from dem.model.box_clump import EDGES
from dem.model.materials import DAMPING_MASSES
from dem.run.events import EventSpec, block_watch
from dem.run.probes import AngularVelocity, BodyMotion, Interface, RockingAngle, WallMotionProbe
from dem.scenes.tools import (
    SHEAR_UNLOADING,
    base_signal,
    rigid_reference,
    rocking_body,
    shaking,
    shaking_direction,
    shaking_params,
)

NAME = "single_pier"
G = 9.81

PARAMS = shaking_params({
    "length": Param(5.0, "pier length along y (the rocking axis)", "m", low=0, low_open=True),
    "width": Param(1.6, "pier width along x (the rocking direction)", "m", low=0, low_open=True),
    "height": Param(9.6, "pier height", "m", low=0, low_open=True),
    "density": Param(2320.0, "concrete density", "kg/m^3", low=0, low_open=True),
    "E": Param(25e9, "Young's modulus (G = E/(2(1+ν)))", "Pa", low=0, low_open=True),
    "nu": Param(0.16, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "mu": Param(0.59, "friction coefficient", "", low=0),
    "beta_n": Param(0.015, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.015, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("body", "dashpot mass: the body's at every contact (004) or shared among an "
                          "interface's contacts (docs/damping.md)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "r_base": Param(0.08, "sphere radius in the base and top zones (r1)", "m", low=0, low_open=True),
    "r_core": Param(0.2, "sphere radius in the core (r2)", "m", low=0, low_open=True),
    "zone": Param(0.4, "height of the small-sphere base and top zones", "m", low=0, low_open=True),
    "spacing_ratio": Param(0.75, "sphere centre spacing ÷ diameter", "", low=0, high=1, low_open=True),
    "edges": Param("true", "edge spheres centred on the side faces (true: pivots on the pier's edges) or "
                   "tangent to them (rounded)", choices=EDGES),
    "pga_g": Param(0.5, "peak base acceleration ÷ g (004 Eq. 42, b)", "", low=0),
    "frequency": Param(1.0, "base excitation frequency", "Hz", low=0, low_open=True),
    "ramp_end": Param(4.5, "end of the linear ramp-up (Eq. 42, T)", "s", low=0),
    "hold_end": Param(14.5, "end of the constant amplitude (Eq. 42, L1)", "s", low=0),
    "stop": Param(16.0, "end of the ramp-down (Eq. 42, L2)", "s", low=0),
    "dt": Param(1e-4, "time step", "s", low=0, low_open=True),
    "t_end": Param(20.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(2e-3, "interval between history rows", "s", low=0, low_open=True),
})


def build(p: dict) -> Scene:
    w, ln, h = p["width"], p["length"], p["height"]
    concrete = Material.hertz(young=p["E"], poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                              damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                              shear_unloading=p["shear_unloading"])
    pier = box_clump(w, h, ln, r_core=p["r_core"], r_base=p["r_base"], r_top=p["r_base"], base_zone=p["zone"],
                     top_zone=p["zone"], spacing_ratio=p["spacing_ratio"], edges=p["edges"])
    mass = p["density"] * w * ln * h
    signal, motion_info = base_signal(p, PARAMS)
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    c = b.add_clump(pier, material=concrete, mass=mass, position=(0.0, 0.0, h / 2.0), name="pier")
    base = b.add_wall((0, 0, 0), (0, 0, 1), material=concrete, u_axis=(1, 0, 0), size=(4 * w + 10.0, ln + 4.0),
                      motion=shaking(signal, direction=shaking_direction(p), t_end=p["t_end"]), name="base")
    iface = b.add_interface("base", c, wall=base)
    model = b.finalize()
    alpha = math.atan2(w, h)
    p_freq = math.sqrt(3 * G / (4 * math.hypot(w / 2, h / 2)))
    probes = [
        RockingAngle("theta_deg", c, alpha=alpha),
        AngularVelocity("omega", c, p=p_freq),
        BodyMotion("pier", c),
        Interface("base", iface, c, (0.0, 0.0, -h / 2.0), w, mass * G),
        WallMotionProbe("base", base),
    ]
    info = {"alpha_rad": alpha, "p_rad_s": p_freq, "mass_kg": mass, "uplift_threshold_g": math.tan(alpha),
            "base_final_displacement_m": float(signal.displacement(signal.duration))} | motion_info
    info["rocking_bodies"] = [rocking_body("theta_deg", "pier", width=w, height=h, edge_radius=p["r_base"],
                                           edges=p["edges"])]
    info["rigid_reference"] = rigid_reference(alpha, p_freq, width=w, height=h, g=G)
    # events: overturning past the tilt from which no base acceleration up to the motion's peak brings the pier
    # back (dem.run.events), sliding on the base; the domain reaches a pier height beyond the base facet
    half = (2 * w + 5.0 + h, ln / 2 + 2.0 + h)
    events = EventSpec(((-half[0], -half[1], -h), (half[0], half[1], 2 * h)),
                       (block_watch("pier", w, ln, h, p["r_base"], base="base", pga_g=motion_info["base_pga_g"],
                                    edges=p["edges"]),))
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info, events=events)
