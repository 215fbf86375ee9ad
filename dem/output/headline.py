"""The physics of a run in a few numbers: its headline quantity (the largest rocking angle ÷ α, or the
scene's first recorded quantity), when the motion settled or a body tipped over, for summary.json, the
command line's summary line and the plots' time axis; the summary line also says which bodies fell, or the
largest residual dislocation (summary.json's ``bodies``, dem.run.bodies).

Definitions (from the history alone, so that ``dem plot`` can redo them):
- peak |θ|/α: the largest |rotation| ÷ slenderness over every body with a rocking probe given α;
- tipped over: the first record where a body's |θ| reaches α (past the static tipping point of a rigid
  block on sharp corners; a body of spheres, pivoting on rounded edges, tips a little earlier);
- settled: the first record after which every body's |ω| stays below REST_OMEGA to the end of the run
  (without angular-velocity probes: the kinetic energy below REST_KINETIC of its peak); None if the run
  ends moving.
"""

from __future__ import annotations

import math

import numpy as np

from . import columns as K
from .columns import Column

REST_OMEGA = 1e-4  # [rad/s]: 0.1 mm/s at a 1 m lever; the Peña block's "rocking until" in its scene notes
REST_KINETIC = 1e-6  # fraction of the run's peak kinetic energy


def _of(columns: dict[str, Column], history: dict, family: str) -> list[str]:
    return [n for n, c in columns.items() if c.family == family and n in history and len(history[n])]


def _peak(history: dict, names: list[str]) -> tuple[float, str, int]:
    """Largest |value| over the columns `names`: (value, column, row)."""
    best = (-math.inf, "", 0)
    for n in names:
        a = np.abs(np.asarray(history[n], float))
        if a.size and np.any(np.isfinite(a)):
            k = int(np.nanargmax(a))
            if a[k] > best[0]:
                best = (float(a[k]), n, k)
    return best


def motion_summary(history: dict, columns: dict[str, Column]) -> dict:
    """See the module docstring. Returns a JSON-ready dict: ``headline`` {quantity, column, label, value,
    unit, t_s} (and ``peak_angle_deg`` when α is known), ``tipped_over_at_s`` with ``tipped_over_body``
    (or None), ``settled_at_s`` (or None), ``settled_by`` (what was watched)."""
    t = np.asarray(history.get("t", []), float)
    out: dict = {"headline": None, "tipped_over_at_s": None, "tipped_over_body": None, "settled_at_s": None,
                 "settled_by": None}
    if len(t) == 0:
        return out
    ratio, angle = _of(columns, history, K.ANGLE_ALPHA), _of(columns, history, K.ANGLE)
    if ratio:
        v, n, k = _peak(history, ratio)
        lab = columns[n].label
        out["headline"] = {"quantity": "peak |θ|/α", "column": n, "label": lab, "value": v, "unit": "-",
                           "t_s": float(t[k])}
        same = [a for a in angle if columns[a].label == lab]
        if same:
            out["headline"]["peak_angle_deg"] = float(np.max(np.abs(history[same[0]])))
        for m in ratio:
            over = np.flatnonzero(np.abs(np.asarray(history[m], float)) >= 1.0)
            if len(over) and (out["tipped_over_at_s"] is None or t[over[0]] < out["tipped_over_at_s"]):
                out["tipped_over_at_s"], out["tipped_over_body"] = float(t[over[0]]), columns[m].label
    elif angle:
        v, n, k = _peak(history, angle)
        out["headline"] = {"quantity": "peak |θ|", "column": n, "label": columns[n].label, "value": v,
                           "unit": "deg", "t_s": float(t[k])}
    else:
        probe_cols = [n for n, c in columns.items() if n not in K.ENGINE_COLUMNS and c.unit != "?" and n in history]
        if probe_cols:
            n = probe_cols[0]
            v, n, k = _peak(history, [n])
            c = columns[n]
            out["headline"] = {"quantity": f"peak |{n}|", "column": n, "label": c.label, "value": v, "unit": c.unit,
                               "t_s": float(t[k])}
    omega = _of(columns, history, K.OMEGA)
    if omega:
        w = np.max(np.abs(np.column_stack([history[n] for n in omega])), axis=1)
        moving, out["settled_by"] = w > REST_OMEGA, f"|ω| < {REST_OMEGA:g} rad/s"
    elif "E_kinetic" in history and len(history["E_kinetic"]):
        ek = np.asarray(history["E_kinetic"], float)
        moving = ek > REST_KINETIC * max(float(np.max(ek)), 1e-300)
        out["settled_by"] = f"kinetic energy < {REST_KINETIC:g} × its peak"
    else:
        return out
    moving = moving | ~np.isfinite(moving)
    if not moving[-1]:
        last = np.flatnonzero(moving)
        out["settled_at_s"] = float(t[last[-1] + 1]) if len(last) else float(t[0])
    return out


def plot_end(t: np.ndarray, motion: dict) -> float:
    """Where a time axis should end [s]: shortly after the motion settled (15 % of the settling time
    later, at least 10 records), or the run's end."""
    t = np.asarray(t, float)
    if len(t) < 2:
        return float(t[-1]) if len(t) else 1.0
    end = float(t[-1])
    settle = motion.get("settled_at_s")
    if settle is None:
        return end
    rec = float(np.median(np.diff(t)))
    return min(end, settle + max(0.15 * (settle - t[0]), 10 * rec))


def headline_text(summary: dict) -> str:
    """'peak |θ|/α 0.207 (2.90°, block) at 0.000 s; settled at 2.09 s' — the physics part of the run's
    summary line."""
    m = summary.get("motion") or {}
    h = m.get("headline")
    parts = []
    if h:
        who = f", {h['label']}" if h.get("label") else ""
        if h["quantity"] == "peak |θ|/α":
            deg = f"{h['peak_angle_deg']:.3g}°" if "peak_angle_deg" in h else ""
            parts.append(f"peak |θ|/α {h['value']:.3g} ({deg}{who}) at {h['t_s']:.3f} s".replace("(, ", "("))
        elif h["unit"] == "deg":
            parts.append(f"peak |θ| {h['value']:.3g}°{who} at {h['t_s']:.3f} s")
        else:
            unit = "" if h["unit"] in ("-", "") else f" {h['unit']}"
            parts.append(f"{h['quantity']} {h['value']:.4g}{unit} at {h['t_s']:.3f} s")
    if m.get("tipped_over_at_s") is not None:
        parts.append(f"{m['tipped_over_body']} tipped over (|θ| = α) at {m['tipped_over_at_s']:.3f} s")
    if m.get("settled_at_s") is not None:
        parts.append(f"settled at {m['settled_at_s']:.3g} s")
    elif m.get("settled_by"):
        parts.append("still moving at the end")
    bodies = bodies_text(summary.get("bodies") or [])
    if bodies:
        parts.append(bodies)
    return "; ".join(parts)


def bodies_text(bodies: list[dict], *, limit: int = 3) -> str:
    """A clause for the run's summary line from summary.json's ``bodies`` (dem.run.bodies): which bodies fell
    (the first `limit` by time), or else the largest residual horizontal drift (on the ground) and rotation
    and whose."""
    if not bodies:
        return ""
    fell = sorted((b for b in bodies if b.get("fell")), key=lambda b: b["fell_time_s"])
    if fell:
        named = ", ".join(f"{b['name']} at {b['fell_time_s']:.3g} s" for b in fell[:limit])
        more = f" and {len(fell) - limit} more" if len(fell) > limit else ""
        return f"{len(fell)} of {len(bodies)} bodies fell ({named}{more})"
    moved = [b for b in bodies if isinstance(b.get("residual_horizontal_drift_m"), float)
             and isinstance(b.get("residual_rotation_rad"), float)]
    if not moved:
        return ""
    d = max(moved, key=lambda b: b["residual_horizontal_drift_m"])
    r = max(moved, key=lambda b: b["residual_rotation_rad"])
    if len(bodies) == 1:
        return (f"{d['name']} did not fall; from its pose at t = 0 it drifted "
                f"{1e3 * d['residual_horizontal_drift_m']:.3g} mm and turned "
                f"{math.degrees(d['residual_rotation_rad']):.3g}°")
    return (f"no body fell; from their poses at t = 0 the largest drift "
            f"{1e3 * d['residual_horizontal_drift_m']:.3g} mm ({d['name']}), "
            f"turn {math.degrees(r['residual_rotation_rad']):.3g}° ({r['name']})")
