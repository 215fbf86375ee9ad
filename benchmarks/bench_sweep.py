"""Speed of ``dem sweep``: cases/s of the rigid and DEM engines, in process and on Dask (1 and 2 workers),
and the overhead of the Dask path against in-process.

    python benchmarks/bench_sweep.py [--records 1000] [--dem-cases 8] [--dem-t-end 10] [--workers 1,2]
                                     [--skip-dem] [--skip-dask]

1. Rigid engine: ``--records`` synthetic records (dem records synth, 10–20 s, 1–4 Hz) at one intensity
   through the single pier's rigid block in one batch: the time to read the records and build the case
   table, the solve, and the whole sweep. (000 §5: 1000 records in 161 min; target here ≤ 2 s of solving.)
2. DEM engine, single pier: ``--dem-cases`` cases of ``--dem-t-end`` s on the coarse packing
   (r1 = 0.16 m, r2 = 0.4 m) and on the scene's packing (r1 = 0.08 m, r2 = 0.2 m, 5,911 balls), in process,
   after a warm-up case (kernel compilation, once per process, is reported apart).
3. Dask: the same coarse DEM cases on a LocalCluster of 1 and 2 workers (started before timing and warmed
   with one case per worker, as a long sweep would have them), one case per task and batches of ≥ 10 s of
   work; overhead = (Dask wall time − in-process wall time) / in-process wall time with 1 worker.

On this shared 2-core machine every figure is "loaded": other jobs run beside it.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dem.records import SuiteRanges, suite_record, write_at2  # noqa: E402
from dem.sweep import SweepSpec, run_sweep  # noqa: E402
from dem.sweep.runner import plan_sweep  # noqa: E402

COARSE = {"r_base": 0.16, "r_core": 0.4}
SCENE_PACKING: dict = {}


def write_records(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    ranges = SuiteRanges(duration=(10.0, 20.0), f_g=(1.0, 4.0), pga_g=(0.2, 0.5))
    paths = []
    for i in range(count):
        model, acc = suite_record(99, i, ranges)
        paths.append(write_at2(folder / f"b{i:04d}.AT2", model.dt, acc, digits=8))
    return paths


def quiet(msg: str) -> None:
    pass


def bench_rigid(tmp: Path, count: int) -> None:
    recs = write_records(tmp / "rigid_recs", count)
    spec = SweepSpec(scene="single_pier", records=recs, intensities=[0.8], scale_by="pga", engine="rigid",
                     batch_size=count, out=tmp / "rigid")
    t0 = time.perf_counter()
    plan = plan_sweep(spec)
    t_plan = time.perf_counter() - t0
    shutil.rmtree(tmp / "rigid")
    t0 = time.perf_counter()
    df = run_sweep(spec, log=quiet)
    total = time.perf_counter() - t0
    solve = float(df["wall_time_s"].sum())
    print(f"rigid engine, {count} records × 1 intensity (PGA 0.8 g, {plan.t_end:.1f} s each, step "
          f"{plan.settings['rigid_dt_s']:g} s): "
          f"{total:.2f} s for the sweep ({count / total:.0f} cases/s) = {t_plan:.2f} s reading the records and "
          f"planning + {solve:.2f} s preparing and solving ({count / solve:.0f} cases/s) + writing; "
          f"{int(df['overturned'].sum())} overturned")


def dem_spec(tmp: Path, name: str, recs: list[Path], t_end: float, fixed: dict, batch: int = 1,
             levels: int = 1) -> SweepSpec:
    """DEM cases: each record at `levels` PGAs from 0.6 g up."""
    return SweepSpec(scene="single_pier", records=recs, intensities=[0.6 + 0.05 * k for k in range(levels)],
                     scale_by="pga", engine="dem", t_end=t_end, fixed=fixed, batch_size=batch, out=tmp / name)


def bench_dem(tmp: Path, recs: list[Path], t_end: float, fixed: dict, label: str) -> float:
    run_sweep(dem_spec(tmp, f"warm_{label}", recs[:1], t_end, fixed), log=quiet)  # compile, build once
    t0 = time.perf_counter()
    df = run_sweep(dem_spec(tmp, f"dem_{label}", recs, t_end, fixed), log=quiet)
    wall = time.perf_counter() - t0
    print(f"DEM engine, {label} packing, in process: {len(df)} cases of {t_end:g} s in {wall:.1f} s "
          f"({len(df) / wall:.3g} cases/s, {wall / len(df):.2f} s/case; {t_end / (wall / len(df)):.3g} simulated "
          f"s per wall s); largest energy error {df['energy_error'].max():.1e}")
    return wall


def bench_dask(tmp: Path, recs: list[Path], t_end: float, workers: int, batch: int, levels: int,
               in_process: float) -> None:
    from distributed import Client, LocalCluster

    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, silence_logs=logging.ERROR)
    addr = cluster.scheduler_address
    Client(addr).close()
    t_start = time.perf_counter() - t0
    try:
        t0 = time.perf_counter()  # one case per worker: each compiles its kernels once
        run_sweep(dem_spec(tmp, f"dask_warm{workers}", recs[:workers], t_end, COARSE), scheduler=addr, log=quiet)
        t_warm = time.perf_counter() - t0
        t0 = time.perf_counter()
        df = run_sweep(dem_spec(tmp, f"dask{workers}", recs, t_end, COARSE, batch, levels), scheduler=addr,
                       log=quiet)
        wall = time.perf_counter() - t0
    finally:
        cluster.close()
    over = (wall - in_process) / in_process
    print(f"DEM engine, coarse, Dask {workers} worker(s), {batch} cases/task: {len(df)} cases in {wall:.1f} s "
          f"({len(df) / wall:.3g} cases/s); vs in process ({in_process:.1f} s): {100 * over:+.0f} %; cluster "
          f"start {t_start:.1f} s, warm-up (compile on each worker) {t_warm:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--dem-cases", type=int, default=8)
    ap.add_argument("--dem-t-end", type=float, default=10.0)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--skip-dem", action="store_true")
    ap.add_argument("--skip-dask", action="store_true")
    a = ap.parse_args()
    import dem

    print(f"loaded shared machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    tmp = Path(tempfile.mkdtemp(prefix="bench_sweep_"))
    try:
        bench_rigid(tmp, a.records)
        if a.skip_dem:
            return
        dem.init("cpu")
        recs = write_records(tmp / "dem_recs", a.dem_cases)
        coarse = bench_dem(tmp, recs, a.dem_t_end, COARSE, "coarse")
        bench_dem(tmp, recs, a.dem_t_end, SCENE_PACKING, "scene (5,911 balls)")
        if a.skip_dask:
            return
        # tasks of >= 10 s of work, 4 of them: the overhead the issue bounds (<= 10 %)
        batch = max(1, math.ceil(10.0 / (coarse / a.dem_cases)))
        levels = math.ceil(4 * batch / len(recs))
        t0 = time.perf_counter()
        n = len(run_sweep(dem_spec(tmp, "dem_dask_ref", recs, a.dem_t_end, COARSE, batch, levels), log=quiet))
        ref = time.perf_counter() - t0
        print(f"DEM engine, coarse, in process, {batch} cases/batch: {n} cases in {ref:.1f} s ({n / ref:.3g} cases/s)")
        for w in (int(x) for x in a.workers.split(",")):
            bench_dask(tmp, recs, a.dem_t_end, w, batch, levels, ref)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
