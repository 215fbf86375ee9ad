"""A masonry arch of voussoirs under the "tilting" load: a horizontal table acceleration ramped slowly until
the arch collapses.

The arch (dem.model.arch): a circular arch of ``voussoirs`` equal voussoirs with radial joints, centre-line
radius ``radius``, thickness ``thickness``, ``depth`` out of plane, semicircular (``embrace_deg`` = 180,
its springings on the table) or segmental (on two abutments, ``abutment_height``). Each voussoir is an
edge-true prism (dem.model.prism_clump) whose spheres meet its neighbours' solids (docs/joints.md; ``joints=spheres``:
sphere on sphere), so the joints open about their intrados and extrados edges as Heyman (1966)'s rigid, no-tension
voussoirs hinge.
Stone: ρ = 2200 kg/m³, μ = 0.8 (high, so that the joints hinge rather than slide, the limit analysis's
assumption); E = 50 GPa for 10 mm joint spheres (``stiffness_radius``: other sizes take E (r/10 mm)^1.5,
so that the joints close alike whatever the packing, dem.model.joint_modulus).

Load: the table stands still for ``settle`` s, then its acceleration grows at ``tilt_rate`` (in g per
second) up to ``max_g`` and holds: slowly, so that the arch is loaded quasi-statically, as by tilting it
(a held acceleration λ g and a tilt by atan λ load the arch alike). The limit analysis of the same arch
(validation.arch, the static theorem as a linear program; tests/physics/test_arch_collapse.py) gives the
collapse load factor λ: the DEM arch stands below it and collapses above it (measured with the default arch,
held: stands at 0.98 λ, collapses at 0.99 λ; λ = 0.147 for t/R = 0.15 and 9 voussoirs).

Recorded: each voussoir's rotation, angular velocity and motion, and at each joint the normal and shear
resultants, the eccentricity along the joint and the contacts (dem.run.assembly_probes). summary.json's
``postprocess``: ``collapse_g``, the table's acceleration ÷ g when a voussoir first turned by more than
``collapse_deg`` (None if none did), and when. With the defaults (11,799 spheres; 834 steps/s on 2 cores)
that is 0.170 g at 3.80 s: the table passed λ = 0.147 g 0.45 s earlier, and a mechanism's rotation grows
from that moment, so the faster the tilt the later a given rotation (a slower ``tilt_rate`` comes nearer λ). (The
joints through solids: 0.170 g at 3.795 s, the same.)

The run ends when the first voussoir falls (an ``overturn`` event, dem.run.events: 4.1 s with the defaults), the
mechanism complete: what the rubble does after is no part of the scene. ``--stop-on left_domain`` follows it to
``t_end``; the joints through solids have then stopped on a runaway overlap as the voussoirs tumbled (4.8 s with the
defaults, issue 29), the sphere-on-sphere joint has not.
"""

import functools
import math

import numpy as np

from dem import Material, ModelBuilder, Param, Scene
from dem.model.arch import arch
from dem.model.joint_modulus import joint_modulus
from dem.model.materials import DAMPING_MASSES
from dem.model.walls import WallMotion
from dem.run.assembly_probes import assembly_probes
from dem.run.events import EventSpec
from dem.run.probes import WallMotionProbe
from dem.scenes.tools import JOINTS, SHEAR_UNLOADING, joint_stiffness_params

NAME = "arch"
G = 9.81

PARAMS = {
    "radius": Param(1.0, "radius of the arch's centre line", "m", low=0, low_open=True),
    "thickness": Param(0.15, "thickness of the arch (radial)", "m", low=0, low_open=True),
    "voussoirs": Param(9, "number of voussoirs", "", low=1, high=400),
    "embrace_deg": Param(180.0, "embrace angle (180: semicircular; less: segmental, needs abutments)", "deg",
                         low=0, high=180, low_open=True),
    "abutment_height": Param(0.0, "height of the abutments under the springings (0: on the table)", "m", low=0),
    "depth": Param(0.3, "depth of the arch (out of plane)", "m", low=0, low_open=True),
    "density": Param(2200.0, "stone density", "kg/m^3", low=0, low_open=True),
    **joint_stiffness_params(0.01),
    "nu": Param(0.25, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "mu": Param(0.8, "friction coefficient (joints and table)", "", low=0),
    "beta_n": Param(0.15, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.15, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("shared", "dashpot mass (docs/damping.md)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "joints": JOINTS,
    "r_joint": Param(0.01, "sphere radius in the joint zones", "m", low=0, low_open=True),
    "r_core": Param(0.025, "sphere radius in the cores", "m", low=0, low_open=True),
    "zone": Param(0.035, "depth of the joint zones", "m", low=0, low_open=True),
    "settle": Param(0.4, "time the arch stands before the table moves", "s", low=0),
    "tilt_rate": Param(0.05, "rate at which the table's acceleration grows", "g/s", low=0, low_open=True),
    "max_g": Param(0.3, "table acceleration ÷ g at which the ramp stops (then held)", "", low=0, low_open=True),
    "collapse_deg": Param(2.0, "rotation of a voussoir that counts as collapse", "deg", low=0, low_open=True),
    "dt": Param(5e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(6.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(5e-3, "interval between history rows", "s", low=0, low_open=True),
}


def table_acceleration(p: dict, t) -> np.ndarray:
    """The table's acceleration [m/s²] at t [s]: 0 while settling, then tilt_rate × g per second up to max_g."""
    return G * np.minimum(p["tilt_rate"] * np.clip(np.asarray(t, float) - p["settle"], 0.0, None), p["max_g"])


def build(p: dict) -> Scene:
    if p["embrace_deg"] < 180 and p["abutment_height"] == 0:  # in the scene's terms (the builder's: radians)
        raise ValueError(f"abutment_height must be > 0 [m] with embrace_deg < 180 (a segmental arch's springing "
                         f"joints are inclined: it stands on abutments), got embrace_deg={p['embrace_deg']} and "
                         "abutment_height=0")
    young = joint_modulus(p["E"], p["r_joint"], p["stiffness_radius"])
    stone = Material.hertz(young=young, poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                           damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                           shear_unloading=p["shear_unloading"], density=p["density"])
    a_max, rate = p["max_g"] * G, p["tilt_rate"] * G
    t_ramp = p["max_g"] / p["tilt_rate"]

    def velocity(t):  # the exact integral of table_acceleration
        s = np.clip(t - p["settle"], 0.0, None)
        v = np.where(s < t_ramp, 0.5 * rate * s * s, 0.5 * a_max * t_ramp + a_max * (s - t_ramp))
        return np.outer(v, [1.0, 0.0, 0.0])

    b = ModelBuilder(gravity=(0.0, 0.0, -G), joints=p["joints"])
    motion = WallMotion.from_function(velocity, p["t_end"], 1e-3)
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=stone, motion=motion, name="table")
    ar = arch(b, radius=p["radius"], thickness=p["thickness"], voussoirs=p["voussoirs"],
              embrace=math.radians(p["embrace_deg"]), depth=p["depth"], material=stone, r_core=p["r_core"],
              r_joint=p["r_joint"], zone=p["zone"], base=table, abutment_height=p["abutment_height"])
    model = b.finalize()
    probes = assembly_probes(ar) + [WallMotionProbe("table", table)]
    info = {"mass_kg": float(sum(model.mass)), "bodies": list(ar.body_names), "rise_m": ar.top_height,
            "sphere_count": model.ball_count, "hull_sphere_count": model.hull_count, "contact_young_Pa": young}
    # the table (an infinite plane) carries the arch away as it accelerates: a domain that allows it
    domain = ((-1e5, -50.0, -20.0), (1e5, 50.0, 50.0))
    voussoirs = [n for n in ar.body_names if "voussoir" in n]
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info,
                 functools.partial(postprocess, voussoirs=voussoirs, params=p),
                 events=EventSpec(domain, stop_on=("left_domain", "overturn")))


def postprocess(result, out_dir, voussoirs=(), params=None):
    """The table's acceleration ÷ g when a voussoir first turned by more than collapse_deg, and when."""
    h = result.history
    turned = np.max(np.abs([h[f"{n}_theta_deg"] for n in voussoirs]), axis=0) > params["collapse_deg"]
    if not turned.any():
        return {"collapse_g": None, "collapse_time_s": None}
    t = float(h["t"][int(np.argmax(turned))])
    return {"collapse_g": float(table_acceleration(params, t) / G), "collapse_time_s": t}
