"""Running a sweep: the case table, what is already done, batches, in-process or on Dask, progress.

In process (``workers=0``, no scheduler): batches run one after the other here. On Dask: ``workers=N``
starts a ``distributed.LocalCluster`` of N single-threaded worker processes on the loopback interface
(its Taichi threads: the cores ÷ N; with ``--arch cuda`` worker k sees GPU k only),
``scheduler='tcp://HOST:PORT'`` connects to a running cluster (its
workers must see the scene and record files at the same paths). Before the first DEM batch one worker per
host compiles the kernels (``dem compile``) into the host's kernel cache, so the other workers load them
instead of compiling them again. One batch is one task; a task whose
worker dies is rescheduled by Dask, and a task that raises is retried ``RETRIES`` times. Finished batches
are written by this process as they arrive (dem.sweep.store), so a killed sweep keeps every finished
batch and a re-run skips them.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..references import load as load_reference
from ..scenes.scene import build_scene, load_scene_module, resolve_params
from ..scenes.tools import RECORD_PARAMS
from .cases import RESERVED, Case, build_cases, record_infos
from .engines import ASSEMBLY_EDGE, ENGINES, RIGID_ENGINE, RIGID_GEOMETRIES, Batch, run_batch
from .store import ResultStore

RETRIES = 2
"""Times Dask retries a batch that raised (a worker that dies is rescheduled by Dask itself)."""
DEFAULT_BATCH = {"dem": 16, "rigid": 500}
"""Cases per batch on the CPU: the DEM engine runs a batch as worlds stepped together (one CPU thread per
world; 16 keep two to eight cores busy while a killed sweep loses little), the rigid solver is vectorised
over its batch."""
DEFAULT_DEM_BATCH_GPU = 512
"""Cases per DEM batch on a GPU backend: one thread block per world, and a GPU needs hundreds of blocks."""
TAIL = 5.0
"""Free vibration after the longest record when --t-end is not given [s]."""


@dataclass
class SweepSpec:
    """What to sweep (see ``dem sweep --help``). scene: file or name; records: record files; intensities:
    the --scale values; scale_by: 'factor', 'pga' or 'sa'; vary: parameter → values; fixed: scene
    parameters for every case (--set); t_end [s] (None: the longest record + delay + TAIL); im_period [s]
    of Sa; engine options (overturn_deg, rigid_dt [s] (None: the records' smallest sample interval, at most
    0.01 s), restitution, rigid_geometry, arch, precision, block_dim: threads a world on the block path, None: the
    backend's default)."""

    scene: str
    records: list
    intensities: list
    out: Path
    engine: str = "rigid"
    scale_by: str = "factor"
    vary: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    t_end: float | None = None
    im_period: float = 1.0
    batch_size: int | None = None
    overturn_deg: float | None = None
    rigid_dt: float | None = None
    restitution: float | None = None
    rigid_geometry: str = "nominal"
    arch: str = "cpu"
    precision: str = "f64"
    block_dim: int | None = None
    record_units: str = "g"
    record_column: str = "1"


@dataclass
class SweepPlan:
    """A checked sweep: its cases, the batches still to run, the store and the settings."""

    spec: SweepSpec
    scene_path: str
    cases: list
    pending: list
    store: ResultStore
    settings: dict
    t_end: float


def _check_shaking_table(scene: str, module) -> None:
    """Refuse a scene the sweep cannot drive: no record, or a record without the parameters the sweep sets."""
    if "record" not in module.PARAMS:
        raise ValueError(f"scene {scene!r} has no shaking table (no 'record' parameter)")
    # record_h2, record_v: a record set's other components, needed only when the records are sets (base_signal)
    missing = [k for k in RECORD_PARAMS if k not in module.PARAMS and k not in ("record_h2", "record_v")]
    if missing:
        raise ValueError(f"scene {scene!r} takes a record but not the parameters a sweep sets on it "
                         f"({', '.join(missing)}): a swept scene takes dem.scenes.tools.RECORD_PARAMS in its PARAMS "
                         "(shaking_params(sine) gives them with the Eq. 42 sine's) and builds its table with "
                         "base_signal and shaking (docs/tutorial.md, 'Sweeping your own scene')")


def plan_sweep(spec: SweepSpec) -> SweepPlan:
    """Check everything (before any simulation), build the case table, compare with the folder's settings
    and find the cases still to run."""

    if spec.engine not in ENGINES:
        raise ValueError(f"--engine must be one of {ENGINES}, got {spec.engine!r}")
    if spec.rigid_geometry not in RIGID_GEOMETRIES:
        raise ValueError(f"--rigid-geometry must be one of {RIGID_GEOMETRIES}, got {spec.rigid_geometry!r}")
    if not (math.isfinite(spec.im_period) and spec.im_period > 0):
        raise ValueError(f"--im-period must be > 0 [s], got {spec.im_period}")
    if spec.rigid_dt is not None and not (math.isfinite(spec.rigid_dt) and 0 < spec.rigid_dt <= 0.01):
        raise ValueError(f"--rigid-dt must be in (0, 0.01] s, got {spec.rigid_dt}")
    if spec.overturn_deg is not None and not 0 < spec.overturn_deg < 180:
        raise ValueError(f"--overturn-deg must be in (0, 180) deg, got {spec.overturn_deg}")
    if spec.restitution is not None and not 0 <= spec.restitution <= 1:
        raise ValueError(f"--restitution must be in [0, 1], got {spec.restitution}")
    if spec.t_end is not None and not (math.isfinite(spec.t_end) and spec.t_end > 0):
        raise ValueError(f"--t-end must be > 0 [s], got {spec.t_end}")
    module = load_scene_module(spec.scene)
    scene_path = str(Path(module.__file__).resolve())
    _check_shaking_table(spec.scene, module)
    for k in spec.fixed:
        if k in RESERVED:
            raise ValueError(f"--set {k}: the sweep sets {k} itself (use --records, --scale, --t-end)")
        if k in spec.vary:
            raise ValueError(f"{k} is both fixed (--set) and varied (--vary)")
    recs = record_infos(spec.records, im_period=spec.im_period, units=spec.record_units,
                        column=spec.record_column)
    cases = build_cases(recs, spec.intensities, scale_by=spec.scale_by, vary=spec.vary)
    fixed = dict(spec.fixed)
    if spec.record_units != "g" or spec.record_column != "1":
        fixed |= {"record_units": spec.record_units, "record_column": spec.record_column}
    base = resolve_params(module.PARAMS, fixed | cases[0].overrides(), scene=Path(scene_path).stem)
    delay = float(base.get("settle", 0.0))
    t_end = spec.t_end if spec.t_end is not None else max(r.duration for r in recs) + delay + TAIL
    for c in cases:  # every parameter set checked now, not in a worker an hour later
        resolve_params(module.PARAMS, fixed | c.overrides() | {"t_end": t_end}, scene=Path(scene_path).stem)
    # the records' own sampling by default: the rigid solver then sees every sample of each record exactly
    rigid_dt = spec.rigid_dt if spec.rigid_dt is not None else min([0.01] + [r.dt for r in recs])
    settings = {"scene": Path(scene_path).stem, "engine": spec.engine, "scale_by": spec.scale_by,
                "t_end_s": t_end, "im_period_s": spec.im_period, "fixed": fixed,
                "overturn_deg": spec.overturn_deg}
    if spec.engine == "rigid":
        load_reference("rocking", needed_by=RIGID_ENGINE)  # the solver is there, before any batch
        _check_rigid_reference(module, fixed | cases[0].overrides() | {"t_end": t_end}, spec.rigid_geometry)
        settings |= {"rigid_dt_s": rigid_dt, "restitution": spec.restitution,
                     "rigid_geometry": spec.rigid_geometry}
    else:
        settings |= {"arch": spec.arch, "precision": spec.precision}
        if spec.block_dim is not None:  # (a folder swept before the option keeps its sweep.json)
            settings["block_dim"] = spec.block_dim
    store = ResultStore(spec.out)
    store.check_settings(settings)
    done = store.done_ids()
    pending = [c for c in cases if c.case_id not in done]
    return SweepPlan(spec, scene_path, cases, pending, store, settings, t_end)


def _check_rigid_reference(module, params: dict, geometry: str) -> None:
    """The rigid engine needs the scene's rigid reference (``info['rigid_reference']``); for an assembly of
    blocks (``info['assembly']``: the drum column) that is the monolithic body, so the one-block edge geometry
    does not apply. Checked on the first case's scene, before any batch (geometry only: the same for all)."""
    info = build_scene(module, params).info
    name = getattr(module, "NAME", module.__name__)
    if "rigid_reference" not in info:
        raise ValueError(f"--engine rigid: scene {name!r} has no rigid reference (info['rigid_reference']); "
                         "use --engine dem")
    if geometry == "edge" and "assembly" in info:
        raise ValueError(ASSEMBLY_EDGE)


def make_batches(plan: SweepPlan, *, threads: int | None = None) -> list[Batch]:
    """The pending cases in batches of ``batch_size`` cases sharing one parameter set."""
    spec = plan.spec
    size = spec.batch_size or (DEFAULT_DEM_BATCH_GPU if spec.engine == "dem" and spec.arch not in (None, "cpu")
                               else DEFAULT_BATCH[spec.engine])
    if size < 1:
        raise ValueError(f"--batch-size must be >= 1, got {size}")
    options = {"overturn_deg": spec.overturn_deg, "arch": spec.arch, "precision": spec.precision,
               "threads": threads, "rigid_dt": plan.settings.get("rigid_dt_s"), "restitution": spec.restitution,
               "rigid_geometry": spec.rigid_geometry, "block_dim": spec.block_dim}
    fixed = plan.settings["fixed"] | {"t_end": plan.t_end}
    groups: dict[str, list[Case]] = {}
    for c in plan.pending:
        groups.setdefault(c.group(), []).append(c)
    batches = []
    for members in groups.values():
        for i in range(0, len(members), size):
            chunk = members[i:i + size]
            batches.append(Batch(plan.scene_path, spec.engine, tuple((c.case_id, c.overrides()) for c in chunk),
                                 fixed, options))
    return batches


def case_columns(plan: SweepPlan, cases: list[Case]) -> pd.DataFrame:
    """The case-table columns of the results: ids, record, intensity, scaling, measures, parameters."""
    rows = []
    for c in cases:
        rows.append({"case_id": c.case_id, "scene": plan.settings["scene"], "engine": plan.spec.engine,
                     "record": c.record.name, "intensity": c.intensity, "scale_by": c.scale_by, "scale": c.scale,
                     "pga_g": c.pga_g, "sa_g": c.sa_g, "sa_period_s": plan.spec.im_period,
                     "t_end_s": plan.t_end} | {f"param_{k}": v for k, v in c.params.items()})
    return pd.DataFrame(rows)


def _finish_batch(plan: SweepPlan, by_id: dict, rows: pd.DataFrame) -> int:
    meta = case_columns(plan, [by_id[i] for i in rows["case_id"]])
    table = meta.merge(rows, on="case_id", how="left", validate="one_to_one")
    plan.store.append(table)
    return len(table)


def run_sweep(spec: SweepSpec, *, workers: int = 0, scheduler: str | None = None, progress: bool = False,
              log=None) -> pd.DataFrame:
    """Plan, run what is pending, consolidate; returns the whole results table (dem.sweep.store)."""
    say = log or (lambda msg: print(msg, file=sys.stderr))
    plan = plan_sweep(spec)
    if workers < 0:
        raise ValueError(f"--workers must be >= 0, got {workers}")
    if workers and scheduler:
        raise ValueError("give --workers (a local cluster) or --scheduler (an existing one), not both")
    n_done = len(plan.cases) - len(plan.pending)
    if n_done:
        say(f"{plan.store.out}: {n_done} of {len(plan.cases)} cases already done; running {len(plan.pending)}")
    threads = max(1, (os.cpu_count() or 1) // workers) if workers else None
    batches = make_batches(plan, threads=threads)
    by_id = {c.case_id: c for c in plan.pending}
    bar = None
    if progress and batches:
        from tqdm import tqdm

        bar = tqdm(total=len(plan.pending), unit="case", desc=f"sweep {spec.engine}", dynamic_ncols=True)
    failed: list[str] = []
    t0 = time.perf_counter()
    try:
        if not batches:
            pass
        elif workers or scheduler:
            failed = _run_dask(plan, batches, by_id, bar, workers=workers, scheduler=scheduler)
        else:
            for b in batches:
                n = _finish_batch(plan, by_id, run_batch(b))
                if bar is not None:
                    bar.update(n)
    finally:
        if bar is not None:
            bar.close()
        df = plan.store.consolidate()
    if batches:
        rate = len(plan.pending) / max(time.perf_counter() - t0, 1e-9)
        say(f"{len(plan.pending) - sum(len(b.cases) for b, _ in failed)} cases in {time.perf_counter() - t0:.1f} s "
            f"({rate:.3g} cases/s); results: {plan.store.out / 'results.parquet'} and results.csv")
    if failed:
        raise RuntimeError(f"{len(failed)} batch(es) failed after {RETRIES} retries (re-run to retry them): "
                           + "; ".join(msg for _, msg in failed[:3]))
    return df


def _compile_once_per_host(client, arch: str, precision: str) -> None:
    """Compile the kernels on one worker of each host before any batch starts (engines.compile_kernels): the
    workers of a host share its kernel cache, so a cluster compiles once per machine instead of once per worker
    (every worker of a fresh cluster would otherwise compile the same kernels on its first batch)."""
    from .engines import compile_kernels

    hosts: dict[str, str] = {}
    for addr, info in client.scheduler_info().get("workers", {}).items():
        hosts.setdefault(str(info.get("host", addr)), addr)
    futures = [client.submit(compile_kernels, arch, precision, workers=[addr], allow_other_workers=False,
                             pure=False, key=f"dem-compile-{host}") for host, addr in hosts.items()]
    client.gather(futures)


def _run_dask(plan: SweepPlan, batches: list[Batch], by_id: dict, bar, *, workers: int,
              scheduler: str | None) -> list:

    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler:
        client = Client(scheduler, timeout="30s")
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
        if plan.spec.engine == "dem" and plan.spec.arch in ("cuda", "gpu") and workers > 1:
            from .gpu import OneGpuPerWorker

            client.register_plugin(OneGpuPerWorker())
    failed = []
    try:
        if plan.spec.engine == "dem":
            _compile_once_per_host(client, plan.spec.arch, plan.spec.precision)
        futures = [client.submit(run_batch, b, key=f"dem-sweep-{b.cases[0][0]}-{len(b.cases)}", retries=RETRIES,
                                 pure=False) for b in batches]
        ids = {f.key: b for f, b in zip(futures, batches)}
        for fut in as_completed(futures):
            try:
                rows = fut.result()
            except Exception as e:  # noqa: BLE001 — a batch that failed for good is reported, the rest go on
                failed.append((ids[fut.key], f"{type(e).__name__}: {e}"))
                continue
            n = _finish_batch(plan, by_id, rows)
            if bar is not None:
                bar.update(n)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return failed
