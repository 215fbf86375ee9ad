"""Running scenes: checks before the first step, the stepping loop with a progress bar, instability and
event checks, checkpoints, interrupts, and the output folders (the history, summary.json, plots).

One run steps W independent worlds together (a batch, :func:`dem.run.worlds.run_worlds`; W = 1 for
:func:`run_scene`): one Simulation holds them all, and each world keeps its own history, energy balance,
events, output folder and fate — a world that goes unstable or meets a stopping event stops there while
the others run on.

Before the first step: the inputs (times, Δt against each world's critical estimate, initial overlaps), the
output folder (created, writable, locked against a second run, room on its disk; dem.run.preflight, dem.run.lock),
and temporary files left by a killed run are removed.

While stepping, after each chunk of steps (≈ 0.25 s of wall time):
- each world's history rows are checked for instability (dem.run.instability) and events (dem.run.events); a world
  stops at its first offending history row, and its history ends there;
- the history file (history.parquet, or history.csv: ``table_format``, dem.output.history) is rewritten at
  least every HISTORY_FLUSH_SECONDS of wall time (longer for a large batch, so that writing stays a small
  share of the run);
- when asked (``checkpoint``, or ``checkpoint_every``), a checkpoint (dem.run.checkpoint) is written every
  ``checkpoint_every`` simulated seconds, or else every CHECKPOINT_WALL_SECONDS of wall time, at
  SIGINT/SIGTERM and at the end, so the run can be resumed or extended; a run resumed from a checkpoint
  goes on writing them as it did. Without, none is written (a checkpoint holds the whole state and the
  history: tens of MB);
- SIGINT/SIGTERM end the run after the chunk with status ``interrupted``, everything written
  (dem.run.interrupts).

summary.json ``status``: ``ok``; ``stopped`` (an event in ``stop_on``); ``unstable`` (with
``diagnosis``); ``interrupted``; ``failed`` (an output file could not be written); ``running`` while
the run goes on. Every file is replaced atomically, so a run stopped in any way leaves whole files.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..device import runtime
from ..device.startup import compile_notice, kernel_cache_dir
from ..model.initial_overlaps import check_initial_body_overlaps, check_initial_overlaps
from ..model.mesh_clump import solid_notes
from ..model.timestep import AUTO_SAFETY, estimate_critical_timestep, monitored_timestep
from ..output.columns import as_json, describe
from ..output.files import remove_stale_temps, write_json
from ..output.headline import motion_summary
from ..output.history import History, history_name, load_writer, remove_tables
from ..output.plots import PlotJobs
from ..physics.batch_memory import check_batch_memory, history_rows
from ..physics.history_rows import C_CT, C_KR, C_KT, G_NC, G_OVL, GLOBAL_COLUMNS, HistoryRowLayout
from ..physics.ledger import ENERGY_COLUMNS, BalanceTracker, energy_floor, initial_kinetic_energy, stiffness_work
from ..physics.share_sums import world_shares
from ..physics.simulation import Simulation
from ..scenes.scene import Scene
from .bodies import BodyTracker
from .checkpoint import (
    CHECKPOINT_NAME,
    Checkpoint,
    check_matches,
    code_version,
    model_hash,
    run_arrays,
    saved_history_every,
)
from .checkpoint import save as save_checkpoint
from .events import EventDetector, EventSpec
from .instability import ENERGY_WARNING, RoundoffBound, diagnose
from .interrupts import SignalFlag
from .lock import FolderLock
from .options import RunOptions, positive_seconds
from .preflight import check_disk_room, check_times, estimate_output_bytes, prepare_out_dir
from .probes import ForceProfile, ProbeContext, RockingAngle
from .response import refine_bodies, run_response

HISTORY_FLUSH_SECONDS = 5.0  # most wall time between two writes of the history file [s] (one world)
CHECKPOINT_WALL_SECONDS = 60.0  # wall time between checkpoints (--checkpoint) without --checkpoint-every [s]
CHUNK_SECONDS = 0.25  # wall time a chunk of steps aims at: how soon a signal or an event is acted on [s]
HOST_SHARE = 0.05  # most share of a chunk's wall time that the host's checks of its rows may take: with many
#                    worlds a chunk is made longer than CHUNK_SECONDS (16 coarse Peña worlds: ~0.8 s), so that
#                    stepping keeps ≥ 95 % of the time
# device history buffer on the serial (CPU) path [bytes]: every launch copies the whole buffer to the host (at
# ~0.7 GB/s here), so it holds about one chunk's rows, not the Simulation's default of up to 2,048 rows a world
# (54 MB for 16 coarse Peña worlds: 0.1 s a launch, which had taken a third of a batch's wall time)
HISTORY_FETCH_BYTES = 4 * 2**20
WRITE_SHARE = 0.1  # most share of the wall time that periodic history writes may take (large batches)


class SimulationUnstable(RuntimeError):
    """Raised when a run stops on an instability; ``result`` holds what was recorded."""

    def __init__(self, message: str, result: RunResult):
        super().__init__(message)
        self.result = result


class RunInterrupted(RuntimeError):
    """Raised when SIGINT or SIGTERM ended a run; ``signum`` and ``result`` (everything was written; a list
    of results, one per world, for a batch)."""

    def __init__(self, message: str, signum: int, result):
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


def _decode(rows: np.ndarray, view, scene: Scene, ctx: ProbeContext) -> dict[str, np.ndarray]:
    """History columns of a world's history rows (``view``: Simulation.world_view)."""
    lay, model = view.layout, scene.model
    cols = {"t": rows[:, 0]}
    for p in scene.probes:
        cols.update(p.evaluate(rows, ctx))
    for name in ENERGY_COLUMNS:
        cols[name] = rows[:, GLOBAL_COLUMNS.index(name)]
    cols["contact_count"] = rows[:, G_NC]
    cols["max_overlap_ratio"] = rows[:, G_OVL]
    dtc = np.full(len(rows), np.inf)
    for c in range(model.clump_count):
        i_min = float(np.linalg.eigvalsh(model.inertia[c])[0])
        kt = lay.clump(rows, c, C_KT, 1)[:, 0]
        kr = lay.clump(rows, c, C_KR, 1)[:, 0]
        ct = lay.clump(rows, c, C_CT, 1)[:, 0] if not view.implicit_damping else np.zeros(len(rows))
        dtc = np.minimum(dtc, monitored_timestep(model.mass[c], i_min, kt, kr, ct))
    cols["dt_critical"] = dtc
    return cols


def _energy_scale(cols: dict, previous: float) -> np.ndarray:
    """The energy in play [J] per row, as dem.physics.ledger.BalanceTracker divides by (its running maximum)."""
    s = np.abs(cols["E_body"]) + np.abs(cols["E_boundary"]) + cols["E_kinetic"] + cols["E_strain"]
    return np.maximum.accumulate(np.maximum(np.nan_to_num(s, nan=previous), previous))


def run_scene(scene: Scene, options: RunOptions | None = None, *, frame_writer=None,
              resume: Checkpoint | None = None, **settings) -> RunResult:
    """Run a scene and write its output folder (if ``options.out_dir``). See the module docstring.

    ``options``: a :class:`~dem.run.options.RunOptions`; ``settings``: any of its fields as keywords, put
    over it (``run_scene(scene, t_end=2.0, out_dir="runs/x")``).

    Frames: with ``frame_writer`` (an object with ``write(frame)`` and ``close()``, see dem.output.snapshot.Frame,
    or a function returning one, called once the output folder is locked) and ``frame_dt`` [s], a snapshot
    is handed to the writer at t = 0 and every frame_dt (rounded to whole steps); chunks of steps end on
    frame times.

    Checkpoints, when ``checkpoint`` or ``checkpoint_every`` [s of simulated time] asks for them: every
    checkpoint_every (None: every CHECKPOINT_WALL_SECONDS of wall time), at an interrupt and at the end; none
    otherwise. ``resume``: a checkpoint (dem.run.checkpoint.load) of this scene to go
    on from; Δt, the history interval, damping and sleep then come from it, and ``t_end`` (default: the
    checkpointed run's) may extend the run.

    Events: ``stop_on`` (kinds from dem.run.event_kinds.KINDS; None: the scene's choice) end the run when found.
    Signals: with ``handle_signals`` (default: when writing an output folder) SIGINT and SIGTERM end the
    run after the current chunk, raising RunInterrupted once everything is written. ``parallel``: the
    Simulation's launch path (default: the backend's, dem.physics.simulation).

    Raises SimulationUnstable (the run stopped on an instability), RunInterrupted, RunOutputError (an output
    file could not be written), ValueError (bad input, before any step).
    """
    return Run([scene], RunOptions.of(options, **settings), frame_writers=[frame_writer], resume=resume).run()[0]


class _WorldRun:
    """One world of a run: its scene, output folder and everything the host keeps about it."""

    def __init__(self, index: int, scene: Scene, out: Path | None, spec: EventSpec, est, notes: list[str],
                 frame_writer):
        self.index, self.scene, self.out, self.spec, self.est, self.notes = index, scene, out, spec, est, notes
        self.frame_writer = frame_writer
        self.model_hash = model_hash(scene.model)

    def setup(self, sim: Simulation, precision: str) -> None:
        scene = self.scene
        self.view = view = sim.world_view(self.index)
        self.ctx = ProbeContext(scene.model, view.layout)
        self.profile_probes = [p for p in scene.probes if isinstance(p, ForceProfile)]
        self.balance = BalanceTracker(initial_kinetic_energy(scene.model), energy_floor(scene.model))
        self.bound = RoundoffBound(scene.model, view.layout, precision, view.history_every)
        self.bodies = BodyTracker(scene.model, view.layout, scene.info, scene.probes)
        self.detector = EventDetector(self.spec, scene.model, view.layout, bodies=self.bodies)
        self.hist = History()
        self.last_row = None
        self.fast_forward_from = None
        self.stop_event = self.diagnosis = None
        self.stop_step = None

    @property
    def done(self) -> bool:
        """The world stopped (an instability or a stopping event): it takes no more steps."""
        return self.stop_step is not None

    def column_count(self) -> int:
        """Columns of the history and the profile tables (decoding one empty row)."""
        with np.errstate(all="ignore"):
            cols = _decode(np.zeros((1, self.view.layout.width)), self.view, self.scene, self.ctx)
        return len(cols) + 1 + sum(len(p.centers) for p in self.profile_probes)

    def take(self, rows: np.ndarray) -> None:
        """Decode and check a chunk's rows; keep them up to the first instability or stopping event."""
        view, scene = self.view, self.scene
        cols = _decode(rows, view, scene, self.ctx)
        scale = _energy_scale(cols, self.balance.scale)
        err = self.balance.update(cols)
        bound = self.bound.update(rows)
        cut = None
        diag = diagnose(rows, cols, err, scale, bound, view)
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
            self.stop_step = int(round(rows[-1, 0] / view.dt))
            self.detector.events = [e for e in self.detector.events if e["t"] <= rows[-1, 0]]
        self.last_row = rows[-1]
        self.bodies.update(rows)
        cols["energy_error"] = err
        self.hist.add(cols, {p.name: np.column_stack([rows[:, 0], p.table(rows, self.ctx)])
                             for p in self.profile_probes})

    def status(self, interrupted: bool) -> str:
        if self.diagnosis:
            return "unstable"
        if self.stop_event is not None:
            return "stopped"
        return "interrupted" if interrupted else "ok"

    # ------------------------------------------------------------------ checkpoint
    def driver_state(self) -> dict:
        return {"columns": self.hist.names, "profiles": list(self.hist.profiles),
                "balance": [self.balance.kinetic0, self.balance.scale], "roundoff_total": self.bound.total,
                "events": self.detector.get_state(), "fast_forward_from": self.fast_forward_from,
                "stop_step": self.stop_step, "stop_event": self.stop_event, "diagnosis": self.diagnosis,
                "frame_times": list(getattr(self.frame_writer, "times", []))}

    def driver_arrays(self) -> dict[str, np.ndarray]:
        return self.hist.arrays() | {"last_row": np.zeros(0) if self.last_row is None else self.last_row} | \
            {f"bodies.{k}": v for k, v in self.bodies.arrays().items()}

    def restore(self, d: dict, arrays: dict[str, np.ndarray]) -> None:
        self.hist = History.from_arrays(d["columns"], d["profiles"], arrays)
        self.balance.kinetic0, self.balance.scale = d["balance"]
        self.bound.total = d["roundoff_total"]
        self.detector.set_state(d["events"])
        self.last_row = arrays["last_row"] if arrays["last_row"].size else None
        self.bodies.set_arrays({k[len("bodies."):]: v for k, v in arrays.items() if k.startswith("bodies.")})
        self.fast_forward_from = d["fast_forward_from"]
        self.stop_step, self.stop_event, self.diagnosis = d.get("stop_step"), d.get("stop_event"), d.get("diagnosis")
        if self.frame_writer is not None and len(getattr(self.frame_writer, "times", [])) != len(d["frame_times"]):
            raise ValueError("resume: the frame writer must continue the checkpoint's frames "
                             f"({len(d['frame_times'])} frames)")


class Run:
    """One call of :func:`run_scene` or :func:`dem.run.worlds.run_worlds`: settings, then :meth:`run`.

    ``scenes``: one per world. ``options``: the run's settings (:class:`~dem.run.options.RunOptions`; None:
    the defaults). ``options.out_dir``: the output folder; with several worlds (``batch``, the default when
    there are several) each world writes into ``out_dir/<world_names[k]>`` and the batch's lock and
    checkpoint stay in ``out_dir``. ``frame_writers``: one (or None) per world.
    """

    def __init__(self, scenes: list[Scene], options: RunOptions | None = None, *, frame_writers=None,
                 resume: Checkpoint | None = None, batch: bool | None = None, world_names: list[str] | None = None):
        if not scenes:
            raise ValueError("a run needs at least one scene")
        opts = self.options = options if options is not None else RunOptions()
        t_end, dt, history_dt, implicit_damping, sleep = opts.t_end, opts.dt, opts.history_dt, \
            opts.implicit_damping, opts.sleep
        checkpoint_every, stop_on, frame_dt = opts.checkpoint_every, opts.stop_on, opts.frame_dt
        self.scenes, self.resume = list(scenes), resume
        self.batch = len(scenes) > 1 if batch is None else bool(batch)
        self.progress, self.plots, self.parallel = opts.progress, opts.plots, opts.parallel
        self.block_dim = opts.block_dim
        if resume is not None:
            run = resume.meta["run"]
            dt, implicit_damping, sleep = run["dt"], run["implicit_damping"], run["sleep"]
            history_dt = saved_history_every(run) * run["dt"]
            t_end = run["t_end_requested"] if t_end is None else t_end
        t_end = positive_seconds("t_end", _common(scenes, "t_end", t_end))
        history_dt = positive_seconds("history_dt", _common(scenes, "history_dt", history_dt))
        dt = _common(scenes, "dt", dt) if not isinstance(dt, str) else dt
        chosen = [choose_timestep(s, dt, force=opts.force or resume is not None, implicit_damping=implicit_damping)
                  for s in scenes]
        self.dt = min(d for d, _e in chosen)  # 'auto': the smallest world's
        check_times(t_end, self.dt, history_dt)
        self.t_end, self.history_dt = t_end, history_dt
        self.history_every = max(1, int(round(history_dt / self.dt)))  # steps between history rows
        self.implicit_damping, self.sleep = bool(implicit_damping), bool(sleep)
        self.n_total = int(math.ceil(t_end / self.dt - 1e-9))
        if resume is not None:
            step = int(resume.meta["progress"]["step"])
            if step >= self.n_total:
                raise ValueError(f"--t-end: the run in {resume.path.parent if resume.path else '?'} has reached "
                                 f"t = {step * self.dt:.6g} s; give a --t-end beyond it to extend the run")
        self.out = opts.out_dir
        names = world_names or [f"world_{k:03d}" for k in range(len(scenes))]
        writers = list(frame_writers or [None] * len(scenes))
        self.worlds = []
        for k, scene in enumerate(scenes):
            check_initial_overlaps(scene.model)
            check_initial_body_overlaps(scene.model)
            spec = scene.events if scene.events is not None else EventSpec()
            if stop_on is not None:
                spec = EventSpec(spec.domain, spec.watches, tuple(stop_on), spec.slide_speed, spec.slide_duration)
            out = None if self.out is None else (self.out / names[k] if self.batch else self.out)
            self.worlds.append(_WorldRun(k, scene, out, spec, chosen[k][1], _support_notes(scene.model), writers[k]))
        if resume is not None:
            for w in self.worlds:
                check_matches(resume, w.scene.model, dt=self.dt, history_every=self.history_every,
                              precision=runtime.precision(), world=w.index if self.batch else None)
        self.stop_on = stop_on
        self.checkpoint_every = checkpoint_every
        self.keep_checkpoints = bool(opts.checkpoint or checkpoint_every)
        self.table_format = opts.table_format
        if resume is not None:  # a resumed run goes on as it was asked to (and writes its tables as before)
            self.keep_checkpoints = self.keep_checkpoints or bool(run.get("checkpoint", True))
            self.table_format = run.get("table_format", "csv")
        self.ckpt_steps = max(1, int(round(checkpoint_every / self.dt))) if checkpoint_every else None
        self.frame_every = None
        if any(w is not None for w in writers):
            # frames fall on observed steps, so each frame has its row in the history
            every = self.history_every
            self.frame_every = every * max(1, int(round((frame_dt or history_dt) / (self.dt * every))))
        self.handle_signals = self.out is not None if opts.handle_signals is None else bool(opts.handle_signals)
        self.lock = None
        # before the output folders and any device array (the Simulation checks again, as it would alone)
        check_run_memory([s.model for s in self.scenes], self.parallel, self.block_dim)

    # ------------------------------------------------------------------------------------------ driver
    def run(self) -> list[RunResult]:
        # from here on a signal only sets the flag: the run goes on to its first chunk and then leaves an
        # output folder with an 'interrupted' summary, never a half-made one
        with SignalFlag(self.handle_signals) as flag:
            if self.out is not None:
                prepare_out_dir(self.out)
                self.lock = FolderLock(self.out).acquire()
            try:
                if self.out is not None:
                    remove_stale_temps(self.out)
                    for w in self.worlds:
                        if w.out != self.out:
                            prepare_out_dir(w.out)
                            remove_stale_temps(w.out)
                    if self.resume is None:  # a new run replaces the last one's tables and checkpoint
                        (self.out / CHECKPOINT_NAME).unlink(missing_ok=True)
                        for w in self.worlds:
                            remove_tables(w.out)
                for w in self.worlds:
                    if w.frame_writer is not None and not hasattr(w.frame_writer, "write"):
                        w.frame_writer = w.frame_writer()  # a factory: makes its files only once locked
                return self._run(flag)
            finally:
                if self.lock is not None:
                    self.lock.release()

    def _setup(self):
        models = [w.scene.model for w in self.worlds]
        self.sim = sim = Simulation(models if self.batch else models[0], dt=self.dt, history_every=self.history_every,
                                    implicit_damping=self.implicit_damping, sleep=self.sleep, parallel=self.parallel,
                                    capacity=_history_capacity(models, self.parallel), block_dim=self.block_dim)
        for w in self.worlds:
            w.setup(sim, runtime.precision())
        self.wall_before = 0.0  # wall time of earlier sessions (resumed runs) [s]
        self.host_seconds = 0.0  # wall time of the host's checks of the last chunk [s]
        self.resumed_at: list[float] = []
        if self.resume is not None:
            self._restore(self.resume)
        self.columns = sum(w.column_count() for w in self.worlds)

    def _restore(self, ck: Checkpoint) -> None:
        self.sim.restore_arrays(ck.sim_saved())
        m, arrays = ck.meta, run_arrays(ck)
        drivers = m["drivers"]
        for w, d in zip(self.worlds, drivers):
            prefix = f"w{w.index}."
            w.restore(d, {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)})
            if w.done:
                self.sim.halt(w.index)
        self.wall_before = m["driver"]["wall_time_s"]
        self.resumed_at = m["driver"]["resumed_at"] + [self.sim.state.time]

    def _check_disk_room(self) -> None:
        """Refuse to start when the output folder's disk cannot hold what the run will write."""
        records = self.n_total // self.history_every + 1
        frames = self.n_total // self.frame_every + 1 if self.frame_every else 0
        spheres = sum(w.scene.model.ball_count if getattr(w.frame_writer, "all_spheres", False)
                      else w.scene.model.hull_count for w in self.worlds if w.frame_writer is not None)
        state_bytes = sum(v.nbytes for v in self.sim.checkpoint_arrays().values() if isinstance(v, np.ndarray)) \
            if self.keep_checkpoints else None
        check_disk_room(self.out, estimate_output_bytes(records, self.columns, spheres, frames, state_bytes,
                                                        table_format=self.table_format))

    def _progress_bar(self, done: int):
        """A tqdm bar in simulated seconds (None without ``progress``)."""
        if not self.progress:
            return None
        from tqdm import tqdm

        desc = self.worlds[0].scene.name + (f" ×{len(self.worlds)}" if self.batch else "")
        return tqdm(total=round(self.n_total * self.dt, 6), initial=round(done * self.dt, 6), unit="s",
                    desc=desc, leave=False,
                    bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.3f}/{total:.3f} s sim [{elapsed}<{remaining}]")

    def _save_between_chunks(self, done: int) -> None:
        """After a chunk: a checkpoint when one is due (asked for, and every ckpt_steps steps or
        CHECKPOINT_WALL_SECONDS of wall time), else the histories when HISTORY_FLUSH_SECONDS have passed."""
        now = time.perf_counter()
        if not self.keep_checkpoints:
            due = False
        elif self.ckpt_steps:
            due = done % self.ckpt_steps == 0
        else:
            due = now - self._last_ckpt > CHECKPOINT_WALL_SECONDS
        if due:
            self._guarded(self._checkpoint_and_flush)
            self._last_ckpt = self._last_flush = time.perf_counter()
        elif now - self._last_flush > self._flush_every:
            t_w = time.perf_counter()
            self._guarded(self._write_histories)
            self._last_flush = time.perf_counter()
            # writing many worlds' histories must stay a small share of the run
            self._flush_every = max(HISTORY_FLUSH_SECONDS, (self._last_flush - t_w) / WRITE_SHARE)

    def _run(self, flag: SignalFlag) -> list[RunResult]:
        t_start = time.perf_counter()
        self._setup()
        sim, out = self.sim, self.out
        if out is not None:
            self._check_disk_room()

        with compile_notice(sim.kernel_variant(), cache_dir=kernel_cache_dir()):
            sim.compile()
        self.startup = time.perf_counter() - t_start
        self.t_wall0 = time.perf_counter()
        self.ckpt_info = self.resume.meta.get("checkpoint_info") if self.resume is not None else None
        done = sim.state.step
        bar = self._progress_bar(done)
        if self.resume is None:
            self._write_frames()
        if out is not None:
            self._guarded(lambda: self._write_summaries("running"))
            load_writer(self.table_format)  # not inside the first flush's timing (_save_between_chunks)
        self._last_flush = self._last_ckpt = time.perf_counter()
        self._flush_every = HISTORY_FLUSH_SECONDS
        # the first chunk is short: on a slow backend (0.1 s a step on a software Vulkan) a signal must not wait
        # minutes; later chunks grow towards CHUNK_SECONDS of wall time
        chunk = min(self.n_total - done, 10)
        try:
            while done < self.n_total and not all(w.done for w in self.worlds):
                n = min(chunk, self.n_total - done)
                for every in (self.frame_every, self.ckpt_steps):
                    if every is not None:
                        n = min(n, every - done % every)
                t0 = time.perf_counter()
                n = self._advance(n)
                el = time.perf_counter() - t0
                done += n
                if bar is not None:
                    bar.update(round(n * self.dt, 6))
                if all(w.done for w in self.worlds):
                    break
                if self.frame_every is not None and done % self.frame_every == 0:
                    self._write_frames()
                if flag.signum is not None:
                    break
                # a chunk of about CHUNK_SECONDS, or longer where checking its rows takes more than HOST_SHARE of it
                aim = max(CHUNK_SECONDS, self.host_seconds / HOST_SHARE)
                chunk = int(max(1, min(self.n_total, n * max(0.2, min(5.0, aim / max(el, 1e-6))))))
                if out is not None and done < self.n_total:
                    self._save_between_chunks(done)
        finally:
            if bar is not None:
                bar.close()
        for w in self.worlds:
            if w.frame_writer is not None:
                w.frame_writer.close()
        return self._finish(flag)

    def _advance(self, n: int) -> int:
        """Step every world still running by n steps (the quiescent ones without stepping, dem.physics.simulation); hand
        each its rows. Returns the steps taken (the rest of the run when everything has come to rest)."""
        sim = self.sim
        running = [w for w in self.worlds if not w.done]
        rests = self.frame_every is None and all(w.last_row is not None for w in running) and \
            bool(np.all(sim.quiescent_worlds()[[w.index for w in running]]))
        if rests:
            n = self.n_total - sim.state.step  # everything sleeps and stays still: the rest of the run is known exactly
            for w in running:
                if w.fast_forward_from is None:
                    w.fast_forward_from = sim.state.time
        if not self.batch:
            w = self.worlds[0]
            rows = [sim.fast_forward(n, w.last_row) if rests else sim.advance(n)]
        else:
            quiet = sim.quiescent_worlds()
            for w in running:  # advance() repeats these worlds' last rows instead of stepping them
                if quiet[w.index] and w.last_row is not None and w.fast_forward_from is None:
                    w.fast_forward_from = sim.state.time
            rows = sim.advance(n, last_rows=[w.last_row for w in self.worlds])
        t0 = time.perf_counter()
        for w, r in zip(self.worlds, rows):
            if len(r) and not w.done:
                w.take(r)
                if w.done and self.batch:
                    sim.halt(w.index)
        self.host_seconds = time.perf_counter() - t0  # checking the chunk's rows (chunk length, _run)
        return n

    def _write_frames(self) -> None:
        from ..output.snapshot import snapshot

        for w in self.worlds:
            if w.frame_writer is not None and not w.done:
                w.frame_writer.write(snapshot(self.sim, all_spheres=bool(getattr(w.frame_writer, "all_spheres", False)),
                                              world=w.index))

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
                for w in self.worlds:
                    summary, reasons = self._summary(w, "failed")
                    summary["diagnosis"] = message
                    write_json(w.out / "summary.json", summary, reasons=reasons)
            except OSError:
                pass
            raise RunOutputError(message) from None

    def _write_histories(self, *, durable: bool = False) -> None:
        """Every world's history file (a flush during the run: not synced to the disk unless ``durable``; the
        final write in _finish is)."""
        for w in self.worlds:
            w.hist.write(w.out, self.table_format, durable=durable)

    def _write_summaries(self, status: str) -> None:
        for w in self.worlds:
            summary, reasons = self._summary(w, status if not w.done else w.status(False))
            write_json(w.out / "summary.json", summary, reasons=reasons)

    def _checkpoint_and_flush(self) -> None:
        self._write_histories(durable=True)  # with a checkpoint: everything of this moment on the disk
        self._write_checkpoint()
        self._write_summaries("running")

    def _write_checkpoint(self) -> None:
        sim = self.sim
        info = {"t": sim.state.time, "step": sim.state.step, "file": CHECKPOINT_NAME}
        first = self.worlds[0]
        scene_meta = [{"name": w.scene.name, "source": w.scene.source, "params": w.scene.params,
                       "folder": None if w.out is None or w.out == self.out else w.out.name} for w in self.worlds]
        meta = {"code_version": code_version(), "model_hash": first.model_hash,
                "model_hashes": [w.model_hash for w in self.worlds],
                "scene": scene_meta[0], "worlds": scene_meta if self.batch else None,
                "run": {"dt": self.dt, "history_every": self.history_every, "implicit_damping": self.implicit_damping,
                        "sleep": self.sleep, "arch": runtime.arch(), "precision": runtime.precision(),
                        "t_end_requested": self.t_end, "frame_every": self.frame_every,
                        "frame_dt": self.frame_every * self.dt if self.frame_every else None,
                        "vtk_all_spheres": bool(getattr(first.frame_writer, "all_spheres", False)),
                        "frames": first.frame_writer is not None, "parallel": self.sim.parallel,
                        "checkpoint_every": self.checkpoint_every, "checkpoint": self.keep_checkpoints,
                        "table_format": self.table_format, "stop_on": list(first.spec.stop_on)},
                "progress": {"step": sim.state.step, "time": sim.state.time},
                "driver": {"wall_time_s": self.wall_before + time.perf_counter() - self.t_wall0,
                           "resumed_at": self.resumed_at, "frame_times": first.driver_state()["frame_times"]},
                "drivers": [w.driver_state() for w in self.worlds], "checkpoint_info": info}
        arrays = {f"w{w.index}.{k}": v for w in self.worlds for k, v in w.driver_arrays().items()}
        save_checkpoint(self.out / CHECKPOINT_NAME, meta, sim.checkpoint_arrays(), arrays)
        self.ckpt_info = info

    def _summary(self, w: _WorldRun, status: str, signame: str | None = None) -> tuple[dict, dict]:
        scene, sim, dt = w.scene, self.sim, self.dt
        history = w.hist.columns()
        steps = w.stop_step if w.stop_step is not None else sim.state.step
        wall = self.wall_before + time.perf_counter() - self.t_wall0
        err = history.get("energy_error", np.zeros(0))
        max_err = float(np.max(np.abs(err))) if len(err) else 0.0
        warnings = []
        if max_err > ENERGY_WARNING:
            if runtime.precision() != "f64":
                why = (f"in {runtime.precision()} the rounding of positions alone can do {w.bound.total:.3g} J "
                       "of unseen work (dem.run.instability): run in f64 to check the balance")
            else:
                why = f"a smaller time step (now {dt:.3g} s) usually fixes it"
            warnings.append(f"the energy balance error reached {max_err:.3g} (above {ENERGY_WARNING:.0%}): the ledger "
                            f"does not close; {why}")
        wk, wk_warning = stiffness_work(history)
        warnings += [wk_warning] if wk_warning else []
        n = len(history.get("t", []))
        dtc = float(np.min(history["dt_critical"])) if n else None
        reasons = {"dt_critical_monitored_min": "no contact in any record: no stiffness limits the time step"}
        ev = w.detector.summary()
        counts = sim.contacts.counters()[w.index]
        from ..device.layout import CT_PAIR_SEARCHES, CT_REBUILDS

        summary = {
            "scene": scene.name, "status": status, "diagnosis": w.diagnosis, "stopped_by": w.stop_event,
            "interrupted_by": signame, "warnings": warnings,
            "arch": runtime.arch(), "precision": runtime.precision(), "dt": dt, "steps": steps,
            "t_end": steps * dt, "t_end_requested": self.t_end, "history_dt": sim.history_every * dt,
            "history_rows": n, "ball_count": scene.model.ball_count, "hull_ball_count": scene.model.hull_count,
            "clump_count": scene.model.clump_count, "wall_count": scene.model.wall_count,
            "wall_time_s": wall, "startup_s": self.startup, "steps_per_s": steps / wall if wall > 0 else None,
            "ball_steps_per_s": steps * scene.model.ball_count / wall if wall > 0 else None,
            "max_energy_error": max_err, "roundoff_bound_J": w.bound.total, "shear_stiffness_work": wk,
            "dt_critical_estimate": w.est.dt, "dt_critical_estimate_detail": w.est.describe(scene.model),
            "dt_critical_monitored_min": dtc, "implicit_damping": self.implicit_damping, "sleep": self.sleep,
            "quiescent_from_s": w.fast_forward_from, "neighbour_rebuilds": int(counts[CT_REBUILDS]),
            "pair_rebuilds": int(counts[CT_PAIR_SEARCHES]),
            "pair_search_s": sim.pair_search_s,  # host time of the body-pair searches (a batch: all its worlds')
            "pair_searched_bodies": sim.pair_searched_bodies,  # bodies whose pairs they looked at, summed
            "max_contact_count": int(np.max(history["contact_count"])) if n else 0,
            "parallel_launch": sim.parallel,
            # the compiled step kernel (block size, shares): a world's bits are one block size's (share_sums.py)
            "kernel_variant": sim.kernel_variant(), "events": ev["events"], "sliding_count": ev["sliding_count"],
            "stop_on": list(w.spec.stop_on), "domain": [list(c) for c in w.detector.domain],
            "history_file": history_name(self.table_format), "checkpoint": self.ckpt_info,
            "resumed_at_s": self.resumed_at, "model_hash": w.model_hash,
            "code_version": code_version(), "params": scene.params, "clumps": scene.model.clump_report(),
            "notes": w.notes,
        } | ({"world": w.index, "world_count": len(self.worlds)} if self.batch else {}) | scene.info
        if n:
            _describe_outputs(summary, history, scene)
        summary["bodies"], why = w.bodies.summary()  # per body: peak rotation, slip, uplift, whether it fell
        summary["bodies"] = refine_bodies(summary["bodies"], history, scene.info,
                                          {p.name: p.clump for p in scene.probes if isinstance(p, RockingAngle)})
        reasons |= why
        summary["response"], why = run_response(history, scene.info, max_err, ev["events"], summary["bodies"])
        reasons |= {f"response.{k}": v for k, v in why.items()}
        return summary, reasons

    def _finish(self, flag: SignalFlag) -> list[RunResult]:
        interrupted = flag.signum is not None and self.sim.state.step < self.n_total
        signame = flag.name if interrupted else None
        results, statuses, reasons = [], [], []
        for w in self.worlds:
            status = w.status(interrupted and not w.done)
            w.detector.finish()
            summary, why = self._summary(w, status, signame if status == "interrupted" else None)
            results.append(RunResult(w.hist.columns(), summary, w.out, w.hist.profile_tables(), self.plots))
            statuses.append(status)
            reasons.append(why)
        out = self.out
        if out is not None:
            for w in self.worlds:
                self._guarded(lambda w=w: w.hist.write(w.out, self.table_format))
                self._guarded(lambda w=w: w.hist.write_profiles(w.out, w.profile_probes, self.table_format))
            if self.keep_checkpoints and (any(s in ("ok", "interrupted") for s in statuses) or self.batch):
                self._guarded(self._write_checkpoint)
                for res in results:
                    res.summary["checkpoint"] = self.ckpt_info
        # the history figures are drawn in worker processes (dem.output.plots.PlotJobs) while this one runs the
        # scenes' postprocessing and writes the summaries: on two cores the figures of a world cost about half
        jobs = [dict(history=res.history, out_dir=w.out, title=w.scene.name, motion=res.summary.get("motion"),
                     columns=describe_columns(res.history, w.scene.probes, w.scene.model),
                     mu=w.scene.params.get("mu"))
                for w, res, status in zip(self.worlds, results, statuses)
                if out is not None and self.plots and status != "interrupted" and len(res.history.get("t", [])) > 1]
        busy = any(w.scene.postprocess is not None for w in self.worlds)
        plots = PlotJobs(jobs, processes=None if len(jobs) > 1 or busy else 1)
        try:
            for w, res, status in zip(self.worlds, results, statuses):
                if w.scene.postprocess is not None and status in ("ok", "stopped"):
                    res.summary["postprocess"] = w.scene.postprocess(res, w.out)
            if out is not None:
                for w, res, why in zip(self.worlds, results, reasons):
                    self._guarded(lambda w=w, summary=res.summary, why=why: write_json(
                        w.out / "summary.json", summary, reasons=why))
        except BaseException:
            plots.cancel()
            raise
        self._guarded(plots.wait)
        if interrupted:
            at = f"; resume with: dem run --resume {out}" if out and self.ckpt_info else \
                "; no checkpoint (--checkpoint or --checkpoint-every keep one to resume from)" if out else ""
            raise RunInterrupted(f"run interrupted by {signame} at t = {self.sim.state.time:.6g} s{at}",
                                 flag.signum, results if self.batch else results[0])
        if not self.batch and statuses[0] == "unstable":
            where = f" (output so far in {out})" if out else ""
            raise SimulationUnstable(f"run stopped: {self.worlds[0].diagnosis}{where}", results[0])
        return results


def _history_capacity(models, parallel: bool | None) -> int | None:
    """History rows per world of the device buffer: HISTORY_FETCH_BYTES in all on the serial CPU path (at least 16
    rows a world), the Simulation's default on the block path (None)."""
    if parallel or (parallel is None and not runtime.is_serial_backend()):
        return None
    width = max(HistoryRowLayout(m.clump_count, m.wall_count, m.slot_count).width for m in models)
    return history_rows(width, len(models), buffer_bytes=HISTORY_FETCH_BYTES)


def check_run_memory(models, parallel: bool | None, block_dim: int | None = None) -> None:
    """Refuse (dem.physics.batch_memory.BatchTooLarge) a run of these worlds whose device arrays, with the history
    buffer a Run gives them (_history_capacity) and the block path's share partials (block_dim: None, the
    Simulation's default), would not fit in the backend's free memory."""
    on_blocks = bool(parallel) or (parallel is None and not runtime.is_serial_backend())
    bd = block_dim if block_dim is not None else (1 if runtime.is_serial_backend() else 128)
    check_batch_memory(models, capacity=_history_capacity(models, parallel), shares=world_shares(on_blocks, bd))


def _common(scenes: list[Scene], name: str, given):
    """A run setting the worlds share: the one given, else the scenes' own (which must agree)."""
    if given is not None:
        return given
    values = {getattr(s, name) for s in scenes}
    if len(values) > 1:
        listed = ", ".join(f"{v:g}" for v in sorted(values))
        raise ValueError(f"the worlds' scenes ask for different {name} ({listed}); a batch steps together: give "
                         f"--{name.replace('_', '-')}")
    return values.pop()


def _support_notes(model) -> list[str]:
    """dem.model.body_contacts.support_notes, dem.model.timestep.body_dashpot_notes and the notes of bodies from meshes
    (dem.model.mesh_clump.solid_notes: non-convex where it rests, parts left out), each also given as a warning."""

    from ..model.body_contacts import support_notes
    from ..model.timestep import body_dashpot_notes

    notes = support_notes(model) + body_dashpot_notes(model) + solid_notes(model)
    for n in notes:
        warnings.warn(n, stacklevel=4)
    return notes


def describe_columns(history: dict, probes, model) -> dict:
    """dem.output.columns descriptions of every history column."""

    return describe(list(history), probes, model)


def _describe_outputs(summary: dict, history: dict, scene: Scene) -> None:
    """summary.json's ``columns`` (unit and meaning of every history column) and ``motion`` (dem.output.headline)."""

    cols = describe_columns(history, scene.probes, scene.model)
    summary["columns"] = as_json(cols)
    summary["motion"] = motion_summary(history, cols)
