"""Running a scene: checks before the first step, the stepping loop with a progress bar, instability
and event checks, checkpoints, interrupts, and the output folder (history.csv, summary.json, plots).

Before the first step: the inputs (times, Δt against the critical estimate, initial overlaps), the output
folder (created, writable, locked against a second run, room on its disk; dem.preflight, dem.lock), and
temporary files left by a killed run are removed.

While stepping, after each chunk of steps (≈ 0.25 s of wall time):
- the record rows are checked for instability (dem.instability) and events (dem.events); the run stops
  at the first offending record, and history ends there;
- history.csv is rewritten at least every HISTORY_FLUSH_SECONDS of wall time;
- a checkpoint (dem.checkpoint) is written every ``checkpoint_every`` simulated seconds, or by default
  every CHECKPOINT_WALL_SECONDS of wall time, and at the end, so a run can be resumed or extended;
- SIGINT/SIGTERM end the run after the chunk with status ``interrupted``, everything written
  (dem.interrupts).

summary.json ``status``: ``ok``; ``stopped`` (an event in ``stop_on``); ``unstable`` (with
``diagnosis``); ``interrupted``; ``failed`` (an output file could not be written); ``running`` while
the run goes on. Every file is replaced atomically, so a run stopped in any way leaves whole files.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import runtime
from .checkpoint import CHECKPOINT_NAME, Checkpoint, check_matches, code_version, model_hash, run_arrays
from .checkpoint import save as save_checkpoint
from .checks import check_initial_body_overlaps, check_initial_overlaps
from .events import KINDS, EventDetector, EventSpec
from .history import History
from .instability import ENERGY_WARNING, RoundoffBound, diagnose
from .interrupts import SignalFlag
from .ledger import BalanceTracker, energy_floor, initial_kinetic_energy
from .lock import FolderLock
from .output import remove_stale_temps, write_json
from .preflight import check_disk_room, check_times, estimate_output_bytes, prepare_out_dir
from .probes import ForceProfile, ProbeContext
from .record import C_CT, C_KR, C_KT, G_NC, G_OVL, GLOBAL_COLUMNS
from .scene import Scene
from .solver import Simulation
from .timestep import AUTO_SAFETY, estimate_critical_timestep, monitored_timestep

HISTORY_FLUSH_SECONDS = 5.0  # most wall time between two writes of history.csv [s]
CHECKPOINT_WALL_SECONDS = 60.0  # wall time between checkpoints when no --checkpoint-every is given [s]
CHUNK_SECONDS = 0.25  # wall time a chunk of steps aims at: how soon a signal or an event is acted on [s]


class SimulationUnstable(RuntimeError):
    """Raised when a run stops on an instability; ``result`` holds what was recorded."""

    def __init__(self, message: str, result: RunResult):
        super().__init__(message)
        self.result = result


class RunInterrupted(RuntimeError):
    """Raised when SIGINT or SIGTERM ended a run; ``signum`` and ``result`` (everything was written)."""

    def __init__(self, message: str, signum: int, result: RunResult):
        super().__init__(message)
        self.signum = signum
        self.result = result


class RunOutputError(RuntimeError):
    """An output file could not be written (disk full, folder removed); the files written before are whole."""


@dataclass
class RunResult:
    history: dict[str, np.ndarray]
    summary: dict
    out_dir: Path | None
    profiles: dict[str, np.ndarray]
    plots: bool = True  # whether the run was asked for pictures (scene postprocessing draws only then)


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


def _energy_scale(cols: dict, previous: float) -> np.ndarray:
    """The energy in play [J] per row, as dem.ledger.BalanceTracker divides by (its running maximum)."""
    s = np.abs(cols["E_body"]) + np.abs(cols["E_boundary"]) + cols["E_kinetic"] + cols["E_strain"]
    return np.maximum.accumulate(np.maximum(np.nan_to_num(s, nan=previous), previous))


def run_scene(scene: Scene, *, t_end: float | None = None, dt=None, out_dir: Path | str | None = None,
              record_dt: float | None = None, force: bool = False, progress: bool = True,
              implicit_damping: bool = True, plots: bool = True, sleep: bool = True, frame_dt: float | None = None,
              frame_writer=None, checkpoint_every: float | None = None, stop_on=None,
              resume: Checkpoint | None = None, handle_signals: bool | None = None) -> RunResult:
    """Run a scene and write its output folder (if ``out_dir``). See the module docstring.

    Frames: with ``frame_writer`` (an object with ``write(frame)`` and ``close()``, see dem.snapshot.Frame,
    or a function returning one, called once the output folder is locked) and ``frame_dt`` [s], a snapshot
    is handed to the writer at t = 0 and every frame_dt (rounded to whole steps); chunks of steps end on
    frame times.

    Checkpoints: ``checkpoint_every`` [s of simulated time] (None: every CHECKPOINT_WALL_SECONDS of wall
    time); one is written at the end too. ``resume``: a checkpoint (dem.checkpoint.load) of this scene to go
    on from; Δt, the record interval, damping and sleep then come from it, and ``t_end`` (default: the
    checkpointed run's) may extend the run.

    Events: ``stop_on`` (kinds from dem.events.KINDS; None: the scene's choice) end the run when found.
    Signals: with ``handle_signals`` (default: when writing an output folder) SIGINT and SIGTERM end the
    run after the current chunk, raising RunInterrupted once everything is written.

    Raises SimulationUnstable (the run stopped on an instability), RunInterrupted, RunOutputError (an output
    file could not be written), ValueError (bad input, before any step).
    """
    return _Run(scene, t_end=t_end, dt=dt, out_dir=out_dir, record_dt=record_dt, force=force, progress=progress,
                implicit_damping=implicit_damping, plots=plots, sleep=sleep, frame_dt=frame_dt,
                frame_writer=frame_writer, checkpoint_every=checkpoint_every, stop_on=stop_on, resume=resume,
                handle_signals=handle_signals).run()


class _Run:
    """One call of :func:`run_scene`: settings, then :meth:`run`."""

    def __init__(self, scene: Scene, *, t_end, dt, out_dir, record_dt, force, progress, implicit_damping, plots,
                 sleep, frame_dt, frame_writer, checkpoint_every, stop_on, resume, handle_signals):
        self.scene, self.resume = scene, resume
        self.progress, self.plots, self.frame_writer = progress, plots, frame_writer
        if resume is not None:
            run = resume.meta["run"]
            dt, implicit_damping, sleep = run["dt"], run["implicit_damping"], run["sleep"]
            record_dt = run["record_every"] * run["dt"]
            t_end = run["t_end_requested"] if t_end is None else t_end
        t_end = scene.t_end if t_end is None else t_end
        try:
            t_end = float(t_end)
        except (TypeError, ValueError):
            raise ValueError(f"t_end must be a number of seconds > 0, got {t_end!r}") from None
        if not (math.isfinite(t_end) and t_end > 0):
            raise ValueError(f"t_end must be > 0 [s], got {t_end}")
        record_dt = scene.record_dt if record_dt is None else float(record_dt)
        if not (math.isfinite(record_dt) and record_dt > 0):
            raise ValueError(f"record_dt must be > 0 [s], got {record_dt}")
        if checkpoint_every is not None and not (math.isfinite(checkpoint_every) and checkpoint_every > 0):
            raise ValueError(f"--checkpoint-every must be a number of simulated seconds > 0, got {checkpoint_every}")
        self.dt, self.est = choose_timestep(scene, dt, force=force or resume is not None,
                                            implicit_damping=implicit_damping)
        check_times(t_end, self.dt, record_dt)
        self.t_end, self.record_dt = t_end, record_dt
        self.record_every = max(1, int(round(record_dt / self.dt)))
        self.implicit_damping, self.sleep = bool(implicit_damping), bool(sleep)
        self.n_total = int(math.ceil(t_end / self.dt - 1e-9))
        if resume is not None:
            step = int(resume.meta["progress"]["step"])
            if step >= self.n_total:
                raise ValueError(f"--t-end: the run in {resume.path.parent if resume.path else '?'} has reached "
                                 f"t = {step * self.dt:.6g} s; give a --t-end beyond it to extend the run")
        check_initial_overlaps(scene.model)
        check_initial_body_overlaps(scene.model)
        self.notes = _support_notes(scene.model)
        if resume is not None:
            check_matches(resume, scene.model, dt=self.dt, record_every=self.record_every,
                          precision=runtime.precision())
        spec = scene.events if scene.events is not None else EventSpec()
        if stop_on is not None:
            bad = [k for k in stop_on if k not in KINDS]
            if bad:
                raise ValueError(f"--stop-on takes event kinds from {', '.join(KINDS)}, got {', '.join(bad)}")
            spec = EventSpec(spec.domain, spec.watches, tuple(stop_on), spec.slide_speed, spec.slide_duration)
        self.spec = spec
        self.checkpoint_every = checkpoint_every
        self.ckpt_steps = max(1, int(round(checkpoint_every / self.dt))) if checkpoint_every else None
        self.frame_every = None
        if frame_writer is not None:
            # frames fall on record steps, so each frame has its row in history.csv
            every = self.record_every
            self.frame_every = every * max(1, int(round((frame_dt or record_dt) / (self.dt * every))))
        self.out = Path(out_dir) if out_dir is not None else None
        self.handle_signals = self.out is not None if handle_signals is None else bool(handle_signals)
        self.lock = None

    # ------------------------------------------------------------------------------------------ driver
    def run(self) -> RunResult:
        # from here on a signal only sets the flag: the run goes on to its first chunk and then leaves an
        # output folder with an 'interrupted' summary, never a half-made one
        with SignalFlag(self.handle_signals) as flag:
            if self.out is not None:
                prepare_out_dir(self.out)
                self.lock = FolderLock(self.out).acquire()
            try:
                if self.out is not None:
                    remove_stale_temps(self.out)
                if self.frame_writer is not None and not hasattr(self.frame_writer, "write"):
                    self.frame_writer = self.frame_writer()  # a factory: makes its files only once locked
                return self._run(flag)
            finally:
                if self.lock is not None:
                    self.lock.release()

    def _setup(self):
        scene = self.scene
        self.sim = sim = Simulation(scene.model, dt=self.dt, record_every=self.record_every,
                                    implicit_damping=self.implicit_damping, sleep=self.sleep)
        self.ctx = ProbeContext(scene.model, sim.layout)
        self.profile_probes = [p for p in scene.probes if isinstance(p, ForceProfile)]
        self.balance = BalanceTracker(initial_kinetic_energy(scene.model), energy_floor(scene.model))
        self.bound = RoundoffBound(scene.model, sim.layout, runtime.precision(), self.record_every)
        self.detector = EventDetector(self.spec, scene.model, sim.layout)
        self.hist = History()
        self.last_row = None
        self.fast_forward_from = None
        self.wall_before = 0.0  # wall time of earlier sessions (resumed runs) [s]
        self.resumed_at: list[float] = []
        self.model_hash = model_hash(scene.model)
        if self.resume is not None:
            self._restore(self.resume)
        self.columns = self._column_count()

    def _restore(self, ck: Checkpoint) -> None:
        self.sim.restore_arrays(ck.sim_saved())
        m, arrays = ck.meta, run_arrays(ck)
        d = m["driver"]
        self.hist = History.from_arrays(d["columns"], d["profiles"], arrays)
        self.balance.kinetic0, self.balance.scale = d["balance"]
        self.bound.total = d["roundoff_total"]
        self.detector.set_state(d["events"])
        self.last_row = arrays["last_row"] if arrays["last_row"].size else None
        self.fast_forward_from = d["fast_forward_from"]
        self.wall_before = d["wall_time_s"]
        self.resumed_at = d["resumed_at"] + [self.sim.state.time]
        if self.frame_writer is not None and len(getattr(self.frame_writer, "times", [])) != len(d["frame_times"]):
            raise ValueError("resume: the frame writer must continue the checkpoint's frames "
                             f"({len(d['frame_times'])} frames)")

    def _column_count(self) -> int:
        """Columns of history.csv and the profile tables (decoding one empty row)."""
        with np.errstate(all="ignore"):
            cols = _decode(np.zeros((1, self.sim.layout.width)), self.sim, self.scene, self.ctx)
        bins = sum(len(p.centers) for p in self.profile_probes)
        return len(cols) + 1 + bins

    def _run(self, flag: SignalFlag) -> RunResult:
        t_start = time.perf_counter()
        self._setup()
        sim, out = self.sim, self.out
        if out is not None:
            records = self.n_total // self.record_every + 1
            frames = self.n_total // self.frame_every + 1 if self.frame_every else 0
            spheres = self.scene.model.ball_count if getattr(self.frame_writer, "all_spheres", False) \
                else self.scene.model.hull_count
            state_bytes = sum(v.nbytes for v in sim.checkpoint_arrays().values() if isinstance(v, np.ndarray))
            check_disk_room(out, estimate_output_bytes(records, self.columns, spheres, frames, state_bytes))
        from .startup import compile_notice

        kind = f"{runtime.arch()}-{runtime.precision()}-{'implicit' if self.implicit_damping else 'explicit'}"
        with compile_notice(kind):
            sim.compile()
        self.startup = time.perf_counter() - t_start
        self.t_wall0 = time.perf_counter()
        self.stop_event = self.diagnosis = None
        self.stop_step = None
        self.ckpt_info = self.resume.meta.get("checkpoint_info") if self.resume is not None else None
        done = sim.state.step
        bar = None
        if self.progress:
            from tqdm import tqdm

            bar = tqdm(total=round(self.n_total * self.dt, 6), initial=round(done * self.dt, 6), unit="s",
                       desc=self.scene.name, leave=False,
                       bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.3f}/{total:.3f} s sim [{elapsed}<{remaining}]")
        writer = self.frame_writer
        if writer is not None and self.resume is None:
            from .snapshot import snapshot

            writer.write(snapshot(sim, all_spheres=bool(getattr(writer, "all_spheres", False))))
        if out is not None:
            self._guarded(lambda: self._write_summary("running"))
        last_flush = last_ckpt = time.perf_counter()
        # the first chunk is short: on a slow backend (0.1 s a step on a software Vulkan) a signal must not wait
        # minutes; later chunks grow towards CHUNK_SECONDS of wall time
        chunk = min(self.n_total - done, 10)
        try:
            while done < self.n_total:
                n = min(chunk, self.n_total - done)
                for every in (self.frame_every, self.ckpt_steps):
                    if every is not None:
                        n = min(n, every - done % every)
                t0 = time.perf_counter()
                if self.last_row is not None and self.frame_every is None and sim.quiescent():
                    n = self.n_total - done  # everything sleeps and stays still: the rest of the run is known exactly
                    rows = sim.fast_forward(n, self.last_row)
                    if self.fast_forward_from is None:
                        self.fast_forward_from = sim.state.time - n * self.dt
                else:
                    rows = sim.advance(n)
                el = time.perf_counter() - t0
                done += n
                if len(rows):
                    self._take(rows)
                if bar is not None:
                    bar.update(round(n * self.dt, 6))
                if self.stop_step is not None:
                    break
                if writer is not None and done % self.frame_every == 0:
                    from .snapshot import snapshot

                    writer.write(snapshot(sim, all_spheres=bool(getattr(writer, "all_spheres", False))))
                if flag.signum is not None:
                    break
                chunk = int(max(1, min(self.n_total, n * max(0.2, min(5.0, CHUNK_SECONDS / max(el, 1e-6))))))
                if out is not None and done < self.n_total:
                    now = time.perf_counter()
                    if self.ckpt_steps:
                        due = done % self.ckpt_steps == 0
                    else:
                        due = now - last_ckpt > CHECKPOINT_WALL_SECONDS
                    if due:
                        self._guarded(self._checkpoint_and_flush)
                        last_ckpt = last_flush = time.perf_counter()
                    elif now - last_flush > HISTORY_FLUSH_SECONDS:
                        self._guarded(lambda: self.hist.write(out))
                        last_flush = time.perf_counter()
        finally:
            if bar is not None:
                bar.close()
        if writer is not None:
            writer.close()
        return self._finish(flag)

    def _take(self, rows: np.ndarray) -> None:
        """Decode and check a chunk's rows; keep them up to the first instability or stopping event."""
        sim, scene = self.sim, self.scene
        cols = _decode(rows, sim, scene, self.ctx)
        scale = _energy_scale(cols, self.balance.scale)
        err = self.balance.update(cols)
        bound = self.bound.update(rows)
        cut = None
        diag = diagnose(rows, cols, err, scale, bound, sim)
        if diag is not None:
            cut, self.diagnosis = diag
        for k, ev in self.detector.update(rows):
            if ev["event"] in self.spec.stop_on and (cut is None or k < cut):
                cut, self.stop_event, self.diagnosis = k, ev, None
                break
        if cut is not None:
            rows = rows[: cut + 1]
            cols = {k: v[: cut + 1] for k, v in cols.items()}
            err = err[: cut + 1]
            self.stop_step = int(round(rows[-1, 0] / self.dt))
            self.detector.events = [e for e in self.detector.events if e["t"] <= rows[-1, 0]]
        self.last_row = rows[-1]
        cols["energy_error"] = err
        self.hist.add(cols, {p.name: np.column_stack([rows[:, 0], p.table(rows, self.ctx)])
                             for p in self.profile_probes})

    # ------------------------------------------------------------------------------------------ output
    def _guarded(self, write) -> None:
        """Run an output write; an OSError (disk full, folder gone) ends the run with RunOutputError."""
        try:
            write()
        except OSError as e:
            ck = self.ckpt_info
            kept = (f"the checkpoint at t = {ck['t']:.6g} s and the history written before are intact; free space "
                    f"and continue with: dem run --resume {self.out}") if ck else \
                "the files written before are intact"
            message = f"could not write to {self.out}: {e.strerror or e}; {kept}"
            try:  # a small file may still fit where a large one did not
                summary, reasons = self._summary("failed")
                summary["diagnosis"] = message
                self._write_summary("failed", summary, reasons)
            except OSError:
                pass
            raise RunOutputError(message) from None

    def _checkpoint_and_flush(self) -> None:
        self.hist.write(self.out)
        self._write_checkpoint()
        self._write_summary("running")

    def _write_checkpoint(self) -> None:
        sim = self.sim
        d = {"columns": self.hist.names, "profiles": list(self.hist.profiles),
             "balance": [self.balance.kinetic0, self.balance.scale], "roundoff_total": self.bound.total,
             "events": self.detector.get_state(), "fast_forward_from": self.fast_forward_from,
             "wall_time_s": self.wall_before + time.perf_counter() - self.t_wall0, "resumed_at": self.resumed_at,
             "frame_times": list(getattr(self.frame_writer, "times", []))}
        info = {"t": sim.state.time, "step": sim.state.step, "file": CHECKPOINT_NAME}
        meta = {"code_version": code_version(), "model_hash": self.model_hash,
                "scene": {"name": self.scene.name, "source": self.scene.source, "params": self.scene.params},
                "run": {"dt": self.dt, "record_every": self.record_every, "implicit_damping": self.implicit_damping,
                        "sleep": self.sleep, "arch": runtime.arch(), "precision": runtime.precision(),
                        "t_end_requested": self.t_end, "frame_every": self.frame_every,
                        "frame_dt": self.frame_every * self.dt if self.frame_every else None,
                        "vtk_all_spheres": bool(getattr(self.frame_writer, "all_spheres", False)),
                        "frames": self.frame_writer is not None,
                        "checkpoint_every": self.checkpoint_every, "stop_on": list(self.spec.stop_on)},
                "progress": {"step": sim.state.step, "time": sim.state.time},
                "driver": d, "checkpoint_info": info}
        arrays = self.hist.arrays() | {"last_row": np.zeros(0) if self.last_row is None else self.last_row}
        save_checkpoint(self.out / CHECKPOINT_NAME, meta, sim.checkpoint_arrays(), arrays)
        self.ckpt_info = info

    def _status(self, flag: SignalFlag | None) -> str:
        if self.diagnosis:
            return "unstable"
        if self.stop_event is not None:
            return "stopped"
        if flag is not None and flag.signum is not None and self.sim.state.step < self.n_total:
            return "interrupted"
        return "ok"

    def _summary(self, status: str, signame: str | None = None) -> tuple[dict, dict]:
        scene, sim, dt = self.scene, self.sim, self.dt
        history = self.hist.columns()
        steps = self.stop_step if self.stop_step is not None else sim.state.step
        wall = self.wall_before + time.perf_counter() - self.t_wall0
        err = history.get("energy_error", np.zeros(0))
        max_err = float(np.max(np.abs(err))) if len(err) else 0.0
        warnings = []
        if max_err > ENERGY_WARNING:
            if runtime.precision() != "f64":
                why = (f"in {runtime.precision()} the rounding of positions alone can do {self.bound.total:.3g} J "
                       "of unseen work (dem.instability): run in f64 to check the balance")
            else:
                why = f"a smaller time step (now {dt:.3g} s) usually fixes it"
            warnings.append(f"the energy balance error reached {max_err:.3g} (above {ENERGY_WARNING:.0%}): the ledger "
                            f"does not close; {why}")
        n = len(history.get("t", []))
        dtc = float(np.min(history["dt_critical"])) if n else None
        reasons = {"dt_critical_monitored_min": "no contact in any record: no stiffness limits the time step"}
        ev = self.detector.summary()
        summary = {
            "scene": scene.name, "status": status, "diagnosis": self.diagnosis, "stopped_by": self.stop_event,
            "interrupted_by": signame, "warnings": warnings,
            "arch": runtime.arch(), "precision": runtime.precision(), "dt": dt, "steps": steps,
            "t_end": steps * dt, "t_end_requested": self.t_end, "record_dt": sim.record_every * dt,
            "history_rows": n, "ball_count": scene.model.ball_count, "hull_ball_count": scene.model.hull_count,
            "clump_count": scene.model.clump_count, "wall_count": scene.model.wall_count,
            "wall_time_s": wall, "startup_s": self.startup, "steps_per_s": steps / wall if wall > 0 else None,
            "ball_steps_per_s": steps * scene.model.ball_count / wall if wall > 0 else None,
            "max_energy_error": max_err, "roundoff_bound_J": self.bound.total,
            "dt_critical_estimate": self.est.dt, "dt_critical_estimate_detail": self.est.describe(scene.model),
            "dt_critical_monitored_min": dtc, "implicit_damping": self.implicit_damping, "sleep": self.sleep,
            "quiescent_from_s": self.fast_forward_from, "neighbour_rebuilds": sim.contacts.rebuild_count,
            "pair_rebuilds": sim.pair_rebuilds, "max_contact_count": int(np.max(history["contact_count"])) if n else 0,
            "parallel_launch": sim.parallel, "events": ev["events"], "sliding_count": ev["sliding_count"],
            "stop_on": list(self.spec.stop_on), "domain": [list(c) for c in self.detector.domain],
            "checkpoint": self.ckpt_info, "resumed_at_s": self.resumed_at, "model_hash": self.model_hash,
            "code_version": code_version(), "params": scene.params, "clumps": scene.model.clump_report(),
            "notes": self.notes,
        } | scene.info
        if n:
            _describe_outputs(summary, history, scene)
        return summary, reasons

    def _write_summary(self, status: str, summary: dict | None = None, reasons: dict | None = None) -> None:
        if summary is None:
            summary, reasons = self._summary(status)
        write_json(self.out / "summary.json", summary, reasons=reasons)

    def _finish(self, flag: SignalFlag) -> RunResult:
        status = self._status(flag)
        signame = flag.name if status == "interrupted" else None
        self.detector.finish()
        summary, reasons = self._summary(status, signame)
        history = self.hist.columns()
        result = RunResult(history, summary, self.out, self.hist.profile_tables(), self.plots)
        scene, out = self.scene, self.out
        if out is not None:
            self._guarded(lambda: self.hist.write(out))
            self._guarded(lambda: self.hist.write_profiles(out, self.profile_probes))
            if status in ("ok", "interrupted"):
                self._guarded(self._write_checkpoint)
                summary["checkpoint"] = self.ckpt_info
        if scene.postprocess is not None and status in ("ok", "stopped"):
            summary["postprocess"] = scene.postprocess(result, out)
        if out is not None:
            self._guarded(lambda: self._write_summary(status, summary, reasons))
            if self.plots and status != "interrupted" and len(history.get("t", [])) > 1:
                from .plots import plot_history

                self._guarded(lambda: plot_history(
                    history, out, title=scene.name, columns=describe_columns(history, scene.probes, scene.model),
                    motion=summary.get("motion"), mu=scene.params.get("mu")))
        where = f" (output so far in {out})" if out else ""
        if status == "unstable":
            raise SimulationUnstable(f"run stopped: {self.diagnosis}{where}", result)
        if status == "interrupted":
            at = f"; resume with: dem run --resume {out}" if out else ""
            raise RunInterrupted(f"run interrupted by {signame} at t = {summary['t_end']:.6g} s{at}", flag.signum,
                                 result)
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
