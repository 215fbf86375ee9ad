"""Free-standing packages on the bed of a vehicle that brakes (Qi & Zhu 2025, §2: a package on a vehicle
whose acceleration ü_g drives it into rest, sliding, rocking or overturning).

The vehicle drives towards +x; its bed is a plane under the packages whose motion is the vehicle's
acceleration history: a trapezoidal braking pulse (``peak_g`` < 0: ramp over ``rise``, hold, release over
``fall``, validation.sliding.pulse's shape; dem.scenes.pulses.trapezoid), Qi & Zhu (2025)'s Eq. 44
(``motion=eq44``: a(t) = A0 (1 − e^{−βt}) sin ωt, dem.model.base_motion.ExponentialSine) or a record
(``motion=record``, ``record=FILE``: a CSV of t [s], a or a PEER .AT2). The bed keeps the velocity change
(a vehicle that has braked is slower), so it is not baseline-corrected; the packages settle for ``settle``
seconds first.

Packages (``packages``, comma-separated, placed 1.5 m apart towards −x): ``box``, a crate (W × H × D,
edge-true box_clump: it rocks about its own edges at a/g = W/H) and ``drum``, a steel coil standing on end
(drum_clump: it rocks about its rim at a/g = 2R/H). Each kind has its own friction on the bed (a crate
on a steel bed μ = 0.5, a steel coil μ = 0.2), so that under the default 0.3 g braking the crate rocks
(W/H = 0.25 < 0.3 < μ; the rigid crate to 0.23 α) and the coil slides without rocking (μ < 0.3 < 2R/H = 1:
about 0.1 m): Shenton (1996)'s
initiation, rock when b/h < μ, slide when μ < b/h, once the acceleration exceeds the lower of the two.
Lying coils (axis across the bed) are not offered: they roll.

Stacked crates (``box_stack`` N > 1): each crate package is N crates one on another in register
(dem.model.assembly.stack; each crate has a joint zone under its top face too), named ``box<k>_1`` (on
the bed) … ``box<k>_N``, with an interface at every joint (``box<k>_joint0`` on the bed, ``box<k>_joint<j>``
under crate j + 1). The statics of a stack (validation.stack): under a held acceleration joint j opens at
a/g = W / ((N − j) H), the crates from j up tipping as one block; the joint on the bed first, at W/(N H)
(0.125 for two default crates). info: ``stacks`` gives each joint's threshold and the first.

Recorded per package: rotation about y (``<name>_theta_deg``, ÷ α), angular velocity, displacement and
acceleration, the bed interface (H, V, eccentricity, |H|/V, contacts; its opening and slip,
dem.run.assembly_probes.JointMotion), and so every joint of a stack; the bed's motion. summary.json's
``postprocess``: per package its peak rotation, whether it overturned (|θ| past α at the end), and its slip
on the bed (its displacement less the bed's) at the end and at most.
"""

import functools
import math

import numpy as np

from dem import Material, ModelBuilder, Param, Piece, Scene, box_clump, drum_clump, stack
from dem.model.assembly import Joint
from dem.model.base_motion import STANDARD_G, ExponentialSine
from dem.model.materials import DAMPING_MASSES
from dem.records.files import load_record
from dem.run.assembly_probes import JointMotion
from dem.run.events import EventSpec
from dem.run.probes import AngularVelocity, BodyMotion, Interface, RockingAngle, WallMotionProbe
from dem.scenes.pulses import trapezoid
from dem.scenes.tools import JOINTS, SHEAR_UNLOADING, shaking

NAME = "vehicle_packages"
G = STANDARD_G
KINDS = ("box", "drum")
MOTIONS = ("braking", "eq44", "record")

PARAMS = {
    "packages": Param("box,drum", "packages on the bed, front first, comma-separated: box (a crate) or drum (a "
                      "steel coil on end)"),
    "spacing": Param(1.5, "distance between neighbouring packages along x", "m", low=0, low_open=True),
    "box_width": Param(0.3, "crate width along x (the driving direction)", "m", low=0, low_open=True),
    "box_height": Param(1.2, "crate height", "m", low=0, low_open=True),
    "box_depth": Param(0.3, "crate depth across the bed (y)", "m", low=0, low_open=True),
    "box_mass": Param(150.0, "crate mass (solid, uniform)", "kg", low=0, low_open=True),
    "box_mu": Param(0.5, "friction of a crate on the bed (and on a crate)", "", low=0),
    "box_stack": Param(1, "crates stacked one on another in each crate package", "", low=1, high=50),
    "drum_radius": Param(0.3, "coil radius", "m", low=0, low_open=True),
    "drum_height": Param(0.6, "coil height (standing on end)", "m", low=0, low_open=True),
    "drum_density": Param(7850.0, "coil density (solid steel)", "kg/m^3", low=0, low_open=True),
    "drum_mu": Param(0.2, "friction of a coil on the bed", "", low=0),
    "E": Param(50e9, "Young's modulus of every contact (it sets Δt, not the motion)", "Pa", low=0, low_open=True),
    "nu": Param(0.25, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "beta_n": Param(0.15, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.15, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("shared", "dashpot mass (docs/damping.md)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "joints": JOINTS,
    "r_joint": Param(0.01, "sphere radius at the packages' bottom faces", "m", low=0, low_open=True),
    "r_core": Param(0.04, "sphere radius in the packages' cores", "m", low=0, low_open=True),
    "zone": Param(0.05, "depth of the small-sphere zone at the bottom faces", "m", low=0, low_open=True),
    "motion": Param("braking", "the vehicle's acceleration: a trapezoidal braking pulse, Qi & Zhu 2025 Eq. 44, or a "
                    "record", choices=MOTIONS),
    "peak_g": Param(-0.3, "braking pulse: peak acceleration ÷ g along +x (< 0: braking)", "", low=-5, high=5),
    "rise": Param(0.1, "braking pulse: ramp-up time", "s", low=0, low_open=True),
    "hold": Param(0.3, "braking pulse: time at the peak", "s", low=0, low_open=True),
    "fall": Param(0.1, "braking pulse: ramp-down time", "s", low=0, low_open=True),
    "eq44_amplitude_g": Param(0.5, "Eq. 44: A0 ÷ g", "", low=0, low_open=True),
    "eq44_omega": Param(10.0, "Eq. 44: ω", "rad/s", low=0, low_open=True),
    "eq44_beta": Param(1.76, "Eq. 44: β (Qi & Zhu 2025, Table 1)", "1/s", low=0),
    "eq44_duration": Param(3.0, "Eq. 44: duration of the signal", "s", low=0, low_open=True),
    "record": Param("", "record file for motion=record: CSV (t [s], a [g]) or PEER .AT2"),
    "settle": Param(0.2, "time the packages rest before the vehicle brakes", "s", low=0),
    "dt": Param(5e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(3.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(2e-3, "interval between history rows", "s", low=0, low_open=True),
}


def package_kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in str(text).split(",") if k.strip()]
    bad = [k for k in kinds if k not in KINDS]
    if not kinds or bad:
        raise ValueError(f"parameter 'packages' must list one or more of {', '.join(KINDS)} (comma-separated), "
                         f"got {text!r}")
    return kinds


def vehicle_signal(p: dict):
    """The bed's acceleration history (module docstring) and its description."""
    if p["motion"] == "braking":
        return trapezoid(p["peak_g"], p["rise"], p["hold"], p["fall"]), \
            {"vehicle_motion": "trapezoidal pulse", "vehicle_peak_g": p["peak_g"]}
    if p["motion"] == "eq44":
        sig = ExponentialSine(p["eq44_amplitude_g"] * G, p["eq44_omega"], p["eq44_beta"], duration=p["eq44_duration"])
        return sig, {"vehicle_motion": "Qi & Zhu 2025 Eq. 44", "vehicle_peak_g": p["eq44_amplitude_g"]}
    if not p["record"]:
        raise ValueError("parameter 'record' must name a file (CSV or .AT2) with motion=record")
    rec = load_record(p["record"], units="g", column="1")
    return rec, {"vehicle_motion": f"record {p['record']}"}


def check_sizes(p: dict, kinds: list[str]) -> None:
    """ValueError naming the scene's parameter and its allowed range where a package cannot be packed: a
    crate or coil narrower than one sphere, or joint zones deeper than the package (before box_clump and
    drum_clump refuse it in their own terms)."""
    r_big = max(p["r_core"], p["r_joint"])
    if "box" in kinds:
        for key in ("box_width", "box_depth"):
            if p[key] < 2 * r_big:
                raise ValueError(f"{key} must be >= 2 × max(r_core, r_joint) = {2 * r_big} m (a crate at least "
                                 f"one sphere wide), got {p[key]} m")
        zones = 2 if p["box_stack"] > 1 else 1  # a stacked crate has a joint zone under its top face too
        if zones * p["zone"] >= p["box_height"]:
            raise ValueError(f"zone must be < box_height{' / 2' if zones == 2 else ''} = "
                             f"{p['box_height'] / zones} m (joint zones and a core), got {p['zone']} m")
    if "drum" in kinds:
        if p["drum_radius"] < r_big:
            raise ValueError(f"drum_radius must be >= max(r_core, r_joint) = {r_big} m (a coil at least one sphere "
                             f"wide), got {p['drum_radius']} m")
        if p["zone"] >= p["drum_height"]:
            raise ValueError(f"zone must be < drum_height = {p['drum_height']} m (a joint zone and a core), got "
                             f"{p['zone']} m")


def crate_stack(b, p: dict, name: str, x: float, material, bed: int):
    """``box_stack`` crates one on another on the bed at x [m] (module docstring): the Assembly and the
    statics of the stack (each joint's opening a/g, W / ((N − j) H), and the joint that opens first)."""
    w, h, n = p["box_width"], p["box_height"], int(p["box_stack"])
    tpl = box_clump(w, h, p["box_depth"], r_core=p["r_core"], r_base=p["r_joint"], r_top=p["r_joint"],
                    base_zone=p["zone"], top_zone=p["zone"])
    pieces = [Piece(tpl, f"{name}_{j + 1}", mass=p["box_mass"]) for j in range(n)]
    st = stack(b, pieces, material=material, base=bed, position=(x, 0.0), name=name)
    uplift = [w / ((n - j) * h) for j in range(n)]  # b / z: W/2 over (N − j) H/2
    return st, {"crates": list(st.body_names), "joints": [j.name for j in st.joints], "joint_uplift_g": uplift,
                "first_joint": st.joints[int(np.argmin(uplift))].name}


def build(p: dict) -> Scene:
    kinds = package_kinds(p["packages"])
    check_sizes(p, kinds)
    signal, info = vehicle_signal(p)
    law = dict(young=p["E"], poisson=p["nu"], damping_normal=p["beta_n"], damping_shear=p["beta_s"],
               damping_mass=p["damping_mass"], shear_unloading=p["shear_unloading"])
    bed_mat = Material.hertz(friction=max(p["box_mu"], p["drum_mu"]), **law)
    mats = {"box": Material.hertz(friction=p["box_mu"], **law), "drum": Material.hertz(friction=p["drum_mu"], **law)}
    b = ModelBuilder(gravity=(0.0, 0.0, -G), joints=p["joints"])
    bed = b.add_wall((0, 0, 0), (0, 0, 1), material=bed_mat, u_axis=(1, 0, 0),
                     motion=shaking(signal, t_end=p["t_end"], delay=p["settle"]), name="bed")
    made, joints, packages, stacks = [], [], {}, {}
    for k, kind in enumerate(kinds):
        name, x = f"{kind}{k + 1}", -k * p["spacing"]
        mu = p[f"{kind}_mu"]
        if kind == "box" and p["box_stack"] > 1:
            st, stacks[name] = crate_stack(b, p, name, x, mats[kind], bed)
            joints += st.joints
            for level, (crate, c) in enumerate(zip(st.body_names, st.bodies)):
                lam = stacks[name]["joint_uplift_g"][level]  # the crates from this one up tip as one block
                packages[crate] = {"kind": kind, "level": level + 1, "alpha_rad": math.atan(lam), "uplift_g": lam,
                                   "slide_g": mu, "first_mode": "rock" if lam < mu else "slide"}
                made.append((crate, c))
            continue
        if kind == "box":
            w, h = p["box_width"], p["box_height"]
            tpl = box_clump(w, h, p["box_depth"], r_core=p["r_core"], r_base=p["r_joint"], base_zone=p["zone"])
            c = b.add_clump(tpl, material=mats[kind], mass=p["box_mass"], position=(x, 0.0, h / 2), name=name)
        else:
            w, h = 2 * p["drum_radius"], p["drum_height"]
            tpl = drum_clump(p["drum_radius"], h, r_core=p["r_core"], r_joint=p["r_joint"], zone=p["zone"],
                             top_zone=0.0)
            c = b.add_clump(tpl, material=mats[kind], density=p["drum_density"], position=(x, 0.0, h / 2), name=name)
        mp = b.clumps[c].mass_props
        joints.append(Joint(f"{name}_bed", c, None, b.add_interface(f"{name}_bed", c, wall=bed),
                            tuple(np.array([0.0, 0.0, -h / 2]) - mp.center), w, mp.mass * G, 0.0))
        alpha = math.atan2(w, h)  # tan α = b/h: half-width over the centre of mass's height (h/2)
        packages[name] = {"kind": kind, "alpha_rad": alpha, "uplift_g": w / h, "slide_g": mu,
                          "first_mode": "rock" if w / h < mu else "slide"}
        made.append((name, c))
    model = b.finalize()
    out = [WallMotionProbe("bed", bed)]
    for name, c in made:
        packages[name]["mass_kg"] = float(model.mass[c])
        out += [RockingAngle(f"{name}_theta_deg", c, alpha=packages[name]["alpha_rad"]),
                AngularVelocity(f"{name}_omega", c), BodyMotion(name, c)]
    out += [Interface(j.name, j.slot, j.upper, j.center_body, j.width, j.load) for j in joints]
    out += [JointMotion(j.name, j.upper, j.lower, j.center_body) for j in joints]  # opening and slip
    if stacks:
        info["stacks"] = stacks
    info |= {"packages": packages, "braking_delay_s": p["settle"]}
    # the bed carries the packages metres away as the vehicle's velocity changes: a domain that allows it
    domain = ((-1e4, -50.0, -10.0), (1e4, 50.0, 50.0))
    return Scene(NAME, model, out, p["dt"], p["t_end"], p["history_dt"], p, info,
                 functools.partial(postprocess, packages=packages), events=EventSpec(domain))


def postprocess(result, out_dir, packages=None):
    """Per package: peak |θ| [deg] and ÷ α, overturned (|θ| > α at the end), slip on the bed [m] (its
    centre's displacement less the bed's, along x) at the end and its largest magnitude."""
    h = result.history
    report = {}
    for name, pk in (packages or {}).items():
        th = np.radians(h[f"{name}_theta_deg"])
        slip = h[f"{name}_ux"] - h["bed_disp"]
        report[name] = {"peak_theta_deg": float(np.degrees(np.max(np.abs(th)))),
                        "peak_theta_over_alpha": float(np.max(np.abs(th)) / pk["alpha_rad"]),
                        "overturned": bool(abs(th[-1]) > pk["alpha_rad"]),
                        "slip_m": float(slip[-1]), "max_slip_m": float(np.max(np.abs(slip)))}
    return {"packages": report}
