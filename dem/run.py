"""Running a scene: checks before the first step, the stepping loop with a progress bar, instability
diagnosis, and the output folder (history.csv, summary.json, plots).

Instability: the run stops, with a diagnosis in summary.json and the history so far on disk, when a
record holds NaN, when an overlap exceeds RUNAWAY_OVERLAP of a sphere's radius, when the energy balance
error exceeds ENERGY_BLOWUP, or when a body turns more than MAX_STEP_ROTATION rad in one step.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import runtime
from .checks import check_initial_body_overlaps, check_initial_overlaps
from .ledger import BalanceTracker, energy_floor, initial_kinetic_energy
from .output import write_csv, write_json
from .probes import ForceProfile, ProbeContext
from .record import C_CT, C_KR, C_KT, C_OMEGA, G_NC, G_OVL, GLOBAL_COLUMNS
from .scene import Scene
from .solver import Simulation
from .timestep import AUTO_SAFETY, estimate_critical_timestep, monitored_timestep

RUNAWAY_OVERLAP = 0.3  # overlap ÷ radius: Hertz theory is far outside its range well before this
ENERGY_BLOWUP = 0.25  # relative balance error
MAX_STEP_ROTATION = 0.2  # rad per step (the rotation update is exact to round-off below 0.5 rad)
CHECKPOINT_SECONDS = 30.0  # wall time between rewrites of history.csv during a run


class SimulationUnstable(RuntimeError):
    """Raised when a run stops on an instability; ``result`` holds what was recorded."""

    def __init__(self, message: str, result: RunResult):
        super().__init__(message)
        self.result = result


@dataclass
class RunResult:
    history: dict[str, np.ndarray]
    summary: dict
    out_dir: Path | None
    profiles: dict[str, np.ndarray]


def choose_timestep(scene: Scene, dt, *, force: bool = False, implicit_damping: bool = True):
    """The time step to use [s] and the a-priori critical estimate; refuses a Δt above the estimate."""
    est = estimate_critical_timestep(scene.model, implicit_damping=implicit_damping)
    if dt is None:
        dt = scene.dt
    if isinstance(dt, str):
        if dt != "auto":
            raise ValueError(f"dt must be a number of seconds > 0 or 'auto', got {dt!r}")
        dt = AUTO_SAFETY * est.dt
    dt = float(dt)
    if not (math.isfinite(dt) and dt > 0):
        raise ValueError(f"dt must be > 0 [s], got {dt}")
    if dt > est.dt and not force:
        raise ValueError(f"dt = {dt:.4g} s is above the {est.describe(scene.model)}. Use a smaller --dt, "
                         f"--dt auto ({AUTO_SAFETY:g} × the estimate), or --force to run anyway.")
    return dt, est


class History:
    """Columns accumulated chunk by chunk."""

    def __init__(self):
        self.chunks: dict[str, list[np.ndarray]] = {}
        self.profiles: dict[str, list[np.ndarray]] = {}

    def add(self, cols: dict[str, np.ndarray]):
        for k, v in cols.items():
            self.chunks.setdefault(k, []).append(np.asarray(v, float))

    def columns(self) -> dict[str, np.ndarray]:
        return {k: np.concatenate(v) for k, v in self.chunks.items()}

    def profile_tables(self) -> dict[str, np.ndarray]:
        return {k: np.concatenate(v) for k, v in self.profiles.items()}


def _decode(rows: np.ndarray, sim: Simulation, scene: Scene, ctx: ProbeContext) -> dict[str, np.ndarray]:
    lay, model = sim.layout, scene.model
    cols = {"t": rows[:, 0]}
    for p in scene.probes:
        cols.update(p.evaluate(rows, ctx))
    for i, name in enumerate(GLOBAL_COLUMNS[1:7], start=1):
        cols[name] = rows[:, i]
    cols["contact_count"] = rows[:, G_NC]
    cols["max_overlap_ratio"] = rows[:, G_OVL]
    dtc = np.full(len(rows), np.inf)
    for c in range(model.clump_count):
        i_min = float(np.linalg.eigvalsh(model.inertia[c])[0])
        kt = lay.clump(rows, c, C_KT, 1)[:, 0]
        kr = lay.clump(rows, c, C_KR, 1)[:, 0]
        ct = lay.clump(rows, c, C_CT, 1)[:, 0] if not sim.implicit_damping else np.zeros(len(rows))
        dtc = np.minimum(dtc, monitored_timestep(model.mass[c], i_min, kt, kr, ct))
    cols["dt_critical"] = dtc
    return cols


def _diagnose(rows: np.ndarray, cols: dict, err: np.ndarray, sim: Simulation) -> str | None:
    if not np.all(np.isfinite(rows[:, : sim.layout.slot_base])):
        k = int(np.argmax(~np.all(np.isfinite(rows), axis=1)))
        return f"non-finite state at t = {rows[k, 0]:.6g} s (NaN or inf in positions, velocities or energies)"
    ovl = cols["max_overlap_ratio"]
    if np.any(ovl > RUNAWAY_OVERLAP):
        k = int(np.argmax(ovl > RUNAWAY_OVERLAP))
        return (f"runaway overlap at t = {cols['t'][k]:.6g} s: a contact overlaps {ovl[k]:.3g} of its sphere's "
                f"radius (limit {RUNAWAY_OVERLAP}): the time step ({sim.dt:.3g} s) is too large for the contact, "
                f"a body hits something very fast (a collapse), or it is driven into a wall")
    bad = np.abs(err) > ENERGY_BLOWUP
    if np.any(bad):
        k = int(np.argmax(bad))
        return (f"energy blow-up at t = {cols['t'][k]:.6g} s: the energy balance is off by {err[k]:.3g} of the "
                f"energy in play (limit {ENERGY_BLOWUP}); reduce the time step (now {sim.dt:.3g} s, monitored "
                f"critical {np.min(cols['dt_critical']):.3g} s)")
    for c in range(sim.model.clump_count):
        w = np.linalg.norm(sim.layout.clump(rows, c, C_OMEGA), axis=1)
        if np.any(w * sim.dt > MAX_STEP_ROTATION):
            k = int(np.argmax(w * sim.dt > MAX_STEP_ROTATION))
            return (f"clump '{sim.model.clumps[c].name}' turns {w[k] * sim.dt:.3g} rad in one step at "
                    f"t = {cols['t'][k]:.6g} s (limit {MAX_STEP_ROTATION}); reduce the time step")
    return None


def run_scene(scene: Scene, *, t_end: float | None = None, dt=None, out_dir: Path | str | None = None,
              record_dt: float | None = None, force: bool = False, progress: bool = True,
              implicit_damping: bool = True, plots: bool = True, sleep: bool = True, frame_dt: float | None = None,
              frame_writer=None) -> RunResult:
    """Run a scene and write its output folder (if ``out_dir``). See the module docstring.

    Frames: with ``frame_writer`` (an object with ``write(frame)`` and ``close()``, see dem.snapshot.Frame)
    and ``frame_dt`` [s], a snapshot is handed to the writer at t = 0 and every frame_dt (rounded to whole
    steps); chunks of steps end on frame times.
    """
    t_end = scene.t_end if t_end is None else float(t_end)
    if not (math.isfinite(t_end) and t_end > 0):
        raise ValueError(f"t_end must be > 0 [s], got {t_end}")
    record_dt = scene.record_dt if record_dt is None else float(record_dt)
    if not (math.isfinite(record_dt) and record_dt > 0):
        raise ValueError(f"record_dt must be > 0 [s], got {record_dt}")
    dt, est = choose_timestep(scene, dt, force=force, implicit_damping=implicit_damping)
    check_initial_overlaps(scene.model)
    check_initial_body_overlaps(scene.model)
    notes = _support_notes(scene.model)
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)

    sim = Simulation(scene.model, dt=dt, record_every=max(1, int(round(record_dt / dt))),
                     implicit_damping=implicit_damping, sleep=sleep)
    ctx = ProbeContext(scene.model, sim.layout)
    profiles = [p for p in scene.probes if isinstance(p, ForceProfile)]
    n_total = int(math.ceil(t_end / dt - 1e-9))
    hist = History()
    balance = BalanceTracker(initial_kinetic_energy(scene.model), energy_floor(scene.model))
    diagnosis = None
    t_start = time.perf_counter()
    from .startup import compile_notice

    with compile_notice(f"{runtime.arch()}-{runtime.precision()}-{'implicit' if implicit_damping else 'explicit'}"):
        sim.compile()
    startup = time.perf_counter() - t_start
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=round(n_total * dt, 6), unit="s", desc=scene.name, leave=False,
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.3f}/{total:.3f} s sim [{elapsed}<{remaining}]")
    t_wall0 = time.perf_counter()
    last_ckpt = t_wall0
    fast_forward_from = None
    chunk = min(n_total, 2000)
    done = 0
    errs = []
    frame_every = None
    if frame_writer is not None:
        from .snapshot import snapshot

        # frames fall on record steps, so each frame has its row in history.csv
        every = sim.record_every
        frame_every = every * max(1, int(round((frame_dt or record_dt) / (dt * every))))
        all_spheres = bool(getattr(frame_writer, "all_spheres", False))
        frame_writer.write(snapshot(sim, all_spheres=all_spheres))
    last_row = None
    while done < n_total:
        n = min(chunk, n_total - done)
        if frame_every is not None:
            n = min(n, frame_every - done % frame_every)
        t0 = time.perf_counter()
        if last_row is not None and frame_every is None and sim.quiescent():
            n = n_total - done  # everything sleeps and stays still: the rest of the run is known exactly
            rows = sim.fast_forward(n, last_row)
            fast_forward_from = fast_forward_from if fast_forward_from is not None else sim.state.time - n * dt
        else:
            rows = sim.advance(n)
        el = time.perf_counter() - t0
        done += n
        if len(rows):
            last_row = rows[-1]
            cols = _decode(rows, sim, scene, ctx)
            hist.add(cols)
            for p in profiles:
                hist.profiles.setdefault(p.name, []).append(np.column_stack([rows[:, 0], p.table(rows, ctx)]))
            err = balance.update(cols)
            errs.append(err)
            diagnosis = _diagnose(rows, cols, err, sim)
        if bar is not None:
            bar.update(round(n * dt, 6))
        if frame_every is not None and done % frame_every == 0:
            frame_writer.write(snapshot(sim, all_spheres=all_spheres))
        if diagnosis:
            break
        chunk = int(max(100, min(n_total, n * max(0.2, min(5.0, 0.25 / max(el, 1e-6))))))
        if out is not None and time.perf_counter() - last_ckpt > CHECKPOINT_SECONDS:
            _write_history(out, hist, errs)
            last_ckpt = time.perf_counter()
    if bar is not None:
        bar.close()
    if frame_writer is not None:
        frame_writer.close()
    wall = time.perf_counter() - t_wall0

    history = hist.columns()
    history["energy_error"] = np.concatenate(errs) if errs else np.zeros(0)
    summary = {
        "scene": scene.name, "status": "unstable" if diagnosis else "ok", "diagnosis": diagnosis,
        "arch": runtime.arch(), "precision": runtime.precision(), "dt": dt, "steps": sim.state.step,
        "t_end": sim.state.step * dt, "t_end_requested": t_end, "record_dt": sim.record_every * dt,
        "ball_count": scene.model.ball_count, "hull_ball_count": scene.model.hull_count,
        "clump_count": scene.model.clump_count, "wall_count": scene.model.wall_count,
        "wall_time_s": wall, "startup_s": startup, "steps_per_s": sim.state.step / wall if wall > 0 else None,
        "ball_steps_per_s": sim.state.step * scene.model.ball_count / wall if wall > 0 else None,
        "max_energy_error": float(np.max(np.abs(history["energy_error"]))) if len(history["energy_error"]) else 0.0,
        "dt_critical_estimate": est.dt, "dt_critical_estimate_detail": est.describe(scene.model),
        "dt_critical_monitored_min": float(np.min(history["dt_critical"])) if len(history["t"]) else None,
        "implicit_damping": implicit_damping, "sleep": sleep, "quiescent_from_s": fast_forward_from,
        "neighbour_rebuilds": sim.contacts.rebuild_count, "pair_rebuilds": sim.pair_rebuilds,
        "max_contact_count": int(np.max(history["contact_count"])) if len(history["t"]) else 0,
        "parallel_launch": sim.parallel, "params": scene.params, "clumps": scene.model.clump_report(),
        "notes": notes,
    } | scene.info
    _describe_outputs(summary, history, scene)
    result = RunResult(history, summary, out, hist.profile_tables())
    if out is not None:
        _write_history(out, hist, errs)
        for name, table in result.profiles.items():
            p = next(p for p in profiles if p.name == name)
            write_csv(out / f"profile_{name}.csv",
                      {"t": table[:, 0]} | {f"x_{x:+.4f}": table[:, 1 + i] for i, x in enumerate(p.centers)})
        if scene.postprocess is not None and not diagnosis:
            summary["postprocess"] = scene.postprocess(result, out)
        write_json(out / "summary.json", summary)
        if plots and len(history["t"]) > 1:
            from .plots import plot_history

            plot_history(history, out, title=scene.name, columns=describe_columns(history, scene.probes, scene.model),
                         motion=summary["motion"], mu=scene.params.get("mu"))
    elif scene.postprocess is not None and not diagnosis:
        summary["postprocess"] = scene.postprocess(result, None)
    if diagnosis:
        raise SimulationUnstable(f"run stopped: {diagnosis}" + (f" (output so far in {out})" if out else ""), result)
    return result


def _support_notes(model) -> list[str]:
    """dem.placement.support_notes, each also given as a warning."""
    import warnings

    from .placement import support_notes

    notes = support_notes(model)
    for n in notes:
        warnings.warn(n, stacklevel=3)
    return notes


def describe_columns(history: dict, probes, model) -> dict:
    """dem.columns descriptions of every history column."""
    from .columns import describe

    return describe(list(history), probes, model)


def _describe_outputs(summary: dict, history: dict, scene: Scene) -> None:
    """summary.json's ``columns`` (unit and meaning of every history column) and ``motion`` (dem.headline)."""
    from .columns import as_json
    from .headline import motion_summary

    cols = describe_columns(history, scene.probes, scene.model)
    summary["columns"] = as_json(cols)
    summary["motion"] = motion_summary(history, cols)


def _write_history(out: Path, hist: History, errs: list) -> None:
    cols = hist.columns()
    cols["energy_error"] = np.concatenate(errs) if errs else np.zeros(0)
    n = min(len(v) for v in cols.values())
    write_csv(out / "history.csv", {k: v[:n] for k, v in cols.items()})
