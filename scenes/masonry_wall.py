"""A dry masonry wall, free-standing on a table whose acceleration out of the wall's plane is ramped up and
held: the wall stands while the acceleration is below its uplift threshold and rocks on its base edge
above it.

The wall (dem.model.masonry_wall): ``length`` × ``height`` × ``thickness`` of blocks ``block_length`` long
laid in courses ``course_height`` high, in a ``bond`` (``stack``: head joints aligned; ``running``: every
second course shifted by half a block, half blocks at its ends); every block an edge-true box (it pivots
on its own edge out of plane), bed faces in register course on course. The wall runs along y, the table
moves along x (out of plane). Stone: ρ = 2000 kg/m³, μ = 0.7 (joints and table), E = 50 GPa for 10 mm bed
spheres (``stiffness_radius``: other sizes take E (r/10 mm)^1.5, so that the beds close alike whatever the
packing, dem.model.joint_modulus).

Load: the table stands still for ``settle`` s, then its acceleration grows linearly to ``accel_g`` × g
over ``ramp`` s and holds. The statics of the wall (every vertical strip alike, whatever the bond; the
statics of a stack of boxes, validation.stack): a bed joint at height z above the base opens at a/g =
T/(H − z), the base first, at a/g = T/H, the wall rocking as one block (Housner 1963's g b/h with b = T/2,
h = H/2): 0.333 with the defaults. info: ``joint_uplift_g`` per bed joint and ``uplift_threshold_g``.

Recorded: each block's rotation about y (out of plane), angular velocity and motion, and at every bed and
head joint H, V, V ÷ its load, eccentricity ÷ the thickness, |H|/V and contacts (dem.run.assembly_probes).
summary.json's ``postprocess``: the bed joint that opened first (its relative rotation past ``open_deg``)
and the table's a/g then (None if none opened). With the defaults (10 blocks, 13,544 spheres; 520 steps/s,
58 s on this loaded 2-core machine) the table holds 0.4 g from 0.5 s, above the wall's 0.333: the base opens
past 0.5° at 0.575 s and the wall, rocking as one block, overturns (its blocks past their tipping angles
from 1.17 s). Below T/H it stands (tests/physics/test_masonry_wall.py: at 0.97 T/H, and tips at 1.03).
"""

import functools

import numpy as np

from dem import Material, ModelBuilder, Param, Scene
from dem.model.joint_modulus import joint_modulus
from dem.model.masonry_wall import BONDS, bed_radius, masonry_wall, wall_thresholds
from dem.model.materials import DAMPING_MASSES
from dem.model.walls import WallMotion
from dem.run.assembly_probes import assembly_probes
from dem.run.events import EventSpec
from dem.run.probes import WallMotionProbe
from dem.scenes.tools import JOINTS, SHEAR_UNLOADING, joint_stiffness_params

NAME = "masonry_wall"
G = 9.81

PARAMS = {
    "length": Param(1.2, "length of the wall (along y)", "m", low=0, low_open=True),
    "height": Param(0.6, "height of the wall", "m", low=0, low_open=True),
    "thickness": Param(0.2, "thickness of the wall (along x, the shaking)", "m", low=0, low_open=True),
    "course_height": Param(0.2, "height of a course (the wall's height a whole number of them)", "m", low=0,
                           low_open=True),
    "block_length": Param(0.4, "length of a whole block (the wall's length a whole number of them)", "m", low=0,
                          low_open=True),
    "bond": Param("running", "stack: head joints aligned; running: every second course shifted half a block",
                  choices=BONDS),
    "density": Param(2000.0, "block density", "kg/m^3", low=0, low_open=True),
    **joint_stiffness_params(0.01),
    "nu": Param(0.25, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "mu": Param(0.7, "friction coefficient (joints and table)", "", low=0),
    "beta_n": Param(0.15, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.15, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("shared", "dashpot mass (docs/damping.md)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "joints": JOINTS,
    "r_joint": Param(0.01, "sphere radius in the bed zones (rounded down to fit the block length)", "m", low=0,
                     low_open=True),
    "r_core": Param(0.025, "sphere radius in the cores", "m", low=0, low_open=True),
    "zone": Param(0.03, "depth of the bed zones (0: blocks of r_core spheres only)", "m", low=0),
    "settle": Param(0.2, "time the wall stands before the table moves", "s", low=0),
    "ramp": Param(0.3, "time over which the table's acceleration grows to accel_g", "s", low=0, low_open=True),
    "accel_g": Param(0.4, "held table acceleration ÷ g, out of plane (along x)", "", low=0),
    "open_deg": Param(0.5, "relative rotation at a bed joint that counts as open", "deg", low=0, low_open=True),
    "dt": Param(5e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(1.5, "duration", "s", low=0, low_open=True),
    "history_dt": Param(5e-3, "interval between history rows", "s", low=0, low_open=True),
}


def table_acceleration(p: dict, t) -> np.ndarray:
    """The table's acceleration [m/s²] along x at t [s]: 0 while settling, a linear ramp to accel_g × g, held."""
    return G * p["accel_g"] * np.clip((np.asarray(t, float) - p["settle"]) / p["ramp"], 0.0, 1.0)


def build(p: dict) -> Scene:
    bed_r = bed_radius(p["block_length"], p["r_joint"] if p["zone"] > 0 else p["r_core"], p["bond"])
    young = joint_modulus(p["E"], bed_r, p["stiffness_radius"])
    stone = Material.hertz(young=young, poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                           damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                           shear_unloading=p["shear_unloading"], density=p["density"])
    a, ramp = p["accel_g"] * G, p["ramp"]

    def velocity(t):  # the exact integral of table_acceleration
        s = np.clip(t - p["settle"], 0.0, None)
        return np.outer(np.where(s < ramp, a * s * s / (2 * ramp), a * (ramp / 2 + s - ramp)), [1.0, 0.0, 0.0])

    b = ModelBuilder(gravity=(0.0, 0.0, -G), joints=p["joints"])
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=stone, motion=WallMotion.from_function(velocity, p["t_end"],
                                                                                             1e-3), name="table")
    w = masonry_wall(b, length=p["length"], height=p["height"], thickness=p["thickness"],
                     course_height=p["course_height"], block_length=p["block_length"], bond=p["bond"], material=stone,
                     r_core=p["r_core"], r_joint=p["r_joint"], zone=p["zone"], base=table)
    model = b.finalize()
    uplift = wall_thresholds(w, p["height"], p["thickness"])
    info = {"mass_kg": float(sum(model.mass)), "bodies": list(w.body_names), "joints": [j.name for j in w.joints],
            "joint_uplift_g": uplift, "uplift_threshold_g": min(uplift.values()),
            "first_joint_to_open": min(uplift, key=uplift.get), "sphere_count": model.ball_count,
            "bed_sphere_radius_m": bed_r, "contact_young_Pa": young,
            "hull_sphere_count": model.hull_count}
    beds = [(j.name, w.body_names[w.bodies.index(j.upper)],
             None if j.lower is None else w.body_names[w.bodies.index(j.lower)]) for j in w.joints
            if j.normal == (0.0, 0.0, 1.0)]
    info["bed_joints"] = {n: [up, low] for n, up, low in beds}  # the blocks above and below (None: the table)
    # the table (an infinite plane) carries the wall away as it accelerates: a domain that allows it
    domain = ((-1e4, -50.0, -10.0), (1e4, 50.0, 50.0))
    return Scene(NAME, model, assembly_probes(w) + [WallMotionProbe("table", table)], p["dt"], p["t_end"],
                 p["history_dt"], p, info, functools.partial(postprocess, beds=beds, params=p),
                 events=EventSpec(domain))


def joint_opening(h: dict, beds) -> dict[str, np.ndarray]:
    """|opening| [deg] of each bed joint: the rotation about y of the block above relative to the block below
    (dem.run.assembly_probes.JointMotion)."""
    return {n: np.abs(h[f"{n}_opening_deg"]) for n, _up, _low in beds}


def postprocess(result, out_dir, beds=(), params=None):
    """The bed joint that opened first (relative rotation past open_deg), when, and the table's a/g then."""
    h = result.history
    opening = joint_opening(h, beds)
    first = {n: int(np.argmax(o > params["open_deg"])) for n, o in opening.items() if np.any(o > params["open_deg"])}
    if not first:
        return {"first_open_joint": None, "open_time_s": None, "open_g": None}
    name = min(first, key=first.get)
    t = float(h["t"][first[name]])
    return {"first_open_joint": name, "open_time_s": t, "open_g": float(table_acceleration(params, t) / G)}
