"""Checks before the first step (output folder writable, locked, room on its disk; model size against the
memory; thread count; times), a disk filling up during a run, and the permissions of the output files."""

import os
import signal
import stat

import numpy as np
import pytest

from dem.cli.main import main
from dem.model.sizing import ModelTooLarge, allow_large, box_sphere_count, check_box
from dem.output.history import read_history
from dem.run.checkpoint import CHECKPOINT_NAME, load
from tests._reliability import (
    PENA_COARSE,
    QUIET,
    one_error_line,
    start_run,
    status_is,
    strict_json,
    temp_files,
    tmpfs,
    wait_for,
)


def test_read_only_output_folder_is_refused_before_the_run(ti_cpu, tmp_path, capsys):
    """(Was: the whole simulation ran, then failed writing its results.)"""
    with tmpfs(tmp_path / "ro", "1m", read_only=True) as ro:
        assert main(["run", *PENA_COARSE, "--t-end", "0.01", *QUIET, "--out", str(ro / "sub")]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert f"--out {ro / 'sub'} is not a writable folder: Read-only file system" in line


@pytest.mark.parametrize("where", ["file", "under_file"])
def test_output_path_at_or_under_a_file(ti_cpu, tmp_path, capsys, where):
    f = tmp_path / "a_file"
    f.write_text("not a folder")
    out = f if where == "file" else f / "run"
    assert main(["run", *PENA_COARSE, "--t-end", "0.01", *QUIET, "--out", str(out)]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert ("got the existing file" in line) if where == "file" else ("which is a file, not a folder" in line)
    assert f.read_text() == "not a folder"


@pytest.mark.timeout(300)
def test_second_run_into_a_busy_folder_is_refused(ti_cpu, tmp_path, capsys):
    """(Was: no lock; 1 in 5 trials mixed the files of both runs.)"""
    out = tmp_path / "run"
    first = start_run([*PENA_COARSE, "--t-end", "30", "--no-sleep", "--vtk-fps", "100", *QUIET, "--out", str(out)])
    try:
        wait_for(status_is(out, "running"), proc=first, what="the first run's first step")
        frames = sorted((out / "vtk").glob("spheres_*.vtu"))
        assert main(["run", *PENA_COARSE, "--t-end", "0.01", "--vtk", *QUIET, "--out", str(out)]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert f"output folder {out} is in use by another dem run (PID {first.pid}" in line
        # the first run's files untouched (the second run's frame writer is made only once it holds the lock)
        assert strict_json(out / "summary.json")["status"] == "running"
        assert frames and all(f.exists() for f in frames)
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=120)
    assert first.returncode == 143 and strict_json(out / "summary.json")["status"] == "interrupted"


def test_disk_without_room_for_the_output_is_refused(ti_cpu, tmp_path, capsys):
    """6 s of the Peña block recorded every 0.1 ms: 60,001 rows of ~45 columns (the history and the force
    profile), up to 22 MB as Parquet (8 bytes a value at most), twice that with the margin, on a 20 MiB file
    system."""
    with tmpfs(tmp_path / "small", "20m") as small:
        assert main(["run", *PENA_COARSE, "--t-end", "6", *QUIET, "--out", str(small / "run")]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert "its disk has" in line and "MiB free, and this run will write about" in line
        assert not (small / "run" / "history.parquet").exists()


class _FillDisk:
    """A frame writer that fills the run's file system at its `at`-th frame, as another program could."""

    all_spheres = False

    def __init__(self, folder, at):
        self.folder, self.at, self.times = folder, at, []

    def write(self, frame):
        self.times.append(frame.t)
        if len(self.times) == self.at:
            free = os.statvfs(self.folder).f_bavail * os.statvfs(self.folder).f_frsize
            with open(self.folder / "filler", "wb") as fh:
                fh.write(b"\0" * max(free - 4096, 0))

    def close(self):
        pass


def test_disk_full_during_a_run(ti_cpu, tmp_path):
    """(Was: a traceback, and all results lost.) The disk fills at t = 0.15 s; the checkpoint due at 0.2 s
    cannot be written: a clear error naming the intact checkpoint (0.1 s) and history; no temporary file;
    with room again, the run resumes to the same history as a run never stopped."""
    from dem.run.driver import RunOutputError, run_scene
    from dem.scenes.scene import build_scene

    params = {"r_base": 0.01, "r_core": 0.04}
    ref = run_scene(build_scene("pena_block", params), t_end=0.3, progress=False, plots=False,
                    out_dir=tmp_path / "ref")
    with tmpfs(tmp_path / "disk", "24m") as disk:
        out = disk / "run"
        with pytest.raises(RunOutputError) as info:
            run_scene(build_scene("pena_block", params), t_end=0.3, out_dir=out, progress=False, plots=False,
                      checkpoint_every=0.1, frame_dt=0.05, frame_writer=_FillDisk(disk, 4))
        msg = str(info.value)
        assert "No space left on device" in msg and "checkpoint at t = 0.1 s" in msg and f"--resume {out}" in msg
        assert load(out).time == pytest.approx(0.1)
        hist = read_history(out)
        # the rows of the steps before the checkpoint: the record at t = 0.1 s is the next step's
        assert hist["t"][-1] == pytest.approx(0.1 - 1e-4) and np.allclose(np.diff(hist["t"]), 1e-4)
        assert not temp_files(out)
        (disk / "filler").unlink()
        res = run_scene(build_scene("pena_block", params), out_dir=out, progress=False, plots=False,
                        resume=load(out))
        assert res.summary["status"] == "ok"
        assert (out / "history.parquet").read_bytes() == (ref.out_dir / "history.parquet").read_bytes()


@pytest.mark.parametrize("setting,what", [("height=1e6", "a 0.25 × 1e+06 × 0.754 m box packing"),
                                          ("spacing_ratio=1e-9", "a 0.25 × 1 × 0.754 m box packing")])
def test_huge_models_are_refused_with_the_estimate(ti_cpu, tmp_path, capsys, setting, what):
    """(Was: OOM-killed after 72 s at 24 GB / a NumPy allocation traceback.) Refused at once, before any
    allocation, with the sphere count and memory."""
    assert main(["run", "pena_block", "--set", setting, *QUIET, "--out", str(tmp_path / "o")]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert f"{what} would have about" in line and "spheres, needing about" in line and "--force" in line
    assert not (tmp_path / "o").exists()


def test_sphere_count_estimate_is_the_packing(ti_cpu):
    """The estimate counts what box_clump places (same zones and lattices), for graded and uniform packings."""
    cases = [((0.25, 1.0, 0.754), dict(r_core=0.025, r_base=0.005, r_top=0.005, base_zone=0.15, top_zone=0.15)),
             ((0.25, 1.0, 0.754), dict(r_core=0.04, r_base=0.01, r_top=0.01, base_zone=0.15, top_zone=0.15)),
             ((1.6, 9.6, 5.0), dict(r_core=0.2, r_base=0.08, r_top=0.08, base_zone=0.4, top_zone=0.4)),
             ((0.3, 0.2, 0.1), dict(r_core=0.02)), ((0.3, 0.2, 0.1), dict(r_core=0.03, r_base=0.01, base_zone=0.05)),
             ((0.3, 0.2, 0.1), dict(r_core=0.05, spacing_ratio=1.0))]
    for size, kw in cases:
        for edges in ("true", "rounded"):  # outer rows centred on the side faces, or tangent to them
            real = ti_cpu.box_clump(*size, **kw, edges=edges).sphere_count
            # the estimate places the same lattices without allocating them: exact
            assert box_sphere_count(*size, **kw, edges=edges) == real, (size, kw, edges)
    huge = dict(r_core=0.025, r_base=0.005, r_top=0.005, base_zone=0.15, top_zone=0.15)
    with pytest.raises(ModelTooLarge):
        check_box(0.25, 1e6, 0.754, **huge)
    with allow_large():  # dem run --force
        check_box(0.25, 1e6, 0.754, **huge)


@pytest.mark.parametrize("threads", ["0", "-2", "100000", "1.5"])
def test_threads_are_checked(ti_cpu, tmp_path, capsys, threads):
    """(Was: a C++ abort, a cryptic message, or a hang of more than 10 minutes.)"""
    assert main(["run", *PENA_COARSE, "--threads", threads, *QUIET, "--out", str(tmp_path / "o")]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "--threads" in line and (f"in [1, {os.cpu_count()}]" in line or "invalid int value" in line)


@pytest.mark.parametrize("args,message", [
    (["--dt", "1", "--force", "--t-end", "0.02"], "--dt must be at most --t-end = 0.02 s"),
    (["--history-dt", "1", "--t-end", "0.02"], "--history-dt must be at most --t-end = 0.02 s"),
    (["--dt", "-1e-5"], "--dt must be a number of seconds > 0 or 'auto', got '-1e-5'"),
    (["--t-end", "-3"], "--t-end must be a number of seconds > 0, got -3.0"),
    (["--t-end", "inf"], "--t-end must be a number of seconds > 0, got inf"),
    (["--set", "mu=0.3", "mu=0.4"], "--set gives 'mu' twice (mu=0.3 and mu=0.4)"),
])
def test_time_settings_and_repeated_keys(ti_cpu, tmp_path, capsys, args, message):
    """(Was: --dt 1 --force ran to t = 1 s with status ok; --record-dt 1 (now --history-dt) wrote Infinity into
    summary.json; --dt -1e-5 gave argparse's 'expected one argument'; a repeated --set key: the last one silently
    won.)"""
    assert main(["run", *PENA_COARSE, *args, *QUIET, "--out", str(tmp_path / "o")]) == 2
    assert message in one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "o").exists()


def test_output_files_have_normal_permissions(ti_cpu, tmp_path, capsys):
    """(Was: mode 0600 on the CSV and JSON files.) Every file gets 0666 less the umask."""
    old = os.umask(0o022)
    try:
        out = tmp_path / "o"
        assert main(["run", *PENA_COARSE, "--t-end", "0.01", "--out", str(out), "--no-progress", "--checkpoint"]) == 0
    finally:
        os.umask(old)
    files = [p for p in out.iterdir() if p.is_file()]
    assert {"history.parquet", "summary.json", CHECKPOINT_NAME, "profile_width.parquet"} <= {p.name for p in files}
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p


def test_scene_build_returning_none(ti_cpu, tmp_path, capsys):
    scene = tmp_path / "broken.py"
    scene.write_text("from dem import Param\nPARAMS = {'x': Param(1.0, 'a number')}\n\ndef build(p):\n    pass\n")
    assert main(["run", str(scene), *QUIET, "--out", str(tmp_path / "o")]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "scene broken: build(params) must return a dem.Scene, got NoneType" in line
