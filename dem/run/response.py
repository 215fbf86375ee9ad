"""One result row per case, from a DEM run's history or from the rigid solver's batch result.

Columns (both engines; NaN where an engine does not model the quantity):
- ``peak_theta_over_alpha`` [-]: largest |θ|/α over the run and over the scene's rocking bodies, α the
  nominal slenderness of the scene (``info['alpha_rad']``); +inf when the body overturned;
- ``overturned``, ``overturn_time_s``: |θ| reached the overturning angle θ_ov (below) at that time [s];
- ``residual_theta_over_alpha`` [-]: θ/α at the end of the run (the body with the largest |θ|), NaN if
  overturned;
- ``max_slip_m`` [m]: largest |horizontal slip| of a body's pivot over its base, before any overturning
  (DEM only; the rigid model does not slide). Slip of the lower edge sphere's centre relative to the base,
  less its rolling r θ on the edge (rolling without slip moves the centre by r θ: the sphere turns about
  its contact point), so pure rocking on the rounded edge reads 0;
- ``max_uplift_m`` [m]: largest rise of the raised base edge, before any overturning (DEM: the upper edge
  sphere's centre; rigid: b sin|θ|, b the full width);
- ``energy_error`` [-]: the DEM run's largest relative energy-balance error (NaN for rigid).

The overturning angle θ_ov is the same in both engines: by default halfway between the tipping angle α
and lying flat, (α + π/2)/2 (49.7° for the pier). Past α a free block falls; under shaking a large enough
base acceleration could still bring it back — from θ_ov that takes more than g tan(θ_ov − α) (0.85 g for the
pier) in the right direction for a second or so — so reaching θ_ov is taken as overturned. The rigid
solver stops there (``overturn_angle``); the DEM run goes on, and its rows after θ_ov are not used.
"""

from __future__ import annotations

import math

import numpy as np

RESPONSE_COLUMNS = ("peak_theta_over_alpha", "overturned", "overturn_time_s", "residual_theta_over_alpha",
                    "max_slip_m", "max_uplift_m", "energy_error")


def default_overturn_angle(alpha: float) -> float:
    """(α + π/2)/2 [rad] (module docstring)."""
    return 0.5 * (alpha + 0.5 * math.pi)


def empty_response() -> dict:
    return {"peak_theta_over_alpha": math.nan, "overturned": False, "overturn_time_s": math.nan,
            "residual_theta_over_alpha": math.nan, "max_slip_m": math.nan, "max_uplift_m": math.nan,
            "energy_error": math.nan}


def dem_response(history: dict, info: dict, overturn_angle: float, energy_error: float) -> dict:
    """The response columns of a DEM run (module docstring) from its history columns and the scene's
    ``info['rocking_bodies']`` (dem.scenes.tools.rocking_body) and ``info['alpha_rad']``."""
    out = empty_response()
    out["energy_error"] = float(energy_error)
    t = np.asarray(history["t"], float)
    if t.size == 0:
        return out
    alpha = float(info["alpha_rad"])
    bodies = info["rocking_bodies"]
    thetas = [np.radians(np.asarray(history[b["theta_deg"]], float)) for b in bodies]
    # overturning: the first record where some body's |θ| ≥ θ_ov (NaN counts: a body gone numerically)
    first = t.size
    for th in thetas:
        hit = np.flatnonzero(~(np.abs(th) < overturn_angle))
        if hit.size:
            first = min(first, int(hit[0]))
    overturned = first < t.size
    keep = slice(0, first if overturned else t.size)
    base = np.asarray(history["base_disp"], float)[keep] if "base_disp" in history else None
    peak, slip, uplift = 0.0, 0.0, 0.0
    residual = 0.0
    for b, th_all in zip(bodies, thetas):
        th = th_all[keep]
        if th.size == 0:
            continue
        peak = max(peak, float(np.max(np.abs(th))) / alpha)
        end = float(th_all[-1]) / alpha
        if abs(end) > abs(residual):
            residual = end
        bw, bh, r = b["half_width"], b["half_height"], b["edge_radius"]
        ux = np.asarray(history[b["ux"]], float)[keep]
        uz = np.asarray(history[b["uz"]], float)[keep]
        c, s = np.cos(th), np.sin(th)
        # edge-sphere centres at (±b', −h') in the body frame; rotation about +y by θ (dem.run.probes.RockingAngle):
        # x = x_G ± b' cos θ − h' sin θ, z = z_G ∓ b' sin θ − h' cos θ. For θ > 0 the + edge is the lower one.
        sign = np.where(th >= 0.0, 1.0, -1.0)
        x_low = ux + sign * bw * (c - 1.0) - bh * s
        if base is not None:
            slip = max(slip, float(np.max(np.abs(x_low - base - r * th))))
        z_up = uz + bw * np.abs(s) + bh * (1.0 - c)
        uplift = max(uplift, float(np.max(z_up)))
    out["peak_theta_over_alpha"] = math.inf if overturned else peak
    out["overturned"] = bool(overturned)
    out["overturn_time_s"] = float(t[first]) if overturned else math.nan
    out["residual_theta_over_alpha"] = math.nan if overturned else residual
    out["max_slip_m"] = slip if base is not None else math.nan
    out["max_uplift_m"] = uplift
    return out


def rigid_response(theta: np.ndarray, overturned: bool, overturn_time: float, alpha: float, width: float) -> dict:
    """The response columns of one rigid-block history θ(t) [rad] (NaN after overturning), α [rad] the
    scene's nominal slenderness, width [m] the block's full width."""
    out = empty_response()
    th = np.asarray(theta, float)
    finite = th[np.isfinite(th)]
    peak = float(np.max(np.abs(finite))) if finite.size else 0.0
    out["peak_theta_over_alpha"] = math.inf if overturned else peak / alpha
    out["overturned"] = bool(overturned)
    out["overturn_time_s"] = float(overturn_time) if overturned else math.nan
    out["residual_theta_over_alpha"] = math.nan if overturned else float(th[-1]) / alpha
    out["max_uplift_m"] = width * math.sin(min(peak, 0.5 * math.pi))
    return out
