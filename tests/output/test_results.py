"""Reading an output folder back (dem.output.results): history, summary, frames, and the frames as meshio and
pyvista objects; the whole chain from ``dem run --vtk-every`` to load_results."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from dem.output.results import load_results
from tests._postproc_case import postproc_run_fixture  # noqa: F401


def test_history_summary_and_frames(postproc_run):
    run = postproc_run
    res = load_results(run.out_dir)
    assert set(res.history) == set(run.result.history)
    for k, v in run.result.history.items():
        # history.parquet holds every value as computed (float64)
        assert np.array_equal(res.history[k], v, equal_nan=True), k
    assert res.summary["scene"] == "postproc_case" and res.summary["steps"] == run.result.summary["steps"]
    assert res.frame_count == len(run.frames)
    assert [t for t, _ in res.frames] == [f.t for f in run.frames]
    assert np.array_equal(res.times, [f.t for f in run.frames])
    for (_, path), parts in zip(res.frames, res.frame_parts):
        assert path == parts["spheres"] and set(parts) == {"spheres", "walls", "contacts", "clumps"}
        assert all(p.exists() for p in parts.values())


def test_read_frame_and_arrays(postproc_run):
    run = postproc_run
    res = load_results(run.out_dir)
    last = run.frames[-1]
    m = res.read_frame(-1)
    assert np.array_equal(m.points, last.centers)
    assert np.array_equal(m.point_data["velocity"], last.velocity)
    c = res.read_frame(-1, "contacts")
    assert np.array_equal(c.cell_data["fn"][0], last.contact_fn)
    assert np.array_equal(c.cell_data["force"][0], last.contact_total_force)
    arrays = res.frame_arrays(0)
    assert arrays["contacts"]["points"].shape == (0, 3) and arrays["contacts"]["normal_force"].shape == (0, 3)
    assert arrays["walls"]["velocity"].shape == (2, 3)
    assert np.array_equal(arrays["clumps"]["quaternion"], run.frames[0].clump_quaternion)
    assert res.nearest_frame(0.011) == 1 and res.nearest_frame(1e9) == res.frame_count - 1


def test_bad_frame_and_part_are_named(postproc_run):
    res = load_results(postproc_run.out_dir)
    n = res.frame_count
    with pytest.raises(IndexError, match=rf"frame must be an integer in \[-{n}, {n - 1}\]"):
        res.read_frame(n)
    with pytest.raises(IndexError, match="frame must be an integer"):
        res.read_frame(1.5)
    with pytest.raises(ValueError, match="part must be one of"):
        res.read_frame(0, "balls")


def test_folder_without_frames_and_not_a_folder(tmp_path, postproc_run):
    d = tmp_path / "noframes"
    d.mkdir()
    shutil.copy(postproc_run.out_dir / "history.parquet", d)
    res = load_results(d)
    assert res.frames == [] and res.summary == {} and "t" in res.history
    with pytest.raises(IndexError, match="has no frames"):
        res.read_frame(0)
    with pytest.raises(FileNotFoundError, match="out_dir must be an output folder"):
        load_results(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="not a dem output folder"):
        load_results(tmp_path / "empty")


def test_either_table_format_is_read(tmp_path, postproc_run):
    """A folder with history.csv (dem run --csv) reads as one with history.parquet, to ten digits; the
    summary's history_file says which is the run's."""
    from dem.output.files import write_csv
    from dem.output.history import read_history

    d = tmp_path / "csv"
    d.mkdir()
    write_csv(d / "history.csv", postproc_run.result.history)
    got = load_results(d).history
    assert list(got) == list(postproc_run.result.history)
    assert all(np.allclose(got[k], v, rtol=1e-9, atol=1e-300) for k, v in postproc_run.result.history.items())
    shutil.copy(postproc_run.out_dir / "history.parquet", d)
    named = read_history(d, {"history_file": "history.csv"})  # as named, where both are there
    assert all(np.array_equal(named[k], got[k]) for k in got)


def test_pyvista_frame(postproc_run):
    pytest.importorskip("pyvista", reason="pyvista not installed (pip install -e '.[vis]')")
    run = postproc_run
    blocks = load_results(run.out_dir).pyvista_frame(-1)
    assert list(blocks.keys()) == ["spheres", "walls", "contacts", "clumps"]
    last = run.frames[-1]
    assert blocks["spheres"].n_points == len(last.radii)
    assert np.array_equal(blocks["spheres"].point_data["radius"], last.radii)
    assert blocks["contacts"].n_cells == len(last.contact_fn)
    assert blocks["walls"].n_cells == 2
    empty = load_results(run.out_dir).pyvista_frame(0)["contacts"]  # VTK reads the empty part too
    assert empty.n_points == 0 and "normal_force" in empty.cell_data


def test_cli_run_writes_frames_that_load(tmp_path, postproc_run):
    """``dem run pena_block --vtk-every N`` (coarse packing, 20 ms) → load_results: frames every N records,
    on the history's times."""
    from dem.cli.main import main

    out = tmp_path / "pena"
    rc = main(["run", "pena_block", "--t-end", "0.02", "--set", "r_base=0.02", "r_core=0.05", "--vtk-every", "50",
               "--out", str(out), "--no-plots", "--no-progress"])
    assert rc == 0
    res = load_results(out)
    history_dt = res.summary["history_dt"]
    assert np.allclose(res.times, np.arange(res.frame_count) * 50 * history_dt, rtol=0, atol=1e-12)
    assert res.frame_count == 5  # t = 0, 5, 10, 15, 20 ms
    hist_t = res.history["t"]
    for t in res.times[res.times <= hist_t[-1]]:
        assert np.min(np.abs(hist_t - t)) < 1e-9
    assert res.read_frame(-1).points.shape == (res.summary["hull_ball_count"], 3)
