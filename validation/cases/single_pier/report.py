"""The single-pier case's report: its data, three sections (the runs and rigid references, one swing ahead, the
overturning boundary), three figures and the summary."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from validation.cases.common import CaseResult, G, fmt, md_table, pyplot, save_figure
from validation.cases.rigid import solve_rigid
from validation.cases.single_pier.settings import NAME, T_CONVERGED, Settings


def report(res: CaseResult, sim: dict, an: SimpleNamespace, cfg: Settings, out_dir: Path) -> None:
    """Fill `res` with the case's data, sections, figures and summary."""
    case_dir = Path(out_dir) / NAME
    res.data = {
        "alpha_deg": math.degrees(an.alpha), "alpha_eff_deg": math.degrees(an.alpha_e),
        "alpha_ratio": an.alpha_e / an.alpha,
        "p_nominal": an.p_nom, "p_eff": an.p_e, "b_eff": an.geom.half_width, "h_eff": an.geom.height,
        "tan_alpha_uplift": math.tan(an.geom.uplift_alpha), "e_housner": an.e_h, "e_housner_eff": an.e_h_eff,
        "e_dem_free": an.e_dem, "e_dem_free_per_impact": an.free["restitution"].tolist(), "e_dem_swings": an.e_swing,
        "free_first_impact_s": float(an.free["impact_times"][0]), "free_quarter_exact_s": an.free["quarter_exact"],
        "onset_dem_s": an.on_dem[0], "onset_dem_sign": an.on_dem[1], "onset_rigid_s": an.on_rig[0],
        "onset_rigid_sign": an.on_rig[1],
        "threshold_exceeded_s": an.t_thr, "convergence_over_alpha": an.conv,
        "runs": [{k: v for k, v in r.items() if k not in ("h", "summary")} | {
            "max_energy_error": float(r["summary"]["max_energy_error"]), "wall_time_s": r["summary"]["wall_time_s"]}
            for r in an.runs],
        "rigid": an.rig_sum, "swings": an.swings, "sweep": an.sweep, "ball_count": int(an.scene.model.ball_count),
    }

    _section_runs(res, an)
    if an.swings:
        _section_swings(res, an)
    _section_sensitivity(res, an, cfg)
    _figure_theta(res, an, case_dir, out_dir)
    _figure_mechanics(res, an, cfg, case_dir, out_dir)
    if an.sweep:
        _figure_overturning(res, an, case_dir, out_dir)
    _summary(res, an)


def _summary(res: CaseResult, an: SimpleNamespace) -> None:
    """One paragraph: restitution, onset, one swing ahead, outcome."""
    runs, e_dem, e_h_eff, alpha_e, alpha, on_dem = an.runs, an.e_dem, an.e_h_eff, an.alpha_e, an.alpha, an.on_dem
    on_rig, swing_err, nom_h, dt_agree = an.on_rig, an.swing_err, an.nom_h, an.dt_agree
    fails = [m.name for m in res.metrics if m.passed is False]
    dt_list, dts_txt = _dt_texts(runs)
    res.summary = (
        f"DEM e = {e_dem:.4f} (Housner {e_h_eff:.4f} for α' = {alpha_e / alpha:.3f} α); onset {fmt(on_dem[0])} s vs "
        f"rigid {fmt(on_rig[0])} s; one-swing predictions within {fmt(max(swing_err) if swing_err else None)} α. "
        f"Largest |θ|/α: DEM {dts_txt} (Δt {dt_list} s) vs rigid nominal "
        f"{nom_h['max_over_alpha']:.2f}"
        + (" — converged in Δt." if dt_agree else " — on the overturning boundary, not converged in Δt.")
        + (f" Failing: {', '.join(fails)}." if fails else ""))


def _dt_texts(runs: list) -> tuple[str, str]:
    """The Δt series as text, and their largest |θ|/α (with the overturned ones marked)."""
    dt_list = ", ".join(f"{r['dt']:g}" for r in runs)
    dts_txt = ", ".join(f"{r['max_over_alpha']:.3f}" + (" (overturns)" if r["overturn_t"] is not None else "")
                        for r in runs)
    return dt_list, dts_txt


def _section_runs(res: CaseResult, an: SimpleNamespace) -> None:
    """The pier's geometry and restitutions, and the table of DEM runs and rigid references (004 Fig. 12)."""
    runs, rig_sum, p, scene, geom, alpha_e, alpha = an.runs, an.rig_sum, an.p, an.scene, an.geom, an.alpha_e, an.alpha
    p_e, p_nom, e_h, e_h_eff, e_dem, e_swing = an.p_e, an.p_nom, an.e_h, an.e_h_eff, an.e_dem, an.e_swing
    rows = [[f"{r['dt']:g}", r["early_peak"], r["early_peak_t"], r["max_over_alpha"], r["max_t"],
             "yes, from " + f"{r['overturn_t']:.2f} s" if r["overturn_t"] is not None else "no",
             r["summary"]["max_energy_error"], r["summary"]["wall_time_s"]] for r in runs]
    rows += [[k, v["early_peak"], v["early_peak_t"], v["max_over_alpha"], None,
              ("yes, from " + f"{v['overturn_t']:.2f} s") if v["overturned"] else "no", None, None]
             for k, v in rig_sum.items()]
    res.sections.append(("Runs and rigid references (004 Fig. 12)", (
        f"Pier {p['width']} × {p['height']} × {p['length']} m, {scene.model.ball_count} spheres, β = {p['beta_n']:g}, "
        f"μ = {p['mu']:g}, base 004 Eq. 42 at {p['pga_g']:g} g, 1 Hz. The DEM pier pivots on its r1 = "
        f"{geom.edge_radius * 1e3:.0f} mm edge spheres: b' = {geom.half_width:.3f} m, h' = {geom.height:.3f} m, "
        f"α' = {math.degrees(alpha_e):.3f}° = {alpha_e / alpha:.3f} α (nominal α = {math.degrees(alpha):.3f}°), "
        f"p = {p_e:.4f} rad/s (nominal {p_nom:.4f}); from rest it uplifts at g tan α_u = "
        f"{math.tan(geom.uplift_alpha):.4f} g (nominal {math.tan(alpha):.4f} g). Restitution: Housner "
        f"{e_h:.4f} (α), {e_h_eff:.4f} (α'); the DEM pier in free rocking {e_dem:.4f}"
        + (f", fitted to its shaken swings {e_swing:.4f}" if e_swing is not None else "") + ".\n\n"
        + md_table(["run / rigid block", f"largest |θ|/α, t ≤ {T_CONVERGED:g} s", "at [s]", "largest |θ|/α",
                    "at [s]", "overturns", "balance error", "wall [s]"], rows)
        + "\n\nOverturning means |θ| stays beyond the tipping angle (α' for the DEM and the effective blocks, α "
        "for the nominal one) to the end of the run.")))


def _section_swings(res: CaseResult, an: SimpleNamespace) -> None:
    """The table of one-swing-ahead predictions and its finding."""
    swings, fine, e_dem, swing_err = an.swings, an.fine, an.e_dem, an.swing_err
    rows = [[s["t0"], s["theta0"], s["dem_next"], s["dem_next_t"], s["rigid_next"], s["rigid_next_t"], s["impacts"],
             "landing, chatter/rest" if s["rest"] else ""] for s in swings]
    res.sections.append(("One swing ahead", (
        f"From each peak of the Δt = {fine['dt']:g} s run the rigid block (α', p, e = {e_dem:.4f}) is started with "
        "the DEM's θ and θ̇ and the same base acceleration; its next peak is compared with the DEM's.\n\n"
        + md_table(["from t [s]", "θ/α", "DEM next θ/α", "at [s]", "rigid next θ/α", "at [s]", "rigid impacts",
                    ""], rows)
        + "\n\n**Finding.** Between impacts and across single impacts the DEM pier is the rigid block rolling on "
        "its 80 mm edges with e ≈ " + f"{e_dem:.3f}: " + "each swing is predicted to "
        + (f"{np.max(swing_err):.3f} α" if swing_err else "—") + ". Where a swing lands slowly the rigid block "
        "chatters to rest and uplifts again at g tan α', while the compliant DEM pier rebounds from an elastic "
        "tilt of a few hundredths of a degree; those swings start differently and are not gated.")))


def _section_sensitivity(res: CaseResult, an: SimpleNamespace, cfg: Settings) -> None:
    """The overturning boundary: the Δt series, the rigid sweep (full version) and the finding."""
    sweep, runs, dt_agree, p, e_dem, eff_dem, e_h = an.sweep, an.runs, an.dt_agree, an.p, an.e_dem, an.eff_dem, an.e_h
    nom_h, swing_err, e_swing, alpha_e, alpha, conv = an.nom_h, an.swing_err, an.e_swing, an.alpha_e, an.alpha, an.conv
    sweep_txt = ""
    if sweep:
        srow = [[s["e"], "overturns" if not math.isfinite(s["nominal"]) else s["nominal"],
                 "overturns" if not math.isfinite(s["effective"]) else s["effective"]] for s in sweep]
        sweep_txt = ("\n\nLargest |θ|/α of the rigid block vs the restitution (same base motion, "
                     f"{cfg.t_end:g} s):\n\n" + md_table(["e", "nominal α, p", "effective α', p"], srow))
    dt_list, dts_txt = _dt_texts(runs)
    if dt_agree and runs[0]["overturn_t"] is not None:
        finding = (
            f"**Finding.** The DEM pier ({p['edges']} edges) overturns at 0.5 g in every run, from "
            f"{fmt([r['overturn_t'] for r in runs], 4)} s for Δt = {dt_list} s: the outcome is converged in Δt. From "
            "rest, the rigid block with the DEM's α' and e = " + f"{e_dem:.3f} "
            + (f"overturns too (from {eff_dem['overturn_t']:.2f} s)" if eff_dem["overturned"] else
               f"survives ({eff_dem['max_over_alpha']:.2f} α)")
            + f" and the nominal Housner block (e = {e_h:.3f}) survives ({nom_h['max_over_alpha']:.2f} α, 004 Fig. "
            "12's analytical curve); started from each DEM peak, the rigid block predicts the DEM's next swing to "
            + (f"{max(swing_err):.3f} α" if swing_err else "—") + " (one swing ahead). The swings agree and the "
            "histories part at impacts, as near any overturning boundary: whether the pier overturns depends on "
            "what the rigid block leaves out (the compliant impacts: its shaken swings fit e = "
            + (f"{e_swing:.4f}" if e_swing is not None else "—") + f" against {e_dem:.4f} in free rocking) and on "
            "the damping, which 004 does not pin down (its dashpot mass and packing are not stated; damping case). "
            "004's DEM pier survived. The converged and comparable results are the onset, the swing-by-swing "
            "mechanics and the restitution.")
    elif dt_agree:
        finding = (
            f"**Finding.** The DEM pier ({p['edges']} edges) survives 0.5 g in every run, with a largest excursion of "
            f"{dts_txt} α for Δt = {dt_list} s: converged in Δt. 004 Fig. 12's sharp-cornered rigid block reaches "
            f"{nom_h['max_over_alpha']:.2f} α here; the DEM pier tips at α' = {alpha_e / alpha:.3f} α and its impacts "
            f"keep {e_dem:.3f} of the angular velocity (Housner: {e_h:.3f}).")
    else:
        finding = (
            "**Finding.** Whether the DEM pier overturns at 0.5 g is not a converged result: it sits on a fractal "
            "overturning boundary, as the rigid block with its geometry does. The converged and comparable results "
            "are the onset, the swing-by-swing mechanics and the restitution. 004 Fig. 12's agreement between the "
            f"DEM and the sharp-cornered rigid block (largest excursion ≈ {nom_h['max_over_alpha']:.2f} α here) is "
            f"reproduced in size by our DEM at Δt ≤ 5e-5 s ({runs[-1]['max_over_alpha']:.2f} α in the finest run), "
            f"but not in timing and not robustly: the DEM pier tips at α' = {alpha_e / alpha:.3f} α and its impacts "
            f"keep {e_dem:.3f} of the angular velocity (Housner: {e_h:.3f}).")
    res.sections.append(("Sensitivity: the pier and the overturning boundary", (
        f"With α' = {alpha_e / alpha:.3f} α the DEM pier ({p['edges']} edges) tips at {math.degrees(alpha_e):.2f}°, "
        "and 0.5 g at "
        "1 Hz for 10 s drives it to excursions of 0.5–0.8 α and beyond, where the next peak depends steeply on the "
        "state at the impact. Largest |θ|/α of the DEM for Δt = "
        f"{dt_list} s: {dts_txt}. Before the first large excursion the runs agree"
        + (f" (difference ≤ {conv:.1e} α for t ≤ {T_CONVERGED:g} s)" if conv is not None else "")
        + ("; they also agree on the outcome." if dt_agree else
           "; from there on round-off-sized differences in the impact sequence decide between a large survived "
           "excursion and overturning.")
        + " The rigid block's outcome also depends steeply on e near this boundary (table below, full version)."
        + sweep_txt
        + "\n\n" + finding)))


def _figure_theta(res: CaseResult, an: SimpleNamespace, case_dir: Path, out_dir: Path) -> None:
    """θ/α of the DEM runs and of the rigid blocks under the same base motion."""
    runs, alpha, rigid, refs, ref, alpha_e, accel = an.runs, an.alpha, an.rigid, an.refs, an.ref, an.alpha_e, an.accel
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    colors = ["tab:blue", "tab:cyan", "tab:purple", "tab:green"]
    for r, c in zip(runs, colors):
        ax.plot(r["h"]["t"], np.radians(r["h"]["theta_deg"]) / alpha, color=c, lw=1.0, label=f"DEM, Δt = {r['dt']:g} s")
    styles = {"nominal, Housner e": ("k", "--"), "effective, Housner e(α')": ("tab:orange", ":"),
              "effective, DEM's e": ("tab:red", "-.")}
    for k, (c, ls) in styles.items():
        rr = rigid[k]
        ax.plot(rr.t, rr.theta / alpha, color=c, ls=ls, lw=1.0, label=f"rigid, {k} = {refs[k][2]:.3f}")
    for y in (1, -1):
        ax.axhline(y, color="k", lw=0.5)
        ax.axhline(y * alpha_e / alpha, color="tab:red", lw=0.5, ls=":")
    ax.set_ylim(-1.4, 1.4)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("θ / α")
    ax2 = ax.twinx()
    tt = ref["h"]["t"]
    ax2.plot(tt, accel(tt) / G, color="tab:gray", lw=0.4, alpha=0.5)
    ax2.set_ylim(-2.0, 2.0)
    ax2.set_ylabel("ü_g / g", color="tab:gray")
    ax.legend(fontsize=6, loc="lower left", ncol=2)
    ax.set_title("Single pier at 0.5 g (004 Fig. 12); dotted red: ±α'", fontsize=9)
    fig.tight_layout()
    res.figures.append(save_figure(fig, case_dir, Path(out_dir), "single_pier_theta.png",
                                   "Rocking angle ÷ α: DEM (Δt series) vs the rigid block under the same base motion "
                                   "(nominal and effective geometry); grey: base acceleration."))


def _figure_mechanics(res: CaseResult, an: SimpleNamespace, cfg: Settings, case_dir: Path, out_dir: Path) -> None:
    """Free rocking against the rigid block; the rigid block's prediction of each next DEM peak."""
    alpha_e, alpha, p_e, e_dem, free, p_nom, e_h = an.alpha_e, an.alpha, an.p_e, an.e_dem, an.free, an.p_nom, an.e_h
    swings = an.swings
    plt = pyplot()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(8.5, 3.2))
    fr = solve_rigid(alpha_e, p_e, e_dem, lambda s: np.zeros_like(np.asarray(s, float)), cfg.free_t_end,
                     theta0=free["theta0"])
    frh = solve_rigid(alpha, p_nom, e_h, lambda s: np.zeros_like(np.asarray(s, float)), cfg.free_t_end,
                      theta0=free["theta0"])
    a1.plot(free["t"], np.radians(free["theta_deg"]) / alpha, lw=1.2, label="DEM")
    a1.plot(fr.t, fr.theta / alpha, ls="--", lw=1, color="tab:red", label=f"rigid α', e = {e_dem:.4f}")
    a1.plot(frh.t, frh.theta / alpha, ls=":", lw=1, color="k", label=f"rigid nominal, Housner e = {e_h:.4f}")
    a1.set_xlabel("t [s]")
    a1.set_ylabel("θ / α")
    a1.set_title("free rocking", fontsize=8)
    a1.legend(fontsize=6)
    if swings:
        ok = [s for s in swings if not s["rest"]]
        bad = [s for s in swings if s["rest"]]
        a2.plot([s["dem_next"] for s in ok], [s["rigid_next"] for s in ok], "o", label="single impact")
        a2.plot([s["dem_next"] for s in bad], [s["rigid_next"] for s in bad], "x", color="tab:gray",
                label="landing with chatter/rest")
        lim = 1.1 * max([abs(s["dem_next"]) for s in swings] + [0.1])
        a2.plot([-lim, lim], [-lim, lim], "k-", lw=0.5)
        a2.set_xlabel("DEM next peak θ/α")
        a2.set_ylabel("rigid prediction θ/α")
        a2.set_title("one swing ahead", fontsize=8)
        a2.legend(fontsize=6)
    fig.tight_layout()
    res.figures.append(save_figure(fig, case_dir, Path(out_dir), "single_pier_mechanics.png",
                                   "Left: free rocking of the DEM pier vs the rigid block with its α' and fitted e. "
                                   "Right: the rigid block's prediction of the DEM's next peak from each DEM peak."))


def _figure_overturning(res: CaseResult, an: SimpleNamespace, case_dir: Path, out_dir: Path) -> None:
    """The rigid block's largest |θ|/α against e (the overturning boundary), with the DEM runs."""
    sweep, e_h, e_h_eff, e_dem, runs = an.sweep, an.e_h, an.e_h_eff, an.e_dem, an.runs
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    es = [s["e"] for s in sweep]
    for lab, c, mk in (("nominal", "k", "s"), ("effective", "tab:red", "o")):
        ys = [s[lab] if math.isfinite(s[lab]) else 1.3 for s in sweep]
        ax.plot(es, ys, mk + "-", color=c, lw=0.8, ms=4, label=f"rigid, {lab} geometry")
    ax.axhline(1.3, color="tab:gray", lw=0.5)
    ax.text(es[0], 1.33, "overturned", fontsize=7, color="tab:gray")
    for e, lab, c in ((e_h, "Housner e(α)", "k"), (e_h_eff, "Housner e(α')", "tab:orange"),
                      (e_dem, "DEM pier", "tab:blue")):
        ax.axvline(e, color=c, lw=0.8, ls=":")
        ax.text(e, 0.05, lab, rotation=90, fontsize=6, color=c, va="bottom")
    for r in runs:
        y = 1.3 if r["overturn_t"] is not None else r["max_over_alpha"]
        ax.plot([e_dem], [y], "*", color="tab:blue", ms=8)
    ax.set_ylim(0, 1.75)
    ax.set_xlabel("restitution e")
    ax.set_ylabel("largest |θ| / α")
    ax.legend(fontsize=7, loc="upper center", ncol=2)
    ax.set_title("Overturning boundary (stars: DEM runs, Δt series)", fontsize=8)
    fig.tight_layout()
    res.figures.append(save_figure(fig, case_dir, Path(out_dir), "single_pier_overturning.png",
                                   "Largest rocking angle of the rigid block vs restitution under the same 0.5 g "
                                   "motion: survival and overturning alternate; stars: the DEM runs."))
