"""Speed and memory of a structure of many blocks (issue 22): the 12-drum column against the single pier, and a
batch of column worlds against the same runs one by one.

    python benchmarks/bench_structures.py [--arch cpu|cuda|vulkan] [--t-end 10] [--worlds 16]
                                          [--batch-t-end 0.2] [--column-packing default|fine]
                                          [--batch-packing default|fine] [--alone 4] [--skip pier column batch]

1. The single pier (scenes/single_pier.py as it is: 7,776 spheres, Δt = 1e-4 s, Eq. 42 at 0.5 g) and the
   12-drum column (scenes/drum_column.py: its default packing, 4,650 spheres, 4,310 on the hull, or
   ``--column-packing fine``, the 15 mm packing it had before, 37,385 spheres; Δt = 2.5e-5 s; Eq. 42 at
   0.3 g), each for ``--t-end`` simulated seconds through the run driver (dem.run.driver.run_scene, no
   files): stepping wall time, steps/s, the column's wall time ÷ the pier's (issue 22's goal: ≤ 2), the
   pier timed before and after the column (the load of a shared machine drifts over the column's minutes).
2. W column worlds (``--batch-packing``; the Eq. 42 amplitude spread over 0.2–0.5 g) stepped together in one
   dem.Simulation for ``--batch-t-end`` s, then ``--alone`` of them one by one (timed, scaled to W), the
   speed-up, and each world's history checked equal to its run alone (serial path: to the bit).
3. Memory: the device arrays a world needs (dem.physics.batch_memory.batch_bytes) and the process's peak RSS
   after each part (a high-water mark: each part's figure includes the parts before it).

Kernels are loaded (or compiled) before any timing. The figures depend on the machine's load: run it alone, or
say what ran beside it. On a CPU backend it says so: no GPU figure comes from this machine. Measured (README's
benchmark table): this 2-core machine; a lent quiet 16-core Xeon and a lent H100 (the 15 mm column); a lent
H200 (``--arch cuda``: the 40 mm column, W = 100 and 1,000 of them).
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
from dem.physics.batch_memory import batch_bytes  # noqa: E402
from dem.run.driver import SimulationUnstable, run_scene  # noqa: E402
from dem.run.worlds import build_worlds  # noqa: E402
from dem.scenes.scene import build_scene  # noqa: E402

PACKINGS = {"default": {}, "fine": {"r_joint": 0.015, "r_core": 0.045, "zone": 0.05}}
"""The column's packings: the scene's (r_joint 40 mm, r_core 60 mm) and the 15 mm one it had before (the joints
close alike: the contact modulus goes as r_joint^1.5, dem.model.joint_modulus)."""


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed_run(name: str, params: dict) -> dict:
    """One scene through the driver, no files; its stepping wall time and rate from summary.json's figures."""
    scene = build_scene(name, params)
    try:
        res = run_scene(scene, progress=False, plots=False)
    except SimulationUnstable as e:
        print(f"  {name} stopped: {e}")
        res = e.result
    s = res.summary
    m = scene.model
    t_run = float(res.history["t"][-1])
    contacts = float(np.mean(res.history["contact_count"])) if "contact_count" in res.history else float("nan")
    print(f"{name}: {m.ball_count:,} spheres ({m.hull_count:,} on the hull, {m.clump_count} bodies), "
          f"Δt {scene.dt:g} s, {t_run:g} s simulated: {s['wall_time_s']:.1f} s stepping "
          f"(+{s['startup_s']:.1f} s start-up), {s['steps_per_s']:.4g} steps/s, {s['ball_steps_per_s']:.3g} "
          f"ball-steps/s; {contacts:,.0f} contacts on average ({contacts * s['steps_per_s']:.3g} contact "
          f"evaluations/s); {s['pair_rebuilds']:,} body-pair searches on the host "
          f"({s['pair_searched_bodies'] / max(s['pair_rebuilds'], 1):.1f} bodies each), {s['pair_search_s']:.1f} s "
          f"({s['pair_search_s'] / s['wall_time_s']:.0%} of the stepping); energy balance error "
          f"{s['max_energy_error']:.2e}; device ≈ "
          f"{batch_bytes([m]) / 2**20:.1f} MiB; peak RSS {peak_rss_mib():.0f} MiB")
    return {"wall": float(s["wall_time_s"]), "t": t_run, "steps_per_s": float(s["steps_per_s"]),
            "steps": t_run / scene.dt}


def timed_advance(sim, steps: int) -> tuple[float, list]:
    sim.advance(sim.history_every)  # load the kernel and leave the first steps out of the timing
    t0 = time.perf_counter()
    rows = sim.advance(steps)
    return time.perf_counter() - t0, rows if isinstance(rows, list) else [rows]


def batch(a) -> None:
    W = a.worlds
    pgas = np.linspace(0.2, 0.5, W) if W > 1 else np.array([0.3])
    common = PACKINGS[a.batch_packing] | {"t_end": a.batch_t_end}
    t0 = time.perf_counter()
    worlds = build_worlds("drum_column", [{"pga_g": float(x)} for x in pgas], common=common)
    t_build = time.perf_counter() - t0
    sc = worlds.scenes[0]
    every = max(1, int(round(sc.history_dt / sc.dt)))
    steps = int(round(a.batch_t_end / sc.dt))
    rss0 = peak_rss_mib()
    sim = dem.Simulation(worlds.models, dt=sc.dt, history_every=every)
    wall, rows = timed_advance(sim, steps)
    per_world = batch_bytes(worlds.models, shares=sim.shares) / W
    m = worlds.models[0]
    print(f"batch: W = {W} columns ({a.batch_packing} packing: {m.ball_count:,} spheres, {m.hull_count:,} on the "
          f"hull), {steps:,} steps of {sc.dt:g} s each: {wall:.2f} s wall, {steps / wall:.4g} steps/s, "
          f"{W * steps / wall:.4g} world-steps/s; build {t_build:.1f} s; device ≈ {per_world / 2**20:.2f} MiB a "
          f"world; peak RSS {peak_rss_mib():.0f} MiB (was {rss0:.0f} before the batch: "
          f"{(peak_rss_mib() - rss0) / W:.1f} MiB a world at most)")
    if not a.alone:
        return
    k = min(a.alone, W)
    t_alone = 0.0
    for j in np.unique(np.linspace(0, W - 1, k).round().astype(int)):
        one = dem.Simulation(worlds.models[j], dt=sc.dt, history_every=every)
        w1, r1 = timed_advance(one, steps)
        t_alone += w1
        if a.arch == "cpu":  # the serial path: a world of the batch is its run alone, to the bit
            assert np.array_equal(r1[0], rows[j]), f"world {j} of the batch differs from its run alone"
    alone_w = t_alone / k * W
    print(f"       one by one: {alone_w:.2f} s for the {W} worlds ({k} timed, spread over the PGAs, scaled to "
          f"{W}), {W * steps / alone_w:.4g} world-steps/s; batch speed-up {alone_w / wall:.2f}×"
          + ("; each timed world equal to its batch world to the bit" if a.arch == "cpu" else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="cpu", help="Taichi backend: cpu (default), cuda, vulkan, ... where present")
    ap.add_argument("--t-end", type=float, default=10.0, help="simulated time of the pier and the column [s]")
    ap.add_argument("--worlds", type=int, default=16, help="column worlds in the batch")
    ap.add_argument("--batch-t-end", type=float, default=0.2, help="simulated time of the batch [s]")
    ap.add_argument("--column-packing", choices=sorted(PACKINGS), default="default")
    ap.add_argument("--batch-packing", choices=sorted(PACKINGS), default="default")
    ap.add_argument("--alone", type=int, default=4, help="batch worlds timed one by one (0: skip)")
    ap.add_argument("--skip", nargs="*", default=[], choices=["pier", "column", "batch"])
    a = ap.parse_args()
    for name, v in (("--t-end", a.t_end), ("--batch-t-end", a.batch_t_end)):
        if not v > 0:
            sys.exit(f"dem: error: {name} must be > 0 [s], got {v}")
    if a.worlds < 1:
        sys.exit(f"dem: error: --worlds must be >= 1, got {a.worlds}")
    dem.init(a.arch)
    rt = dem.device.runtime
    load = os.getloadavg()
    print(f"machine: {rt.device_name()} ({a.arch}), {rt.precision()}, {os.cpu_count()} cores, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}" + ("; not measured on a GPU" if a.arch == "cpu" else ""))
    # warm the kernel cache (a short pier run) so that neither timed run pays the load
    run_scene(build_scene("single_pier", {"t_end": 0.01}), progress=False, plots=False)
    pier = column = None
    if "pier" not in a.skip:
        pier = timed_run("single_pier", {"t_end": a.t_end})
    if "column" not in a.skip:
        column = timed_run("drum_column", PACKINGS[a.column_packing] | {"t_end": a.t_end})
    if pier and column:
        # the pier again, after the column: a loaded machine's load changes over the column's minutes
        again = timed_run("single_pier", {"t_end": a.t_end})
        for label, pr in (("before", pier), ("after", again)):
            ratio = (column["wall"] / column["t"]) / (pr["wall"] / pr["t"])
            print(f"column ÷ pier ({label} the column), wall time per simulated second: {ratio:.3g} (issue 22's "
                  f"goal: ≤ 2): {column['steps'] / pr['steps']:.3g}× the steps, "
                  f"{pr['steps_per_s'] / column['steps_per_s']:.3g}× the wall time a step")
    if "batch" not in a.skip:
        batch(a)
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
