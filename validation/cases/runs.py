"""DEM runs several cases share: a scene run that survives an overturning, the Peña block's peak sequence, and
the single pier rocking freely on a fixed base.

Each builds its scene through dem (scenes/ or dem.ModelBuilder) and returns plain numbers and arrays; the
cases' ``simulate`` functions call them, their ``analyse`` functions derive the rest.
"""

from __future__ import annotations

import math

import numpy as np

from validation.cases.common import G, find_swings, fit_restitution, restitution_from_peaks
from validation.rocking.pivot import pivot_geometry

PEAKS = 6
"""Peaks per Peña run (004 Fig. 7 has six: the release tilt and five after impacts)."""


def scene_params(scene: str, overrides: dict | None = None) -> dict:
    """The resolved parameters of a scene (its PARAMS defaults updated by `overrides`)."""
    from dem.scenes.scene import load_scene_module, resolve_params

    return resolve_params(load_scene_module(scene).PARAMS, overrides or {}, scene=scene)


def run_dem(scene_name: str, overrides: dict, *, t_end: float | None = None):
    """Build and run a scene; returns (scene, history, summary, status). A run stopped as unstable (an
    overturned pier crashing) returns what it recorded, with status = the diagnosis."""
    import dem
    from dem.run.driver import SimulationUnstable, run_scene
    from dem.scenes.scene import build_scene

    dem.device.runtime.ensure_init()
    scene = build_scene(scene_name, overrides)
    try:
        out = run_scene(scene, t_end=t_end, progress=False, plots=False)
        status = "ok"
    except SimulationUnstable as e:
        out, status = e.result, str(e)
    return scene, out.history, out.summary, status


def pena_peaks(overrides: dict, t_end: float) -> dict:
    """One pena_block run: peaks [deg], per-impact restitution, landing-edge contacts, balance error."""
    import dem
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    dem.device.runtime.ensure_init()
    scene = build_scene("pena_block", overrides)
    out = run_scene(scene, t_end=t_end, progress=False, plots=False)
    geom = pivot_geometry(scene.model)
    h = out.history
    sw = find_swings(h["t"], h["theta_deg"])
    peaks = np.abs(sw.peaks[:PEAKS])
    e = restitution_from_peaks(peaks, geom.alpha)
    tpl = scene.model.clumps[0].template
    low = np.isclose(tpl.centers[:, 2] - tpl.radii, (tpl.centers[:, 2] - tpl.radii).min())
    edge = low & np.isclose(tpl.centers[:, 0], tpl.centers[low, 0].max())
    on_base = edge & (np.abs(tpl.centers[:, 1]) < 0.5 * scene.params["wall_depth"])
    return {"peaks_deg": peaks.tolist(), "peak_times_s": sw.peak_times[:PEAKS].tolist(),
            "restitution": e.tolist(), "e_mean": float(np.mean(e)) if len(e) else math.nan,
            "e_fit": fit_restitution(peaks, geom.alpha) if len(peaks) > 1 else math.nan,
            "alpha_prime_deg": math.degrees(geom.alpha), "edge_contacts": int(on_base.sum()),
            "balls": int(scene.model.ball_count), "first_impact_s": float(sw.impact_times[0]),
            "max_energy_error": float(out.summary["max_energy_error"]), "wall_time_s": out.summary["wall_time_s"]}


def pier_free_scene(theta0: float, t_end: float, *, overrides: dict | None = None):
    """The single pier (scene parameters) released from rest at θ0 [rad] on a fixed base: a Scene."""
    from dem import Material, ModelBuilder, Scene, box_clump
    from dem.run.probes import AngularVelocity, RockingAngle

    p = scene_params("single_pier", overrides)
    w, ln, h = p["width"], p["length"], p["height"]
    concrete = Material.hertz(young=p["E"], poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                              damping_shear=p["beta_s"], damping_mass=p["damping_mass"])
    tpl = box_clump(w, h, ln, r_core=p["r_core"], r_base=p["r_base"], r_top=p["r_base"], base_zone=p["zone"],
                    top_zone=p["zone"], spacing_ratio=p["spacing_ratio"], edges=p["edges"])
    c, s = math.cos(theta0), math.sin(theta0)
    rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    lowest = float(np.min((tpl.centers @ rot.T)[:, 2] - tpl.radii))
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    k = b.add_clump(tpl, material=concrete, mass=p["density"] * w * ln * h, position=(0.0, 0.0, -lowest),
                    orientation=rot, name="pier")
    b.add_wall((0, 0, 0), (0, 0, 1), material=concrete, u_axis=(1, 0, 0), size=(4 * w + 10.0, ln + 4.0), name="base")
    model = b.finalize()
    probes = [RockingAngle("theta_deg", k), AngularVelocity("omega", k)]
    return Scene("single_pier_free", model, probes, p["dt"], t_end, 1e-3, p, {})


def pier_free_rocking(theta0_frac: float, t_end: float, *, overrides: dict | None = None) -> dict:
    """Free rocking of the DEM pier from θ0 = theta0_frac · α': peaks, restitution, first impact vs exact."""
    from dem.run.driver import run_scene

    geom = pivot_geometry(pier_free_scene(0.0, 1.0, overrides=overrides).model)
    theta0 = theta0_frac * geom.alpha
    out = run_scene(pier_free_scene(theta0, t_end, overrides=overrides), progress=False, plots=False)
    h = out.history
    sw = find_swings(h["t"], h["theta_deg"])
    peaks = np.abs(sw.peaks)
    return {"geom": geom, "theta0": theta0, "t": h["t"], "theta_deg": h["theta_deg"], "peaks_deg": peaks,
            "impact_times": sw.impact_times, "restitution": restitution_from_peaks(peaks, geom.alpha),
            "e_fit": fit_restitution(peaks, geom.alpha), "quarter_exact": geom.quarter_period(theta0),
            "max_energy_error": float(out.summary["max_energy_error"]), "wall_time_s": out.summary["wall_time_s"]}
