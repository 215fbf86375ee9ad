"""The physics of a run in a few numbers: its headline quantity (the largest rocking angle ÷ α, or the
scene's first recorded quantity), when the motion settled or a body first passed α, for summary.json, the
command line's summary line and the plots' time axis; the summary line also says which bodies fell and when
(their one time of collapse, summary.json's ``bodies``, dem.run.bodies), or how far the bodies tilted,
slipped and lifted.

Definitions (from the history alone, so that ``dem plot`` can redo them):
- peak |θ|/α: the largest |rotation| ÷ slenderness over every body with a rocking probe given α;
- passed α (``passed_alpha_at_s``, ``passed_alpha_body``): the first record where a body's |θ| reaches α, the
  static tipping point of a rigid block on sharp corners. Not a collapse: under shaking a block may pass α and
  come back; a body falls at its overturning angle (dem.run.bodies). ``tipped_over_at_s`` and
  ``tipped_over_body`` are the same values under their former names (deprecated: they read as a collapse);
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
    unit, t_s} (and ``peak_angle_deg`` when α is known), ``passed_alpha_at_s`` with ``passed_alpha_body``
    (or None; also as ``tipped_over_at_s``, ``tipped_over_body``), ``settled_at_s`` (or None), ``settled_by``
    (what was watched)."""
    t = np.asarray(history.get("t", []), float)
    out: dict = {"headline": None, "passed_alpha_at_s": None, "passed_alpha_body": None, "settled_at_s": None,
                 "settled_by": None}
    if len(t) == 0:
        return out
    ratio, angle = _of(columns, history, K.ANGLE_ALPHA), _of(columns, history, K.ANGLE)
    peak = _peak(history, ratio or angle)  # a column whose every value is NaN or inf has no peak: no headline
    if ratio and peak[1]:
        v, n, k = peak
        lab = columns[n].label
        out["headline"] = {"quantity": "peak |θ|/α", "column": n, "label": lab, "value": v, "unit": "-",
                           "t_s": float(t[k])}
        same = [a for a in angle if columns[a].label == lab]
        if same:
            out["headline"]["peak_angle_deg"] = float(np.max(np.abs(history[same[0]])))
        for m in ratio:
            over = np.flatnonzero(np.abs(np.asarray(history[m], float)) >= 1.0)
            if len(over) and (out["passed_alpha_at_s"] is None or t[over[0]] < out["passed_alpha_at_s"]):
                out["passed_alpha_at_s"], out["passed_alpha_body"] = float(t[over[0]]), columns[m].label
    elif angle and peak[1]:
        v, n, k = peak
        out["headline"] = {"quantity": "peak |θ|", "column": n, "label": columns[n].label, "value": v,
                           "unit": "deg", "t_s": float(t[k])}
    elif not (ratio or angle):
        probe_cols = [n for n, c in columns.items() if n not in K.ENGINE_COLUMNS and c.unit != "?" and n in history]
        v, n, k = _peak(history, probe_cols[:1])
        if n:
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
        return _aliases(out)
    moving = moving | ~np.isfinite(moving)
    if not moving[-1]:
        last = np.flatnonzero(moving)
        out["settled_at_s"] = float(t[last[-1] + 1]) if len(last) else float(t[0])
    return _aliases(out)


def _aliases(out: dict) -> dict:
    """The former names of passed_alpha_* (deprecated; module docstring)."""
    return out | {"tipped_over_at_s": out["passed_alpha_at_s"], "tipped_over_body": out["passed_alpha_body"]}


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
    """'peak |θ|/α 0.207 (2.90°, block) at 0.000 s; settled at 2.09 s; block did not fall (...)' — the physics
    part of the run's summary line. A body that fell is said first, with its time of collapse."""
    m = summary.get("motion") or {}
    h = m.get("headline")
    bodies = summary.get("bodies") or []
    fell = [b for b in bodies if b.get("fell")]
    parts = [bodies_text(bodies)] if fell else []
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
    passed = m.get("passed_alpha_at_s", m.get("tipped_over_at_s"))
    if passed is not None and not fell:
        who = m.get("passed_alpha_body", m.get("tipped_over_body"))
        parts.append(f"{who} passed α at {passed:.3f} s and did not fall")
    if m.get("settled_at_s") is not None:
        parts.append(f"settled at {m['settled_at_s']:.3g} s")
    elif m.get("settled_by"):
        parts.append("still moving at the end")
    if not fell:
        text = bodies_text(bodies)
        if text:
            parts.append(text)
    return "; ".join(parts)


def bodies_text(bodies: list[dict], *, limit: int = 3) -> str:
    """A clause for the run's summary line from summary.json's ``bodies`` (dem.run.bodies): which bodies fell and
    when (the first `limit` by time), or else that none did, with the largest tilt, slip over the ground and
    uplift of a footprint and whose, and any body still turning past its tipping angle at the end."""
    if not bodies:
        return ""
    fell = sorted((b for b in bodies if b.get("fell")), key=lambda b: b["fell_time_s"])
    if fell:
        named = ", ".join(f"{b['name']} at {b['fell_time_s']:.3g} s" for b in fell[:limit])
        more = f" and {len(fell) - limit} more" if len(fell) > limit else ""
        return f"{len(fell)} of {len(bodies)} bodies fell ({named}{more})" if len(bodies) > 1 else \
            f"{fell[0]['name']} fell at {fell[0]['fell_time_s']:.3g} s"
    moving = [b for b in bodies if not b.get("fixed")]
    known = [b for b in moving if all(isinstance(b.get(k), float) and math.isfinite(b[k])
                                      for k in ("peak_tilt_rad", "max_slip_m", "max_uplift_m"))]
    if not known:
        return ""
    tilt = max(known, key=lambda b: b["peak_tilt_rad"])
    slip = max(known, key=lambda b: b["max_slip_m"])
    lift = max(known, key=lambda b: b["max_uplift_m"])
    tipping = [b["name"] for b in moving if b.get("past_tipping_at_end")]
    end = f"; {', '.join(tipping)} past the tipping angle α and turning away at the end" if tipping else ""
    if len(bodies) == 1:
        return (f"{tilt['name']} did not fall (largest tilt {math.degrees(tilt['peak_tilt_rad']):.3g}°, slip "
                f"{_mm(slip['max_slip_m'])}, uplift {_mm(lift['max_uplift_m'])}){end}")
    return (f"no body fell (largest tilt {math.degrees(tilt['peak_tilt_rad']):.3g}° {tilt['name']}, slip "
            f"{_mm(slip['max_slip_m'])} {slip['name']}, uplift {_mm(lift['max_uplift_m'])} {lift['name']}){end}")


def _mm(metres: float) -> str:
    return f"{1e3 * metres:.2g} mm" if metres < 1e-3 else f"{1e3 * metres:.3g} mm"
