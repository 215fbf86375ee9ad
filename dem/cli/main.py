"""Command line: ``dem run SCENE [options]``, ``dem scenes``, ``dem plot OUT_DIR``."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import warnings
from collections import Counter
from pathlib import Path

from ..device.backends import ARCHS, check_block_dim
from ..model.sizing import allow_large
from ..output.columns import from_json, guess
from ..output.headline import headline_text, motion_summary
from ..output.history import history_path, read_table
from ..output.plots import plot_columns, plot_history
from ..run.event_kinds import KINDS
from ..run.interrupts import Interrupted, check_pending, exit_code, raise_on_signal
from ..run.options import RunOptions
from ..run.preflight import check_out_dir, check_threads, check_times
from ..run.worlds import WorldBatch, build_worlds, parse_vary, run_worlds, world_overrides
from ..scenes.scene import build_scene, load_scene_module, parse_assignments, resolve_params, scenes_dir
from ..version import KEPT, warn_renamed
from .compile import add_arguments as _compile_args
from .compile import main as _cmd_compile
from .fragility import add_arguments as _fragility_args
from .fragility import main as _cmd_fragility
from .records import add_arguments as _records_args
from .records import main as _cmd_records
from .sweep import add_arguments as _sweep_args
from .sweep import main as _cmd_sweep
from .validate import add_arguments as _validate_args
from .validate import main as _cmd_validate


class _Parser(argparse.ArgumentParser):
    """argparse with its errors on one line, as every other input error: ``dem: error: ...``, exit 2."""

    def error(self, message):
        self.exit(2, f"dem: error: {message} (see '{self.prog} --help')\n")


# options taking a number: argparse reads '--dt -1e-5' as two options, so such a pair is joined first
# ('--dt=-1e-5') and the value's own check names the allowed range
_NUMBER_OPTIONS = ("--dt", "--t-end", "--history-dt", "--record-dt", "--threads", "--vtk-every", "--vtk-fps",
                   "--checkpoint-every", "--zoom", "--fps", "--stride", "--frame", "--block-dim")



class _OldSpelling(argparse.Action):
    """Stores an option's value; given by its second (old) spelling, it also warns that the spelling is
    deprecated (``dem: warning: ...``, dem.version.warn_renamed), naming the first."""

    def __call__(self, parser, namespace, values, option_string=None):
        if option_string != self.option_strings[0]:
            warn_renamed(option_string, self.option_strings[0], stacklevel=2)
        setattr(namespace, self.dest, values)


def _join_negative_numbers(argv: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok in _NUMBER_OPTIONS and i + 1 < len(argv) and argv[i + 1].startswith("-"):
            try:
                float(argv[i + 1])
            except ValueError:
                pass
            else:
                out.append(f"{tok}={argv[i + 1]}")
                i += 2
                continue
        out.append(tok)
        i += 1
    return out


def _add_run(sub):
    p = sub.add_parser("run", help="run a scene and write its history (history.parquet), summary.json and plots")
    p.add_argument("scene", nargs="?", default=None,
                   help="scene file (scenes/pena_block.py) or name (pena_block); not with --resume")
    p.add_argument("--arch", default="cpu", choices=ARCHS,
                   help="Taichi backend (default cpu)")
    p.add_argument("--precision", default="f64", choices=["f64", "f32"], help="real type (default f64)")
    p.add_argument("--t-end", type=float, default=None, help="simulated duration [s] (default: the scene's)")
    p.add_argument("--dt", default=None, help="time step [s] or 'auto' (default: the scene's)")
    p.add_argument("--history-dt", "--record-dt", type=float, default=None, action=_OldSpelling, metavar="S",
                   help="interval between history rows [s] (default: the scene's; --record-dt: its old name)")
    p.add_argument("--out", default=None, help="output folder (default runs/<scene>)")
    p.add_argument("--set", dest="sets", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="change scene parameters (see 'dem scenes --params SCENE')")
    p.add_argument("--force", action="store_true",
                   help="run even if dt is above the critical estimate, or the scene or the batch of worlds looks "
                        "too large for the memory")
    p.add_argument("--explicit-damping", action="store_true",
                   help="apply dashpots explicitly as 004 does (default: implicit at mid-step)")
    p.add_argument("--no-sleep", action="store_true", help="never put resting bodies to sleep")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--threads", type=int, default=None, help="CPU threads for Taichi")
    v = p.add_mutually_exclusive_group()
    v.add_argument("--vtk", action="store_true",
                   help="write ParaView frames (vtk/*.vtu + run.pvd) at the default rate (10 per simulated second)")
    v.add_argument("--vtk-every", type=int, default=None, metavar="N",
                   help="write a ParaView frame (vtk/*.vtu + run.pvd) every N history rows")
    v.add_argument("--vtk-fps", type=float, default=None, metavar="F", help="ParaView frames per simulated second")
    p.add_argument("--vtk-all-spheres", action="store_true", help="frames hold every sphere, not only the hull")
    p.add_argument("--resume", default=None, metavar="DIR",
                   help="continue the run whose output folder is DIR from its checkpoint (a run that kept one: "
                        "--checkpoint or --checkpoint-every); with --t-end: extend it")
    p.add_argument("--checkpoint", action="store_true",
                   help="keep a checkpoint (checkpoint.npz: the whole state, to --resume or extend the run): every "
                        "minute of wall time, at Ctrl-C/SIGTERM and at the end (default: none)")
    p.add_argument("--checkpoint-every", type=float, default=None, metavar="S",
                   help="keep a checkpoint every S simulated seconds (and at Ctrl-C/SIGTERM and at the end)")
    p.add_argument("--csv", action="store_true",
                   help="write the history and force profiles as CSV (history.csv, profile_<name>.csv) instead of "
                        "Parquet (history.parquet: every value as computed, about 8× smaller; pandas.read_parquet "
                        "reads it)")
    p.add_argument("--vary", nargs="+", action="extend", default=[], metavar="KEY=V1,V2,...",
                   help="run a batch of worlds, one per combination of these values (Cartesian product of every "
                        "--vary), stepped together (dem.run.worlds); each world writes a folder in --out, with "
                        "worlds.csv beside them")
    p.add_argument("--worlds", type=int, default=None, metavar="N",
                   help="number of worlds in the batch: N copies of the scene, or the size of the --vary grid")
    p.add_argument("--parallel", action="store_true",
                   help="the block path (one thread block per world, body pairs searched on the device), the "
                        "default on GPU backends; on the CPU one thread per world, to check it against the serial "
                        "path")
    p.add_argument("--block-dim", type=int, default=None, metavar="N",
                   help="threads per world on the block path: a power of two up to the backend's limit (1 on the "
                        "CPU, 1024 on CUDA, 256 on Vulkan and Metal; default 128 on GPUs, 1 on the CPU)")
    p.add_argument("--stop-on", nargs="+", default=None, metavar="EVENT", choices=[*KINDS, "none"],
                   help="end the run at the first of these events: overturn (any body fell: its tilt reached its "
                   "overturning angle or it dropped off its support; README 'When a body falls'), left_domain, "
                   "sliding, or none (default: the scene's choice, left_domain)")


def _cmd_run(a) -> int:

    raise_on_signal()  # SIGTERM before the first step: a message and 143, not a silent death
    try:
        return _run(a)
    except KeyboardInterrupt:
        print("dem: interrupted before the first step (SIGINT); nothing was run", file=sys.stderr)
        return 130
    except Interrupted as e:
        print(f"dem: {e} before the first step; nothing was run", file=sys.stderr)
        return exit_code(e.signum)


# options a resumed run takes from its checkpoint, with their defaults
_FIXED_ON_RESUME = {"scene": None, "sets": [], "dt": None, "history_dt": None, "out": None, "explicit_damping": False,
                    "no_sleep": False, "vtk": False, "vtk_every": None, "vtk_fps": None, "vtk_all_spheres": False,
                    "vary": [], "worlds": None, "parallel": False, "csv": False}


def _number(value, name: str, *, allow_auto: bool = False):
    """A float > 0 from the command line, or ValueError naming the option and the range."""
    if value is None or (allow_auto and value == "auto"):
        return value
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not (math.isfinite(v) and v > 0):
        more = " or 'auto'" if allow_auto else ""
        raise ValueError(f"{name} must be a number of seconds > 0{more}, got {value!r}")
    return v


def _run(a) -> int:
    from ..device import runtime
    from ..run.driver import RunInterrupted, RunOutputError, SimulationUnstable, run_scene

    try:
        check_threads(a.threads)
        check_block_dim(a.block_dim, a.arch, name="--block-dim")  # against the backend asked for, before it starts
        dt = _number(a.dt, "--dt", allow_auto=True)
        t_end = _number(a.t_end, "--t-end")
        history_dt = _number(a.history_dt, "--history-dt")
        ckpt_every = _number(a.checkpoint_every, "--checkpoint-every")
        stop_on = None if a.stop_on is None else [k for k in a.stop_on if k != "none"]
        if a.stop_on is not None and "none" in a.stop_on and len(a.stop_on) > 1:
            raise ValueError("--stop-on none cannot be combined with event kinds")
        if t_end is not None:
            check_times(t_end, dt if dt != "auto" else None, history_dt)
        opts = RunOptions(t_end=t_end, dt=dt, history_dt=history_dt, force=a.force,
                          progress=not a.no_progress and sys.stderr.isatty(), implicit_damping=not a.explicit_damping,
                          plots=not a.no_plots, sleep=not a.no_sleep, checkpoint=a.checkpoint,
                          checkpoint_every=ckpt_every, table_format="csv" if a.csv else "parquet", stop_on=stop_on,
                          parallel=True if a.parallel else None, block_dim=a.block_dim)
        if a.resume is not None:
            return _resume(a, opts)
        if a.scene is None:
            raise ValueError("give a scene (a file such as scenes/pena_block.py, or a name: see 'dem scenes'), "
                             "or --resume DIR")
        overrides = parse_assignments(a.sets)
        module = load_scene_module(a.scene)
        # parameters are checked before Taichi starts or anything is built
        resolve_params(module.PARAMS, overrides, scene=Path(a.scene).stem)
        if a.vary or a.worlds is not None:
            return _run_batch(a, module, overrides, opts)
        if a.vtk_every is not None and a.vtk_every < 1:
            raise ValueError(f"--vtk-every must be >= 1, got {a.vtk_every}")
        if a.vtk_fps is not None and not (math.isfinite(a.vtk_fps) and a.vtk_fps > 0):
            raise ValueError(f"--vtk-fps must be > 0, got {a.vtk_fps}")
        out = Path(a.out) if a.out else Path("runs") / getattr(module, "NAME", Path(a.scene).stem)
        check_out_dir(out)
        runtime.init(a.arch, a.precision, threads=a.threads)
        with allow_large(a.force):
            scene = build_scene(module, overrides)
        writer, frame_dt = None, None
        if a.vtk or a.vtk_every is not None or a.vtk_fps is not None:
            from ..output.paraview import DEFAULT_FRAME_RATE, VtkWriter

            def writer(out=out, model=scene.model, all_spheres=a.vtk_all_spheres):  # made once the folder is locked
                return VtkWriter(out, model, all_spheres=all_spheres)

            row_dt = opts.history_dt or scene.history_dt
            fps = a.vtk_fps or DEFAULT_FRAME_RATE
            frame_dt = row_dt * a.vtk_every if a.vtk_every is not None else 1.0 / fps
        check_pending()  # a signal swallowed during the set-up (dem.run.interrupts)
        with allow_large(a.force):  # the device memory check (dem.physics.batch_memory)
            result = run_scene(scene, opts.replace(out_dir=out, frame_dt=frame_dt), frame_writer=writer)
    except ValueError as e:
        print(f"dem: error: {_one_line(e)}", file=sys.stderr)
        return 2
    except MemoryError:
        print("dem: error: out of memory building or running the scene; make it smaller (or its spheres larger)",
              file=sys.stderr)
        return 1
    except RunOutputError as e:
        print(f"dem: error: {_one_line(e)}", file=sys.stderr)
        return 1
    except SimulationUnstable as e:
        print(f"dem: {_one_line(e)}", file=sys.stderr)
        return 3
    except RunInterrupted as e:
        print(f"dem: {_one_line(e)}", file=sys.stderr)
        return 128 + e.signum
    _report(result.summary, result.out_dir)
    return 0


def _run_batch(a, module, common, opts: RunOptions) -> int:
    """``dem run SCENE --vary KEY=V1,V2,... [--worlds N]``: a batch of worlds (dem.run.worlds)."""
    from ..device import runtime
    from ..run.driver import RunInterrupted, RunOutputError

    name = getattr(module, "NAME", Path(a.scene).stem)
    vary = parse_vary(a.vary)
    for key, values in vary.items():
        if key in common:
            raise ValueError(f"--vary {key} and --set {key} both given; vary it or set it")
        for v in values:  # every value checked (name and range) before anything is built
            resolve_params(module.PARAMS, {**common, key: v}, scene=name)
    overrides = world_overrides(vary=vary, count=a.worlds)
    if a.vtk or a.vtk_every is not None or a.vtk_fps is not None:
        raise ValueError("ParaView frames (--vtk...) are written for single runs; run one world of the batch "
                         "alone for its frames")
    out = Path(a.out) if a.out else Path("runs") / f"{name}_worlds"
    check_out_dir(out)
    runtime.init(a.arch, a.precision, threads=a.threads)
    try:
        with allow_large(a.force):
            if not vary:  # N copies of one scene: the batch's memory from the first, before the others are built
                _check_copies_memory(module, common, len(overrides), opts)
            worlds = build_worlds(module, overrides, common=common)
            check_pending()  # a signal swallowed during the set-up (dem.run.interrupts)
            results = run_worlds(worlds, options=opts.replace(out_dir=out))
    except RunOutputError as e:
        print(f"dem: error: {_one_line(e)}", file=sys.stderr)
        return 1
    except RunInterrupted as e:
        print(f"dem: {_one_line(e)}", file=sys.stderr)
        return 128 + e.signum
    _report_batch(results, out)
    return 0


def _check_copies_memory(module, common: dict, count: int, opts: RunOptions) -> None:
    """``--worlds N`` without --vary: refuse (BatchTooLarge, one line) N copies of the scene that would not fit in
    the device's memory, from one world built (the check a Run makes, dem.run.driver.check_run_memory), instead of
    after building all N."""
    from ..run.driver import check_run_memory

    if count > 1:
        check_run_memory([build_scene(module, common).model] * count, opts.parallel, opts.block_dim)


def _report_batch(results, out) -> None:
    """One line per world (up to 8 worlds), then the batch: worlds by status, throughput, where."""

    if len(results) <= 8:
        for r in results:
            print(summary_line(r.summary, r.out_dir))
    s = results[0].summary
    steps = max(r.summary["steps"] for r in results)
    wall = s["wall_time_s"]
    world_steps = sum(r.summary["steps"] for r in results)
    tally = ", ".join(f"{n} {k}" for k, n in Counter(r.summary["status"] for r in results).items())
    print(f"{s['scene']}: {len(results)} worlds ({tally}), {steps:,} steps of {s['dt']:.3g} s in {wall:.2f} s wall "
          f"({world_steps / wall if wall > 0 else 0:.3g} world-steps/s); output in {out} (worlds.csv, one folder "
          "per world)")
    for r in results:
        for w in r.summary.get("warnings", []):
            print(f"dem: warning: world {r.summary.get('world', 0)}: {w}", file=sys.stderr)


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())


def _report(s: dict, out) -> None:
    print(summary_line(s, out))
    for ev in s.get("events", []):
        print(f"dem: event: {ev['event']} of '{ev['body']}' at t = {ev['t']:.6g} s ({ev['detail']})", file=sys.stderr)
    if s.get("stopped_by"):
        print(f"dem: stopped at t = {s['t_end']:.6g} s on {s['stopped_by']['event']} (--stop-on)", file=sys.stderr)
    for w in s.get("warnings", []):
        print(f"dem: warning: {w}", file=sys.stderr)


def summary_line(s: dict, out) -> str:
    """The run in one line: its physics (dem.output.headline), the energy balance, the steps and the wall time."""

    physics = headline_text(s)
    return (f"{s['scene']}: {physics + '; ' if physics else ''}energy balance error {s['max_energy_error']:.1e}; "
            f"{s['steps']:,} steps of {s['dt']:.3g} s to t = {s['t_end']:.4g} s in {s['wall_time_s']:.2f} s wall "
            f"({s['steps_per_s'] or 0:.3g} steps/s); output in {out}")


def _resume(a, asked: RunOptions) -> int:
    """``dem run --resume DIR [--t-end T]``: rebuild the scene the checkpoint names and go on."""
    from ..device import runtime
    from ..run.checkpoint import load
    from ..run.driver import run_scene

    changed = [k for k, default in _FIXED_ON_RESUME.items() if getattr(a, k) != default
               and not (k == "out" and Path(a.out).resolve() == Path(a.resume).resolve())]
    if changed:
        names = ", ".join("SCENE" if k == "scene" else "--" + k.replace("_", "-").replace("sets", "set")
                          for k in changed)
        raise ValueError(f"--resume takes the run's settings from its checkpoint; {names} cannot be given with it "
                         "(only --t-end, --checkpoint, --checkpoint-every, --stop-on, --threads and the display "
                         "options)")
    ck = load(a.resume)
    run, sc = ck.meta["run"], ck.meta["scene"]
    for opt, given, saved in (("--arch", a.arch, run["arch"]), ("--precision", a.precision, run["precision"])):
        if given not in (saved, "cpu" if opt == "--arch" else "f64"):
            raise ValueError(f"--resume: the run used {opt} {saved}; it cannot go on with {opt} {given}")
    source = sc.get("source")
    if not source or not Path(source).exists():
        raise ValueError(f"--resume: the scene file of the checkpoint ({source}) is gone")
    runtime.init(run["arch"], run["precision"], threads=a.threads)
    out = Path(a.resume)
    # Δt, the record interval, damping and sleep come from the checkpoint (Run reads them there)
    opts = RunOptions(t_end=asked.t_end, out_dir=out, progress=asked.progress, plots=asked.plots,
                      parallel=run.get("parallel"), block_dim=asked.block_dim, checkpoint=asked.checkpoint,
                      checkpoint_every=asked.checkpoint_every if asked.checkpoint_every is not None
                      else run["checkpoint_every"],
                      stop_on=asked.stop_on if asked.stop_on is not None else run["stop_on"])
    if ck.meta.get("worlds"):  # a batch of worlds: rebuild each, go on together

        worlds = ck.meta["worlds"]
        with allow_large(True):
            scenes = [build_scene(load_scene_module(w["source"]), w["params"]) for w in worlds]
        batch = WorldBatch(scenes, [{} for _ in scenes], names=[w["folder"] for w in worlds])
        check_pending()  # a signal swallowed during the set-up (dem.run.interrupts)
        results = run_worlds(batch, options=opts, resume=ck, check_memory=False)
        _report_batch(results, out)
        return 0
    with allow_large(True):  # it was built before
        scene = build_scene(load_scene_module(source), sc["params"])
    writer = None
    if run["frames"]:
        from ..output.paraview import VtkWriter

        def writer():  # made once the folder is locked: it removes the frames after the checkpoint's
            return VtkWriter(out, scene.model, all_spheres=run["vtk_all_spheres"],
                             keep_times=ck.meta["driver"]["frame_times"])

    check_pending()  # a signal swallowed during the set-up (dem.run.interrupts)
    result = run_scene(scene, opts.replace(frame_dt=run["frame_dt"]), frame_writer=writer, resume=ck)
    _report(result.summary, result.out_dir)
    return 0


def _cmd_scenes(a) -> int:

    if a.params:
        try:
            m = load_scene_module(a.params)
        except ValueError as e:
            print(f"dem: error: --params: {_one_line(e)}", file=sys.stderr)
            return 2
        print((m.__doc__ or "").strip().splitlines()[0] if m.__doc__ else a.params)
        for k, p in m.PARAMS.items():
            print(f"  {k:16s} = {p.default!r:12}  {p.doc} ({p.range_text()})")
        return 0
    for f in sorted(scenes_dir().glob("*.py")):
        if f.name.startswith("_"):
            continue
        first = ""
        try:
            text = f.read_text()
            if text.startswith('"""'):
                first = first_sentence(text[3:].split('"""', 1)[0])
        except OSError:
            pass
        print(f"{f.stem:18s} {first}")
    return 0


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, its lines joined (issue 32: `dem scenes` cut the
    descriptions at the end of their first line, mid-sentence)."""
    para = " ".join(doc.strip().split("\n\n", 1)[0].split())
    for m in re.finditer(r"\.\s(?=[A-Z(])", para):
        if not re.search(r"(\bet al|\be\.g|\bi\.e|\bcf|\bEq|\bFig|\bTab|\bvs)$", para[:m.start()]):
            return para[:m.start() + 1]
    return para


def _cmd_plot(a) -> int:


    out = Path(a.out_dir)
    try:
        if not out.is_dir():
            raise ValueError(f"OUT_DIR must be an output folder of 'dem run', got {out} (not a folder)")
        summary = json.loads((out / "summary.json").read_text()) if (out / "summary.json").exists() else {}
        hist_file = history_path(out, summary)
        if hist_file is None:
            raise ValueError(f"{out} has no history (history.parquet or history.csv): not an output folder of "
                             "'dem run', or its run wrote none")
        hist = read_table(hist_file)
    except (ValueError, OSError) as e:
        print(f"dem: error: {_one_line(e)}", file=sys.stderr)
        return 2
    columns = from_json(summary.get("columns"))
    columns |= {n: guess(n) for n in hist if n not in columns}
    if a.list:
        for n in hist:
            c = columns[n]
            print(f"{n:24s} [{c.unit}]  {c.meaning}")
        return 0
    missing = [p for p in a.columns if p not in hist]
    if missing:
        print(f"dem: error: no column(s) {missing} in {hist_file}; available: {', '.join(hist)} "
              f"(dem plot {out} --list gives their units and meanings)", file=sys.stderr)
        return 2
    dest = Path(a.out) if a.out else None
    if a.columns and dest is not None and dest.suffix.lower() != ".png":
        print(f"dem: error: --out must be a .png file when COLUMNS are given, got {a.out!r}", file=sys.stderr)
        return 2
    if not a.columns and dest is not None and dest.suffix:
        print(f"dem: error: without COLUMNS --out is a folder for the plot_*.png files, got {a.out!r}",
              file=sys.stderr)
        return 2

    motion = motion_summary(hist, columns)
    mu = (summary.get("params") or {}).get("mu")
    title = summary.get("scene", out.name)
    if a.columns:
        path = plot_columns(hist, a.columns, dest or out / "plot_columns.png", title=title, columns=columns,
                            motion=motion, mu=mu, full=a.full)
        print(path)
        return 0
    for p in plot_history(hist, dest or out, title=title, columns=columns, motion=motion, mu=mu, full=a.full):
        print(p)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``dem`` command's parser, every subcommand with its options (tests/cli/test_readme_commands.py parses
    the documentation's commands with it)."""
    parser = _Parser(prog="dem", description="DEM engine for rocking structures")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run(sub)
    s = sub.add_parser("scenes", help="list the scenes, or one scene's parameters")
    s.add_argument("--params", metavar="SCENE", default=None)
    pl = sub.add_parser("plot", help="plot the history of an output folder (units from summary.json)")
    pl.add_argument("out_dir", help="output folder of 'dem run'")
    pl.add_argument("columns", nargs="*", metavar="COLUMN",
                    help="columns to plot in one figure, an axis per quantity (default: every figure plot_*.png)")
    pl.add_argument("--out", default=None, metavar="PATH",
                    help="with COLUMNS: the .png file (default OUT_DIR/plot_columns.png); without: the folder for "
                         "plot_*.png (default OUT_DIR)")
    pl.add_argument("--full", action="store_true",
                    help="the whole history on the time axis (default: up to shortly after the motion settles)")
    pl.add_argument("--list", action="store_true", help="list the columns with their units and meanings")
    r = sub.add_parser("render", help="render frames of an output folder off-screen (pyvista)")
    from ..output.render import add_arguments as _render_args  # imports pyvista only when it renders

    _render_args(r)
    v = sub.add_parser("validate", help="run the validation cases and write a report (runs/validation by default)")

    _validate_args(v)

    _records_args(sub.add_parser("records", help="synthetic record suites (synth) and response spectra (spectrum)"))

    _sweep_args(sub.add_parser("sweep", help="run a scene over records x intensities x parameters (resumable, Dask)"))

    _fragility_args(sub.add_parser("fragility", help="fragility curves (lognormal MLE, bootstrap), IDA plots"))

    _compile_args(sub.add_parser("compile", help="compile the kernels ahead of the first run (a cluster image, a "
                                                 "CI cache, Dask workers)"))
    return parser


_PYTHON_SHOW_WARNING = warnings.showwarning


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """The engine's warnings (UserWarning, and an old spelling's DeprecationWarning) on the command line: one
    line ``dem: warning: ...``, not Python's source path and category (issue 32: the tutorial's example printed
    ".../dem/cli/main.py:207: UserWarning: damping_mass='body' ..."); other categories (a library's
    deprecations) as Python shows them."""
    if not issubclass(category, UserWarning) and not str(message).endswith(KEPT):
        _PYTHON_SHOW_WARNING(message, category, filename, lineno, file, line)
        return
    print(f"dem: warning: {_one_line(message)}", file=sys.stderr if file is None else file)


def main(argv: list[str] | None = None) -> int:
    """The ``dem`` command; returns its exit status."""
    shown, warnings.showwarning = warnings.showwarning, _show_warning
    try:
        with warnings.catch_warnings():
            # an old spelling (--record-dt, --set record_dt=...) is said on the command line, not only to Python
            warnings.filterwarnings("always", category=DeprecationWarning, message=".*" + re.escape(KEPT))
            return _main(argv)
    except BrokenPipeError:  # `dem scenes | head`: the reader has gone, so stop without a traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush at exit must not fail again
        return 0
    finally:
        warnings.showwarning = shown


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        a = parser.parse_args(_join_negative_numbers(sys.argv[1:] if argv is None else list(argv)))
    except SystemExit as e:  # --help, or a one-line error already printed (_Parser.error)
        return int(e.code or 0)
    if a.command == "fragility":
        return _cmd_fragility(a)
    if a.command == "compile":
        return _cmd_compile(a)
    if a.command == "sweep":
        return _cmd_sweep(a)
    if a.command == "records":
        return _cmd_records(a)
    if a.command == "validate":

        try:
            check_threads(a.threads)
            check_out_dir(a.out)
        except ValueError as e:
            print(f"dem: error: {_one_line(e)}", file=sys.stderr)
            return 2
        return _cmd_validate(a)
    if a.command == "render":
        from ..output.render import main as _cmd_render

        return _cmd_render(a)
    return {"run": _cmd_run, "scenes": _cmd_scenes, "plot": _cmd_plot}[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
