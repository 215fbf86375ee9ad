"""Speed and time-step convergence of the bridge scenes at paper resolution (issue 4).

    python benchmarks/bench_bridges.py [--scene pier_deck|single_pier] [--pga 0.5] [--t-end 80]
                                       [--dt 1e-4] [--halve] [--out runs/bench] [--set KEY=VALUE ...]
                                       [--arch cpu|cuda|vulkan|...]

Prints wall time, steps/s, ball-steps/s and contact evaluations/s, peak memory, the peak rocking angle of
each pier (÷ α) and, with --halve, the same run at Δt/2 and the change of each peak (target < 2 %).
``--set`` passes other scene parameters (e.g. ``beta_n=0.15 beta_s=0.15``, or a denser packing). A run
that the engine stops as unstable (an overturned bridge falling: runaway overlap) is reported with its
diagnosis and the figures of the part it ran.
"""

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import dem  # noqa: E402
from dem.run.driver import SimulationUnstable, run_scene  # noqa: E402
from dem.scenes.scene import build_scene, parse_assignments  # noqa: E402


def run(scene_name: str, pga: float, t_end: float, dt: float, out: Path | None, extra: dict):
    scene = build_scene(scene_name, {"pga_g": pga, "t_end": t_end, "dt": dt} | extra)
    t0 = time.perf_counter()
    try:
        res = run_scene(scene, out_dir=out, progress=False, plots=out is not None)
    except SimulationUnstable as e:
        print(f"  stopped: {e}")
        res = e.result
    total = time.perf_counter() - t0
    s, h = res.summary, res.history
    thetas = sorted(k for k in h if k.startswith("theta") and k.endswith("_over_alpha"))
    peaks = {k: float(np.max(np.abs(h[k]))) for k in thetas}
    stepped = h["t"] < (s["quiescent_from_s"] if s["quiescent_from_s"] is not None else np.inf)
    per_record = s["history_dt"] / s["dt"]
    contacts = float(np.sum(h["contact_count"][stepped])) * per_record
    print(f"{scene_name} at {pga} g, {float(h['t'][-1]):g} of {t_end} s, dt {dt:g} s"
          + "".join(f", {k}={v}" for k, v in extra.items()) + f": {scene.model.ball_count} balls "
          f"({scene.model.hull_count} hull, {scene.model.clump_count} bodies)")
    print(f"  wall {s['wall_time_s']:.1f} s stepping (+{s['startup_s']:.1f} s start-up, {total:.1f} s in all); "
          f"{s['steps_per_s']:.4g} steps/s, {s['ball_steps_per_s']:.3g} ball-steps/s, "
          f"{contacts / s['wall_time_s']:.3g} contact evaluations/s; quiescent from {s['quiescent_from_s']} s; "
          f"{s['pair_rebuilds']} pair searches; max energy balance error {s['max_energy_error']:.2e}")
    print("  peak |θ|/α: " + ", ".join(f"{k.split('_')[0]} {v:.4f}" for k, v in peaks.items()))
    return peaks


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="pier_deck")
    ap.add_argument("--arch", default="cpu", help="Taichi backend (GPU backends take the block path)")
    ap.add_argument("--pga", type=float, default=0.5)
    ap.add_argument("--t-end", type=float, default=None)
    ap.add_argument("--dt", type=float, default=1e-4)
    ap.add_argument("--halve", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE", help="other scene parameters")
    a = ap.parse_args()
    try:
        extra = parse_assignments(a.set)
    except ValueError as e:
        ap.error(str(e))
    dem.init(a.arch)
    t_end = a.t_end or (80.0 if a.scene == "pier_deck" else 20.0)
    out = Path(a.out) if a.out else None
    p1 = run(a.scene, a.pga, t_end, a.dt, out / f"{a.scene}_{a.pga}g_dt{a.dt:g}" if out else None, extra)
    if a.halve:
        p2 = run(a.scene, a.pga, t_end, a.dt / 2, out / f"{a.scene}_{a.pga}g_dt{a.dt / 2:g}" if out else None, extra)
        print("  change of the peaks when Δt is halved: " + ", ".join(
            f"{k.split('_')[0]} {100 * abs(p1[k] - p2[k]) / max(p2[k], 1e-12):.2f} %" for k in p1))
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB (host); machine: "
          f"{os.cpu_count()}-core host, Taichi backend {dem.device.runtime.device_name()}, f64")


if __name__ == "__main__":
    main()
