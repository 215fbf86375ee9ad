"""Command line: ``dem run SCENE [options]``, ``dem scenes``, ``dem plot OUT_DIR``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _add_run(sub):
    p = sub.add_parser("run", help="run a scene and write history.csv, summary.json and plots")
    p.add_argument("scene", help="scene file (scenes/pena_block.py) or name (pena_block)")
    p.add_argument("--arch", default="cpu", choices=["cpu", "gpu", "cuda", "vulkan", "metal"],
                   help="Taichi backend (default cpu)")
    p.add_argument("--precision", default="f64", choices=["f64", "f32"], help="real type (default f64)")
    p.add_argument("--t-end", type=float, default=None, help="simulated duration [s] (default: the scene's)")
    p.add_argument("--dt", default=None, help="time step [s] or 'auto' (default: the scene's)")
    p.add_argument("--record-dt", type=float, default=None, help="interval between records [s]")
    p.add_argument("--out", default=None, help="output folder (default runs/<scene>)")
    p.add_argument("--set", dest="sets", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="change scene parameters (see 'dem scenes --params SCENE')")
    p.add_argument("--force", action="store_true", help="run even if dt is above the critical estimate")
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
                   help="write a ParaView frame (vtk/*.vtu + run.pvd) every N records")
    v.add_argument("--vtk-fps", type=float, default=None, metavar="F", help="ParaView frames per simulated second")
    p.add_argument("--vtk-all-spheres", action="store_true", help="frames hold every sphere, not only the hull")


def _cmd_run(a) -> int:
    from . import runtime
    from .run import SimulationUnstable, run_scene
    from .scene import build_scene, load_scene_module, parse_assignments

    try:
        overrides = parse_assignments(a.sets)
        module = load_scene_module(a.scene)
        dt = a.dt
        if dt is not None and dt != "auto":
            try:
                dt = float(dt)
            except ValueError:
                raise ValueError(f"--dt must be a number of seconds > 0 or 'auto', got {a.dt!r}") from None
        # parameters are checked before Taichi starts or anything is built
        from .scene import resolve_params

        resolve_params(module.PARAMS, overrides, scene=Path(a.scene).stem)
        if a.vtk_every is not None and a.vtk_every < 1:
            raise ValueError(f"--vtk-every must be >= 1, got {a.vtk_every}")
        if a.vtk_fps is not None and not a.vtk_fps > 0:
            raise ValueError(f"--vtk-fps must be > 0, got {a.vtk_fps}")
        runtime.init(a.arch, a.precision, threads=a.threads)
        scene = build_scene(module, overrides)
        out = Path(a.out) if a.out else Path("runs") / scene.name
        writer, frame_dt = None, None
        if a.vtk or a.vtk_every is not None or a.vtk_fps is not None:
            from .vtk_output import DEFAULT_FRAME_RATE, VtkWriter

            writer = VtkWriter(out, scene.model, all_spheres=a.vtk_all_spheres)
            record_dt = a.record_dt or scene.record_dt
            fps = a.vtk_fps or DEFAULT_FRAME_RATE
            frame_dt = record_dt * a.vtk_every if a.vtk_every is not None else 1.0 / fps
        result = run_scene(scene, t_end=a.t_end, dt=dt, out_dir=out, record_dt=a.record_dt, force=a.force,
                           progress=not a.no_progress and sys.stderr.isatty(),
                           implicit_damping=not a.explicit_damping, plots=not a.no_plots, sleep=not a.no_sleep,
                           frame_dt=frame_dt, frame_writer=writer)
    except ValueError as e:
        print(f"dem: error: {e}", file=sys.stderr)
        return 2
    except SimulationUnstable as e:
        print(f"dem: {e}", file=sys.stderr)
        return 3
    s = result.summary
    print(f"{s['scene']}: {s['steps']} steps of {s['dt']:.3g} s to t = {s['t_end']:.4g} s in {s['wall_time_s']:.2f} s "
          f"({s['steps_per_s']:.4g} steps/s, {s['ball_steps_per_s']:.3g} ball-steps/s); max energy balance error "
          f"{s['max_energy_error']:.2e}; output in {out}")
    return 0


def _cmd_scenes(a) -> int:
    from .scene import load_scene_module, scenes_dir

    if a.params:
        m = load_scene_module(a.params)
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
                first = text[3:].split("\n", 1)[0].strip()
        except OSError:
            pass
        print(f"{f.stem:18s} {first}")
    return 0


def _cmd_plot(a) -> int:
    from .output import read_csv
    from .plots import plot_history

    out = Path(a.out_dir)
    hist = read_csv(out / "history.csv")
    if a.probes:
        missing = [p for p in a.probes if p not in hist]
        if missing:
            print(f"dem: error: no column(s) {missing} in {out / 'history.csv'}; available: {sorted(hist)}",
                  file=sys.stderr)
            return 2
        hist = {"t": hist["t"]} | {p: hist[p] for p in a.probes}
    for p in plot_history(hist, out, title=out.name):
        print(p)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dem", description="DEM engine for rocking structures")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run(sub)
    s = sub.add_parser("scenes", help="list the scenes, or one scene's parameters")
    s.add_argument("--params", metavar="SCENE", default=None)
    pl = sub.add_parser("plot", help="plot history.csv of an output folder")
    pl.add_argument("out_dir")
    pl.add_argument("probes", nargs="*", help="columns to plot (default: all, grouped)")
    r = sub.add_parser("render", help="render frames of an output folder off-screen (pyvista)")
    from .render import add_arguments as _render_args
    from .render import main as _cmd_render  # imports pyvista only when it renders

    _render_args(r)
    v = sub.add_parser("validate", help="run the validation cases and write a report (docs/validation by default)")
    from .validate import add_arguments as _validate_args
    from .validate import main as _cmd_validate

    _validate_args(v)
    from .records.cli import add_arguments as _records_args
    from .records.cli import main as _cmd_records

    _records_args(sub.add_parser("records", help="synthetic record suites (synth) and response spectra (spectrum)"))
    from .sweep.cli import add_arguments as _sweep_args
    from .sweep.cli import main as _cmd_sweep

    _sweep_args(sub.add_parser("sweep", help="run a scene over records x intensities x parameters (resumable, Dask)"))
    from .fragility_cli import add_arguments as _fragility_args
    from .fragility_cli import main as _cmd_fragility

    _fragility_args(sub.add_parser("fragility", help="fragility curves (lognormal MLE, bootstrap), IDA plots"))
    a = parser.parse_args(argv)
    if a.command == "fragility":
        return _cmd_fragility(a)
    if a.command == "sweep":
        return _cmd_sweep(a)
    if a.command == "records":
        return _cmd_records(a)
    if a.command == "validate":
        return _cmd_validate(a)
    if a.command == "render":
        return _cmd_render(a)
    return {"run": _cmd_run, "scenes": _cmd_scenes, "plot": _cmd_plot}[a.command](a)


if __name__ == "__main__":
    sys.exit(main())
