"""Speed of the Peña block at paper resolution (issue 2): the full 6 s of free rocking at Δt = 1e-5 s.

    python benchmarks/bench_pena.py [--t-end 6] [--no-sleep] [--arch cpu] [--set KEY=VALUE ...]

Prints wall time (stepping, recording and energy ledger included; start-up separately), steps/s,
ball-steps/s, contact evaluations per second and peak memory, and the physics figures that show the run
is the real one (peaks, energy balance).
"""

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import dem  # noqa: E402
from dem.run.driver import run_scene  # noqa: E402
from dem.scenes.scene import build_scene, parse_assignments  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t-end", type=float, default=6.0)
    ap.add_argument("--dt", type=float, default=1e-5)
    ap.add_argument("--arch", default="cpu")
    ap.add_argument("--no-sleep", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--set", dest="sets", nargs="+", default=[])
    a = ap.parse_args()
    dem.init(a.arch)
    t0 = time.perf_counter()
    scene = build_scene("pena_block", parse_assignments(a.sets))
    t_build = time.perf_counter() - t0
    res = run_scene(scene, t_end=a.t_end, dt=a.dt, out_dir=a.out, progress=False, sleep=not a.no_sleep,
                    plots=False)
    s, h = res.summary, res.history
    # contact evaluations while stepping (history rows stand for history_dt / dt steps each); once everything
    # sleeps and no wall moves the run loop writes the rest without stepping (summary: quiescent_from_s)
    stepped = h["t"] < (s["quiescent_from_s"] if s["quiescent_from_s"] is not None else np.inf)
    stepped_steps = int(np.count_nonzero(stepped) * round(s["history_dt"] / s["dt"]))
    contacts = float(np.sum(h["contact_count"][stepped])) * (s["history_dt"] / s["dt"])
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    pp = s.get("postprocess") or {}
    print(f"machine: {dem.device.runtime.device_name()}, {a.arch}, {dem.device.runtime.precision()}")
    print(f"model: {s['ball_count']} balls, {s['hull_ball_count']} on the hull, {scene.model.cluster_count} clusters")
    print(f"build {t_build:.2f} s, kernel start-up {s['startup_s']:.2f} s")
    print(f"run: {s['steps']} steps of {s['dt']:g} s ({s['t_end']:.3g} s simulated) in {s['wall_time_s']:.2f} s wall")
    print(f"  {s['steps_per_s']:.4g} steps/s, {s['ball_steps_per_s']:.4g} ball-steps/s, "
          f"{contacts / s['wall_time_s']:.4g} contact evaluations/s (≈{contacts / max(stepped_steps, 1):.0f} per "
          f"stepped step; {stepped_steps} steps stepped, quiescent from {s['quiescent_from_s']} s)")
    print(f"  peak memory {peak_mb:.0f} MiB; sleep {'off' if a.no_sleep else 'on'}; "
          f"{s['neighbour_rebuilds']} neighbour rebuilds")
    print(f"physics: peaks {np.round(pp.get('peak_theta_deg', []), 3).tolist()[:8]} deg, "
          f"max KE {pp.get('max_kinetic_energy_J', float('nan')):.2f} J, "
          f"max force ratio {pp.get('max_force_ratio', float('nan')):.1f}, settled at {pp.get('settled_at_s')}, "
          f"max energy balance error {s['max_energy_error']:.2e}")


if __name__ == "__main__":
    main()
