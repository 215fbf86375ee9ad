"""Sweep engines: a function that takes one batch of cases and returns one result row per case.

The interface is :func:`run_batch` (``Batch`` in, ``pandas.DataFrame`` out, columns ``case_id``, ``status``,
``message``, the response columns of dem.run.response and ``wall_time_s``). It is what a Dask task runs
(one batch per task) and what the in-process sweep calls, so an engine knows nothing of how it is
scheduled. Engines:

- ``dem``: the DEM scene itself, the batch's cases run as the worlds of one batch (dem.run.worlds): one
  launch steps them all, each world with its own base motion, ledger and fate (a world that goes unstable
  stops, the others go on); the rows are derived from each world's history.
- ``rigid``: the scene's rigid reference (``info['rigid_reference']``: a block, or the rocking frame of the
  pier-deck bridge) under the same base accelerations, solved for the whole batch at once by the
  vectorised solver of validation.rocking (``solve_batch``, the engine of ``base_excited_batch``), loaded
  through dem.references (the one place dem names the validation package) when a batch needs it.

Each worker process initialises Taichi once (:func:`ensure_runtime`) and loads each scene module once, so
the compiled kernels stay warm across the tasks it runs.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..model.motion_set import MotionSet
from ..references import load as load_reference
from ..run.assembly_response import assembly_response
from ..run.options import RunOptions
from ..run.response import default_overturn_angle, dem_response, empty_response, merge_falls, rigid_response
from ..scenes.scene import build_scene, load_scene_module, resolve_params
from ..scenes.tools import RECORD_PARAMS, base_signal, shaking_direction

ENGINES = ("dem", "rigid")
RIGID_ENGINE = "dem sweep --engine rigid"
"""What asks for the rocking solver, in the message when the validation package is missing (dem.references)."""
RIGID_GEOMETRIES = ("nominal", "edge")
"""Rigid block geometry: the scene's nominal block, or the DEM packing's rounded edges (α' = atan(b'/h'))."""
ASSEMBLY_EDGE = ("--rigid-geometry edge applies to one block of spheres; this scene is an assembly of blocks, whose "
                 "rigid reference is the monolithic column on its foot's rim (use --rigid-geometry nominal)")


@dataclass(frozen=True)
class Batch:
    """One task of a sweep.

    scene: scene file path; engine: 'dem' or 'rigid'; cases: tuple of (case_id, scene overrides) with the
    record path and scale factor among the overrides; fixed: scene overrides common to all cases (--set,
    t_end); options: engine settings — overturn_deg (None: the default angle), arch, precision, threads
    and block_dim (threads a world on the block path, None: the backend's) (dem); rigid_dt [s], restitution (None:
    the scene's), rigid_geometry (rigid).
    """

    scene: str
    engine: str
    cases: tuple
    fixed: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)


_PROCESS: dict = {"runtime": None, "modules": {}, "rigid": {}}
"""Per-process state: the Taichi runtime chosen, loaded scene modules, rigid references (by parameters)."""


def ensure_runtime(arch: str = "cpu", precision: str = "f64", threads: int | None = None) -> None:
    """Initialise Taichi once per process (a no-op for the same settings): a Dask worker compiles the
    kernels on its first task and reuses them for every later one."""
    key = (arch, precision, threads)
    if _PROCESS["runtime"] == key:
        return
    from ..device import runtime

    runtime.init(arch, precision, threads=threads)
    _PROCESS["runtime"] = key


def compile_kernels(arch: str = "cpu", precision: str = "f64") -> float:
    """Compile the DEM engine's kernels on this machine ahead of the sweep's batches, in a child process
    (``dem compile``): its exit writes the kernel cache, which every worker process on this machine then loads.
    Returns the time it took [s]."""
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "dem.cli", "compile", "--arch", arch, "--precision", precision,
                        "--entry", "run" if arch == "cpu" else "blocks", "--no-progress"], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(f"dem compile failed: {(p.stderr.strip().splitlines() or ['no message'])[-1]}")
    return time.perf_counter() - t0


def scene_module(path: str):
    """The scene module at ``path``, loaded once per process."""

    mods = _PROCESS["modules"]
    if path not in mods:
        mods[path] = load_scene_module(path)
    return mods[path]


def run_batch(batch: Batch) -> pd.DataFrame:
    """Run one batch with its engine; one row per case, in the batch's order."""
    if batch.engine == "dem":
        rows = _dem_batch(batch)
    elif batch.engine == "rigid":
        rows = _rigid_batch(batch)
    else:
        raise ValueError(f"engine must be one of {ENGINES}, got {batch.engine!r}")
    return pd.DataFrame(rows)


def _error_row(case_id: str, message: str, wall: float) -> dict:
    return {"case_id": case_id, "status": "error", "message": message} | empty_response() | {"wall_time_s": wall}


def _overturn_angle(options: dict, alpha: float) -> float:
    deg = options.get("overturn_deg")
    return math.radians(deg) if deg is not None else default_overturn_angle(alpha)


# ---------------------------------------------------------------------------------------------- DEM ---
def _dem_batch(batch: Batch) -> list[dict]:
    """The batch's cases as worlds of one run (dem.run.Run with batch=True): one launch steps them all, on
    the serial path one CPU thread per world, on the block path one thread block per world. Cases whose
    scenes disagree on Δt, history interval or duration (records of different lengths) run as separate
    batches of worlds; a case whose scene cannot be built gets an error row and the others go on. A batch too large
    for the device's memory (dem.physics.batch_memory.BatchTooLarge) is the sweep's --batch-size, no case's fault:
    it stops the sweep with its one line (how many worlds fit)."""
    from ..physics.batch_memory import BatchTooLarge
    from ..run.driver import Run

    o = batch.options
    ensure_runtime(o.get("arch", "cpu"), o.get("precision", "f64"), o.get("threads"))
    module = scene_module(batch.scene)
    rows: dict[str, dict] = {}
    groups: dict[tuple, list] = {}
    for case_id, overrides in batch.cases:
        t0 = time.perf_counter()
        try:
            scene = build_scene(module, batch.fixed | overrides)
            groups.setdefault((scene.dt, scene.history_dt, scene.t_end), []).append((case_id, scene,
                                                                                    time.perf_counter() - t0))
        except (ValueError, ArithmeticError) as e:
            rows[case_id] = _error_row(case_id, f"{type(e).__name__}: {e}", time.perf_counter() - t0)
    for members in groups.values():
        t0 = time.perf_counter()
        try:
            results = Run([m[1] for m in members], RunOptions(progress=False, plots=False, handle_signals=False,
                                                    block_dim=o.get("block_dim")),
                          batch=True, world_names=[m[0] for m in members]).run()
        except BatchTooLarge:
            raise
        except (ValueError, ArithmeticError) as e:
            for case_id, _scene, build_s in members:
                rows[case_id] = _error_row(case_id, f"{type(e).__name__}: {e}", build_s)
            continue
        share = (time.perf_counter() - t0) / len(members)  # the batch's stepping time, shared evenly
        for (case_id, scene, build_s), res in zip(members, results):
            status = res.summary.get("status", "ok")
            message = res.summary.get("diagnosis") or ""
            status = "unstable" if status == "unstable" else "ok"
            energy = res.summary.get("max_energy_error", math.nan)
            energy = math.nan if energy is None else energy
            info = scene.info
            if "alpha_rad" in info and ("assembly" in info or info.get("rocking_bodies")):
                angle = _overturn_angle(o, info["alpha_rad"])
                # an assembly (a column of drums): every block, its joints' dislocations (dem.run.assembly_response)
                resp = (assembly_response(res.history, info, angle, energy) if "assembly" in info
                        else dem_response(res.history, info, angle, energy))
            else:  # a scene that declares no rocking body (a user's): every body's row (dem.run.bodies)
                resp = res.summary.get("response") or empty_response()
            # a body that fell as the run saw it (dem.run.bodies: its own overturning angle, or a drop) overturns
            # the case at that time too, whether the scene declares it or not
            resp = merge_falls(resp, res.summary.get("bodies"), res.summary.get("events", []))
            if status == "unstable" and resp["overturned"] and resp["overturn_time_s"] < res.history["t"][-1]:
                # the run broke down after the body had fallen past θ_ov (a toppled pier hitting the base):
                # the outcome is known, the instability is noted
                status = "ok"
            rows[case_id] = ({"case_id": case_id, "status": status, "message": str(message)} | resp
                             | {"wall_time_s": build_s + share})
    return [rows[case_id] for case_id, _ov in batch.cases]


# -------------------------------------------------------------------------------------------- rigid ---
def _rigid_reference(batch: Batch, params: dict) -> dict:
    """The scene's rigid reference for these parameters (built once per process and parameter set)."""

    key = (batch.scene, json.dumps(params, sort_keys=True, default=str), batch.options.get("rigid_geometry"))
    cache = _PROCESS["rigid"]
    if key not in cache:

        scene = build_scene(scene_module(batch.scene), params)  # the Eq. 42 default motion: geometry only
        ref = dict(scene.info["rigid_reference"])
        ref["alpha_nominal"] = float(scene.info["alpha_rad"])
        ref["delay"] = float(scene.info.get("shaking_delay_s", 0.0))
        if batch.options.get("rigid_geometry", "nominal") == "edge":
            if "assembly" in scene.info:  # plan_sweep refuses it first; a Batch made by hand lands here
                raise ValueError(ASSEMBLY_EDGE)
            geo = load_reference("rocking.pivot", needed_by=RIGID_ENGINE).pivot_geometry(scene.model, 0)
            nominal = geo.__class__(0.5 * ref["width"], 0.5 * ref["height"], 0.0, geo.mass, geo.inertia_g, geo.g)
            ref["p"] *= geo.p / nominal.p  # the frame's p̄ scales with its piers' p
            ref["alpha"] = geo.alpha
        cache[key] = ref
    return cache[key]


def _rigid_case(case_id: str, ref: dict, acc: np.ndarray, vert: np.ndarray, dt: float, t_end: float, o: dict,
                prep: float) -> dict:
    """One rigid case with a vertical base acceleration (validation.rocking.solve: θ̈ with g + a_v, which the
    batch solver does not take), its accelerations sampled every dt [s]."""
    solve = load_reference("rocking.solver", needed_by=RIGID_ENGINE).solve
    t0 = time.perf_counter()
    block = _rigid_block(ref, o)
    try:
        res = solve(block, acc, t_end, dt=dt, accel_dt=dt, vertical=vert,
                    overturn_angle=_overturn_angle(o, ref["alpha_nominal"]))
    except (ValueError, ArithmeticError) as err:
        return _error_row(case_id, f"{type(err).__name__}: {err}", prep + time.perf_counter() - t0)
    resp = rigid_response(res.theta, bool(res.overturned), math.nan if res.overturn_time is None else
                          float(res.overturn_time), ref["alpha_nominal"], ref["width"])
    return {"case_id": case_id, "status": "ok", "message": ""} | resp | {"wall_time_s": prep + time.perf_counter() - t0}


def _rigid_block(ref: dict, o: dict):
    """The rigid reference as validation.rocking's RockingBlock, its restitution the sweep's or the scene's."""
    rocking = load_reference("rocking.block", needed_by=RIGID_ENGINE)
    restitution = o.get("restitution")
    e = rocking.resolve_restitution(ref["alpha"], restitution if restitution is not None else ref["restitution"])
    return rocking.RockingBlock(ref["alpha"], ref["p"], e, ref["g"])


def _rigid_batch(batch: Batch) -> list[dict]:
    solve_batch = load_reference("rocking.batch", needed_by=RIGID_ENGINE).solve_batch
    o = batch.options
    module = scene_module(batch.scene)
    dt = float(o.get("rigid_dt") or 0.01)
    rows: dict[str, dict] = {}
    groups: dict[str, list] = {}
    for case_id, overrides in batch.cases:
        t0 = time.perf_counter()
        try:
            p = resolve_params(module.PARAMS, batch.fixed | overrides)
            geometry = {k: v for k, v in (batch.fixed | overrides).items() if k not in RECORD_PARAMS}
            ref = _rigid_reference(batch, geometry)
            sig, _ = base_signal(p, module.PARAMS)
            n = int(round(p["t_end"] / dt)) + 1
            t = np.arange(n) * dt - ref["delay"]
            # the rocking plane is x–z: the table's x and z accelerations (a record set's components combined,
            # dem.model.motion_set; one record along the shaking direction)
            if isinstance(sig, MotionSet):
                avec = sig.vector("acceleration", np.maximum(t, 0.0), shaking_direction(p))
                acc, vert = np.where(t >= 0.0, avec[:, 0], 0.0), np.where(t >= 0.0, avec[:, 2], 0.0)
            else:
                acc = np.where(t >= 0.0, sig.acceleration(np.maximum(t, 0.0)), 0.0) * shaking_direction(p)[0]
                vert = None
            if vert is not None and np.any(vert):  # Housner's with g + a_v: one solve per case
                rows[case_id] = _rigid_case(case_id, ref, acc, vert, dt, p["t_end"], o, time.perf_counter() - t0)
                continue
            groups.setdefault(repr(sorted(ref.items())), []).append((case_id, ref, acc, p["t_end"],
                                                                      time.perf_counter() - t0))
        except (ValueError, ArithmeticError) as e:
            rows[case_id] = _error_row(case_id, f"{type(e).__name__}: {e}", time.perf_counter() - t0)
    for members in groups.values():
        t0 = time.perf_counter()
        ref = members[0][1]
        block = _rigid_block(ref, o)
        accels = np.stack([m[2] for m in members])
        angle = _overturn_angle(o, ref["alpha_nominal"])
        try:
            res = solve_batch(block, accels, dt, max(m[3] for m in members), overturn_angle=angle)
        except (ValueError, ArithmeticError):
            for m in members:
                rows[m[0]] = _error_row(m[0], traceback.format_exc(limit=1).strip().splitlines()[-1], 0.0)
            continue
        share = (time.perf_counter() - t0) / len(members)  # the batch's solve time, shared evenly
        for i, (case_id, _, _, _, prep) in enumerate(members):
            resp = rigid_response(res.theta[i], bool(res.overturned[i]), float(res.overturn_time[i]),
                                  ref["alpha_nominal"], ref["width"])
            rows[case_id] = {"case_id": case_id, "status": "ok", "message": ""} | resp | {"wall_time_s": prep + share}
    return [rows[c] for c, _ in batch.cases]
