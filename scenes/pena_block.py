"""Peña granite block in free rocking (Itiola & El Shamy 2024, §3–4, Tables 1–2).

A 0.25 × 1.0 × 0.754 m block (width × height × thickness, 503 kg) stands on a 1.0 × 0.75 m base facet and is
released from rest at a tilt θ0 about its thickness axis (y); it rocks about its bottom edges until it
settles. Frame: x across the width (the rocking direction), y along the thickness, z up.

Choices and readings:
- θ0 = 2.9°: the first peak in the captions of Itiola & El Shamy 2024, Fig. 7 (2.9, 2.7, 2.3, 2.05, 1.8, 1.5°), which a
  release from rest at that tilt reproduces as its first peak. Table 2's initial angular velocity
  (0.0015 rad/s) is ``omega0``, default 0.
- Friction μ = 0.7 (granite on granite), not Table 2's 0.11: released at α ≈ 14°, the pivot needs
  μ ≈ 0.19 not to slip; with 0.11 it slides and the rocking dies within 0.4 s, which contradicts the
  paper's own 6 s of rocking. ``--set mu=0.11`` runs Table 2 literally.
- E = 50.7 GPa and ν = 0.28 give G = E/(2(1+ν)) = 19.80 GPa, Table 2's shear modulus.
- Mass and inertia from the solid block (503 kg, I_y = m(W²+H²)/12 = 44.5 kg·m²) by default; ``mass_from=spheres``
  uses Itiola & El Shamy's (2024) fictitious density (167.82 kg/m³) on this packing instead (42.5 kg: our
  packing overlaps less than the paper's, whose sphere volume must have been ~3 m³). Both are in summary.json.
- Packing: r1 = 5 mm in 0.15 m base and top zones, r2 = 25 mm core, spacing 0.75 × diameter: 146,320
  balls (Table 2: 132,231), 3,570 in the bottom layer. The outer rows are centred on the side faces
  (``edges=true``, dem/model/box_clump.py), so the block pivots on its own edges: Housner's α = 14.04° and the
  sharp block's first impact (0.18754 s from 2.9° against Housner's 0.18773 s). The outer rows along the
  thickness (y = ±0.377 m) lie beyond the 0.75 m base facet, as the block's 2 mm overhang does, and do not
  touch it. ``edges=rounded`` keeps the spheres inside the box (136,120 balls, 3,333 in the bottom layer):
  the block then pivots 5 mm inside its edges and rocks as a block of α' = 13.63° (first impact 0.19189 s,
  2.2 % late).
"""

import functools
import math

import numpy as np

from dem import Material, ModelBuilder, Param, Scene, box_clump
from dem.model.box_clump import EDGES, ZONE_BASE
from dem.model.materials import DAMPING_MASSES
from dem.run.events import EventSpec, block_watch
from dem.run.probes import (
    AngularVelocity,
    BodyMotion,
    ContactForceRatio,
    ForceProfile,
    GroupForceRatio,
    Interface,
    RockingAngle,
)
from dem.scenes.tools import SHEAR_UNLOADING, rocking_body

NAME = "pena_block"
G = 9.81

PARAMS = {
    "width": Param(0.25, "block width, the rocking direction (x)", "m", low=0, low_open=True),
    "height": Param(1.0, "block height (z)", "m", low=0, low_open=True),
    "thickness": Param(0.754, "block thickness (y), the rocking axis", "m", low=0, low_open=True),
    "mass": Param(503.0, "block mass (solid)", "kg", low=0, low_open=True),
    "mass_from": Param("solid", "mass properties from the solid block or from the spheres",
                       choices=("solid", "spheres")),
    "sphere_density": Param(167.82, "sphere density when mass_from=spheres (004 Table 2)", "kg/m^3",
                            low=0, low_open=True),
    "theta0_deg": Param(2.9, "initial tilt about +y", "deg", low=-60, high=60),
    "omega0": Param(0.0, "initial angular velocity about +y", "rad/s"),
    "r_base": Param(0.005, "sphere radius in the base and top zones (r1)", "m", low=0, low_open=True),
    "r_core": Param(0.025, "sphere radius in the core (r2)", "m", low=0, low_open=True),
    "base_zone": Param(0.15, "height of the small-sphere base zone", "m", low=0, low_open=True),
    "top_zone": Param(0.15, "height of the small-sphere top zone (0: none)", "m", low=0),
    "spacing_ratio": Param(0.75, "sphere centre spacing ÷ diameter", "", low=0, high=1, low_open=True),
    "edges": Param("true", "edge spheres centred on the side faces (true: pivots on the box's edges) or tangent "
                   "to them (rounded)", choices=EDGES),
    "E": Param(50.7e9, "Young's modulus (G = E/(2(1+ν)))", "Pa", low=0, low_open=True),
    "nu": Param(0.28, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "mu": Param(0.7, "friction coefficient (Table 2: 0.11, see module notes)", "", low=0),
    "beta_n": Param(0.15, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.15, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("body", "dashpot mass: the body's at every contact (004) or shared among an "
                          "interface's contacts (docs/damping.md)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "wall_width": Param(1.0, "base facet length along x", "m", low=0, low_open=True),
    "wall_depth": Param(0.75, "base facet length along y", "m", low=0, low_open=True),
    "corner_zone": Param(0.02, "width of each corner zone whose force is reported", "m", low=0, low_open=True),
    "dt": Param(1e-5, "time step (004 Table 2)", "s", low=0, low_open=True),
    "t_end": Param(6.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(1e-4, "interval between history rows", "s", low=0, low_open=True),
}


def rotation_y(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def build(p: dict) -> Scene:
    w, h, t = p["width"], p["height"], p["thickness"]
    granite = Material.hertz(young=p["E"], poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                             damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                             shear_unloading=p["shear_unloading"])
    block = box_clump(w, h, t, r_core=p["r_core"], r_base=p["r_base"], r_top=p["r_base"], base_zone=p["base_zone"],
                      top_zone=p["top_zone"], spacing_ratio=p["spacing_ratio"], edges=p["edges"])
    rot = rotation_y(math.radians(p["theta0_deg"]))
    lowest = float(np.min((block.centers @ rot.T)[:, 2] - block.radii))
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    c = b.add_clump(block, material=granite, position=(0.0, 0.0, -lowest), orientation=rot,
                    angular_velocity=(0.0, p["omega0"], 0.0), mass=p["mass"], mass_from=p["mass_from"],
                    sphere_density=p["sphere_density"], name="block")
    base = b.add_wall((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), material=granite, u_axis=(1.0, 0.0, 0.0),
                      size=(p["wall_width"], p["wall_depth"]), name="base")

    # bottom layer, its columns across the width, and the two corner zones
    z = block.centers[:, 2]
    bottom = (block.zone == ZONE_BASE) & np.isclose(z, z.min())
    xs = np.unique(np.round(block.centers[bottom, 0], 9))
    column = np.full(block.sphere_count, -1)
    column[bottom] = np.searchsorted(xs, np.round(block.centers[bottom, 0], 9))
    edge = w / 2.0 - p["corner_zone"]
    left = b.add_sphere_group("left", c, bottom & (block.centers[:, 0] <= -edge))
    right = b.add_sphere_group("right", c, bottom & (block.centers[:, 0] >= edge))
    bins = b.add_sphere_group("width", c, bottom, bins=column, bin_count=len(xs))
    iface = b.add_interface("base", c, wall=base)
    model = b.finalize()

    mass = model.mass[c]
    weight = mass * G
    alpha = math.atan2(w, h)
    p_freq = math.sqrt(3.0 * G / (4.0 * math.hypot(w / 2, h / 2)))
    bottom_center = np.array([0.0, 0.0, -h / 2.0]) - model.clumps[c].mass_props.center
    probes = [
        RockingAngle("theta_deg", c, axis=(0, 1, 0), alpha=alpha),
        AngularVelocity("omega", c, axis=(0, 1, 0)),
        ContactForceRatio("force_ratio", c, weight),
        GroupForceRatio("force_ratio_left", left, weight),
        GroupForceRatio("force_ratio_right", right, weight),
        Interface("base", iface, c, tuple(bottom_center), w, weight),
        ForceProfile("width", bins, xs, weight),
        BodyMotion("block", c),
    ]
    info = {"alpha_rad": alpha, "p_rad_s": p_freq, "weight_N": weight, "shear_modulus_Pa": granite.shear_modulus,
            "housner_restitution": 1.0 - 1.5 * math.sin(alpha) ** 2}
    # what a batch of worlds or a sweep reads about the rocking block (dem.run.worlds, dem.run.response)
    # (the base is a wall that does not move: the block's slip is measured against a still ground)
    info["rocking_bodies"] = [rocking_body("theta_deg", "block", width=w, height=h, edge_radius=p["r_base"],
                                           edges=p["edges"], ground_disp=None)]
    # events: overturning past the tipping angle about the edge spheres (the base does not move), leaving
    # the base facet, sliding; the domain reaches a block height beyond the facet (a block that falls off
    # leaves it within about half a second)
    reach = max(h, w, t)
    domain = ((-p["wall_width"] / 2 - reach, -p["wall_depth"] / 2 - reach, -reach),
              (p["wall_width"] / 2 + reach, p["wall_depth"] / 2 + reach, 2 * reach))
    events = EventSpec(domain, (block_watch("block", w, t, h, p["r_base"], base="base", edges=p["edges"]),))
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info,
                 functools.partial(postprocess, bin_centers=xs), events=events)


def postprocess(result, out_dir, bin_centers=None):
    """Peaks of the rocking angle and the force distribution across the width at each of them
    (Itiola & El Shamy 2024, Fig. 7), written to ``peaks.csv`` (t [s], theta_deg [deg], then the vertical
    force on each column of base spheres ÷ the weight [-], one column per column centre x [m], named
    ``x_+0.1200``) and ``plot_peak_profiles.png``."""
    from scipy.signal import find_peaks

    from dem.output.files import write_csv

    hist = result.history
    t, th = hist["t"], hist["theta_deg"]
    idx, _ = find_peaks(np.abs(th), prominence=0.02)
    idx = np.r_[[0] if abs(th[0]) > 0.02 else [], idx].astype(int)
    table = result.profiles.get("width")
    out = {"peak_times_s": t[idx].tolist(), "peak_theta_deg": th[idx].tolist(),
           "max_kinetic_energy_J": float(np.max(hist["E_kinetic"])),
           "max_force_ratio": float(np.max(hist["force_ratio"])),
           "friction_energy_J": float(hist["E_friction"][-1])}
    moving = np.abs(hist["omega"]) > 1e-4
    out["settled_at_s"] = float(t[np.flatnonzero(moving)[-1]]) if moving.any() and not moving[-1] else None
    if out_dir is not None and table is not None and len(idx):
        cols = {"t": t[idx], "theta_deg": th[idx]}
        xs = np.asarray(bin_centers, float) if bin_centers is not None else np.arange(table.shape[1] - 1.0)
        for j in range(table.shape[1] - 1):
            cols[f"x_{xs[j]:+.4f}"] = table[idx, 1 + j]
        write_csv(out_dir / "peaks.csv", cols)
        if not getattr(result, "plots", True):  # dem run --no-plots
            return out
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        n = min(len(idx), 8)
        fig, axes = plt.subplots(1, n, figsize=(2.2 * n, 2.6), sharey=True, squeeze=False)
        width = 1e3 * (float(np.min(np.diff(xs))) if len(xs) > 1 else 1.0)
        for a, k in zip(axes[0], idx[:n]):
            a.bar(1e3 * xs, table[k, 1:], width=0.8 * width, color="tab:blue")
            a.set_title(f"t = {t[k]:.2f} s\nθ = {th[k]:+.2f}°", fontsize=8)
            a.set_xlabel("x across the width [mm]", fontsize=8)
        axes[0, 0].set_ylabel("vertical force ÷ weight [–]")
        fig.suptitle("force on each column of base spheres at the rocking peaks", fontsize=9)
        fig.tight_layout()
        fig.savefig(out_dir / "plot_peak_profiles.png", dpi=100)
        plt.close(fig)
    return out
