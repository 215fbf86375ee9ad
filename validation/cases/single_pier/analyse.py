"""What the single-pier case derives from its runs: the pier's geometry and restitution, the rigid blocks under
the same base motion, the onset, the outcome per Δt, one swing ahead, and the rigid overturning sweep."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from validation.cases.common import G
from validation.cases.rigid import (
    first_exceedance,
    first_excursion,
    fit_swing_restitution,
    overturn_time,
    peak_over,
    shaking_signal,
    solve_rigid,
    swing_predictions,
)
from validation.cases.single_pier.settings import ONSET_DEG, T_CONVERGED, Settings
from validation.rocking.pivot import PivotGeometry, pivot_geometry


def analyse(sim: dict, cfg: Settings) -> SimpleNamespace:
    """Every quantity the metrics and the report use (attributes; angles in rad, ÷ α where named so)."""
    from validation.rocking.closed_form import housner_restitution, slenderness

    scene, free = sim["scene"], sim["free"]
    p = scene.params
    geom: PivotGeometry = pivot_geometry(scene.model)
    alpha = slenderness(p["width"], p["height"])
    p_nom = scene.info["p_rad_s"]
    alpha_e, p_e = geom.alpha, geom.p
    accel = shaking_signal(p)
    e_dem = free["e_fit"]
    e_h, e_h_eff = housner_restitution(alpha), housner_restitution(alpha_e)

    # ---- rigid references over the whole run
    refs = {
        "nominal, Housner e": (alpha, p_nom, e_h),
        "nominal, DEM's e": (alpha, p_nom, e_dem),
        "effective, Housner e(α')": (alpha_e, p_e, e_h_eff),
        "effective, DEM's e": (alpha_e, p_e, e_dem),
    }
    rigid = {k: solve_rigid(a, pf, e, accel, cfg.t_end) for k, (a, pf, e) in refs.items()}

    # ---- per DEM run: peaks, overturning
    runs = []
    for r in sim["runs"]:
        h = r["h"]
        th = np.radians(h["theta_deg"])
        r = dict(r)
        r["max_over_alpha"] = float(np.max(np.abs(th))) / alpha
        r["early_peak"], r["early_peak_t"] = peak_over(h["t"], th / alpha, T_CONVERGED)
        r["overturn_t"] = overturn_time(h["t"], th, alpha_e)
        r["max_t"] = float(h["t"][int(np.argmax(np.abs(th)))])
        runs.append(r)
    ref = runs[0]

    # ---- onset: the DEM's first excursion beyond its elastic tilt vs the rigid block leaving rest
    t_thr = first_exceedance(accel, G * math.tan(geom.uplift_alpha), cfg.t_end)
    on_dem = first_excursion(ref["h"]["t"], ref["h"]["theta_deg"], ONSET_DEG)
    eff_h = rigid["effective, Housner e(α')"]
    t_up = eff_h.uplift_times[0] if eff_h.uplift_times else None
    on_rig = (t_up, -float(np.sign(accel(t_up)))) if t_up is not None else (None, 0.0)

    rig_sum = {}
    for k, rr in rigid.items():
        th = rr.theta
        early, early_t = peak_over(rr.t, th / alpha, T_CONVERGED)
        rig_sum[k] = {"e": refs[k][2], "alpha_deg": math.degrees(refs[k][0]), "p": refs[k][1],
                      "overturned": bool(rr.overturned), "overturn_t": overturn_time(rr.t, th, refs[k][0]),
                      "max_over_alpha": (float(np.nanmax(np.abs(th))) / alpha) if not rr.overturned else math.inf,
                      "early_peak": early, "early_peak_t": early_t,
                      "uplift_t": rr.uplift_times[0] if rr.uplift_times else None}

    an = SimpleNamespace(scene=scene, p=p, geom=geom, alpha=alpha, p_nom=p_nom, alpha_e=alpha_e, p_e=p_e, accel=accel,
                         free=free, e_dem=e_dem, e_h=e_h, e_h_eff=e_h_eff, refs=refs, rigid=rigid, runs=runs, ref=ref,
                         t_thr=t_thr, on_dem=on_dem, on_rig=on_rig, rig_sum=rig_sum, dt_agree=_dt_agree(runs),
                         nom_h=rig_sum["nominal, Housner e"], eff_dem=rig_sum["effective, DEM's e"])
    _swings(an, cfg)
    an.conv = _dt_convergence(runs, alpha)
    an.sweep = _sweep(an, cfg)
    return an


def _dt_agree(runs: list) -> bool:
    """The Δt series agree on the outcome: all overturn within 0.1 s of each other (an eighth of a 1 Hz cycle), or
    all survive with largest excursions within 2 % of each other."""
    over = [r["overturn_t"] for r in runs]
    if all(o is not None for o in over):
        return len(runs) > 1 and max(over) - min(over) < 0.1
    if all(o is None for o in over):
        peaks = [r["max_over_alpha"] for r in runs]
        return len(runs) > 1 and max(peaks) - min(peaks) < 0.02 * max(peaks)
    return False


def _swings(an: SimpleNamespace, cfg: Settings) -> None:
    """One swing ahead on the finest run (an.fine, an.swings, an.single, an.swing_err) and, with cfg.fit_swings,
    the restitution fitted to its swings (an.e_swing)."""
    an.fine = fine = an.runs[-1]
    hf = fine["h"]
    t_lim = None if fine["overturn_t"] is None else fine["overturn_t"] - 0.5
    an.swings = swing_predictions(hf["t"], hf["theta_deg"], hf["omega"], an.alpha, an.alpha_e, an.p_e, an.e_dem,
                                  an.accel, t_max=t_lim)
    an.single = [s for s in an.swings if not s["rest"]]
    an.swing_err = [abs(s["rigid_next"] - s["dem_next"]) if math.isfinite(s["rigid_next"]) else math.inf
                    for s in an.single]
    an.e_swing = fit_swing_restitution(hf["t"], hf["theta_deg"], hf["omega"], an.alpha, an.alpha_e, an.p_e, an.accel,
                                       t_max=t_lim) if cfg.fit_swings else None


def _dt_convergence(runs: list, alpha: float) -> float | None:
    """Largest |θ| difference [÷ α] over t ≤ T_CONVERGED between the two smallest steps (None: fewer than 3 runs)."""
    if len(runs) < 3:
        return None
    a, b = runs[-2], runs[-1]
    tt = a["h"]["t"]
    sel = tt <= T_CONVERGED
    thb = np.interp(tt[sel], b["h"]["t"], b["h"]["theta_deg"])
    return float(np.max(np.abs(a["h"]["theta_deg"][sel] - thb))) / math.degrees(alpha)


def _sweep(an: SimpleNamespace, cfg: Settings) -> list[dict]:
    """The rigid block's largest |θ|/α (inf: overturned) for each restitution of cfg.sweep, nominal and effective."""
    sweep = []
    for e in cfg.sweep:
        row = {"e": float(e)}
        for lab, (a, pf) in (("nominal", (an.alpha, an.p_nom)), ("effective", (an.alpha_e, an.p_e))):
            rr = solve_rigid(a, pf, float(e), an.accel, cfg.t_end)
            row[lab] = math.inf if rr.overturned else float(np.nanmax(np.abs(rr.theta))) / an.alpha
        sweep.append(row)
    return sweep
