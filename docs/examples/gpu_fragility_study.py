"""The study a GPU is for (issue 30, item 6; docs/examples/gpu_fragility.md): the single pier under 50 synthetic
records × 20 peak ground accelerations, 1,000 DEM cases as the worlds of one batch, with the rigid block beside it;
fragility curves, and the DEM sweep's wall time.

    python docs/examples/gpu_fragility_study.py --arch cuda              # the 1,000 cases in one batch on one GPU
    python docs/examples/gpu_fragility_study.py --arch cpu --sample 16   # 16 of them on the CPU: the projection

With ``--sample K`` (K = a × b) the DEM sweep runs a of the records × b of the levels, each spread evenly over the
study's, and the study's time on that backend is projected from it (the records are independent draws, the levels
span the range, so the sample's mean case is the study's). Every step is a ``dem`` command, printed before it runs;
the sweeps resume where they stopped. ``numbers.json`` (in --figures) holds the times, the machine, the device and
the fitted medians.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
from pathlib import Path

from dem_commands import dem  # beside this script

SEED = 2027
RECORDS = 50
LEVELS = 20  # PGA 0.1, 0.2, …, 2.0 g
PGA_MAX = 2.0  # g


def levels(n: int) -> list[float]:
    """The study's PGA levels [g]: PGA_MAX / n, 2 PGA_MAX / n, …, PGA_MAX."""
    return [round(PGA_MAX * (k + 1) / n, 6) for k in range(n)]


def spread(items: list, k: int) -> list:
    """k of `items`, evenly spread: the middles of k equal parts."""
    if not 1 <= k <= len(items):
        raise SystemExit(f"gpu_fragility_study: error: a sample of {k} from {len(items)}: 1 to {len(items)}")
    return [items[int((j + 0.5) * len(items) / k)] for j in range(k)]


def sample_shape(sample: int, n_records: int, n_levels: int) -> tuple[int, int]:
    """(records, levels) of a sample of `sample` cases: the factor pair nearest a square that fits the study."""
    pairs = [(a, sample // a) for a in range(1, sample + 1) if sample % a == 0
             and a <= n_records and sample // a <= n_levels]
    if not pairs:
        raise SystemExit(f"gpu_fragility_study: error: --sample {sample}: a product a × b with a ≤ {n_records} "
                         f"records and b ≤ {n_levels} levels")
    return min(pairs, key=lambda p: abs(math.log(p[0] / p[1])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="cuda", help="backend of the DEM sweep (default cuda)")
    ap.add_argument("--out", default="runs/gpu_fragility", help="working folder (default runs/gpu_fragility)")
    ap.add_argument("--figures", default=None, help="numbers.json and the fragility figure (default OUT/figures)")
    ap.add_argument("--records", type=int, default=RECORDS, help=f"synthetic records (default {RECORDS})")
    ap.add_argument("--levels", type=int, default=LEVELS, help=f"PGA levels up to {PGA_MAX:g} g (default {LEVELS})")
    ap.add_argument("--duration", default="10:20", help="record durations LOW:HIGH [s] (default 10:20)")
    ap.add_argument("--sample", type=int, default=0, help="run K of the cases and project the study's time "
                                                          "(default 0: all of them)")
    ap.add_argument("--block-dim", type=int, default=None, help="threads a world on a GPU (default the backend's)")
    a = ap.parse_args()
    out = Path(a.out)
    figs = Path(a.figures) if a.figures else out / "figures"
    recs = out / "records"
    n_cases = a.records * a.levels
    times = {"load_average_start": os.getloadavg()}
    times["records_s"] = dem("records", "synth", "--count", str(a.records), "--seed", str(SEED), "--out", str(recs),
                             "--duration", a.duration, "--freq", "1:4", "--pga", "0.2:0.5")
    files = sorted(recs.glob("*.AT2"))
    pgas = levels(a.levels)
    # the longest record sets every case's duration (dem sweep's default), so all the cases are one batch of worlds
    times["rigid_sweep_s"] = dem(*_sweep(files, pgas), "--engine", "rigid", "--out", str(out / "rigid"))
    dem_files, dem_pgas = files, pgas
    if a.sample:
        n_rec, n_lev = sample_shape(a.sample, a.records, a.levels)
        dem_files, dem_pgas = spread(files, n_rec), spread(pgas, n_lev)
    t_end = _t_end(out / "rigid")
    n_dem = len(dem_files) * len(dem_pgas)
    extra = ["--block-dim", str(a.block_dim)] if a.block_dim else []
    if not extra:  # the step kernel compiled (or loaded from the kernel cache) apart from the sweep's time
        times["compile_s"] = dem("compile", "--arch", a.arch, "--entry", "run" if a.arch == "cpu" else "blocks",
                                 "--no-progress")
    times["dem_sweep_s"] = dem(*_sweep(dem_files, dem_pgas), "--t-end", repr(t_end), "--engine", "dem", "--arch",
                               a.arch, "--batch-size", str(n_dem), *extra, "--out", str(out / "dem"))
    dirs, labels = [out / "rigid"], ["rigid (Housner)"]
    if not a.sample:
        dirs.append(out / "dem")
        labels.append("DEM")
    times["fragility_s"] = dem("fragility", *map(str, dirs), "--labels", *labels, "--out", str(out / "fragility"))
    times["load_average_end"] = os.getloadavg()
    figs.mkdir(parents=True, exist_ok=True)
    for name in ("fragility.png", "ida.png"):
        if (out / "fragility" / name).exists():
            shutil.copyfile(out / "fragility" / name, figs / name)
    doc = numbers(out, a, n_cases, n_dem, t_end, times)
    (figs / "numbers.json").write_text(json.dumps(doc, indent=1, default=str) + "\n")
    print(json.dumps({k: doc[k] for k in ("device", "dem_cases_run", "dem_sweep_s", "study_s", "study")},
                     default=str))


def _sweep(files: list[Path], pgas: list[float]) -> list[str]:
    """dem sweep's arguments for the single pier under these records scaled to these PGAs [g]."""
    return ["sweep", "single_pier", "--records", *map(str, files), "--scale", ",".join(f"{g:g}" for g in pgas),
            "--scale-by", "pga"]


def _t_end(rigid_dir: Path) -> float:
    """Every case's simulated time [s]: the longest record + the scene's settling + 5 s, as dem sweep takes it
    by default, read from the rigid sweep's settings (so a sample runs the study's duration, not its records')."""
    return float(json.loads((rigid_dir / "sweep.json").read_text())["t_end_s"])


def numbers(out: Path, a, n_cases: int, n_dem: int, t_end: float, times: dict) -> dict:
    """What gpu_fragility.md quotes: the machine and device, the DEM sweep's wall time, its worlds × steps and rate, the
    study's time (measured, or projected from the sample), and the fitted medians."""
    from dem.device import runtime
    from dem.scenes.scene import load_scene_module
    from dem.sweep.store import read_results

    d = read_results(out / "dem")
    dt = load_scene_module("single_pier").PARAMS["dt"].default  # the scene's Δt [s]
    steps = n_dem * round(t_end / dt)  # a batch's: it steps until its last world ends (the fallen stop early, idle)
    doc = {"machine": f"{platform.node()} ({os.cpu_count()} CPUs)", "device": runtime.device_name(),
           "arch": a.arch, "block_dim": a.block_dim, "cases": n_cases, "dem_cases_run": n_dem, "t_end_s": t_end,
           "dt_s": dt, "batch_world_steps": steps, "dem_sweep_s": times["dem_sweep_s"],
           "batch_world_steps_per_s": steps / times["dem_sweep_s"], "not_ok": int((d["status"] != "ok").sum()),
           "overturned": int(d["overturned"].astype(bool).sum()), "times": times}
    doc["study_s"] = times["dem_sweep_s"] * n_cases / n_dem
    doc["study"] = "measured" if n_dem == n_cases else f"projected from {n_dem} of the {n_cases} cases"
    frag = out / "fragility" / "fragility.json"
    if frag.exists():
        doc["fragility"] = json.loads(frag.read_text())
    return doc


if __name__ == "__main__":
    main()
