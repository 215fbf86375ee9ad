"""What the pier–deck case derives from its runs: the rocking frame's parameters (Makris & Vassiliou 2013,
validation.rocking.frame) for the nominal piers and the DEM's (rolling on their edge spheres), each run's interface,
acceleration, rocking and sliding statistics, the statics of the 0.1 g run, and for the 0.5 g runs the restitution
fitted to their swings and the rigid frames under the same base motion."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from validation.cases.common import G
from validation.cases.pier_deck.settings import FILTER_HZ, NO_UPLIFT, PIERS, Settings
from validation.cases.rigid import (
    fit_swing_restitution,
    overturn_time,
    shaking_signal,
    solve_rigid,
    swing_predictions,
)
from validation.rocking.pivot import PivotGeometry, template_pivot_geometry


def analyse(sim: dict, cfg: Settings) -> SimpleNamespace:
    """Every quantity the metrics and the report use (attributes): the 0.1 g run's (:func:`_analyse_low`), then the
    0.5 g runs' (:func:`_analyse_high`; empty or None in the quick version)."""
    an = _analyse_low(sim["low"], cfg)
    _analyse_high(an, sim["high"], cfg)
    an.frame_sum = {k: {"alpha_deg": math.degrees(a), "p": pf, "e": e, "overturned": bool(rr.overturned),
                        "overturn_t": overturn_time(rr.t, rr.theta, a),
                        "max_over_alpha": (float(np.nanmax(np.abs(rr.theta))) / an.alpha) if not rr.overturned
                        else math.inf} for k, (a, pf, e, rr) in an.frames.items()}
    return an


def _analyse_low(low_run: tuple, cfg: Settings) -> SimpleNamespace:
    """The frame parameters, the statics after settling and the 0.1 g response (and 004's numbers beside it)."""
    from validation.rocking.closed_form import frequency_parameter
    from validation.rocking.frame import frame_frequency_parameter, frame_restitution

    scene, h, summ, status = low_run
    p, info = scene.params, scene.info
    alpha, gam = info["alpha_rad"], info["gamma"]
    geom = pier_geometry(scene)
    accel = shaking_signal(p, delay=p["settle"])
    t = h["t"]
    t_stop = min(p["settle"] + p["stop"], float(t[-1]))
    low = run_statistics(h, scene, t_stop)
    i_set = max(int(np.searchsorted(t, p["settle"])) - 1, 0)
    an = SimpleNamespace(
        scene=scene, h=h, t=t, summ=summ, status=status, p=p, info=info, alpha=alpha, gam=gam, geom=geom, low=low,
        static_v=max(abs(h[f"{s}{n}_V_ratio"][i_set] - 1) for s in ("base", "top") for n in range(1, PIERS + 1)),
        static_e=max(abs(h[f"{s}{n}_ecc"][i_set]) for s in ("base", "top") for n in range(1, PIERS + 1)),
        input_err=float(np.max(np.abs(h["base_acc"] - accel(t)))) / G, mom=moment_balance(h, scene, t_stop),
        e_frame_nom=frame_restitution(alpha, gam),
        p_frame_nom=frame_frequency_parameter(p["pier_width"], p["pier_height"], gam, g=G),
        p_pier=frequency_parameter(p["pier_width"], p["pier_height"], g=G), p_eff=frame_p_effective(geom, gam),
        th_max=max(low["theta_max_over_alpha"]), tan_u=math.tan(geom.uplift_alpha))
    # the paper at 0.1 g
    acc_l = an.acc_l = low["acc"]
    pier_pk = max(acc_l[f"pier{n}"]["peak_g"] for n in range(1, PIERS + 1))
    an.pier_red = 1 - pier_pk / low["base_acc_peak_g"]
    an.deck_red = 1 - acc_l["deck"]["peak_g"] / low["base_acc_peak_g"]
    ifl = an.ifl = low["iface"]
    an.base_h = max(ifl[f"base{n}"]["H_kN"] for n in range(1, PIERS + 1))
    an.top_h = max(ifl[f"top{n}"]["H_kN"] for n in range(1, PIERS + 1))
    an.top_v = (min(ifl[f"top{n}"]["V_min"] for n in range(1, PIERS + 1)),
                max(ifl[f"top{n}"]["V_max"] for n in range(1, PIERS + 1)))
    an.base_ecc = max(ifl[f"base{n}"]["ecc_max"] for n in range(1, PIERS + 1))
    an.top_ecc = max(ifl[f"top{n}"]["ecc_max"] for n in range(1, PIERS + 1))
    an.fric = max(ifl[k]["friction_max"] for k in ifl)
    m_pier, m_deck = info["pier_mass_kg"], info["deck_mass_kg"]
    an.newton_base = (m_pier + m_deck / 4) * low["base_acc_peak_g"] * G / 1e3
    an.newton_top = m_deck / 4 * low["base_acc_peak_g"] * G / 1e3
    amp = 1 - an.deck_red
    an.f_sway = f"{1.0 / math.sqrt(1 - 1 / amp):.1f}" if amp > 1 else "—"
    an.moment_need = low["base_acc_peak_g"] * (m_pier * p["pier_height"] / 2 + m_deck / 4 * p["pier_height"]) / (
        (m_pier + m_deck / 4) * p["pier_width"])
    return an


def _analyse_high(an: SimpleNamespace, high: list, cfg: Settings) -> None:
    """Per 0.5 g run (an.high_runs): overturning, statistics up to it, balance error, and with cfg.fit_swings the
    frame restitution fitted to its swings and the swing predictions; for the first (main) run, the rigid frames
    (an.frames: nominal, effective, and fitted to each run), the onset and the rigid frame's acceleration
    reduction."""
    alpha, geom = an.alpha, an.geom
    an.high_runs, an.frames, an.main, an.acc_h, an.rig_up, an.t_on = [], {}, None, None, [], None
    an.rig_pier_red = an.rig_deck_red = None
    for spec, sc, hh, sm, st in high:
        tt = hh["t"]
        th_mean = np.mean([np.radians(hh[f"theta{n}_deg"]) for n in range(1, PIERS + 1)], axis=0)
        g_run = pier_geometry(sc)
        ot = overturn_time(tt, th_mean, g_run.alpha)
        t_stop = min(sc.params["settle"] + sc.params["stop"], float(tt[-1]) if ot is None else ot - 0.5)
        stats = run_statistics(hh, sc, t_stop)
        pre = tt <= (t_stop if ot is not None else tt[-1])
        err = float(np.max(np.abs(hh["energy_error"][pre]))) if pre.any() else math.nan
        acc_run = shaking_signal(sc.params, delay=sc.params["settle"])
        e_fit = None
        swings = []
        if cfg.fit_swings:
            th_deg, om = np.degrees(th_mean), np.mean([hh[f"omega{n}"] for n in range(1, PIERS + 1)], axis=0)
            t_lim = None if ot is None else ot - 0.5
            p_run = frame_p_effective(g_run, sc.info["gamma"])
            e_fit = fit_swing_restitution(tt, th_deg, om, alpha, g_run.alpha, p_run, acc_run, t_max=t_lim)
            swings = swing_predictions(tt, th_deg, om, alpha, g_run.alpha, p_run, e_fit, acc_run, t_max=t_lim)
        an.high_runs.append({"spec": spec, "scene": sc, "h": hh, "summary": sm, "status": st, "overturn_t": ot,
                             "stats": stats, "energy_error": err, "geom": g_run, "e_fit": e_fit, "swings": swings,
                             "theta_mean": th_mean,
                             "max_over_alpha": math.inf if ot is not None else float(np.max(np.abs(th_mean))) / alpha})
    if not an.high_runs:
        return
    main = an.main = an.high_runs[0]
    hh, sc = main["h"], main["scene"]
    acc_h = an.acc_h = shaking_signal(sc.params, delay=sc.params["settle"])
    t_end_ref = max(r["spec"].t_end for r in an.high_runs)
    fits = {f"effective, e fitted to '{r['spec'].label}'": (r["geom"], r["e_fit"]) for r in an.high_runs
            if r["e_fit"] is not None}
    an.frames = frame_references(sc, geom, acc_h, t_end_ref, fits)
    st = main["stats"]
    an.rig_up = an.frames["effective, frame e(α')"][3].uplift_times
    i_on = np.flatnonzero(np.abs(np.degrees(main["theta_mean"])) > 0.1)
    an.t_on = float(hh["t"][i_on[0]]) if len(i_on) else None
    # the rigid frame's own acceleration reduction (same filter, α' and frame e), for 004's statements
    ts = np.arange(sc.params["settle"], st["t_stop"], 0.005)
    fr = an.frames["effective, frame e(α')"][3]
    thr = np.interp(ts, fr.t, np.nan_to_num(fr.theta))
    ag, ad = frame_kinematics(ts, thr, acc_h, geom.half_width, geom.height + geom.edge_radius)
    an.rig_pier_red = 1 - float(np.max(np.abs(lowpass(ts, ag)))) / float(np.max(np.abs(acc_h(ts))))
    an.rig_deck_red = 1 - float(np.max(np.abs(lowpass(ts, ad)))) / float(np.max(np.abs(acc_h(ts))))


# ------------------------------------------------------------------------------------------ frame tools
def pier_geometry(scene) -> PivotGeometry:
    """PivotGeometry of pier 1 of a pier_deck scene (bottom edge spheres, solid mass and inertia)."""
    spec = scene.model.clumps[0]
    return template_pivot_geometry(spec.template, spec.mass_props.center, float(scene.model.mass[0]),
                                   float(scene.model.inertia[0][1, 1]))


def frame_p_effective(geom: PivotGeometry, gamma: float) -> float:
    """p̄' [rad/s] of the frame of DEM piers: columns pivoting on their edge spheres (I_O, R' of
    `geom`) under a cap that moves with their tops (2R' from the pivot): p̄'² = g R'(1 + 2γ)/(I_O/m + 4γR'²),
    which is Makris & Vassiliou's √((1+2γ)/(1+3γ)) p for a sharp rectangle (I_O = 4/3 m R²)."""
    m, big_r = geom.mass, geom.radius
    return math.sqrt(geom.g * big_r * (1 + 2 * gamma) / (geom.inertia_o / m + 4 * gamma * big_r**2))


def frame_kinematics(t: np.ndarray, theta: np.ndarray, accel, b: float, h: float) -> tuple[np.ndarray, np.ndarray]:
    """Absolute horizontal accelerations [m/s²] of a pier's centre of mass and of the cap (deck) of the rigid
    frame with column half-width b and centre height h [m], from θ(t) [rad]: relative to the base the centre
    moves by sgn θ · b(1 − cos θ) + h sin θ and the column top by sgn θ · b(1 − cos θ) + 2h sin θ (pivot on
    the landing edge, cap on the opposite top edge); differentiated twice on the output grid."""
    th = np.nan_to_num(theta)
    s = np.sign(th) * b * (1 - np.cos(th))
    x_g, x_top = s + h * np.sin(th), s + 2 * h * np.sin(th)
    base = accel(t)
    return base + np.gradient(np.gradient(x_g, t), t), base + np.gradient(np.gradient(x_top, t), t)


def lowpass(t: np.ndarray, x: np.ndarray, fc: float = FILTER_HZ) -> np.ndarray:
    """x low-pass filtered at fc [Hz] (4th-order Butterworth, zero phase)."""
    from scipy.signal import butter, filtfilt

    fs = 1.0 / float(np.median(np.diff(t)))
    b, a = butter(4, fc / (0.5 * fs))
    return filtfilt(b, a, np.nan_to_num(x))


def run_statistics(h: dict, scene, t_stop: float) -> dict:
    """Interface, acceleration, rocking, uplift and sliding statistics of a run over the shaking window
    [settle, t_stop] [s] (t_stop: the end of the shaking or 0.5 s before an overturning)."""
    p, info = scene.params, scene.info
    t = h["t"]
    win = (t >= p["settle"]) & (t <= t_stop)
    hold = (t >= p["settle"] + p["ramp_end"]) & (t <= min(p["settle"] + p["hold_end"], t_stop))
    alpha = info["alpha_rad"]
    out: dict = {"t_stop": t_stop}
    base_pk = float(np.max(np.abs(h["base_acc"][win])))
    out["base_acc_peak_g"] = base_pk / G
    bodies = [f"pier{n}" for n in range(1, PIERS + 1)] + ["deck"]
    acc = {}
    for b in bodies:
        a = h[f"{b}_ax"]
        af = lowpass(t, a)
        acc[b] = {"peak_g": float(np.max(np.abs(a[win]))) / G, "peak_filtered_g": float(np.max(np.abs(af[win]))) / G,
                  "rms_ratio": float(np.sqrt(np.mean(a[hold] ** 2) / np.mean(h["base_acc"][hold] ** 2)))
                  if hold.any() else math.nan}
        acc[b]["reduction_filtered"] = 1.0 - acc[b]["peak_filtered_g"] * G / base_pk
        acc[b]["vertical_peak_g"] = float(np.max(np.abs(h[f"{b}_az"][win]))) / G
    out["acc"] = acc
    iface = {}
    for n in range(1, PIERS + 1):
        for side in ("base", "top"):
            k = f"{side}{n}"
            iface[k] = {"H_kN": float(np.max(np.abs(h[f"{k}_H"][win]))) / 1e3,
                        "V_min": float(np.min(h[f"{k}_V_ratio"][win])), "V_max": float(np.max(h[f"{k}_V_ratio"][win])),
                        "ecc_max": float(np.max(np.abs(h[f"{k}_ecc"][win]))),
                        "friction_max": float(np.max(h[f"{k}_friction"][win])),
                        "friction_p99": float(np.percentile(h[f"{k}_friction"][win], 99)),
                        "contacts_min": int(np.min(h[f"{k}_contacts"][win])),
                        "contacts_static": int(h[f"{k}_contacts"][max(int(np.searchsorted(t, p["settle"])) - 1, 0)])}
    out["iface"] = iface
    th = np.array([np.radians(h[f"theta{n}_deg"]) for n in range(1, PIERS + 1)])
    om = np.array([h[f"omega{n}"] for n in range(1, PIERS + 1)])
    out["theta_max_over_alpha"] = [float(np.max(np.abs(x[win]))) / alpha for x in th]
    out["omega_max"] = [float(np.max(np.abs(x[win]))) for x in om]
    out["pier_spread_over_alpha"] = float(np.max(np.ptp(th[:, win], axis=0))) / alpha
    i_set = max(int(np.searchsorted(t, p["settle"])) - 1, 0)
    out["deck_uplift_max_m"] = float(np.max(h["deck_uz"][win]) - h["deck_uz"][i_set])
    # sliding: positions at the instants the piers stand upright (θ crossing 0), when rolling adds nothing
    mean_th = th.mean(axis=0)
    cross = np.flatnonzero((np.sign(mean_th[:-1]) != np.sign(mean_th[1:])) & win[:-1])
    deck_slip = h["deck_ux"] - np.mean([h[f"pier{n}_ux"] for n in range(1, PIERS + 1)], axis=0)
    pier_slip = np.array([h[f"pier{n}_ux"] - h["base_disp"] for n in range(1, PIERS + 1)])
    at = cross if len(cross) else np.array([len(t) - 1])
    out["deck_slip_max_m"] = float(np.max(np.abs(deck_slip[at])))
    out["deck_slip_last_m"] = float(deck_slip[at[-1]])
    out["pier_slip_max_m"] = [float(np.max(np.abs(x[at]))) for x in pier_slip]
    out["pier_slip_last_m"] = [float(x[at[-1]]) for x in pier_slip]
    out["slip_sampled_at"] = "upright instants" if len(cross) else "end"
    end_still = float(np.max(np.abs(th[:, -1]))) / alpha < NO_UPLIFT
    out["deck_slip_end_m"] = float(deck_slip[-1]) if end_still else None
    out["pier_slip_end_m"] = [float(x[-1]) for x in pier_slip] if end_still else None
    return out


def moment_balance(h: dict, scene, t_stop: float) -> float:
    """Largest residual of I_G θ̈ = Σ interface moments about each pier's centre of mass, ÷ the largest
    h (|H_base| + |H_top|) (y components; the forces on the pier at the top are minus the deck's)."""
    p = scene.params
    t = h["t"]
    win = (t >= p["settle"]) & (t <= t_stop)
    hh, w = p["pier_height"] / 2, p["pier_width"]
    ig = float(scene.model.inertia[0][1, 1])
    worst = 0.0
    for n in range(1, PIERS + 1):
        hb, ht, vb, vt = h[f"base{n}_H"], h[f"top{n}_H"], h[f"base{n}_V"], h[f"top{n}_V"]
        # base force (H_b, V_b) at (e_b W, −h); force on the pier at the top (−H_t, −V_t) at (e_t W, +h)
        m = -hh * (hb + ht) - h[f"base{n}_ecc"] * w * vb + h[f"top{n}_ecc"] * w * vt
        res = m - ig * np.gradient(h[f"omega{n}"], t)
        worst = max(worst, float(np.max(np.abs(res[win])) / np.max(np.abs(hh * (hb + ht))[win])))
    return worst


def frame_references(scene, geom: PivotGeometry, accel, t_end: float, fitted: dict) -> dict:
    """Rigid-frame solutions: label → (α, p̄, e, result): nominal and effective (`geom`) with the frame
    restitution, and fitted: label → (PivotGeometry of that run's piers, e) for the restitutions fitted to DEM
    runs (each with its own packing's α' and p̄')."""
    from validation.rocking.frame import frame_frequency_parameter, frame_restitution

    p, info = scene.params, scene.info
    gam, alpha = info["gamma"], info["alpha_rad"]
    p_nom = frame_frequency_parameter(p["pier_width"], p["pier_height"], gam, g=G)
    p_eff = frame_p_effective(geom, gam)
    refs = {"nominal, frame e": (alpha, p_nom, frame_restitution(alpha, gam)),
            "effective, frame e(α')": (geom.alpha, p_eff, frame_restitution(geom.alpha, gam))}
    refs |= {lab: (g.alpha, frame_p_effective(g, gam), e) for lab, (g, e) in fitted.items()}
    return {k: (a, pf, e, solve_rigid(a, pf, e, accel, t_end)) for k, (a, pf, e) in refs.items()}
