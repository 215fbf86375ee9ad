"""What the Peña case derives from its runs: the pivot geometry, the swings, the rigid references (the exact
rolling block, Housner's block, the rigid block fitted to the DEM), the restitution per impact, the contact forces,
the energies and the friction the pivot needs."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from validation.cases.common import (
    find_swings,
    fit_restitution,
    peaks_for_restitution,
    restitution_from_energy,
    restitution_from_peaks,
    settling_time,
)
from validation.cases.pena.settings import PEAKS_COMPARED, Settings
from validation.data import load_reference
from validation.rocking.pivot import PivotGeometry, pivot_geometry


def analyse(sim: dict, cfg: Settings) -> SimpleNamespace:
    """Every quantity the metrics and the report use (attributes; angles in deg where named so, else rad)."""
    from validation.rocking import free_rocking
    from validation.rocking.closed_form import free_rocking_period, housner_restitution, slenderness
    from validation.rocking.motion_states import impact_friction_demand

    scene, main, impact, low = sim["scene"], sim["main"], sim["impact"], sim["low"]
    scene_rd, rounded = sim["scene_rd"], sim["rounded"]
    ref = load_reference("pena_block1")
    p = scene.params
    theta0 = math.radians(p["theta0_deg"])
    geom = pivot_geometry(scene.model)
    h = main.history
    sw = find_swings(h["t"], h["theta_deg"])
    sw_low = find_swings(low.history["t"], low.history["theta_deg"])
    geom_rd = pivot_geometry(scene_rd.model)
    sw_rd = find_swings(rounded.history["t"], rounded.history["theta_deg"])
    peaks_rd = np.abs(sw_rd.peaks)
    e_rd = restitution_from_peaks(peaks_rd, geom_rd.alpha)
    n_cmp = min(PEAKS_COMPARED, len(sw.peaks))
    peaks = np.abs(sw.peaks)

    # ---- rigid references
    alpha_nom = slenderness(p["width"], p["height"])
    e_housner = housner_restitution(alpha_nom)
    housner = free_rocking(p["width"], p["height"], theta0, cfg.t_end, dt=1e-3)
    e_fit = fit_restitution(peaks[:n_cmp], geom.alpha)
    w_eq, h_eq = geom.equivalent_rectangle()
    rigid = free_rocking(w_eq, h_eq, theta0, cfg.t_end, restitution=e_fit, dt=1e-3)
    rigid_peaks = peaks_for_restitution(p["theta0_deg"], geom.alpha, e_fit, n_cmp)
    housner_peaks = peaks_for_restitution(p["theta0_deg"], alpha_nom, e_housner, n_cmp)
    quarter_exact = geom.quarter_period(theta0)
    quarter_equiv = 0.25 * free_rocking_period(theta0, geom.alpha, geom.p, linear=False)

    # ---- per-impact quantities
    e_peaks = restitution_from_peaks(peaks, geom.alpha)
    e_energy = restitution_from_energy(h["t"], sw.peak_times, h["E_kinetic"], h["E_damping"] + h["E_friction"])
    paper_peaks = np.asarray(ref.value("peak_theta_deg"), float)
    e_paper = restitution_from_peaks(paper_peaks, geom.alpha)
    n_imp = max(n_cmp - 1, 0)
    half = np.diff(sw.impact_times)
    half_rigid = np.array([2.0 * geom.quarter_period(math.radians(a)) for a in peaks[1:1 + len(half)]])
    m_half = min(len(half), len(half_rigid), n_imp)
    half_err = np.abs(half[:m_half] / half_rigid[:m_half] - 1.0) if m_half else np.zeros(0)

    # ---- forces
    hi = impact.history
    win = hi["t"] > 0.5 * sw.impact_times[0] if len(sw.impact_times) else slice(None)
    spike = {k: float(np.max(hi[k][win])) for k in ("force_ratio", "force_ratio_left", "force_ratio_right")}
    sampling = []
    for every in (1, 10, 100, 1000):
        sub = slice(None, None, every)
        sampling.append([f"{every * scene.dt:g}"] + [float(np.max(hi[k][sub])) for k in spike])
    peak_rows = [int(np.argmin(np.abs(h["t"] - tp))) for tp in sw.peak_times[:n_cmp]]
    skip0 = 1 if sw.peak_times[0] == 0.0 else 0  # at t = 0 the contacts have not loaded yet
    force_at_peaks = np.array([h["force_ratio"][k] for k in peak_rows[skip0:]])
    force_rigid = np.array([geom.force_ratio_at_rest_peak(math.radians(a)) for a in peaks[skip0:n_cmp]])
    prof = main.profiles.get("width")
    columns = [_columns_carrying(prof[k, 1:]) for k in peak_rows[skip0:]] if prof is not None else []
    contacts_at_peaks = [int(h["base_contacts"][k]) for k in peak_rows[skip0:]]

    # ---- energy
    e_kin_first = float(np.max(h["E_kinetic"][h["t"] <= sw.impact_times[0] + 0.01])) if len(sw.impact_times) else 0.0
    release = geom.release_energy(theta0)
    settle = settling_time(h["t"], h["omega"])
    settle_low = settling_time(low.history["t"], low.history["omega"])
    final = {k: float(h[k][-1]) for k in ("E_body", "E_kinetic", "E_strain", "E_damping", "E_friction")}
    slide_low = float(low.history["block_ux"][-1])
    slide_main = float(h["block_ux"][-1])
    demand_release = _friction_demand_at_rest(geom, theta0)
    demand_impact = impact_friction_demand(p["width"], p["height"])
    quarter_housner = 0.25 * free_rocking_period(theta0, alpha_nom, scene.info["p_rad_s"], linear=False)
    e_dem_mean = float(np.mean(e_peaks[:n_imp])) if n_imp else math.nan
    e_paper_mean = float(np.mean(e_paper[:n_imp])) if n_imp else math.nan
    return SimpleNamespace(
        scene=scene, main=main, impact=impact, low=low, scene_rd=scene_rd, rounded=rounded, ref=ref,
        p=p, theta0=theta0, geom=geom, h=h, sw=sw, sw_low=sw_low, geom_rd=geom_rd, sw_rd=sw_rd, peaks_rd=peaks_rd,
        e_rd=e_rd, n_cmp=n_cmp, peaks=peaks, alpha_nom=alpha_nom, e_housner=e_housner, housner=housner, e_fit=e_fit,
        w_eq=w_eq, h_eq=h_eq, rigid=rigid, rigid_peaks=rigid_peaks, housner_peaks=housner_peaks,
        quarter_exact=quarter_exact, quarter_equiv=quarter_equiv, e_peaks=e_peaks, e_energy=e_energy,
        paper_peaks=paper_peaks, e_paper=e_paper, n_imp=n_imp, half=half, half_rigid=half_rigid, m_half=m_half,
        half_err=half_err, hi=hi, spike=spike, sampling=sampling, peak_rows=peak_rows, skip0=skip0,
        force_at_peaks=force_at_peaks, force_rigid=force_rigid, prof=prof, columns=columns,
        contacts_at_peaks=contacts_at_peaks, e_kin_first=e_kin_first, release=release, settle=settle,
        settle_low=settle_low, final=final, slide_low=slide_low, slide_main=slide_main, demand_release=demand_release,
        demand_impact=demand_impact, quarter_housner=quarter_housner, e_dem_mean=e_dem_mean, e_paper_mean=e_paper_mean)


def _friction_demand_at_rest(geom: PivotGeometry, theta: float) -> float:
    """|H|/V at the pivot of the rigid rolling block at rest at θ [rad] (release): the friction it needs
    there not to slip."""
    b, h, r, m = geom.half_width, geom.height, geom.edge_radius, geom.mass
    th = abs(theta)
    a = (r + b * math.sin(th) + h * math.cos(th)) ** 2 + (b * math.cos(th) - h * math.sin(th)) ** 2
    dz, dx = b * math.cos(th) - h * math.sin(th), r + b * math.sin(th) + h * math.cos(th)
    thdd = -m * geom.g * dz / (m * a + geom.inertia_g)
    return abs(dx * thdd) / (geom.g + dz * thdd)


def _columns_carrying(profile_row: np.ndarray, *, share: float = 0.05) -> int:
    """Columns across the width carrying more than `share` of the total force of a profile row."""
    tot = float(np.sum(np.abs(profile_row)))
    return int(np.count_nonzero(np.abs(profile_row) > share * tot)) if tot > 0 else 0
