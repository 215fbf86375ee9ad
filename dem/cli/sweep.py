"""``dem sweep SCENE --records DIR|GLOB --scale 0.1:1.0:10 --out DIR [...]`` (module dem.sweep)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from ..device.backends import check_block_dim
from ..records.files import find_records
from ..scenes.scene import load_scene_module, parse_assignments
from ..sweep.cases import parse_scale, parse_vary


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scene", help="scene file or name with a shaking table: a scene whose PARAMS take "
                   "dem.scenes.tools.RECORD_PARAMS (single_pier, pier_deck, drum_column, or your own: "
                   "docs/tutorial.md)")
    p.add_argument("--records", nargs="+", required=True, metavar="DIR|GLOB|FILE",
                   help="record files: a folder of .AT2 files (or of record sets, *.set.json), a glob ('recs/*.csv') "
                   "or files")
    p.add_argument("--scale", required=True, metavar="LO:HI:N|V1,V2,...",
                   help="intensities: N values from LO to HI, or a list (read as --scale-by says)")
    p.add_argument("--scale-by", default="factor", choices=["factor", "pga", "sa"],
                   help="--scale values are factors on the records (default), target PGAs [g], or target "
                        "5%%-damped Sa(--im-period) [g]")
    p.add_argument("--vary", nargs="+", action="extend", default=[], metavar="KEY=V1,V2",
                   help="scene parameters to vary (every combination)")
    p.add_argument("--set", dest="sets", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="scene parameters for every case")
    p.add_argument("--engine", default="rigid", choices=["dem", "rigid"],
                   help="dem: the DEM scene; rigid: its rigid rocking reference (default rigid)")
    p.add_argument("--out", required=True, help="output folder (re-run the same command to resume)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=0,
                       help="start a local Dask cluster of N worker processes (default 0: in this process)")
    where.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT", help="use a running Dask cluster")
    p.add_argument("--t-end", type=float, default=None,
                   help="simulated duration [s] (default: the longest record + the scene's settling time + 5 s)")
    p.add_argument("--im-period", type=float, default=1.0, help="period of the Sa intensity measure [s] (default 1)")
    p.add_argument("--batch-size", type=int, default=None,
                   help="cases per task (default: dem 16 on the CPU, 512 on a GPU, run as worlds of one batch; "
                        "rigid 500)")
    p.add_argument("--overturn-deg", type=float, default=None,
                   help="overturning angle [deg] (default: halfway between α and 90°)")
    p.add_argument("--rigid-dt", type=float, default=None,
                   help="rigid solver step and output interval [s] (default: the records' sample interval, <= 0.01)")
    p.add_argument("--restitution", type=float, default=None,
                   help="rigid impact restitution (default: the scene's reference, Housner's for a block)")
    p.add_argument("--rigid-geometry", default="nominal", choices=["nominal", "edge"],
                   help="rigid block: the nominal box, or pivoting on the DEM packing's rounded edges (α')")
    p.add_argument("--record-units", default="g", choices=["g", "m/s2"], help="units of CSV records")
    p.add_argument("--record-column", default="1", help="acceleration column of CSV records (index or name)")
    p.add_argument("--arch", default="cpu", choices=["cpu", "gpu", "cuda", "vulkan", "metal"],
                   help="Taichi backend for the dem engine")
    p.add_argument("--precision", default="f64", choices=["f64", "f32"])
    p.add_argument("--block-dim", type=int, default=None, metavar="N",
                   help="threads per world on the block path (dem engine; a power of two up to the backend's limit; "
                        "default: the backend's; a world's bits are one block size's)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _sigterm(signum, frame):  # noqa: ARG001
    # SystemExit unwinds the stack: the Dask cluster is closed; finished batches are already on disk
    raise SystemExit(128 + signum)


def main(a) -> int:
    from ..sweep.runner import SweepSpec, run_sweep

    try:
        module = load_scene_module(a.scene)
        fixed = {k: module.PARAMS[k].convert(k, v) if k in module.PARAMS else v
                 for k, v in parse_assignments(a.sets).items()}
        unknown = [k for k in fixed if k not in module.PARAMS]
        if unknown:
            raise ValueError(f"--set: unknown parameter {unknown[0]!r}; valid keys: {', '.join(sorted(module.PARAMS))}")
        if a.block_dim is not None:
            check_block_dim(a.block_dim, a.arch, name="--block-dim")  # before any case is planned
        spec = SweepSpec(scene=a.scene, records=find_records(a.records), intensities=parse_scale(a.scale),
                         out=Path(a.out), engine=a.engine, scale_by=a.scale_by, vary=parse_vary(a.vary, module.PARAMS),
                         fixed=fixed, t_end=a.t_end, im_period=a.im_period, batch_size=a.batch_size,
                         overturn_deg=a.overturn_deg, rigid_dt=a.rigid_dt, restitution=a.restitution,
                         rigid_geometry=a.rigid_geometry, arch=a.arch, precision=a.precision,
                         block_dim=a.block_dim, record_units=a.record_units, record_column=a.record_column)
        if a.batch_size is not None and a.batch_size < 1:
            raise ValueError(f"--batch-size must be >= 1, got {a.batch_size}")
        previous = signal.signal(signal.SIGTERM, _sigterm)
        try:
            df = run_sweep(spec, workers=a.workers, scheduler=a.scheduler,
                           progress=not a.no_progress and sys.stderr.isatty())
        finally:
            signal.signal(signal.SIGTERM, previous)
    except ValueError as e:
        print(f"dem: error: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(f"dem: {e}", file=sys.stderr)
        return 1
    n_over = int(df["overturned"].sum()) if len(df) else 0
    bad = int((df["status"] != "ok").sum()) if len(df) else 0
    print(f"{len(df)} cases in {a.out}: {n_over} overturned, {bad} not ok (status column)")
    return 0
