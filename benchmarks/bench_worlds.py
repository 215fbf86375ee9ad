"""Speed of batches of worlds (issue 11): W Peña blocks released from θ0 spread over 1°–5°, stepped together
in one Simulation, against the same worlds run one by one.

    python benchmarks/bench_worlds.py [--arch cpu] [--worlds 1 10 100] [--t-end 0.2] [--packing paper]
                                      [--parallel] [--alone N] [--block-dim 32 64 128 256]

For each W it prints the batch's steps/s, world-steps/s, contact evaluations/s (from the recorded contact
counts), the device memory per world (the arrays allocated at the start, dem.physics.batch_memory.batch_bytes)
and the process's peak memory; then the same worlds one by one (``--alone`` of them, spread over the batch, timed
and scaled to W) and the speed-up. A W whose batch would not fit in the device's memory is skipped with the
``dem: error:`` line that says how many worlds fit.
Kernels are compiled before timing (a warm-up step). The first worlds' peaks show the runs are the real ones.
"""

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import dem  # noqa: E402
from dem.physics.batch_memory import BatchTooLarge, batch_bytes  # noqa: E402
from dem.physics.history_rows import C_QUAT, G_NC  # noqa: E402
from dem.run.worlds import build_worlds  # noqa: E402

PACKINGS = {"paper": {}, "coarse": {"r_base": 0.01, "r_core": 0.04}}


def timed_advance(sim, steps: int) -> tuple[float, list]:
    sim.advance(sim.history_every)  # compile (or load) the kernel and leave the first step out of the timing
    t0 = time.perf_counter()
    rows = sim.advance(steps)
    return time.perf_counter() - t0, rows if isinstance(rows, list) else [rows]


def contact_evaluations(rows: list, history_every: int) -> float:
    """Contacts evaluated: each record's count stands for the history_every steps before it."""
    return float(sum(np.sum(r[:, G_NC]) for r in rows)) * history_every


def tilt_deg(sim, rows):
    """Tilt of the block (clump 0) from its recorded orientation quaternion (w, x, y, z): 2 acos|w| [deg]."""
    w = sim.layout.clump(rows, 0, C_QUAT, 1)[:, 0]
    return np.degrees(2.0 * np.arccos(np.clip(np.abs(w), 0.0, 1.0)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="cpu")
    ap.add_argument("--worlds", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--t-end", type=float, default=0.2, help="simulated time per run [s] (the block rocks)")
    ap.add_argument("--packing", choices=sorted(PACKINGS), default="paper")
    ap.add_argument("--parallel", action="store_true", help="the block path (default on GPUs)")
    ap.add_argument("--alone", type=int, default=4, help="worlds timed one by one, to scale to W (0: skip)")
    ap.add_argument("--block-dim", type=int, nargs="+", default=[None],
                    help="threads a world's block on a GPU backend (Simulation(block_dim=...)); several: a sweep")
    a = ap.parse_args()
    dem.init(a.arch)
    dt, history_every = 1e-5, 100
    steps = int(round(a.t_end / dt))
    parallel = True if a.parallel else None
    block_path = bool(a.parallel) or a.arch != "cpu"  # GPU backends take the block path by default
    rt = dem.device.runtime
    print(f"machine: {rt.device_name()} ({a.arch}), {rt.precision()}, packing {a.packing}, "
          f"{steps} steps of {dt:g} s per world, sleep off")
    for W, bd in ((w, b) for w in a.worlds for b in a.block_dim):
        thetas = np.linspace(1.0, 5.0, W) if W > 1 else np.array([2.9])
        t0 = time.perf_counter()
        worlds = build_worlds("pena_block", [{"theta0_deg": float(x)} for x in thetas], common=PACKINGS[a.packing])
        t_build = time.perf_counter() - t0
        try:  # a batch too large for the device's memory is refused before it is allocated: say so, go on
            sim = dem.Simulation(worlds.models, dt=dt, history_every=history_every, sleep=False, parallel=parallel,
                                 block_dim=bd)
        except BatchTooLarge as e:
            print(f"W = {W:5d}: dem: error: {e}", file=sys.stderr)
            continue
        wall, rows = timed_advance(sim, steps)
        evals = contact_evaluations(rows, history_every)
        per_world = batch_bytes(worlds.models, shares=sim.shares) / W
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        m = worlds.models[0]
        block = "" if bd is None else f", block {bd:3d}"
        print(f"W = {W:5d}{block}: {steps / wall:10.4g} steps/s, {W * steps / wall:10.4g} world-steps/s, "
              f"{evals / wall:9.3g} contact evaluations/s; {m.ball_count:,} balls ({m.hull_count:,} on the hull) "
              f"a world; device ≈ {per_world / 2**20:.1f} MiB/world; peak RSS {peak:.0f} MiB; build {t_build:.1f} s, "
              f"{wall:.2f} s wall")
        if a.alone:
            k = min(a.alone, W)
            t_alone, diff = 0.0, 0.0
            # worlds spread over the batch (θ0 from 1° to 5°: the cost per step changes with the tilt)
            for j in np.unique(np.linspace(0, W - 1, k).round().astype(int)):
                one = dem.Simulation(worlds.models[j], dt=dt, history_every=history_every, sleep=False,
                                     parallel=parallel, block_dim=bd)
                w1, r1 = timed_advance(one, steps)
                t_alone += w1
                if block_path:  # atomic sums in a thread block's order: equal to round-off, not to the bit
                    diff = max(diff, float(np.abs(tilt_deg(one, r1[0]) - tilt_deg(sim, rows[j])).max()))
                else:
                    assert np.array_equal(r1[0], rows[j]), "a world of the batch differs from it alone"
            alone_w = t_alone / k * W
            print(f"          one by one: {alone_w:.2f} s for the {W} worlds ({k} timed, spread over θ0), "
                  f"{W * steps / alone_w:.4g} world-steps/s; batch speed-up {alone_w / wall:.2f}×"
                  + (f"; tilt differs from the batch's by {diff:.2g} deg at most" if block_path
                     else "; the same rows bit for bit"))
        peaks = [float(tilt_deg(sim, r).max()) for r in rows[:3]]
        print(f"          first worlds' largest tilts from the record: {np.round(peaks, 2).tolist()} deg")
        del sim, worlds


if __name__ == "__main__":
    main()
