"""One result row per case, from a DEM run's history or from the rigid solver's batch result.

Columns (both engines; NaN where an engine does not model the quantity):
- ``peak_theta_over_alpha`` [-]: largest |θ|/α over the run and over the scene's rocking bodies, α the
  nominal slenderness of the scene (``info['alpha_rad']``); for a scene that declares none, over its
  ``*_over_alpha`` columns, or else over every body's tilt ÷ its own α (dem.run.bodies); +inf when a body
  overturned;
- ``overturned``, ``overturn_time_s``: a body fell, and the first time one did [s]: for a DEM run, any body of
  the scene as dem.run.bodies decides it (its tilt reached its θ_ov, or it dropped off what carried it), the
  same time as its ``fell_time_s``, its ``overturn`` event and ``--stop-on overturn``; for the rigid model,
  |θ| reached θ_ov (below);
- ``residual_theta_over_alpha`` [-]: θ/α at the end of the run (the body with the largest |θ|), NaN if
  overturned;
- ``max_slip_m`` [m]: largest |horizontal slip| of a body's pivot over the ground it stands on, since the
  start and before any overturning (DEM only; the rigid model does not slide); for a scene that declares no
  rocking body, the largest of its bodies' ``max_slip_m`` (dem.run.bodies: every body's footprint over the
  ground, rolling on edge spheres not counted); for a declared rocking body, the slip of the lower edge
  sphere's centre relative to the ground, less its rolling r θ on the edge (rolling without slip moves the
  centre by r θ: the sphere turns about its contact point), so pure rocking on the rounded edge reads 0; a
  body released tilted starts at 0 too. The ground is what the scene's ``rocking_body`` names
  (dem.scenes.tools): a history column of its displacement (a shaking table's ``base_disp``), or a wall that
  does not move;
- ``max_uplift_m`` [m]: largest rise of the raised base edge, before any overturning (DEM: the upper edge
  sphere's centre of a declared rocking body, else the largest of the bodies' ``max_uplift_m``, the rise of
  their footprints; rigid: b sin|θ|, b the full width);
- ``energy_error`` [-]: the DEM run's largest relative energy-balance error (NaN for rigid).

A figure that cannot be measured is NaN, and :func:`run_response` says why (summary.json's ``response``
and ``null_reasons``).

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


def dem_response(history: dict, info: dict, overturn_angle: float, energy_error: float,
                 fall_time: float = math.nan) -> dict:
    """The response columns of a DEM run (module docstring) from its history columns and the scene's
    ``info['rocking_bodies']`` (dem.scenes.tools.rocking_body) and ``info['alpha_rad']``; ``fall_time`` [s]: when
    a body fell (dem.run.bodies), if one did: overturning then, if not before."""
    out = empty_response()
    out["energy_error"] = float(energy_error)
    t = np.asarray(history["t"], float)
    if t.size == 0:
        return out
    alpha = float(info["alpha_rad"])
    bodies = info["rocking_bodies"]
    thetas = [np.radians(np.asarray(history[b["theta_deg"]], float)) for b in bodies]
    # overturning: the first history row where some body's |θ| ≥ θ_ov (NaN counts: a body gone numerically)
    first = t.size
    for th in thetas:
        hit = np.flatnonzero(~(np.abs(th) < overturn_angle))
        if hit.size:
            first = min(first, int(hit[0]))
    if math.isfinite(fall_time):
        first = min(first, int(np.searchsorted(t, fall_time, side="left")))
    overturned = first < t.size
    keep = slice(0, first if overturned else t.size)
    peak, slip, uplift = 0.0, 0.0, 0.0
    residual = 0.0
    slip_known = True
    for b, th_all in zip(bodies, thetas):
        ground = ground_displacement(history, b)
        slip_known = slip_known and ground is not None
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
        if ground is not None:
            # the pivot's place on the ground, less rolling: constant while the body rocks without slip, also
            # across a change of edge (at θ = 0 both edges give the same value); its change since the start
            pivot = x_low - np.asarray(ground, float)[keep] - r * th
            slip = max(slip, float(np.max(np.abs(pivot - pivot[0]))))
        z_up = uz + bw * np.abs(s) + bh * (1.0 - c)
        uplift = max(uplift, float(np.max(z_up)))
    out["peak_theta_over_alpha"] = math.inf if overturned else peak
    out["overturned"] = bool(overturned)
    out["overturn_time_s"] = float(t[first]) if overturned else math.nan
    out["residual_theta_over_alpha"] = math.nan if overturned else residual
    out["max_slip_m"] = slip if slip_known else math.nan
    out["max_uplift_m"] = uplift
    return out


def ground_displacement(history: dict, body: dict) -> np.ndarray | None:
    """The horizontal displacement [m] of the ground a rocking body (dem.scenes.tools.rocking_body) stands on,
    per history row: its ``ground_disp`` column, zeros for a wall that does not move (``ground_disp`` None),
    None when the history lacks the column named."""
    name = body.get("ground_disp", "base_disp")
    if name is None:
        return np.zeros(len(history["t"]))
    return np.asarray(history[name], float) if name in history else None


def refine_bodies(bodies: list[dict], history: dict, info: dict, clumps: dict[str, int]) -> list[dict]:
    """summary.json's ``bodies`` rows (dem.run.bodies) with the slip and uplift of each body the scene declares
    as rocking (``info['rocking_bodies']``) from :func:`dem_response` (its pivot from upright, less rolling), so
    that a body's row, the response and the summary line give one figure. ``clumps``: rocking-angle column →
    body index (the probes')."""
    declared = info.get("rocking_bodies") or []
    t = np.asarray(history.get("t", ()), float)
    if not declared or "alpha_rad" not in info or not t.size:
        return bodies
    out = [dict(b) for b in bodies]
    for rb in declared:
        b = clumps.get(rb.get("theta_deg"))
        if b is None or b >= len(out) or any(k not in history for k in (rb["theta_deg"], rb["ux"], rb["uz"])):
            continue
        fell = out[b]["fell_time_s"] if out[b].get("fell") else math.nan
        one = dem_response(history, info | {"rocking_bodies": [rb]}, default_overturn_angle(float(info["alpha_rad"])),
                           math.nan, fell)
        for k in ("max_slip_m", "max_uplift_m"):
            if _finite(one[k]):
                out[b][k] = one[k]
        out[b]["slip_from"] = "scene rocking_body"
    return out


def fall_time(bodies=None, events=()) -> float:
    """The first time [s] a movable body fell (summary.json's ``bodies``, dem.run.bodies) or an ``overturn`` event
    says one did; NaN if none."""
    times = [float(b["fell_time_s"]) for b in bodies or () if b.get("fell") and not b.get("fixed")]
    times += [float(e["t"]) for e in events if e.get("event") == "overturn"]
    return min(times) if times else math.nan


def merge_falls(row: dict, bodies=None, events=()) -> dict:
    """`row` (the response columns) with the bodies' falls (:func:`fall_time`): overturned at the first."""
    t = fall_time(bodies, events)
    if math.isfinite(t) and (not row["overturned"] or t < row["overturn_time_s"]):
        row = row | {"overturned": True, "overturn_time_s": t, "peak_theta_over_alpha": math.inf,
                     "residual_theta_over_alpha": math.nan}
    return row


def _movable(bodies) -> list[dict]:
    return [b for b in bodies or () if not b.get("fixed")]


def run_response(history: dict, info: dict, energy_error: float, events=(), bodies=None) -> tuple[dict, dict]:
    """The response columns of a DEM run (``dem run``'s summary.json ``response``, a batch's worlds.csv) and
    {column: why it is NaN} for those that are. From the scene's rocking bodies (``info['rocking_bodies']``,
    :func:`dem_response`) where it declares them; otherwise from its ``*_over_alpha`` columns (peak and residual)
    and from every body's row of summary.json's ``bodies`` (dem.run.bodies: its tilt ÷ its own α, slip and
    uplift). Overturning is any body's fall (``bodies``; an ``overturn`` event in ``events`` counts too)."""
    t = np.asarray(history.get("t", ()), float)
    energy_error = math.nan if energy_error is None else float(energy_error)
    declared = info.get("rocking_bodies")
    fell_at = fall_time(bodies, events)
    movable = _movable(bodies)
    why: dict[str, str] = {}
    if declared and "alpha_rad" in info and t.size:
        row = dem_response(history, info, default_overturn_angle(float(info["alpha_rad"])), energy_error, fell_at)
        if math.isnan(row["max_slip_m"]):
            missing = sorted({b.get("ground_disp", "base_disp") for b in declared
                              if ground_displacement(history, b) is None})
            why["max_slip_m"] = (f"the history has no column {', '.join(missing)} (the displacement of the ground "
                                 "a rocking body stands on): the scene's rocking_body names none it records "
                                 "(ground_disp=None for a wall that does not move)")
    else:
        row = empty_response()
        row["energy_error"] = energy_error
        ratios = [np.asarray(v, float) for k, v in history.items() if k.endswith("_over_alpha")]
        tilted = [b for b in movable if b.get("tipping_angle_rad", 0.0) > 0.0 and _finite(b.get("peak_tilt_rad"))]
        if ratios and len(ratios[0]):
            keep = int(np.searchsorted(t, fell_at, side="left")) if math.isfinite(fell_at) else len(ratios[0])
            row["peak_theta_over_alpha"] = float(np.max([np.max(np.abs(r[:max(keep, 1)])) for r in ratios]))
            row["residual_theta_over_alpha"] = float(max((r[-1] for r in ratios), key=abs))
        elif tilted:  # every body's tilt ÷ its own α (dem.run.bodies)
            row["peak_theta_over_alpha"] = max(b["peak_tilt_rad"] / b["tipping_angle_rad"] for b in tilted)
            row["residual_theta_over_alpha"] = max((b["residual_tilt_rad"] / b["tipping_angle_rad"] for b in tilted
                                                    if _finite(b.get("residual_tilt_rad"))), key=abs,
                                                   default=math.nan)
        elif t.size:
            why["peak_theta_over_alpha"] = why["residual_theta_over_alpha"] = (
                "the scene records no *_over_alpha column and has no movable body with a tipping angle")
        for k in ("max_slip_m", "max_uplift_m"):
            vals = [b[k] for b in movable if _finite(b.get(k))]
            if vals:
                row[k] = max(vals)
            else:
                why[k] = "no history rows" if not t.size else "no movable body (summary.json bodies)"
    row = merge_falls(row, bodies, events)
    if not row["overturned"]:
        why["overturn_time_s"] = "no body overturned"
    elif math.isnan(row["residual_theta_over_alpha"]):
        why["residual_theta_over_alpha"] = "a body overturned (overturn_time_s): no residual tilt"
    if math.isinf(row["peak_theta_over_alpha"]):
        why["peak_theta_over_alpha"] = "+inf: a body overturned"
    if not t.size:
        why["peak_theta_over_alpha"] = why["residual_theta_over_alpha"] = "no history rows"
    if math.isnan(energy_error):
        why["energy_error"] = "no energy balance recorded"
    return row, {k: v for k, v in why.items() if not _finite(row[k])}


def _finite(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


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
