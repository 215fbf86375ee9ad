"""The Peña case's comparisons. Gating: the DEM against the exact rolling block (first impact, half-periods, the
energy released, the force at the peaks, the equivalent rectangle), Housner's block (first impact), the fitted rigid
block's peaks, the ledger. Reported: 004's numbers (Figs. 3–9, Tables 1–2)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from validation.cases.common import Metric, fmt, metric_abs, metric_info, metric_max, metric_rel
from validation.cases.pena.settings import (
    TOL_E_LEDGER,
    TOL_ENERGY_BALANCE,
    TOL_EQUIVALENT,
    TOL_FIRST_IMPACT,
    TOL_FIT_PEAKS,
    TOL_HALF_PERIOD,
    TOL_HOUSNER_IMPACT,
    TOL_PAPER_E,
    TOL_PAPER_PEAK,
    TOL_PEAK_FORCE,
    TOL_RELEASE_ENERGY,
    Settings,
)


def metrics(an: SimpleNamespace, cfg: Settings) -> list[Metric]:
    """The exact mechanics (gating), then the paper's numbers (reported)."""
    return _metrics_exact(an) + _metrics_paper(an, cfg)


def _metrics_exact(an: SimpleNamespace) -> list[Metric]:
    """The DEM against exact rigid-block mechanics and the ledger (gating)."""
    sw, quarter_exact, p, quarter_housner, sw_rd = an.sw, an.quarter_exact, an.p, an.quarter_housner, an.sw_rd
    half_err, m_half, e_kin_first, release, main = an.half_err, an.m_half, an.e_kin_first, an.release, an.main
    force_at_peaks, force_rigid, n_cmp, e_fit, peaks = an.force_at_peaks, an.force_rigid, an.n_cmp, an.e_fit, an.peaks
    rigid_peaks, e_energy, n_imp, e_peaks = an.rigid_peaks, an.e_energy, an.n_imp, an.e_peaks
    quarter_equiv, geom, w_eq, h_eq = an.quarter_equiv, an.geom, an.w_eq, an.h_eq
    src_exact = "rigid block rolling on its r1 edge spheres (exact)"
    return [
        metric_rel("time to first impact", float(sw.impact_times[0]), quarter_exact, TOL_FIRST_IMPACT, unit="s",
                   source=src_exact, note="quarter period from rest at θ0"),
        (metric_rel if p["edges"] == "true" else metric_info)(
            "first impact vs Housner's sharp block", float(sw.impact_times[0]), quarter_housner,
            *((TOL_HOUSNER_IMPACT,) if p["edges"] == "true" else ()), unit="s",
            source="Housner 1963, sharp 0.25 × 1.0 m block",
            note=f"{p['edges']} edges; with rounded edges {float(sw_rd.impact_times[0]):.5f} s "
            f"({float(sw_rd.impact_times[0]) / quarter_housner - 1:+.1%})"),
        metric_max("half-periods, largest deviation", float(np.max(half_err)) if len(half_err) else math.nan,
                   TOL_HALF_PERIOD, source=src_exact,
                   note=f"swings 2–{m_half + 1}, each against the rigid half-period at its own DEM amplitude"),
        metric_rel("first kinetic-energy peak", e_kin_first, release, TOL_RELEASE_ENERGY, unit="J",
                   source="m g R' (cos α' − cos(α' − θ0))", note="potential energy released before the impact"),
        metric_max("energy balance, largest error", float(main.summary["max_energy_error"]), TOL_ENERGY_BALANCE,
                   source="energy ledger, 004 §4.2 (with boundary work)",
                   note="E_b + E_w = E_k + E_s + E_d + E_f, relative"),
        metric_max("force ÷ weight at the peaks, largest deviation",
                   float(np.max(np.abs(force_at_peaks - force_rigid))) if len(force_rigid) else math.nan,
                   TOL_PEAK_FORCE, source=src_exact,
                   note=f"peaks 2–{n_cmp}: DEM {fmt(force_at_peaks, 3)}; rigid {fmt(force_rigid, 3)}"),
        metric_max(f"peaks vs rigid block with fitted e = {e_fit:.4f}, largest deviation",
                   float(np.max(np.abs(peaks[:n_cmp] - rigid_peaks))), TOL_FIT_PEAKS, unit="deg",
                   source="validation.rocking, α' and p of the edge spheres",
                   note="constant e cannot follow the DEM's amplitude-dependent restitution exactly"),
        metric_max("restitution: ledger vs peaks, largest deviation",
                   float(np.max(np.abs(e_energy[:n_imp] - e_peaks[:n_imp]))) if n_imp else math.nan, TOL_E_LEDGER,
                   source="energy ledger (E_d + E_f per impact)",
                   note="the energy the peaks lose is the energy the contacts dissipate at the impacts"),
        metric_rel("equivalent rectangle: quarter period", quarter_equiv, quarter_exact, TOL_EQUIVALENT, unit="s",
                   source=src_exact, note=f"Housner's equation with α' = {math.degrees(geom.alpha):.3f}°, "
                   f"p = {geom.p:.4f} rad/s ({w_eq:.4f} × {h_eq:.4f} m rectangle)"),
    ]


def _metrics_paper(an: SimpleNamespace, cfg: Settings) -> list[Metric]:
    """The DEM against 004's printed numbers (reported, no gate; each difference explained in its note)."""
    paper_peaks, p, n_cmp, peaks, n_imp, e_dem_mean = an.paper_peaks, an.p, an.n_cmp, an.peaks, an.n_imp, an.e_dem_mean
    e_paper_mean, alpha_nom, e_housner, h, ref = an.e_paper_mean, an.alpha_nom, an.e_housner, an.h, an.ref
    release, spike, force_at_peaks, force_rigid = an.release, an.spike, an.force_at_peaks, an.force_rigid
    columns, contacts_at_peaks, final, low, settle = an.columns, an.contacts_at_peaks, an.final, an.low, an.settle
    scene, e_rd, geom_rd, peaks_rd = an.scene, an.e_rd, an.geom_rd, an.peaks_rd
    mets: list[Metric] = []
    figs7 = "004 Fig. 7 caption"
    for k in range(1, min(len(paper_peaks), n_cmp)):
        why = ("DEM decays faster: its dashpots dissipate more per impact (see restitution)" if
               abs(peaks[k] - paper_peaks[k]) > TOL_PAPER_PEAK else "")
        mets.append(metric_abs(f"peak {k + 1} (Fig. 7{'abcdef'[k]})", float(peaks[k]), float(paper_peaks[k]),
                               TOL_PAPER_PEAK, unit="deg", source=figs7 + ", paper's DEM", note=why, gate=False,
                               explained=True))
    mets += [
        metric_abs(f"mean effective restitution, impacts 1–{n_imp}", e_dem_mean, e_paper_mean, TOL_PAPER_E,
                   source="implied by 004 Fig. 7's peaks", gate=False, explained=True,
                   note=f"Housner (α = {math.degrees(alpha_nom):.2f}°): {e_housner:.4f}; the paper's block loses less "
                   "than Housner's plastic impact, the DEM more"),
        metric_abs("kinetic-energy peak", float(np.max(h["E_kinetic"])), ref.value("kinetic_energy_peak"),
                   0.05 * ref.value("kinetic_energy_peak"), unit="J", source=ref["kinetic_energy_peak"].describe(),
                   gate=False, explained=True,
                   note=f"'approximately 27 J', read as ±5 %; the DEM's peak is the energy its block, pivoting on "
                   f"its r1 = {p['r_base'] * 1e3:g} mm rounded edges, releases ({release:.2f} J, gated above)"),
        metric_rel("force ratio, first impact", spike["force_ratio"], ref.value("force_ratio_first_impact"), 0.3,
                   source=ref["force_ratio_first_impact"].describe(), gate=False, explained=True,
                   note="a spike ~0.1 ms wide recorded every step; its height depends on the edge packing, the "
                   "dashpots and the record interval (table below)"),
        metric_rel("force ratio, left corner, first spike", spike["force_ratio_left"],
                   ref.value("force_ratio_left_first"), 0.3, source=ref["force_ratio_left_first"].describe(),
                   gate=False, explained=True,
                   note="corner = outer 2 cm of the bottom layer; 004 does not define its corner"),
        metric_rel("force ratio, right corner, first spike", spike["force_ratio_right"],
                   ref.value("force_ratio_right_first"), 0.3, source=ref["force_ratio_right_first"].describe(),
                   gate=False, explained=True, note="the landing corner carries most of the ~150× total, so ≈3 "
                   "cannot be a per-step peak of a corner zone"),
        metric_abs("force ÷ weight at the peaks, largest deviation from 1",
                   float(np.max(np.abs(force_at_peaks - 1.0))) if len(force_at_peaks) else math.nan, 0.0, 0.05,
                   source=ref["peak_force_sum"].describe(), gate=False, explained=True,
                   note="the rigid block at a peak is not in static equilibrium: it accelerates back, so "
                   f"the force is {fmt(np.min(force_rigid) if len(force_rigid) else math.nan, 3)}–"
                   f"{fmt(np.max(force_rigid) if len(force_rigid) else math.nan, 3)} of the weight"),
        Metric("columns carrying the corner force at the peaks", columns, "2–3", "within 2–3",
               bool(columns) and all(2 <= c <= 3 for c in columns), "", ref["peak_contact_points"].describe(),
               "columns of the bottom layer with > 5 % of the total force; our lattice has one column on each edge "
               f"({fmt(contacts_at_peaks)} sphere contacts along the thickness at the peaks) and a tilted block "
               "rests on it alone", gate=False, explained=True),
        metric_abs("friction energy at the end", final["E_friction"], ref.value("friction_energy"), 1.0, unit="J",
                   source=ref["friction_energy"].describe(), gate=False, explained=True,
                   note=f"μ = 0.7: the pivot does not slide; μ = 0.11 gives {low.history['E_friction'][-1]:.2f} J "
                   "(section below)"),
        Metric("settling time", settle, ref.value("settling_time"), "±1 s",
               settle is not None and abs(settle - ref.value("settling_time")) <= 1.0, "s",
               ref["settling_time"].describe(), "last time |θ̇| > 1e-3 rad/s; the DEM stops earlier because "
               "it decays faster", gate=False, explained=True),
        metric_abs("block mass", float(scene.model.mass[0]), ref.value("block_mass"), 1e-9, unit="kg",
                   source=ref["block_mass"].describe(), note="solid block (scene default)"),
        metric_info("block inertia I_G about the rocking axis", float(scene.model.inertia[0][1, 1]),
                    ref.value("block_inertia"), unit="kg m^2", source=ref["block_inertia"].describe(),
                    note=ref["block_inertia"].note),
        metric_info("balls", int(scene.model.ball_count), ref.value("ball_count"), source=ref["ball_count"].describe(),
                    note="004 Table 2's packing rules on our lattice" if not cfg.quick else "quick: r1 = 10 mm"),
        metric_info(f"rounded edges: mean effective restitution, impacts 1–{n_imp}",
                    float(np.mean(e_rd[:n_imp])) if len(e_rd) >= n_imp > 0 else math.nan, e_paper_mean,
                    source="implied by 004 Fig. 7's peaks",
                    note=f"edges=rounded (α' = {math.degrees(geom_rd.alpha):.2f}°): peaks {fmt(peaks_rd[:n_cmp], 3)}°"),
    ]
    return mets
