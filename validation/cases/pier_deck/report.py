"""The pier–deck case's report: its data, the 0.1 g section, the 0.5 g sections (full version), the figures and
the summary."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from validation.cases.common import CaseResult, G, fmt, md_table, pyplot, save_figure
from validation.cases.pier_deck.analyse import lowpass
from validation.cases.pier_deck.settings import FILTER_HZ, NAME, PAPER, PIERS, Settings
from validation.cases.rigid import overturn_time


def report(res: CaseResult, sim: dict, an: SimpleNamespace, cfg: Settings, out_dir: Path) -> None:
    """Fill `res` with the case's data, sections, figures and summary."""
    case_dir = Path(out_dir) / NAME
    res.data = _data(an, cfg)
    _section_low(res, an)
    if an.high_runs:
        _sections_high(res, an)
    _figure_low(res, an, case_dir, out_dir)
    if an.high_runs:
        _figures_high(res, an, case_dir, out_dir)
    _summary(res, an)


def _data(an: SimpleNamespace, cfg: Settings) -> dict:
    """The raw numbers (result.json): per run, the frame parameters, the statics, the rigid frames."""
    from validation.rocking.frame import frame_restitution

    low, summ, info, geom, gam = an.low, an.summ, an.info, an.geom, an.gam
    data: dict = {"runs": {}}
    data["runs"]["0.1 g"] = low | {"status": an.status, "max_energy_error": float(summ["max_energy_error"]),
                                   "wall_time_s": summ["wall_time_s"], "overrides": cfg.base | cfg.low.overrides}
    data |= {"gamma": gam, "p_frame": info["p_frame_rad_s"], "p_frame_eff": an.p_eff, "p_pier": an.p_pier,
             "e_frame": info["frame_restitution"], "e_frame_eff": frame_restitution(geom.alpha, gam),
             "alpha_deg": math.degrees(an.alpha), "alpha_eff_deg": math.degrees(geom.alpha),
             "tan_alpha_uplift": an.tan_u,
             "ball_count": int(an.scene.model.ball_count), "static_V_error": an.static_v, "static_ecc": an.static_e,
             "input_error_g": an.input_err, "moment_balance": an.mom, "low_status": an.status,
             "pier_mass_kg": info["pier_mass_kg"], "deck_mass_kg": info["deck_mass_kg"]}
    data |= {"newton_base_kN": an.newton_base, "newton_top_kN": an.newton_top, "deck_sway_hz": an.f_sway}
    for r in an.high_runs:
        sc, stats = r["scene"], r["stats"]
        data["runs"][r["spec"].label] = stats | {
            "status": r["status"], "overturn_t": r["overturn_t"], "max_over_alpha": r["max_over_alpha"],
            "energy_error": r["energy_error"], "e_fit_swings": r["e_fit"],
            "alpha_eff_deg": math.degrees(r["geom"].alpha),
            "ball_count": int(sc.model.ball_count), "wall_time_s": r["summary"]["wall_time_s"],
            "t_end": float(r["h"]["t"][-1]), "overrides": cfg.base | r["spec"].overrides, "swings": r["swings"]}
    if an.high_runs:
        data["rigid_frame_reduction"] = {"pier": an.rig_pier_red, "deck": an.rig_deck_red}
    data["frames"] = an.frame_sum
    return data


def _section_low(res: CaseResult, an: SimpleNamespace) -> None:
    """0.1 g: the interfaces and accelerations over the shaking, and the findings against 004 §5.2–5.3."""
    ifl, acc_l, scene, low, tan_u, alpha, th_max = an.ifl, an.acc_l, an.scene, an.low, an.tan_u, an.alpha, an.th_max
    fric, p, base_ecc, top_ecc, mom, moment_need = an.fric, an.p, an.base_ecc, an.top_ecc, an.mom, an.moment_need
    base_h, top_h, newton_base, newton_top, pier_red = an.base_h, an.top_h, an.newton_base, an.newton_top, an.pier_red
    deck_red, f_sway = an.deck_red, an.f_sway
    rows = []
    for n in range(1, PIERS + 1):
        for side in ("base", "top"):
            s = ifl[f"{side}{n}"]
            rows.append([f"{side}{n}", s["H_kN"], f"{s['V_min']:.3f}–{s['V_max']:.3f}", s["ecc_max"], s["friction_max"],
                         f"{s['contacts_min']} / {s['contacts_static']}"])
    accrows = [[b, acc_l[b]["peak_g"], acc_l[b]["peak_filtered_g"], acc_l[b]["rms_ratio"], acc_l[b]["vertical_peak_g"]]
               for b in acc_l]
    res.sections.append(("0.1 g: below the uplift threshold (004 §5.2–5.3, Figs. 13–25)", (
        f"{scene.model.ball_count} spheres; base peak {low['base_acc_peak_g']:.3f} g < g tan α_u = {tan_u:.3f} g "
        f"({scene.params['edges']} edges; sharp: {math.tan(alpha):.3f} g). Largest |θ| {th_max:.4f} α: no pier "
        "uplifts, as the rigid frame predicts. Interfaces over the shaking:\n\n"
        + md_table(["interface", "peak |H| [kN]", "V ÷ static", "peak |ecc|", "peak |H|/V", "contacts min / static"],
                   rows)
        + "\n\nAccelerations (peak over the shaking; RMS ratio to the input over the constant-amplitude part):\n\n"
        + md_table(["body", "peak ax [g]", f"peak ax, {FILTER_HZ:g} Hz filtered [g]", "RMS ÷ input",
                    "peak az [g]"], accrows)
        + f"\n\n**Findings.** (1) No uplift and no sliding (friction ratios ≤ {fric:.2f} ≪ μ = {p['mu']:g}), as 004 "
        f"says. (2) The resultants leave the middle third: |ecc| reaches {base_ecc:.2f} at the bases and "
        f"{top_ecc:.2f} at the tops (004: ±0.1 and ±0.05), and the outer rows of contacts open "
        f"({min(ifl[k]['contacts_min'] for k in ifl)} of 546 still touching at the least). This is statics, not a "
        "DEM artefact: the piers' moment balance closes to "
        f"{mom:.1%} with these eccentricities, and a pier carrying ¼ of the deck at 0.1 g needs "
        f"ecc_base + (V_top/V_base) ecc_top ≈ {moment_need:.2f}; the middle third would hold only up to ≈ 0.05 g. "
        f"(3) The horizontal resultants are what Newton requires: {base_h:.0f} kN at a base and {top_h:.0f} kN at a "
        "top "
        f"(rigid, in phase: {newton_base:.0f} and {newton_top:.0f} kN); 004's ≈ 120 and ≈ 30 kN are a third and a "
        f"fifth of those, inconsistent with its own statement that piers and deck move with the 0.1 g input. "
        f"(4) The piers and deck are amplified by {-pier_red:.0%} and {-deck_red:.0%} instead of reduced by 0–10 %: "
        "on Hertz contacts the bridge is an elastic frame, and a sway mode at f_n amplifies a 1 Hz input by "
        f"1/(1 − (1 Hz/f_n)²), which for the deck's {1 - deck_red:.2f} means f_n ≈ {f_sway} Hz; a rigid frame below "
        "uplift moves exactly with the base, so 004's marginal reduction has no mechanism in either model.")))


def _sections_high(res: CaseResult, an: SimpleNamespace) -> None:
    """0.5 g: the DEM runs against the rigid frames, one swing ahead, and 004's statements (§5.4–5.5)."""
    from validation.rocking.frame import frame_restitution

    high_runs, alpha, frames, main, frame_sum, geom = an.high_runs, an.alpha, an.frames, an.main, an.frame_sum, an.geom
    gam, e_frame_nom, p_eff, rig_pier_red = an.gam, an.e_frame_nom, an.p_eff, an.rig_pier_red
    rig_deck_red = an.rig_deck_red
    rows = []
    for r in high_runs:
        s = r["stats"]
        rows.append([r["spec"].label, r["scene"].model.ball_count, f"{math.degrees(r['geom'].alpha):.2f}",
                     r["e_fit"], r["max_over_alpha"] if math.isfinite(r["max_over_alpha"]) else "overturns",
                     f"{r['overturn_t']:.2f}" if r["overturn_t"] is not None else "no",
                     s["deck_uplift_max_m"], s["deck_slip_max_m"], max(s["pier_slip_max_m"]),
                     fmt([s["acc"][f"pier{n}"]["reduction_filtered"] for n in (1, 2)], 2),
                     s["acc"]["deck"]["reduction_filtered"], r["energy_error"], r["summary"]["wall_time_s"]])
    frows = [[k, math.degrees(a), pf, e,
              "overturns" if rr.overturned else float(np.nanmax(np.abs(rr.theta))) / alpha,
              fmt(overturn_time(rr.t, rr.theta, a))] for k, (a, pf, e, rr) in frames.items()]
    main = high_runs[0]
    inv = high_runs[1:]
    inv_txt = "; ".join(
        f"{r['spec'].label}: " + (f"overturns at {r['overturn_t']:.1f} s" if r["overturn_t"] is not None else
                                  f"survives, largest |θ| {r['max_over_alpha']:.2f} α")
        + (f", frame e fitted to its swings {r['e_fit']:.3f}" if r["e_fit"] is not None else "") for r in inv)
    eff_frame_max = frame_sum["effective, frame e(α')"]["max_over_alpha"]
    res.sections.append(("0.5 g: the DEM bridge as a rocking frame (004 §5.4–5.5, Figs. 26–35)", (
        md_table(["run", "balls", "α' [°]", "frame e fitted to the swings", "largest |θ|/α", "overturns at [s]",
                  "deck uplift [m]", "deck slip [m]", "pier slip [m]", "reduction piers 1, 2", "reduction deck",
                  "balance error", "wall [s]"], rows)
        + "\n\nRigid frames under the same base motion (validation.rocking, from rest):\n\n"
        + md_table(["rigid frame", "α [°]", "p̄ [rad/s]", "e", "largest |θ|/α", "overturns at [s]"], frows)
        + f"\n\nThe DEM piers rock in phase as one frame (spread {main['stats']['pier_spread_over_alpha']:.1e} α "
        "between piers). The rocking starts when the rigid frame leaves rest, and the swings are the rigid frame's "
        "swings with a restitution fitted to the DEM (one swing ahead, below). At the scene's defaults (004 Table "
        "3: β = 0.015 with the body mass as contact mass, r1 = 80 mm) the frame's impacts keep "
        f"{fmt(main['e_fit'])} of the angular velocity, against the frame formula's "
        f"{frame_restitution(geom.alpha, gam):.4f} for α' ({e_frame_nom:.4f} for α), and the bridge "
        + (f"overturns at {main['overturn_t']:.1f} s" if main["overturn_t"] is not None else
           f"survives, largest |θ| {main['max_over_alpha']:.2f} α")
        + f". The rigid frame with the nominal geometry and the frame restitution reaches "
        f"{frame_sum['nominal, frame e']['max_over_alpha']:.2f} α — the paper's analytical reference, which "
        "its DEM is said to agree with (004 §5.4, Fig. 29); with α' and the frame restitution it reaches "
        f"{eff_frame_max:.2f} α.\n\n"
        "**Whole histories are not comparable, swings are.** Near the overturning boundary the largest excursion "
        "depends steeply on the restitution and on the state at each impact: the rigid frames fitted to each DEM "
        "run (table above) do not reproduce the DEM's largest excursions, and the excursions do not fall "
        "monotonically with the fitted e. **Sensitivity** (0.5 g, only β or r1 changed): "
        + (inv_txt or "not run in the quick version") + ". What is robust: the DEM frame rocks as the rigid frame "
        "rolling on its edge spheres, swing by swing (one swing ahead, below, gated for the default and the "
        "β = 0.15 runs), with a restitution set by β and the number of contacts at the interfaces (the dashpots' "
        "damping grows as β√N). Nothing is tuned: the scene keeps 004 Table 3's values; 004's single pier has "
        "65,851 spheres against our 7,776 for the same r1 = 80 mm and overlap 0.75, and 004 does not say which "
        "mass its dashpots use (ours: the body's).")))
    sw = main["swings"]
    if sw:
        rows = [[s["t0"], s["theta0"], s["dem_next"], s["rigid_next"], s["impacts"], "rest" if s["rest"] else ""]
                for s in sw]
        res.sections.append((f"0.5 g: one swing ahead ({main['spec'].label})", (
            f"Rigid frame α' = {math.degrees(geom.alpha):.3f}°, p̄' = {p_eff:.4f} rad/s, e = {fmt(main['e_fit'])} "
            "(fitted to these swings), started at each DEM peak with the DEM's mean θ and θ̇:\n\n"
            + md_table(["from t [s]", "θ/α", "DEM next θ/α", "rigid next θ/α", "rigid impacts", ""], rows))))
    st = main["stats"]
    res.sections.append(("0.5 g against 004's statements", (
        "Acceleration reduction is 1 − (peak of the 5 Hz low-passed acceleration over the shaking) ÷ (peak input); "
        "the raw peaks are dominated by impact spikes a few ms wide. The rigid frame's own reduction (same "
        f"filter, α' and frame e) is {rig_pier_red:.2f} at the piers' centres and {rig_deck_red:.2f} at the deck: "
        "the deck of a rocking frame moves with the column tops, which swing against the base, so the deck is "
        "isolated more than the piers' centres. Sliding is measured at the instants the piers stand upright "
        f"(rolling on the edge spheres adds nothing then): the deck slips by up to {st['deck_slip_max_m']:.3f} m "
        f"on the pier tops, the piers by up to {max(st['pier_slip_max_m']):.3f} m on the base (004: final "
        "values ≈ 6 cm for the deck, 6 and 1 cm for the piers; our 0.5 g runs end at 18 s, in free rocking, "
        "so they have no final value). Vertical: the deck rises by up to "
        f"{st['deck_uplift_max_m'] * 1e3:.0f} mm (004: ≈ 40 mm), the piers' top interfaces separate (V = 0) and "
        "reload at impacts, as 004 describes.")))


def _figure_low(res: CaseResult, an: SimpleNamespace, case_dir: Path, out_dir: Path) -> None:
    """0.1 g: accelerations, interface eccentricities and horizontal resultants."""
    t, h = an.t, an.h
    plt = pyplot()
    fig, axes = plt.subplots(3, 1, figsize=(8.5, 6.4), sharex=True)
    sel = t >= 0
    axes[0].plot(t, h["base_acc"] / G, color="k", lw=0.6, label="base")
    for n, c in ((1, "tab:blue"), (2, "tab:cyan")):
        axes[0].plot(t, h[f"pier{n}_ax"] / G, color=c, lw=0.6, label=f"pier {n}")
    axes[0].plot(t, h["deck_ax"] / G, color="tab:red", lw=0.6, label="deck")
    axes[0].set_ylabel("ax [g]")
    axes[0].legend(fontsize=6, ncol=4)
    for n in range(1, PIERS + 1):
        axes[1].plot(t[sel], h[f"base{n}_ecc"][sel], lw=0.6, label=f"base {n}")
        axes[1].plot(t[sel], h[f"top{n}_ecc"][sel], lw=0.6, ls="--", label=f"top {n}")
    for y in (1 / 6, -1 / 6):
        axes[1].axhline(y, color="k", lw=0.6, ls=":")
    axes[1].set_ylabel("ecc ÷ width")
    axes[1].legend(fontsize=5, ncol=4)
    for n in range(1, PIERS + 1):
        axes[2].plot(t, h[f"base{n}_H"] / 1e3, lw=0.6, label=f"base {n}")
        axes[2].plot(t, h[f"top{n}_H"] / 1e3, lw=0.6, ls="--", label=f"top {n}")
    for y in (PAPER["0.1g_base_H_kN"][0], -PAPER["0.1g_base_H_kN"][0]):
        axes[2].axhline(y, color="k", lw=0.6, ls=":")
    axes[2].set_ylabel("H [kN]")
    axes[2].set_xlabel("t [s]")
    axes[0].set_title("0.1 g: accelerations (004 Fig. 13), eccentricities (Figs. 20, 24; dotted: ±1/6), horizontal "
                      "resultants (Figs. 18, 22; dotted: 004's ±120 kN)", fontsize=7)
    fig.tight_layout()
    res.figures.append(save_figure(fig, case_dir, Path(out_dir), "pier_deck_01g.png",
                                   "0.1 g: accelerations, interface eccentricities and horizontal resultants."))


def _figures_high(res: CaseResult, an: SimpleNamespace, case_dir: Path, out_dir: Path) -> None:
    """0.5 g: the piers' rocking against the rigid frames; the main run's accelerations, deck uplift and slip, and
    vertical resultants."""
    high_runs, alpha, frames, geom, main = an.high_runs, an.alpha, an.frames, an.geom, an.main
    plt = pyplot()
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(8.5, 5.6), sharex=True)
    cols = ["tab:blue", "tab:green", "tab:purple", "tab:brown"]
    for r, c in zip(high_runs, cols):
        a1.plot(r["h"]["t"], r["theta_mean"] / alpha, color=c, lw=0.9, label=f"DEM {r['spec'].label}")
    fstyle = [("k", "--"), ("tab:orange", ":"), ("tab:red", "-."), ("tab:olive", "-.")]
    for (k, (_a, _pf, e, rr)), (c, ls) in zip(frames.items(), fstyle):
        a1.plot(rr.t, rr.theta / alpha, color=c, ls=ls, lw=0.9, label=f"rigid frame, {k}, e = {e:.3f}")
    for y in (1, -1):
        a1.axhline(y, color="k", lw=0.5)
        a1.axhline(y * geom.alpha / alpha, color="tab:red", lw=0.5, ls=":")
    a1.set_ylim(-1.5, 1.5)
    a1.set_ylabel("θ / α (mean of the piers)")
    a1.legend(fontsize=5, ncol=2, loc="lower left")
    a1.set_title("0.5 g: rocking of the piers (004 Figs. 28–29); dotted red: ±α'", fontsize=8)
    for r, c in zip(high_runs, cols):
        a2.plot(r["h"]["t"], np.mean([r["h"][f"omega{n}"] for n in range(1, 5)], axis=0), color=c, lw=0.7)
    for (_k, _v), (c, ls) in zip(frames.items(), fstyle):
        rr = _v[3]
        a2.plot(rr.t, rr.omega, color=c, ls=ls, lw=0.7)
    a2.set_ylim(-0.5, 0.5)
    a2.set_ylabel("θ̇ [rad/s]")
    a2.set_xlabel("t [s]")
    a2.set_title("angular velocity (004 Fig. 27)", fontsize=8)
    fig.tight_layout()
    res.figures.append(save_figure(fig, case_dir, Path(out_dir), "pier_deck_05g_rocking.png",
                                   "0.5 g: mean rocking angle and angular velocity of the piers, DEM runs vs the "
                                   "rigid frame (nominal, effective, fitted restitution)."))
    main = high_runs[0]
    hh = main["h"]
    tt = hh["t"]
    fig, axes = plt.subplots(3, 1, figsize=(8.5, 6.4), sharex=True)
    axes[0].plot(tt, hh["base_acc"] / G, color="k", lw=0.5, label="base")
    axes[0].plot(tt, lowpass(tt, hh["pier1_ax"]) / G, color="tab:blue", lw=0.8, label=f"pier 1 ({FILTER_HZ:g} Hz)")
    axes[0].plot(tt, lowpass(tt, hh["deck_ax"]) / G, color="tab:red", lw=0.8, label=f"deck ({FILTER_HZ:g} Hz)")
    axes[0].set_ylim(-1.0, 1.0)
    axes[0].set_ylabel("ax [g]")
    axes[0].legend(fontsize=6, ncol=3)
    axes[0].set_title(f"0.5 g, {main['spec'].label}: accelerations (004 Fig. 26), deck uplift and slip (Figs. "
                      "30–31), vertical resultants (Figs. 33, 35)", fontsize=7)
    deck_slip = hh["deck_ux"] - np.mean([hh[f"pier{n}_ux"] for n in range(1, 5)], axis=0)
    axes[1].plot(tt, 1e3 * (hh["deck_uz"] - hh["deck_uz"][0]), color="tab:red", lw=0.8, label="deck uplift [mm]")
    axes[1].plot(tt, 1e3 * deck_slip, color="tab:gray", lw=0.6, label="deck − mean pier centre x [mm]")
    axes[1].set_ylim(-300, 300)
    axes[1].set_ylabel("[mm]")
    axes[1].legend(fontsize=6)
    for n in (1, 2):
        axes[2].plot(tt, hh[f"base{n}_V_ratio"], lw=0.5, label=f"base {n}")
        axes[2].plot(tt, hh[f"top{n}_V_ratio"], lw=0.5, ls="--", label=f"top {n}")
    axes[2].set_ylim(-0.5, 8)
    axes[2].set_ylabel("V ÷ static")
    axes[2].set_xlabel("t [s]")
    axes[2].legend(fontsize=6, ncol=4)
    fig.tight_layout()
    res.figures.append(save_figure(fig, case_dir, Path(out_dir), "pier_deck_05g_response.png",
                                   "0.5 g: filtered accelerations, deck uplift and slip, normalised vertical "
                                   "resultants."))


def _summary(res: CaseResult, an: SimpleNamespace) -> None:
    """One paragraph: 0.1 g against 004, and (full version) the 0.5 g outcomes."""
    from validation.rocking.frame import frame_restitution

    base_ecc, top_ecc, th_max, base_h, top_h = an.base_ecc, an.top_ecc, an.th_max, an.base_h, an.top_h
    pier_red, deck_red, high_runs, main, geom, gam = an.pier_red, an.deck_red, an.high_runs, an.main, an.geom, an.gam
    frame_sum = an.frame_sum
    third = "outside" if max(base_ecc, top_ecc) > 1 / 6 else "inside"
    parts = [f"0.1 g: no uplift (|θ| ≤ {th_max:.4f} α), no sliding, |ecc| {base_ecc:.2f}/{top_ecc:.2f} "
             f"(base/top, {third} the middle third) and H {base_h:.0f}/{top_h:.0f} kN as statics require (004: "
             "±0.1/±0.05, 120/30 kN);"
             f" piers/deck amplified {-pier_red:.0%}/{-deck_red:.0%} (004: 0–10 % reduction)."]
    if high_runs:
        main = high_runs[0]
        parts.append(f"0.5 g: DEM frame e = {fmt(main['e_fit'])} vs {frame_restitution(geom.alpha, gam):.3f}; "
                     + (f"overturns at {main['overturn_t']:.1f} s" if main["overturn_t"] is not None else "survives")
                     + f" (rigid nominal frame: {frame_sum['nominal, frame e']['max_over_alpha']:.2f} α). "
                     + "; ".join(f"{r['spec'].label}: " + ("overturns" if r["overturn_t"] is not None else
                                                           f"survives ({r['max_over_alpha']:.2f} α)")
                                 for r in high_runs[1:]) + ".")
    fails = [m.name for m in res.metrics if m.passed is False and m.gate]
    res.summary = " ".join(parts) + (f" Gating failures: {', '.join(fails)}." if fails else "")
