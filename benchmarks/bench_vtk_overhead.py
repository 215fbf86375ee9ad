"""Cost of ParaView frames: a run with frames at the default frame rate vs the same run without.

The Peña block (scenes/pena_block.py) runs t_end seconds twice per repeat, without frames and with a
VtkWriter at ``--fps`` frames per simulated second (default dem.vtk_output.DEFAULT_FRAME_RATE); the
loop's wall time (summary ``wall_time_s``: stepping, snapshots and writing, not Taichi's start-up) is
compared, best of ``--repeat``. The writer's own time (meshes, compression, files) is timed apart, so the
rest of the difference is the snapshots and the shorter chunks of steps between frames. A coarse packing
is the default because it is the worst case: the cheaper a step, the larger a frame's relative cost.

Run: python benchmarks/bench_vtk_overhead.py [--t-end 0.5] [--fps 25] [--repeat 2] [--set r_base=0.01 ...]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

LIMIT = 0.10  # the bound on the slow-down at the default frame rate


class TimedWriter:
    """Passes frames to a VtkWriter and adds up the time spent in it."""

    def __init__(self, inner):
        self.inner, self.seconds, self.frames = inner, 0.0, 0

    @property
    def all_spheres(self) -> bool:
        return self.inner.all_spheres

    def write(self, frame) -> None:
        t0 = time.perf_counter()
        self.inner.write(frame)
        self.seconds += time.perf_counter() - t0
        self.frames += 1

    def close(self) -> None:
        t0 = time.perf_counter()
        self.inner.close()
        self.seconds += time.perf_counter() - t0


class SnapshotTimer:
    """Times dem.snapshot.snapshot, which the run loop looks up at each run (the engine's share)."""

    def __init__(self):
        import dem.snapshot as module

        self.module, self.original, self.seconds, self.calls = module, module.snapshot, 0.0, 0

        def timed(sim, **kw):
            t0 = time.perf_counter()
            try:
                return self.original(sim, **kw)
            finally:
                self.seconds += time.perf_counter() - t0
                self.calls += 1

        module.snapshot = timed

    def reset(self) -> None:
        self.seconds, self.calls = 0.0, 0


def main() -> int:
    import dem
    from dem.run import run_scene
    from dem.scene import build_scene, parse_assignments
    from dem.vtk_output import DEFAULT_FRAME_RATE, VtkWriter

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--t-end", type=float, default=0.5, help="simulated time per run [s] (default 0.5)")
    ap.add_argument("--fps", type=float, default=DEFAULT_FRAME_RATE,
                    help=f"frames per simulated second (default {DEFAULT_FRAME_RATE:g})")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each kind; the best counts (default 2)")
    ap.add_argument("--all-spheres", action="store_true", help="frames with every sphere, not only the hull")
    ap.add_argument("--foreground", action="store_true", help="write in the run's thread (VtkWriter background=False)")
    ap.add_argument("--set", dest="sets", nargs="+", default=["r_base=0.01", "r_core=0.04"], metavar="KEY=VALUE",
                    help="pena_block parameters (default r_base=0.01 r_core=0.04)")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for Taichi")
    a = ap.parse_args()

    dem.init("cpu", threads=a.threads)
    scene = build_scene("pena_block", parse_assignments(a.sets))
    m = scene.model
    print(f"pena_block {' '.join(a.sets)}: {m.ball_count} spheres, {m.hull_count} on the hull; t_end {a.t_end:g} s, "
          f"dt {scene.dt:g} s, frames every {1 / a.fps:g} s ({a.fps:g} per simulated second)")
    tmp = Path(tempfile.mkdtemp(prefix="bench_vtk_"))
    try:
        # compile the stepping and the snapshot kernels before timing
        run_scene(scene, t_end=min(a.t_end, 0.01), out_dir=tmp / "warm", progress=False, plots=False,
                  frame_dt=0.005, frame_writer=VtkWriter(tmp / "warm", m))
        snaps = SnapshotTimer()
        plain, framed = [], []
        for _ in range(a.repeat):
            r = run_scene(scene, t_end=a.t_end, out_dir=tmp / "plain", progress=False, plots=False)
            plain.append(r.summary["wall_time_s"])
            w = TimedWriter(VtkWriter(tmp / "framed", m, all_spheres=a.all_spheres, background=not a.foreground))
            snaps.reset()
            r = run_scene(scene, t_end=a.t_end, out_dir=tmp / "framed", progress=False, plots=False,
                          frame_dt=1.0 / a.fps, frame_writer=w)
            framed.append((r.summary["wall_time_s"], w.seconds, w.frames, snaps.seconds))
            print(f"  run: without frames {plain[-1]:.3f} s, with {w.frames} frames {framed[-1][0]:.3f} s "
                  f"(snapshots {snaps.seconds:.3f} s, writer {w.seconds:.3f} s)")
        size = sum(p.stat().st_size for p in (tmp / "framed" / "vtk").glob("*.vtu"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    t_plain = min(plain)
    t_framed, t_writer, n, t_snap = min(framed)
    overhead = t_framed / t_plain - 1.0
    print(f"wall time without frames: {t_plain:.3f} s ({round(a.t_end / scene.dt)} steps)")
    print(f"wall time with frames:    {t_framed:.3f} s ({n} frames, {size / 2**20:.2f} MiB of VTU)")
    mode = "foreground" if a.foreground else "background thread; time the run waited on it"
    print(f"  in the writer ({mode}): {t_writer:.3f} s ({1e3 * t_writer / n:.1f} ms per frame)")
    print(f"  in snapshots (engine):  {t_snap:.3f} s ({1e3 * t_snap / n:.1f} ms per frame)")
    print(f"  the rest (chunking, noise): {t_framed - t_plain - t_writer - t_snap:.3f} s")
    print(f"overhead: {100 * overhead:.1f} % (limit {100 * LIMIT:.0f} %): {'PASS' if overhead < LIMIT else 'FAIL'}; "
          f"writer {100 * t_writer / t_plain:.1f} %, snapshots {100 * t_snap / t_plain:.1f} % of the plain run")
    return 0 if overhead < LIMIT else 1


if __name__ == "__main__":
    raise SystemExit(main())
