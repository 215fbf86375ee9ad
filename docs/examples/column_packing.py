"""The packing study of docs/examples/column_packing.md: the 12-drum column (scenes/drum_column.py) under one
Ricker pulse with joint spheres of 10 to 40 mm, its contact modulus scaled with the packing
(dem.model.joint_modulus) and not; Δt halved; the pulse 0.1 % larger.

    python docs/examples/column_packing.py              # about 12 min on a quiet 2-core machine
    python docs/examples/column_packing.py --quick      # the 15 mm reference, 25 and 40 mm (about 3 min)

Prints one row per run: spheres, contacts, Δt, wall time, the foot's first rocking excursion, the capital's
peak, and how long the run follows the 15 mm reference (the first time its foot or capital rotation differs
from the reference's by 10 % of the reference's peak) and its rms difference ÷ peak over the 3 s; the run at
twice the Δt is compared with the same packing at the default Δt instead. Writes the rows to --out (JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

PULSE = {"pulse": "ricker", "pulse_pga_g": 0.4, "pulse_frequency": 2.0, "t_end": 3.0}
"""A Ricker wavelet of 0.4 g at 2 Hz from 0.5 s (the scene's settle), centred at 1.25 s; 3 s in all."""
FIRST = (1.0, 1.45)  # [s]: the window of the foot's first excursion (it peaks at 1.37-1.40 s), before any impact
F15 = {"r_joint": 0.015, "r_core": 0.045, "zone": 0.05, "dt": 2.5e-5}  # the scene's packing before this study
CASES = [
    ("15 mm (reference)", F15),
    ("15 mm, pulse +0.1 %", F15 | {"pulse_pga_g": 0.4004}),
    ("10 mm", {"r_joint": 0.010, "r_core": 0.045, "zone": 0.05, "dt": 2.5e-5}),
    ("20 mm", {"r_joint": 0.020, "r_core": 0.05, "zone": 0.06, "dt": 2.5e-5}),
    ("25 mm", {"r_joint": 0.025, "r_core": 0.05, "zone": 0.06, "dt": 5e-5}),
    ("40 mm (default)", {}),
    ("40 mm, Δt 5e-5 s", {"dt": 5e-5}),  # compared with the 40 mm run at 2.5e-5 s (AGAINST)
    ("25 mm, E unscaled", {"r_joint": 0.025, "r_core": 0.05, "zone": 0.06, "dt": 5e-5, "stiffness_radius": 0.025}),
    ("40 mm, E unscaled", {"stiffness_radius": 0.04, "dt": 5e-5}),
]
QUICK = ("15 mm (reference)", "25 mm", "40 mm (default)", "40 mm, Δt 5e-5 s", "40 mm, E unscaled")
REFERENCE = "15 mm (reference)"
AGAINST = {"40 mm, Δt 5e-5 s": "40 mm (default)"}
"""Runs compared with another than the reference: Δt doubled against the same packing."""


def run_case(params: dict) -> dict:
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    scene = build_scene("drum_column", PULSE | params)
    res = run_scene(scene, progress=False, plots=False)
    h = res.history
    t = np.asarray(h["t"], float)
    return {"t": t, "foot": np.asarray(h["drum1_theta_deg"], float),
            "capital": np.asarray(h["capital_theta_deg"], float),
            "spheres": scene.model.ball_count, "contacts": float(np.mean(h["contact_count"])), "dt": scene.dt,
            "wall_s": float(res.summary["wall_time_s"]), "energy_error": float(res.summary["max_energy_error"]),
            "young_Pa": scene.info["contact_young_Pa"]}


def follows(run: dict, ref: dict) -> tuple[float | None, float]:
    """When the run parts from the reference (foot or capital off by 10 % of the reference's peak; None: never)
    and its rms difference ÷ peak (the larger of foot and capital)."""
    n = min(len(run["t"]), len(ref["t"]))
    part, rms = None, 0.0
    for key in ("foot", "capital"):
        a, b = ref[key][:n], run[key][:n]
        peak = float(np.max(np.abs(a)))
        off = np.flatnonzero(np.abs(a - b) > 0.1 * peak)
        if off.size and (part is None or ref["t"][off[0]] < part):
            part = float(ref["t"][off[0]])
        rms = max(rms, float(np.sqrt(np.mean((a - b) ** 2))) / peak)
    return part, rms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the 15 mm reference, 25 and 40 mm runs only")
    ap.add_argument("--out", default="column_packing.json")
    a = ap.parse_args()
    cases = [c for c in CASES if not a.quick or c[0] in QUICK]
    rows, runs = [], {}
    print(f"{'run':<22} {'spheres':>8} {'contacts':>8} {'Δt [s]':>8} {'E [GPa]':>8} {'wall [s]':>8} "
          f"{'foot 1st [°]':>12} {'capital [°]':>11} {'parts at [s]':>12} {'rms/peak':>8} {'energy err':>10}")
    for label, params in cases:
        t0 = time.perf_counter()
        r = run_case(params)
        runs[label] = r
        m = (r["t"] > FIRST[0]) & (r["t"] < FIRST[1])
        first = float(r["foot"][m][np.argmax(np.abs(r["foot"][m]))])
        against = AGAINST.get(label, REFERENCE)
        ref = runs.get(against) if against != label else None
        part, rms = follows(r, ref) if ref is not None else (None, 0.0)
        row = {"run": label, "spheres": r["spheres"], "contacts": round(r["contacts"]), "dt_s": r["dt"],
               "young_GPa": r["young_Pa"] / 1e9, "wall_s": r["wall_s"], "foot_first_deg": first,
               "capital_peak_deg": float(np.max(np.abs(r["capital"]))),
               "compared_with": against if ref is not None else None, "parts_at_s": part, "rms_over_peak": rms,
               "energy_error": r["energy_error"], "elapsed_s": time.perf_counter() - t0}
        rows.append(row)
        print(f"{label:<22} {row['spheres']:>8,} {row['contacts']:>8,} {row['dt_s']:>8.2g} {row['young_GPa']:>8.1f} "
              f"{row['wall_s']:>8.1f} {first:>12.3f} {row['capital_peak_deg']:>11.3f} "
              f"{'—' if part is None else f'{part:.2f}':>12} {rms:>8.3f} {row['energy_error']:>10.1e}", flush=True)
    Path(a.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
