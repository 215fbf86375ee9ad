"""The pier–deck case's comparisons. Gating: the frame parameters against validation.rocking.frame, the base motion,
the statics, the energy ledger, no uplift at 0.1 g, the piers' moment balance, and at 0.5 g the onset and one
swing ahead against the rigid frame. Reported: 004's statements (§5.2–5.5) and the outcomes."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from validation.cases.common import Metric, fmt, metric_abs, metric_info, metric_max, metric_rel
from validation.cases.pier_deck.analyse import frame_p_effective
from validation.cases.pier_deck.settings import (
    NO_UPLIFT,
    PAPER,
    PIERS,
    TOL_ENERGY,
    TOL_FRAME_E,
    TOL_INPUT,
    TOL_MOMENT,
    TOL_STATIC,
    TOL_SWING,
    Settings,
)
from validation.cases.rigid import overturn_time


def metrics(an: SimpleNamespace, cfg: Settings) -> list[Metric]:
    """The 0.1 g metrics, then the 0.5 g ones (full version)."""
    return _metrics_low(an) + (_metrics_high(an) if an.high_runs else [])


def _metrics_low(an: SimpleNamespace) -> list[Metric]:
    """The frame parameters, the base motion, the statics, the ledger, no uplift and the moment balance at 0.1 g;
    004's numbers at 0.1 g."""
    gam, info, p_frame_nom, p, p_pier, e_frame_nom = an.gam, an.info, an.p_frame_nom, an.p, an.p_pier, an.e_frame_nom
    input_err, static_v, static_e, summ, th_max = an.input_err, an.static_v, an.static_e, an.summ, an.th_max
    tan_u, mom, pier_red, deck_red, base_h = an.tan_u, an.mom, an.pier_red, an.deck_red, an.base_h
    newton_base, top_h, newton_top, top_v, base_ecc = an.newton_base, an.top_h, an.newton_top, an.top_v, an.base_ecc
    moment_need, top_ecc, fric = an.moment_need, an.top_ecc, an.fric
    mets: list[Metric] = []
    mets += [
        metric_rel("frame: γ = deck ÷ (4 piers)", gam, 612480 / (4 * 178176), TOL_FRAME_E, source="004 §5.2: 0.86"),
        metric_rel("frame: p̄ [rad/s]", info["p_frame_rad_s"], p_frame_nom, TOL_FRAME_E,
                   source="validation.rocking.frame", note=f"004 §5.2: 1.072; pier p = {p_pier:.4f}"),
        metric_rel("frame: restitution", info["frame_restitution"], e_frame_nom, TOL_FRAME_E,
                   source="validation.rocking.frame", note="[1 − 1.5 sin²α + 3γ cos 2α]/(1 + 3γ)"),
        metric_max("base acceleration vs 004 Eq. 42", input_err, TOL_INPUT, unit="g", source="validation.rocking"
                   ".ramped_sine, shifted by the settling time"),
        metric_max("static: |V ÷ static load − 1| after settling", static_v, TOL_STATIC,
                   source="pier + ¼ deck at the base, ¼ deck at the top"),
        metric_max("static: |ecc| after settling", static_e, TOL_STATIC, source="symmetry"),
        metric_max("0.1 g: energy balance, largest error", float(summ["max_energy_error"]), TOL_ENERGY,
                   source="energy ledger, 004 §4.2"),
        metric_max("0.1 g: largest |θ| ÷ α (no uplift)", th_max, NO_UPLIFT, source="frame: uplift needs "
                   f"{tan_u:.3f} g (g tan α_u); 004 §5.2", note="elastic tilt on the contacts only"),
        metric_max("0.1 g: pier moment balance, largest residual", mom, TOL_MOMENT, source="I_G θ̈ = Σ moments "
                   "of the interface resultants", note="the eccentricities follow from the accelerations"),
    ]
    # the paper at 0.1 g (reported)
    why_acc = ("the compliant contacts make the bridge an elastic frame (≈ 2 Hz) that amplifies a 1 Hz input; the "
               "rigid frame moves with the base")
    mets += [
        Metric("0.1 g: pier acceleration reduction", pier_red, "0 to 0.10", "0–10 %", bool(-0.005 <= pier_red <= 0.10),
               "", PAPER["0.1g_acc_reduction"][2], why_acc if pier_red < 0 else "", gate=False, explained=False),
        Metric("0.1 g: deck acceleration reduction", deck_red, "0 to 0.10", "0–10 %", bool(-0.005 <= deck_red <= 0.10),
               "", PAPER["0.1g_acc_reduction"][2], why_acc if deck_red < 0 else "", gate=False, explained=False),
        metric_rel("0.1 g: peak base horizontal resultant per pier", base_h, PAPER["0.1g_base_H_kN"][0], 0.25,
                   unit="kN",
                   source=PAPER["0.1g_base_H_kN"][1], gate=False, explained=True,
                   note=f"Newton: (pier + ¼ deck) × 0.1 g = {newton_base:.0f} kN; 004's value is a third of that"),
        metric_rel("0.1 g: peak top horizontal resultant per pier", top_h, PAPER["0.1g_top_H_kN"][0], 0.25, unit="kN",
                   source=PAPER["0.1g_top_H_kN"][1], gate=False, explained=True,
                   note=f"Newton: ¼ deck × 0.1 g = {newton_top:.0f} kN; 004's value is a fifth of that"),
        Metric("0.1 g: top V ÷ ¼ deck weight, range", [top_v[0], top_v[1]], [0.99, 1.025], "within ±0.05 of 004's",
               bool(top_v[0] >= 0.94 and top_v[1] <= 1.075), "", PAPER["0.1g_top_V"][2], gate=False, explained=True,
               note="frame action (overturning couple on the outer piers) and the elastic rocking mode"),
        metric_max("0.1 g: base |ecc| (middle third: 1/6)", base_ecc, 1 / 6, source=PAPER["0.1g_base_ecc"][1],
                   gate=False, reference=PAPER["0.1g_base_ecc"][0], explained=True,
                   note=f"statics with the piers and deck at 0.1 g need ecc_base·V_b + ecc_top·V_t ≈ "
                   f"{moment_need:.2f} (V_b + V_t·0)·W: the middle third holds only below ≈ 0.05 g"),
        metric_max("0.1 g: top |ecc| (middle third: 1/6)", top_ecc, 1 / 6, source=PAPER["0.1g_top_ecc"][1],
                   gate=False, reference=PAPER["0.1g_top_ecc"][0], explained=True,
                   note="double curvature: the pier's top takes part of the moment"),
        metric_max("0.1 g: largest friction ratio", fric, PAPER["0.1g_friction"][0], source=PAPER["0.1g_friction"][1],
                   gate=False, reference=f"< 0.1 (μ = {p['mu']:g})", explained=True,
                   note="|H|/V = a/g-sized at both interfaces; far from μ: no sliding"),
    ]
    return mets


def _metrics_high(an: SimpleNamespace) -> list[Metric]:
    """The 0.5 g runs: ledger, onset, one swing ahead (gated for the runs so marked), the outcome against the rigid
    frames; 004's statements at 0.5 g."""
    main, t_on, rig_up, high_runs, gam, frames = an.main, an.t_on, an.rig_up, an.high_runs, an.gam, an.frames
    alpha, rig_pier_red, rig_deck_red, p = an.alpha, an.rig_pier_red, an.rig_deck_red, an.p
    st = main["stats"]
    ot = main["overturn_t"]
    mets: list[Metric] = []
    mets.append(metric_max("0.5 g: energy balance, largest error (before overturning)", main["energy_error"],
                           TOL_ENERGY, source="energy ledger, 004 §4.2"))
    if t_on is not None and rig_up:
        mets.append(metric_abs("0.5 g: rocking onset", t_on, rig_up[0], 0.125, unit="s",
                               source="rigid frame, α': leaves rest", note="DEM: mean |θ| first > 0.1° "
                               "(single_pier.TOL_ONSET)"))
    deck_vib = {r["spec"].label: (r["stats"]["acc"]["deck"]["vertical_peak_g"],
                                  min(r["stats"]["iface"][f"top{n}"]["V_min"] for n in range(1, PIERS + 1)))
                for r in high_runs}
    for r in high_runs:
        good = [s for s in r["swings"] if not s["rest"]]
        if not good:
            continue
        errs = [abs(s["rigid_next"] - s["dem_next"]) if math.isfinite(s["rigid_next"]) else math.inf for s in good]
        vib, vmin = deck_vib[r["spec"].label]
        note = (f"deck vertical acceleration up to {vib:.2f} g, top V down to {vmin:.2f} of static: "
                + ("the impacts' vibrations die out within a swing, the DEM frame is a rigid frame with one e"
                   if r["spec"].gate_swings else
                   "a variant, not gated: where the impacts leave the deck vibrating on lightly damped contacts, "
                   "energy returns into the rocking and no constant e predicts the largest swings"))
        mets.append(metric_max(f"0.5 g: one swing ahead, {r['spec'].label} ({len(good)} swings), largest error",
                               float(np.max(errs)), TOL_SWING, unit="÷α", gate=r["spec"].gate_swings,
                               explained=True,
                               source=f"rigid frame α' = {math.degrees(r['geom'].alpha):.2f}°, p̄' = "
                               f"{frame_p_effective(r['geom'], gam):.4f}, e fitted = {r['e_fit']:.4f}", note=note))
    # ---- rocking vs the frame
    dem_of = {f"effective, e fitted to '{r['spec'].label}'": r for r in high_runs}
    for lab, (a, _pf, e, rr) in frames.items():
        ov = overturn_time(rr.t, rr.theta, a)
        r_dem = dem_of.get(lab, main)  # a fitted frame is compared with the run it was fitted to
        mets.append(metric_info(f"{r_dem['spec'].label}: largest |θ|/α, DEM vs rigid frame ({lab}, e = {e:.4f})",
                                r_dem["max_over_alpha"] if math.isfinite(r_dem["max_over_alpha"]) else "overturns",
                                "overturns" if rr.overturned else float(np.nanmax(np.abs(rr.theta))) / alpha,
                                source="validation.rocking (frame)",
                                note=("rigid overturns" + (f" at {ov:.2f} s" if ov else "")) if rr.overturned else
                                "rigid survives"))
    mets.append(metric_info("0.5 g: DEM overturns (mean |θ| stays > α')", ot is not None, False,
                            note=(f"from {ot:.2f} s; " if ot else "") + f"run status: {main['status'][:60]}"))
    # ---- the paper at 0.5 g (reported)
    acc5 = st["acc"]
    pier_red5 = [acc5[f"pier{n}"]["reduction_filtered"] for n in range(1, PIERS + 1)]
    deck_red5 = acc5["deck"]["reduction_filtered"]
    lo, hi = PAPER["0.5g_pier_reduction"][:2]
    mets += [
        Metric("0.5 g: pier acceleration reduction (5 Hz filtered peak)", pier_red5, [lo, hi], "60–70 %",
               bool(all(lo - 0.05 <= x <= hi + 0.05 for x in pier_red5)), "", PAPER["0.5g_pier_reduction"][2],
               f"rigid frame (α', same filter): {rig_pier_red:.2f}; raw peaks "
               f"{fmt([acc5[f'pier{n}']['peak_g'] for n in range(1, PIERS + 1)], 3)} g include impact spikes",
               gate=False, explained=True),
        metric_abs("0.5 g: deck acceleration reduction (5 Hz filtered peak)", deck_red5,
                   PAPER["0.5g_deck_reduction"][0], 0.1, source=PAPER["0.5g_deck_reduction"][1], gate=False,
                   explained=True,
                   note=f"rigid frame (α', same filter): {rig_deck_red:.2f}; raw peak "
                   f"{acc5['deck']['peak_g']:.2f} g"),
        metric_rel("0.5 g: peak deck uplift during shaking", st["deck_uplift_max_m"],
                   PAPER["0.5g_deck_uplift_m"][0], 0.25, unit="m", source=PAPER["0.5g_deck_uplift_m"][1],
                   gate=False, explained=False,
                   note="the deck rises ≈ 2b'θ − 2h'θ²/2 with the piers' rocking; larger rocking, larger uplift "
                   "(004's rocking amplitude in this run is not printed, so the difference is not accounted for)"),
        metric_abs("0.5 g: deck slip on the piers, largest at the upright instants", st["deck_slip_max_m"],
                   PAPER["0.5g_deck_slide_m"][0], 0.03, unit="m", source=PAPER["0.5g_deck_slide_m"][1],
                   gate=False, explained=False, note="004: final value; our 0.5 g run does not end at rest"),
        metric_info("0.5 g: pier slip on the base, largest at the upright instants", st["pier_slip_max_m"],
                    list(PAPER["0.5g_pier_slide_m"][0]), unit="m", source=PAPER["0.5g_pier_slide_m"][1]),
        metric_info("0.5 g: peak base horizontal resultant", max(st["iface"][f"base{n}"]["H_kN"]
                                                                 for n in range(1, PIERS + 1)),
                    PAPER["0.5g_base_H_kN"][0], unit="kN", source=PAPER["0.5g_base_H_kN"][1],
                    note="raw, every 5 ms: impact spikes"),
        metric_info("0.5 g: base V ÷ static, range", [min(st["iface"][f"base{n}"]["V_min"] for n in range(1, 5)),
                                                      max(st["iface"][f"base{n}"]["V_max"] for n in range(1, 5))],
                    list(PAPER["0.5g_base_V"][:2]), source=PAPER["0.5g_base_V"][2]),
        metric_info("0.5 g: top V ÷ ¼ deck, range", [min(st["iface"][f"top{n}"]["V_min"] for n in range(1, 5)),
                                                     max(st["iface"][f"top{n}"]["V_max"] for n in range(1, 5))],
                    [0.0, PAPER["0.5g_top_V"][0]], source=PAPER["0.5g_top_V"][1]),
        metric_info("0.5 g: largest friction ratio (99th percentile), base / top",
                    [max(st["iface"][f"base{n}"]["friction_p99"] for n in range(1, 5)),
                     max(st["iface"][f"top{n}"]["friction_p99"] for n in range(1, 5))], f"μ = {p['mu']:g}",
                    note="the largest values (dashpot forces at impacts) reach "
                    f"{max(st['iface'][k]['friction_max'] for k in st['iface']):.2f}"),
        metric_info("0.5 g: phase spread between the piers", st["pier_spread_over_alpha"], None, unit="÷α",
                    source="004 §5.4: a slight phase shift, piers 1/4 and 2/3 accumulating oppositely",
                    note="largest difference between the piers' θ during shaking"),
    ]
    return mets
