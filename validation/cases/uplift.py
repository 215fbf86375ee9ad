"""The uplift threshold (Housner 1963; Zhang & Makris 2001, Housner 1963): a block at rest on a base shaken horizontally
starts to rock only when the base acceleration exceeds g tan α. The DEM block is shaken just below and just above
that threshold and compared with validation.rocking.base_excited under the same base acceleration.

Block: 0.2 × 0.6 × 0.2 m granite (2650 kg/m³, 63.6 kg; Itiola & El Shamy 2024, Table 2's contact properties, μ = 0.7), a
graded packing with base spheres r1 (5 mm; quick: 10 mm) in a 10 cm base zone, on a 1.0 × 0.6 m base facet
driven along x by dem.model.base_motion.RampedSine (Itiola & El Shamy 2024, Eq. 42's shape at 2 Hz, ramp, hold and fade
shortened).

Which threshold. The DEM block stands on the spheres of its bottom layer: the outer contact points are
b' from the centre line, below G by h' + r1 = H/2, so it uplifts at g tan α_u with tan α_u = b'/(H/2)
(validation.rocking.pivot.PivotGeometry.uplift_alpha). With the box builder's default true edges b' = W/2 and
tan α_u is the sharp block's tan α = 1/3; with ``edges=rounded`` b' = W/2 − r1 (0.317 for r1 = 5 mm, 0.300 for
10 mm). The
amplitudes are set as fractions of g tan α_u, and the rigid reference is the rectangle with α_u and the DEM
block's p (PivotGeometry.equivalent_rectangle), so the comparison is about the uplift mechanism,
whatever the edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from validation.cases.common import (
    CaseResult,
    G,
    Metric,
    fmt,
    md_table,
    metric_abs,
    metric_info,
    pyplot,
    save_figure,
)
from validation.rocking.pivot import PivotGeometry, template_pivot_geometry

NAME = "uplift"
TITLE = "Uplift threshold: a block shaken just below and just above g tan α"

WIDTH, HEIGHT, THICKNESS = 0.2, 0.6, 0.2  # [m]
DENSITY = 2650.0  # granite [kg/m³]

ROCKING_DEG = 0.05
"""|θ| above which a block counts as rocking [deg]. Near the threshold the DEM block's weight concentrates
on its edge column of spheres, whose Hertz overlaps (~1e-5 m over b' ≈ 0.09 m) tilt it elastically by up to
~0.01° (measured 0.008° at 0.9 g tan α_u with r1 = 10 mm); at 1.1 g tan α_u the rigid block rocks to 0.5°
and more. Between 0.95 and 1.05 the rocking of a rigid block (0.01–0.03°) is no larger than this elastic
tilt, so the levels are ±10 % and ±20 %."""

UPLIFT_DEG = 0.02
"""|θ| that marks the first uplift [deg], for its time and direction: 2.5× the largest elastic tilt
measured below the threshold (0.008°). Lower than ROCKING_DEG because a first uplift can be a small
excursion that settles back (the rigid block at 1.2 g tan α_u: 0.03° at 0.93 s, then rocking from 1.1 s)."""


@dataclass(frozen=True)
class Settings:
    """r_base, r_core: sphere radii [m]; levels: base amplitudes ÷ g tan α_u; frequency [Hz]; ramp_end,
    hold_end, stop [s] of the RampedSine envelope; t_end [s]; dt [s]."""

    r_base: float
    r_core: float
    levels: tuple[float, ...]
    frequency: float
    ramp_end: float
    hold_end: float
    stop: float
    t_end: float
    dt: float = 1e-5


FULL = Settings(0.005, 0.04, (0.8, 0.9, 1.1, 1.2), 2.0, 1.0, 2.5, 3.0, 3.5)
QUICK = Settings(0.01, 0.05, (0.9, 1.1), 2.0, 0.5, 1.0, 1.2, 1.5)


def _granite(mu: float = 0.7):
    from dem import Material

    # Itiola & El Shamy 2024, Table 2's contact properties, with the validation's μ (pena case, scenes/pena_block.py)
    return Material.hertz(young=50.7e9, poisson=0.28, friction=mu, damping_normal=0.15, damping_shear=0.15)


def _template(cfg: Settings):
    from dem import box_clump

    # a 0.1 m base zone keeps the core lattice (which reaches r_core into the base zone) off the bottom
    return box_clump(WIDTH, HEIGHT, THICKNESS, r_core=cfg.r_core, r_base=cfg.r_base, base_zone=0.1)


def geometry(cfg: Settings) -> PivotGeometry:
    """The block's pivot geometry (mass and inertia of the solid block)."""
    tpl = _template(cfg)
    props = tpl.solid.mass_properties(WIDTH * HEIGHT * THICKNESS * DENSITY)
    return template_pivot_geometry(tpl, props.center, props.mass, float(props.inertia[1, 1]))


def build(cfg: Settings, signal):
    """A Scene: the block at rest on a base facet moved along x by `signal` (a dem.model.base_motion signal)."""
    from dem import ModelBuilder, Scene
    from dem.run.probes import AngularVelocity, BodyMotion, RockingAngle, WallMotionProbe

    tpl = _template(cfg)
    granite = _granite()
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    lowest = float(np.min(tpl.centers[:, 2] - tpl.radii))
    c = b.add_clump(tpl, material=granite, position=(0.0, 0.0, -lowest), mass=WIDTH * HEIGHT * THICKNESS * DENSITY,
                    name="block")
    wall = b.add_wall((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), material=granite, u_axis=(1.0, 0.0, 0.0), size=(1.0, 0.6),
                      motion=signal.wall_motion((1.0, 0.0, 0.0)), name="base")
    model = b.finalize()
    probes = [RockingAngle("theta_deg", c), AngularVelocity("omega", c), BodyMotion("block", c),
              WallMotionProbe("base", wall)]
    return Scene(NAME, model, probes, cfg.dt, cfg.t_end, 1e-4, {"level": None}, {})


def _first_rocking(t: np.ndarray, theta_deg: np.ndarray, threshold: float) -> tuple[float | None, float]:
    """Time [s] |θ| first exceeds `threshold` [deg] and the sign of θ then (0 if never)."""
    i = np.flatnonzero(np.abs(theta_deg) > threshold)
    return (float(t[i[0]]), float(np.sign(theta_deg[i[0]]))) if len(i) else (None, 0.0)


# -------------------------------------------------------------------------------------------- simulate
def simulate(cfg: Settings) -> dict:
    """The block shaken at each level (÷ g tan α_u): {"geom": its PivotGeometry, "runs": [{"level", "signal",
    "history", "summary"}]}."""
    import dem
    from dem.model.base_motion import RampedSine
    from dem.run.driver import run_scene

    dem.device.runtime.ensure_init()
    geom = geometry(cfg)
    tan_u = math.tan(geom.uplift_alpha)
    runs = []
    for level in cfg.levels:
        sig = RampedSine(pga_g=level * tan_u, frequency=cfg.frequency, ramp_end=cfg.ramp_end, hold_end=cfg.hold_end,
                         stop=cfg.stop)
        out = run_scene(build(cfg, sig), progress=False, plots=False)
        runs.append({"level": level, "signal": sig, "history": out.history, "summary": out.summary})
    return {"geom": geom, "runs": runs}


# --------------------------------------------------------------------------------------------- analyse
def analyse(sim: dict, cfg: Settings) -> dict:
    """Per level, the rigid block (α_u and the DEM block's p, Housner's e: validation.rocking.base_excited) under
    the same base acceleration, and whether, when and which way each rocks."""
    from validation.rocking import base_excited

    geom = sim["geom"]
    tan_u = math.tan(geom.uplift_alpha)
    w_eq, h_eq = geom.equivalent_rectangle(alpha=geom.uplift_alpha)
    runs = []
    for run in sim["runs"]:
        level, sig, h = run["level"], run["signal"], run["history"]
        rigid = base_excited(w_eq, h_eq, sig.acceleration, cfg.t_end, dt=1e-3)
        th_r = np.degrees(rigid.theta)
        t_dem, s_dem = _first_rocking(h["t"], h["theta_deg"], UPLIFT_DEG)
        t_rig, s_rig = _first_rocking(rigid.t, th_r, UPLIFT_DEG)
        slide = h["block_ux"] - h["base_disp"]
        runs.append({"level": level, "pga_g": level * tan_u,
                     "dem_rocks": bool(np.max(np.abs(h["theta_deg"])) > ROCKING_DEG),
                     "rigid_rocks": bool(np.nanmax(np.abs(th_r)) > ROCKING_DEG), "dem_first_s": t_dem,
                     "rigid_first_s": t_rig,
                     "dem_sign": s_dem, "rigid_sign": s_rig, "rigid_uplift_s": rigid.uplift_times[:1],
                     "dem_peak_deg": float(np.max(np.abs(h["theta_deg"]))),
                     "rigid_peak_deg": float(np.nanmax(np.abs(th_r))),
                     "dem_final_slide_mm": 1e3 * float(slide[-1]), "dem_final_theta_deg": float(h["theta_deg"][-1]),
                     "max_energy_error": float(run["summary"]["max_energy_error"]),
                     "wall_time_s": run["summary"]["wall_time_s"],
                     "_t": h["t"], "_th": h["theta_deg"], "_tr": rigid.t, "_thr": th_r,
                     "_acc": h["base_acc"]})
    return {"geom": geom, "tan_u": tan_u, "equivalent_rectangle": (w_eq, h_eq), "quarter": 0.25 / cfg.frequency,
            "runs": runs}


# --------------------------------------------------------------------------------------------- metrics
def metrics(an: dict, cfg: Settings) -> list[Metric]:
    """Per level: the DEM rocks as the rigid block does, from the same half-cycle and towards the same edge."""
    runs, quarter, tan_u, geom = an["runs"], an["quarter"], an["tan_u"], an["geom"]
    mets: list[Metric] = []
    for r in runs:
        lv = f"{r['level']:g} g tan α_u"
        mets.append(Metric(f"rocks at {lv}", r["dem_rocks"], r["rigid_rocks"], "same",
                           r["dem_rocks"] == r["rigid_rocks"], "", "validation.rocking.base_excited",
                           f"|θ| > {ROCKING_DEG}° anywhere in the run"))
        if r["dem_rocks"] and r["rigid_rocks"]:
            mets.append(metric_abs(f"first uplift at {lv}", r["dem_first_s"], r["rigid_first_s"], quarter, unit="s",
                                   source="validation.rocking.base_excited",
                                   note=f"|θ| > {UPLIFT_DEG}°; same half-cycle of the base motion (tolerance a quarter "
                                   f"period); the rigid block leaves rest at {fmt(r['rigid_uplift_s'])} s"))
            mets.append(Metric(f"direction of the first uplift at {lv}", r["dem_sign"], r["rigid_sign"], "same",
                               r["dem_sign"] == r["rigid_sign"], "", "validation.rocking.base_excited",
                               "+1: onto the +x edge (base accelerating towards −x)"))
            mets.append(metric_info(f"largest |θ| at {lv}", r["dem_peak_deg"], r["rigid_peak_deg"], unit="deg",
                                    source="rigid block, Housner's e",
                                    note="rocking near the threshold grows from impact to impact and depends on the "
                                    "restitution, the DEM's lower than Housner's (pena case)"))
        if not r["dem_rocks"]:
            mets.append(metric_info(f"largest elastic tilt at {lv}", r["dem_peak_deg"], r["rigid_peak_deg"],
                                    unit="deg", note="the block stays on its base; contact compliance only"))
        mets.append(metric_info(f"slide on the base at the end, {lv}", r["dem_final_slide_mm"], None, unit="mm",
                                note=f"centre of mass relative to the base, θ = {r['dem_final_theta_deg']:.3f}° then"))
    mets.append(metric_info("uplift threshold tan α_u of the DEM block", tan_u, 1.0 * WIDTH / HEIGHT,
                            source="sharp block: tan α = W/H",
                            note=f"b'/(H/2) with b' = W/2 − r1 = {geom.half_width:.4f} m"))
    return mets


# --------------------------------------------------------------------------------------------- report
def report(res: CaseResult, sim: dict, an: dict, cfg: Settings, out_dir: Path) -> None:
    """The table of runs, the figure, the summary and the data."""
    runs, tan_u, geom = an["runs"], an["tan_u"], an["geom"]
    w_eq, h_eq = an["equivalent_rectangle"]
    res.data = {"settings": {"r_base": cfg.r_base, "levels": list(cfg.levels), "frequency_Hz": cfg.frequency,
                             "t_end": cfg.t_end},
                "tan_alpha_uplift": tan_u, "alpha_prime_deg": math.degrees(geom.alpha), "p_rad_s": geom.p,
                "ball_count": int(_template(cfg).sphere_count),
                "runs": [{k: v for k, v in r.items() if not k.startswith("_")} for r in runs]}

    rows = [[r["level"], r["pga_g"], r["dem_rocks"], r["rigid_rocks"], r["dem_first_s"], r["rigid_first_s"],
             r["dem_peak_deg"], r["rigid_peak_deg"], r["max_energy_error"]] for r in runs]
    res.sections.append(("Runs", (
        f"Block {WIDTH} × {HEIGHT} × {THICKNESS} m, {res.data['ball_count']} spheres (r1 = {cfg.r_base * 1e3:g} mm), "
        f"tan α_u = {tan_u:.4f} (sharp block {WIDTH / HEIGHT:.4f}); base: RampedSine at {cfg.frequency:g} Hz, ramp "
        f"0 → 1 over {cfg.ramp_end:g} s, held to {cfg.hold_end:g} s, faded by {cfg.stop:g} s; rigid reference: "
        f"{w_eq:.4f} × {h_eq:.4f} m rectangle (α_u, p = {geom.p:.3f} rad/s), Housner's e.\n\n"
        + md_table(["a_max ÷ g tan α_u", "a_max [g]", f"DEM rocks (> {ROCKING_DEG}°)", "rigid rocks",
                    f"DEM first |θ| > {UPLIFT_DEG}° [s]", "rigid [s]", "DEM max |θ| [°]", "rigid max |θ| [°]",
                    "DEM balance error"], rows)
        + "\n\nBelow the threshold neither rocks (the DEM block only tilts elastically on its contacts); above it "
        "both start rocking in the same half-cycle of the base motion, towards the same edge. The amplitudes that "
        "follow differ: near the threshold each half-cycle adds little energy and each impact removes a fraction "
        "that depends on e, so the rocking amplitude is sensitive to the restitution (the DEM's is lower than "
        "Housner's, pena case).")))

    plt = pyplot()
    fig, axes = plt.subplots(len(runs), 1, figsize=(8, 1.6 * len(runs) + 0.6), sharex=True, squeeze=False)
    for a, r in zip(axes[:, 0], runs):
        a.plot(r["_t"], r["_th"], lw=1, label="DEM")
        a.plot(r["_tr"], r["_thr"], lw=1, ls="--", label="rigid (base_excited)")
        a.set_ylabel("θ [°]", fontsize=8)
        a.set_title(f"a_max = {r['level']:g} g tan α_u", fontsize=8)
        a.tick_params(labelsize=7)
        b2 = a.twinx()
        b2.plot(r["_t"], r["_acc"] / (G * tan_u), color="tab:gray", lw=0.5, alpha=0.5)
        b2.axhline(1.0, color="tab:red", lw=0.6, ls=":")
        b2.axhline(-1.0, color="tab:red", lw=0.6, ls=":")
        b2.set_ylabel("a ÷ g tan α_u", fontsize=7, color="tab:gray")
        b2.tick_params(labelsize=6)
    axes[0, 0].legend(fontsize=7, loc="upper left")
    axes[-1, 0].set_xlabel("t [s]")
    fig.tight_layout()
    res.figures.append(save_figure(fig, Path(out_dir) / NAME, Path(out_dir), "uplift_theta.png",
                                   "Rocking angle of the DEM block and of the rigid block under the same base "
                                   "acceleration (grey, ÷ g tan α_u; dotted: the threshold)."))
    below = [r for r in runs if r["level"] < 1]
    above = [r for r in runs if r["level"] > 1]
    res.summary = (
        f"Below g tan α_u ({fmt([r['level'] for r in below])}×) the DEM rocks: "
        f"{fmt([r['dem_rocks'] for r in below])} (rigid: {fmt([r['rigid_rocks'] for r in below])}); above "
        f"({fmt([r['level'] for r in above])}×): {fmt([r['dem_rocks'] for r in above])} (rigid: "
        f"{fmt([r['rigid_rocks'] for r in above])}), first uplift at {fmt([r['dem_first_s'] for r in above])} s "
        f"vs {fmt([r['rigid_first_s'] for r in above])} s.")
