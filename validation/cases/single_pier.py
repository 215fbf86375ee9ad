"""Single rocking pier at 0.5 g (Itiola & El Shamy 2024, §5.1, Fig. 12): the DEM pier against the rigid block under the
same base acceleration (Itiola & El Shamy 2024, Eq. 42, validation.rocking.ramped_sine).

Runs (scene ``single_pier``, Itiola & El Shamy 2024, Table 3: 1.6 × 9.6 × 5 m, β = 0.015, r1 = 80 mm):
- shaken at 0.5 g with Δt = 1e-4 s (the scene's default) and, in the full version, 5e-5, 2.5e-5 and
  1.25e-5 s: a convergence series that turned out to be a bifurcation study;
- free rocking of the same pier on a fixed base, released from rest at ½ α', which measures the DEM pier's
  restitution (constant, common.fit_restitution) and checks its swing against the exact rolling block.

Rigid references (validation.rocking.solver.solve with a RockingBlock):
- nominal: the sharp-cornered 1.6 × 9.6 m block, α = 9.46°, p = 1.23 rad/s, Housner's e = 1 − 1.5 sin²α
  (Itiola & El Shamy 2024, Fig. 12's analytical curve, Zhang & Makris [46]);
- effective: the DEM pier's α' = atan(b'/h') and p, rolling on its edge spheres (common.PivotGeometry; with
  the builder's default true edges b' = 0.8 m, h' = 4.72 m, α' = 1.017 α, uplift at g tan α; with
  ``edges=rounded`` b' = 0.72 m, α' = 0.917 α), with Housner's e(α') and with the restitution measured on the
  DEM pier.

What can be compared. 0.5 g is three times g tan α, and a pier this size under 10 s of 1 Hz shaking sits on
the overturning boundary: the rigid block's largest excursion jumps between ≈ 0.3 α and overturning as e
changes by 0.005 (figure 3), and the DEM's between 0.82 α and overturning as Δt changes. Whole trajectories
therefore cannot be compared beyond the first few swings. What is compared instead: the rocking onset
(time and direction, against g tan α'), the convergence in Δt before the large excursions, and swing by swing
the rigid block's prediction of the DEM's next peak when started from the DEM's own state at a peak: this
tests the mechanics (rolling on the edge spheres, impact restitution) without the chaos of the whole history.
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
    PivotGeometry,
    Timer,
    find_swings,
    fit_restitution,
    fmt,
    md_table,
    metric_abs,
    metric_info,
    metric_max,
    metric_rel,
    pivot_geometry,
    pyplot,
    restitution_from_peaks,
    save_figure,
)

NAME = "single_pier"
TITLE = "Single pier at 0.5 g: rocking vs the rigid block (004 §5.1, Fig. 12)"

ONSET_DEG = 0.1
"""|θ| [deg] that marks the rocking onset (≈ 0.01 α). Before it pivots, the DEM pier tilts elastically on its
Hertz contacts by up to 0.076° (measured at 0.139 g, when only three of its fourteen columns of base spheres
still touch); the rigid block is at rest until g tan α'."""

TOL_ONSET = 0.25
"""Rocking onset, DEM vs rigid [s]: a quarter of the 1 Hz period, i.e. the same half-cycle of the base motion
(as the uplift case); a different half-cycle would be ≥ 0.5 s off. The DEM's onset is its first |θ| > 0.1°,
the rigid block's the instant it leaves rest. With rounded edges (before issue 15) the compliant pier, tilted
elastically by 0.07°, crossed 0.1° a few hundredths of a second before the rigid block left rest; with true
edges it crosses 0.1° 0.2 s after (measured 1.88 s against 1.68 s at Δt = 1e-4 s), in the same half-cycle,
while the rigid block's first lift in that half-cycle stays below 0.1° (it first exceeds 0.1° at 2.18 s)."""

TOL_FREE_IMPACT = 2e-3
"""Free rocking: time to the first impact vs the exact rolling block (relative): contact compliance and
the 1 ms record (0.1 % of the 1.1 s quarter period)."""

TOL_SWING = 0.03
"""One swing ahead [÷ α]: the rigid block started at a DEM peak, with the DEM's restitution, predicts the
DEM's next peak to within this. The restitution is measured in free rocking (constant to 1e-4 over
0.4–0.8 α'); swings that reach 0.8 α, near the tipping angle α', amplify any difference in the departing
state."""

TOL_DT = 0.01
"""Convergence in Δt before the large excursions [÷ α]: largest |θ| difference over t ≤ T_CONVERGED between
the two smallest steps (measured 1e-3)."""

T_CONVERGED = 9.0
"""End of the window [s] in which the Δt series agree (the runs separate at the 9.8 s excursion)."""

TOL_ENERGY = 1e-3
"""Largest relative energy-balance error (Itiola & El Shamy 2024, §4.2)."""

REST_SWING = 0.05
"""Peaks below this [÷ α] are not used as starting points of one-swing predictions (elastic wobble)."""


@dataclass(frozen=True)
class Settings:
    """dts: time steps of the shaken runs [s] (the first is the scene default, the reference run); t_end
    [s]; free_theta0: release angle of the free-rocking run [÷ α']; free_t_end [s]; sweep: restitutions of
    the rigid overturning sweep; fit_swings: fit e to the DEM's swings (besides free rocking)."""

    dts: tuple[float, ...]
    t_end: float
    free_theta0: float
    free_t_end: float
    sweep: tuple[float, ...]
    fit_swings: bool


FULL = Settings((1e-4, 5e-5, 2.5e-5, 1.25e-5), 20.0, 0.5, 8.0, tuple(np.round(np.arange(0.90, 0.9951, 0.01), 3)),
                True)
"""Itiola & El Shamy 2024, Fig. 12's 20 s; the Δt series."""
QUICK = Settings((1e-4,), 8.0, 0.5, 3.5, (), False)


# ------------------------------------------------------------------------------------------ shared tools
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


def shaking_signal(p: dict, *, delay: float = 0.0):
    """Itiola & El Shamy 2024, Eq. 42 (validation.rocking.ramped_sine) with a scene's parameters, starting after `delay`
    [s]: a function t [s] ↦ ü_g [m/s²]."""
    from validation.rocking import ramped_sine

    sig = ramped_sine(b=p["pga_g"], frequency=p["frequency"], ramp_end=p["ramp_end"], plateau_end=p["hold_end"],
                      stop=p["stop"], g=G)

    def accel(t):
        tt = np.asarray(t, float) - delay
        return np.where(tt >= 0.0, sig.acceleration(np.maximum(tt, 0.0)), 0.0)

    return accel


def solve_rigid(alpha: float, p: float, e: float, accel, t_end: float, *, t0: float = 0.0, theta0: float = 0.0,
                omega0: float = 0.0, dt: float = 1e-3):
    """The rigid block (α [rad], p [rad/s], restitution e) under `accel` from time t0 [s] (state θ0 [rad],
    ω0 [rad/s]) to t_end [s]; result times are shifted to absolute time."""
    from validation.rocking.block import RockingBlock
    from validation.rocking.solver import solve

    res = solve(RockingBlock(alpha, p, e, G), lambda s: accel(np.asarray(s) + t0), t_end - t0, dt=dt,
                theta0=theta0, omega0=omega0)
    res.t = res.t + t0
    res.impact_times = [x + t0 for x in res.impact_times]
    res.uplift_times = [x + t0 for x in res.uplift_times]
    if res.overturn_time is not None:
        res.overturn_time += t0
    return res


def overturn_time(t: np.ndarray, theta: np.ndarray, alpha_tip: float) -> float | None:
    """First time [s] after which |θ| [rad] stays beyond the tipping angle `alpha_tip` [rad] (or NaN: fallen)
    to the end of the record; None if the block is back inside at the end. Beyond the tipping angle a
    free block falls; under shaking the base could still bring it back, so only 'stays beyond' counts."""
    out = ~(np.abs(np.nan_to_num(theta, nan=np.inf)) <= alpha_tip)
    if not out[-1]:
        return None
    back = np.flatnonzero(~out)
    return float(t[back[-1] + 1]) if len(back) else float(t[0])


def first_excursion(t: np.ndarray, theta_deg: np.ndarray, threshold_deg: float) -> tuple[float | None, float]:
    """Time [s] |θ| first exceeds `threshold_deg` and the sign of θ then (0 if never)."""
    i = np.flatnonzero(np.abs(np.nan_to_num(theta_deg)) > threshold_deg)
    return (float(t[i[0]]), float(np.sign(theta_deg[i[0]]))) if len(i) else (None, 0.0)


def first_exceedance(accel, threshold: float, t_end: float, *, dt: float = 1e-4) -> float | None:
    """First time [s] |ü_g| exceeds `threshold` [m/s²] (Housner's uplift from rest)."""
    t = np.arange(0.0, t_end, dt)
    i = np.flatnonzero(np.abs(accel(t)) > threshold)
    return float(t[i[0]]) if len(i) else None


def swing_predictions(t: np.ndarray, theta_deg: np.ndarray, omega: np.ndarray, alpha_ref: float, alpha: float,
                      p: float, e: float, accel, *, t_max: float | None = None) -> list[dict]:
    """One swing ahead: from each DEM peak (|θ| ≥ REST_SWING α_ref) start the rigid block (α, p, e) with the
    DEM's θ and θ̇ there, and compare its next peak with the DEM's. Each entry: t0, theta0, dem_next,
    dem_next_t, rigid_next, rigid_next_t (angles ÷ α_ref), impacts (of the rigid swing), rest (the rigid
    block came to rest on the way: a chattering landing)."""
    sw = find_swings(t, theta_deg, min_amplitude_deg=0.05)
    out = []
    for k in range(len(sw.peaks) - 1):
        t0, th0 = float(sw.peak_times[k]), math.radians(float(sw.peaks[k]))
        if abs(th0) < REST_SWING * alpha_ref or (t_max is not None and sw.peak_times[k + 1] > t_max):
            continue
        i0 = int(np.searchsorted(t, t0))
        t1 = float(sw.peak_times[k + 1]) + 0.5
        r = solve_rigid(alpha, p, e, accel, t1, t0=t0, theta0=th0, omega0=float(omega[i0]))
        if r.overturned:
            nxt, nxt_t = math.nan, math.nan
        else:
            s2 = find_swings(r.t, np.degrees(r.theta), min_amplitude_deg=0.05)
            nxt, nxt_t = (float(s2.peaks[1]), float(s2.peak_times[1])) if len(s2.peaks) > 1 else (math.nan, math.nan)
        n_imp = sum(1 for x in r.impact_times if x <= (nxt_t if math.isfinite(nxt_t) else t1))
        out.append({"t0": t0, "theta0": math.radians(sw.peaks[k]) / alpha_ref,
                    "dem_next": math.radians(sw.peaks[k + 1]) / alpha_ref, "dem_next_t": float(sw.peak_times[k + 1]),
                    "rigid_next": math.radians(nxt) / alpha_ref if math.isfinite(nxt) else math.nan,
                    "rigid_next_t": nxt_t, "impacts": n_imp,
                    "rest": bool(len(r.uplift_times)) or n_imp != 1})
    return out


def fit_swing_restitution(t, theta_deg, omega, alpha_ref: float, alpha: float, p: float, accel, *,
                          t_max: float | None = None, bounds=(0.85, 0.999)) -> float:
    """The constant restitution whose rigid swings (swing_predictions, single-impact swings only) best predict
    the DEM's next peaks (least squares on θ ÷ α_ref)."""
    from scipy.optimize import minimize_scalar

    def cost(e: float) -> float:
        pr = swing_predictions(t, theta_deg, omega, alpha_ref, alpha, p, e, accel, t_max=t_max)
        err = [(s["rigid_next"] - s["dem_next"]) ** 2 for s in pr if not s["rest"]]
        err = [x if math.isfinite(x) else 1.0 for x in err]
        return float(np.sum(err)) if err else math.inf

    return float(minimize_scalar(cost, bounds=bounds, method="bounded", options={"xatol": 2e-4}).x)


def peak_over(t: np.ndarray, x: np.ndarray, t_max: float) -> tuple[float, float]:
    """Largest |peak| of x among the swing peaks reached by t_max [s] (an excursion still growing at t_max is
    not counted), and its time: (|value|, time)."""
    sw = find_swings(t, np.nan_to_num(x, nan=np.inf), min_amplitude_deg=1e-3)
    sel = sw.peak_times <= t_max
    if not sel.any():
        return 0.0, math.nan
    i = int(np.argmax(np.abs(sw.peaks[sel])))
    return float(abs(sw.peaks[sel][i])), float(sw.peak_times[sel][i])


# ------------------------------------------------------------------------------------------ free rocking
def free_rocking_scene(theta0: float, t_end: float, *, overrides: dict | None = None):
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


def free_rocking(theta0_frac: float, t_end: float, *, overrides: dict | None = None) -> dict:
    """Free rocking of the DEM pier from θ0 = theta0_frac · α': peaks, restitution, first impact vs exact."""
    from dem.run.driver import run_scene

    geom = pivot_geometry(free_rocking_scene(0.0, 1.0, overrides=overrides).model)
    theta0 = theta0_frac * geom.alpha
    out = run_scene(free_rocking_scene(theta0, t_end, overrides=overrides), progress=False, plots=False)
    h = out.history
    sw = find_swings(h["t"], h["theta_deg"])
    peaks = np.abs(sw.peaks)
    return {"geom": geom, "theta0": theta0, "t": h["t"], "theta_deg": h["theta_deg"], "peaks_deg": peaks,
            "impact_times": sw.impact_times, "restitution": restitution_from_peaks(peaks, geom.alpha),
            "e_fit": fit_restitution(peaks, geom.alpha), "quarter_exact": geom.quarter_period(theta0),
            "max_energy_error": float(out.summary["max_energy_error"]), "wall_time_s": out.summary["wall_time_s"]}


# ------------------------------------------------------------------------------------------------- run
def run(out_dir: Path, *, quick: bool) -> CaseResult:
    """Run the single-pier case; figures go to out_dir/single_pier/."""
    from validation.rocking.closed_form import housner_restitution, slenderness

    clock = Timer()
    cfg = QUICK if quick else FULL
    res = CaseResult(NAME, TITLE, quick)
    case_dir = Path(out_dir) / NAME

    # ---- DEM runs
    runs = []
    for dt in cfg.dts:
        scene, h, summ, status = run_dem("single_pier", {"dt": dt, "t_end": cfg.t_end})
        runs.append({"dt": dt, "h": h, "summary": summ, "status": status})
    p = scene.params
    ref = runs[0]
    geom: PivotGeometry = pivot_geometry(scene.model)
    alpha = slenderness(p["width"], p["height"])
    p_nom = scene.info["p_rad_s"]
    alpha_e, p_e = geom.alpha, geom.p
    accel = shaking_signal(p)
    free = free_rocking(cfg.free_theta0, cfg.free_t_end)
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

    # ---- onset: the DEM's first excursion beyond its elastic tilt vs the rigid block leaving rest
    t_thr = first_exceedance(accel, G * math.tan(geom.uplift_alpha), cfg.t_end)
    on_dem = first_excursion(ref["h"]["t"], ref["h"]["theta_deg"], ONSET_DEG)
    eff_h = rigid["effective, Housner e(α')"]
    t_up = eff_h.uplift_times[0] if eff_h.uplift_times else None
    on_rig = (t_up, -float(np.sign(accel(t_up)))) if t_up is not None else (None, 0.0)

    # ---- per DEM run: peaks, overturning
    for r in runs:
        h = r["h"]
        th = np.radians(h["theta_deg"])
        r["max_over_alpha"] = float(np.max(np.abs(th))) / alpha
        r["early_peak"], r["early_peak_t"] = peak_over(h["t"], th / alpha, T_CONVERGED)
        r["overturn_t"] = overturn_time(h["t"], th, alpha_e)
        r["max_t"] = float(h["t"][int(np.argmax(np.abs(th)))])
    rig_sum = {}
    for k, rr in rigid.items():
        th = rr.theta
        early, early_t = peak_over(rr.t, th / alpha, T_CONVERGED)
        rig_sum[k] = {"e": refs[k][2], "alpha_deg": math.degrees(refs[k][0]), "p": refs[k][1],
                      "overturned": bool(rr.overturned), "overturn_t": overturn_time(rr.t, th, refs[k][0]),
                      "max_over_alpha": (float(np.nanmax(np.abs(th))) / alpha) if not rr.overturned else math.inf,
                      "early_peak": early, "early_peak_t": early_t,
                      "uplift_t": rr.uplift_times[0] if rr.uplift_times else None}

    # the Δt series agree on the outcome: all overturn within 0.1 s of each other (an eighth of a 1 Hz cycle), or
    # all survive with largest excursions within 2 % of each other
    over = [r["overturn_t"] for r in runs]
    if all(o is not None for o in over):
        dt_agree = len(runs) > 1 and max(over) - min(over) < 0.1
    elif all(o is None for o in over):
        peaks = [r["max_over_alpha"] for r in runs]
        dt_agree = len(runs) > 1 and max(peaks) - min(peaks) < 0.02 * max(peaks)
    else:
        dt_agree = False

    # ---- one swing ahead (finest run)
    fine = runs[-1]
    hf = fine["h"]
    t_lim = None if fine["overturn_t"] is None else fine["overturn_t"] - 0.5
    swings = swing_predictions(hf["t"], hf["theta_deg"], hf["omega"], alpha, alpha_e, p_e, e_dem, accel, t_max=t_lim)
    single = [s for s in swings if not s["rest"]]
    swing_err = [abs(s["rigid_next"] - s["dem_next"]) if math.isfinite(s["rigid_next"]) else math.inf
                 for s in single]
    e_swing = fit_swing_restitution(hf["t"], hf["theta_deg"], hf["omega"], alpha, alpha_e, p_e, accel,
                                    t_max=t_lim) if cfg.fit_swings else None

    # ---- Δt series
    conv = None
    if len(runs) >= 3:
        a, b = runs[-2], runs[-1]
        tt = a["h"]["t"]
        sel = tt <= T_CONVERGED
        thb = np.interp(tt[sel], b["h"]["t"], b["h"]["theta_deg"])
        conv = float(np.max(np.abs(a["h"]["theta_deg"][sel] - thb))) / math.degrees(alpha)

    # ---- rigid overturning sweep
    sweep = []
    for e in cfg.sweep:
        row = {"e": float(e)}
        for lab, (a, pf) in (("nominal", (alpha, p_nom)), ("effective", (alpha_e, p_e))):
            rr = solve_rigid(a, pf, float(e), accel, cfg.t_end)
            row[lab] = math.inf if rr.overturned else float(np.nanmax(np.abs(rr.theta))) / alpha
        sweep.append(row)

    # ---- metrics
    mets: list[Metric] = []
    mets.append(metric_rel("free rocking: time to the first impact", float(free["impact_times"][0]),
                           free["quarter_exact"], TOL_FREE_IMPACT, unit="s",
                           source="rigid pier rolling on its r1 = 80 mm edges (exact)",
                           note=f"released at {cfg.free_theta0:g} α' = {math.degrees(free['theta0']):.3f}°"))
    mets.append(metric_info("free rocking: DEM restitution (fitted, constant)", e_dem, e_h_eff, source="Housner "
                            f"1 − 1.5 sin²α' (nominal α: {e_h:.4f})",
                            note=f"per impact {fmt(free['restitution'][:5], 4)}: the DEM's impacts with β = "
                            f"{p['beta_n']:g} dissipate less than Housner's plastic impact"))
    if on_dem[0] is not None and on_rig[0] is not None:
        mets.append(metric_abs("rocking onset", on_dem[0], on_rig[0], TOL_ONSET, unit="s",
                               source="rigid block, α': leaves rest",
                               note=f"DEM: |θ| first > {ONSET_DEG}°; |ü_g| first exceeds g tan α_u = "
                               f"{math.tan(geom.uplift_alpha):.4f} g at {fmt(t_thr)} s"))
        mets.append(Metric("direction of the first rocking", on_dem[1], on_rig[1], "same", on_dem[1] == on_rig[1],
                           "", "rigid block, α'",
                           "+1: onto the +x edge (base accelerating towards −x when it leaves rest)"))
    def balance_while_standing(r: dict) -> float:
        """Largest balance error before the run overturned (after it the pier falls 9.6 m onto its side, a
        crash this case does not validate: the error then reaches 3.6e-3 at Δt = 1e-4 s with true edges)."""
        err = np.abs(r["h"]["energy_error"])
        if r["overturn_t"] is not None:
            err = err[r["h"]["t"] <= r["overturn_t"]]
        return float(np.max(err)) if len(err) else 0.0

    mets.append(metric_max("energy balance, largest error", max(balance_while_standing(r) for r in runs),
                           TOL_ENERGY, source="energy ledger, 004 §4.2",
                           note="all shaken runs, up to their overturning (largest over the whole runs "
                           f"{max(float(r['summary']['max_energy_error']) for r in runs):.1e})"))
    if swing_err:
        mets.append(metric_max(f"one swing ahead, single-impact swings ({len(single)}), largest error",
                               float(np.max(swing_err)), TOL_SWING, unit="÷α",
                               source=f"rigid block, α', p, DEM's e = {e_dem:.4f}, started at each DEM peak",
                               note=f"Δt = {fine['dt']:g} s run; swings that land and chatter to rest "
                               f"({len(swings) - len(single)}) are listed below, not gated"))
    if e_swing is not None:
        mets.append(metric_abs("restitution fitted to the shaken swings", e_swing, e_dem, 0.005,
                               source="free-rocking fit", gate=False,
                               note="the impacts of the shaken pier dissipate as in free rocking"))
    if conv is not None:
        mets.append(metric_max(f"Δt convergence, t ≤ {T_CONVERGED:g} s", conv, TOL_DT, unit="÷α",
                               source=f"Δt = {runs[-2]['dt']:g} vs {runs[-1]['dt']:g} s",
                               note="largest |θ| difference before the large excursions"))
    eff_fit = rig_sum["effective, DEM's e"]
    nom_h = rig_sum["nominal, Housner e"]
    mets.append(metric_info(f"largest |θ|/α, t ≤ {T_CONVERGED:g} s", ref["early_peak"], eff_fit["early_peak"],
                            source="rigid block, α', DEM's e",
                            note=f"at {ref['early_peak_t']:.2f} s vs {eff_fit['early_peak_t']:.2f} s; nominal "
                            f"Housner block {nom_h['early_peak']:.3f} at {nom_h['early_peak_t']:.2f} s"))
    for r in runs:
        mets.append(metric_info(f"largest |θ|/α, Δt = {r['dt']:g} s", r["max_over_alpha"], nom_h["max_over_alpha"],
                                source="nominal rigid block, Housner e (004 Fig. 12)",
                                note=("overturned (|θ| > α' from " + f"{r['overturn_t']:.2f} s)") if r["overturn_t"]
                                is not None else f"at {r['max_t']:.2f} s; survives"))
    res.metrics = mets

    # ---- data
    res.data = {
        "alpha_deg": math.degrees(alpha), "alpha_eff_deg": math.degrees(alpha_e), "alpha_ratio": alpha_e / alpha,
        "p_nominal": p_nom, "p_eff": p_e, "b_eff": geom.half_width, "h_eff": geom.height,
        "tan_alpha_uplift": math.tan(geom.uplift_alpha), "e_housner": e_h, "e_housner_eff": e_h_eff,
        "e_dem_free": e_dem, "e_dem_free_per_impact": free["restitution"].tolist(), "e_dem_swings": e_swing,
        "free_first_impact_s": float(free["impact_times"][0]), "free_quarter_exact_s": free["quarter_exact"],
        "onset_dem_s": on_dem[0], "onset_dem_sign": on_dem[1], "onset_rigid_s": on_rig[0],
        "onset_rigid_sign": on_rig[1],
        "threshold_exceeded_s": t_thr, "convergence_over_alpha": conv,
        "runs": [{k: v for k, v in r.items() if k not in ("h", "summary")} | {
            "max_energy_error": float(r["summary"]["max_energy_error"]), "wall_time_s": r["summary"]["wall_time_s"]}
            for r in runs],
        "rigid": rig_sum, "swings": swings, "sweep": sweep, "ball_count": int(scene.model.ball_count),
    }

    # ---- sections
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

    if swings:
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

    sweep_txt = ""
    if sweep:
        srow = [[s["e"], "overturns" if not math.isfinite(s["nominal"]) else s["nominal"],
                 "overturns" if not math.isfinite(s["effective"]) else s["effective"]] for s in sweep]
        sweep_txt = ("\n\nLargest |θ|/α of the rigid block vs the restitution (same base motion, "
                     f"{cfg.t_end:g} s):\n\n" + md_table(["e", "nominal α, p", "effective α', p"], srow))
    dt_list = ", ".join(f"{r['dt']:g}" for r in runs)
    dts_txt = ", ".join(f"{r['max_over_alpha']:.3f}" + (" (overturns)" if r["overturn_t"] is not None else "")
                        for r in runs)
    eff_dem = rig_sum["effective, DEM's e"]
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

    # ---- figures
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
    if sweep:
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

    fails = [m.name for m in mets if m.passed is False]
    res.summary = (
        f"DEM e = {e_dem:.4f} (Housner {e_h_eff:.4f} for α' = {alpha_e / alpha:.3f} α); onset {fmt(on_dem[0])} s vs "
        f"rigid {fmt(on_rig[0])} s; one-swing predictions within {fmt(max(swing_err) if swing_err else None)} α. "
        f"Largest |θ|/α: DEM {dts_txt} (Δt {dt_list} s) vs rigid nominal "
        f"{nom_h['max_over_alpha']:.2f}"
        + (" — converged in Δt." if dt_agree else " — on the overturning boundary, not converged in Δt.")
        + (f" Failing: {', '.join(fails)}." if fails else ""))
    res.wall_time_s = clock()
    return res
