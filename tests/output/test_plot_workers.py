"""A run's history figures drawn in worker processes (dem.output.plots.PlotJobs) are the figures drawn here, and
an error while drawing (a file where the folder should be) reaches the caller."""

import numpy as np
import pytest

from dem.output.plots import PlotJobs, plot_history


def _history(phase: float) -> dict:
    t = np.linspace(0.0, 1.0, 501)
    th = 2.0 * np.cos(12.0 * t + phase) * np.exp(-3.0 * t)
    return {"t": t, "theta_deg": th, "theta_over_alpha": th / 14.0, "omega": np.gradient(np.radians(th), t),
            "E_kinetic": 0.5 * np.gradient(th, t) ** 2}


def test_workers_draw_what_this_process_draws(tmp_path):
    jobs = [dict(history=_history(k), out_dir=tmp_path / f"w{k}", title=f"world {k}") for k in range(3)]
    paths = PlotJobs(jobs, processes=2).wait()
    here = [plot_history(**(job | {"out_dir": tmp_path / f"here{k}"})) for k, job in enumerate(jobs)]
    assert sorted(p.name for p in paths) == sorted(p.name for ps in here for p in ps) and len(paths) >= 6
    for k in range(3):
        for p in here[k]:
            assert (tmp_path / f"w{k}" / p.name).read_bytes() == p.read_bytes()
    assert not list(tmp_path.rglob(".*tmp*"))


def test_an_error_in_a_worker_is_raised_here(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    jobs = [dict(history=_history(0), out_dir=tmp_path / "file" / "sub", title="x"),
            dict(history=_history(1), out_dir=tmp_path / "ok", title="y")]
    with pytest.raises(OSError):
        PlotJobs(jobs, processes=2).wait()
