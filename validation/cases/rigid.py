"""The rigid block under a scene's base motion, and the DEM compared with it swing by swing (the single pier and
the pier–deck bridge cases).

Near an overturning boundary whole histories cannot be compared (the largest excursion jumps with e and Δt), so
the cases compare the onset (:func:`first_excursion`, :func:`first_exceedance`), the outcome
(:func:`overturn_time`, :func:`peak_over`) and one swing ahead (:func:`swing_predictions`): the rigid block
started from the DEM's own state at each peak predicts the DEM's next peak; :func:`fit_swing_restitution`
finds the restitution that predicts them best.
"""

from __future__ import annotations

import math

import numpy as np

from validation.cases.common import G, find_swings

REST_SWING = 0.05
"""Peaks below this [÷ α] are not used as starting points of one-swing predictions (elastic wobble)."""


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
