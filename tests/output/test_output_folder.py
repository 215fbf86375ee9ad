"""The run's output folder (history.parquet or history.csv, summary.json, plots) and its atomic writes."""

import json
import os

import numpy as np
import pytest

from dem.cli.main import main
from dem.output.files import csv_header, format_rows, read_csv, write_csv
from dem.output.history import read_history, read_parquet, read_profiles
from dem.run.checkpoint import CHECKPOINT_NAME

SUMMARY_KEYS = {"scene", "arch", "precision", "dt", "steps", "t_end", "ball_count", "hull_ball_count", "clump_count",
                "wall_count", "wall_time_s", "steps_per_s", "max_energy_error", "params"}
HISTORY_COLUMNS = {"t", "theta_deg", "omega", "force_ratio", "force_ratio_left", "force_ratio_right", "E_body",
                   "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction", "energy_error"}


def test_cli_run_writes_history_summary_and_plots(ti_cpu, tmp_path, capsys):
    """By default: history.parquet and profile_width.parquet (float64, as computed), summary.json, the plots, and
    no checkpoint (none was asked for). With --csv the same numbers as history.csv ('%.10g'), and a run into the
    folder replaces the last one's tables."""
    out = tmp_path / "pena"
    args = ["run", "scenes/pena_block.py", "--t-end", "0.05", "--set", "r_core=0.04", "theta0_deg=2.0",
            "--out", str(out), "--no-progress"]
    code = main(args)
    assert code == 0, capsys.readouterr().err
    hist = read_parquet(out / "history.parquet")
    assert HISTORY_COLUMNS <= set(hist)
    summary = json.loads((out / "summary.json").read_text())
    assert SUMMARY_KEYS <= set(summary)
    assert summary["steps"] == 5000 and summary["params"]["theta0_deg"] == 2.0 and summary["status"] == "ok"
    # records every 1e-4 s from t = 0 to the last step
    assert np.allclose(np.diff(hist["t"]), 1e-4) and hist["t"][0] == 0.0
    assert abs(hist["theta_deg"][0] - 2.0) < 1e-12
    assert summary["max_energy_error"] == pytest.approx(np.max(np.abs(hist["energy_error"])))
    for group in ("rocking", "forces", "interfaces", "energy", "diagnostics"):
        assert (out / f"plot_{group}.png").stat().st_size > 1000
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith("plot_")) == \
        ["history.parquet", "peaks.csv", "profile_width.parquet", "summary.json"]
    assert not (out / CHECKPOINT_NAME).exists() and summary["checkpoint"] is None
    again = read_history(out)
    assert summary["history_file"] == "history.parquet" and all(np.array_equal(again[k], hist[k]) for k in hist)
    profile = read_profiles(out)["width"]
    assert profile["t"].tolist() == hist["t"].tolist() and len(profile) > 10

    code = main([*args, "--csv", "--no-plots"])
    assert code == 0, capsys.readouterr().err
    assert not (out / "history.parquet").exists() and not (out / "profile_width.parquet").exists()
    text = (out / "history.csv").read_bytes()
    assert text == csv_header(hist) + format_rows(hist)  # the same run: its numbers to ten digits
    assert read_profiles(out)["width"].keys() == profile.keys()
    assert json.loads((out / "summary.json").read_text())["history_file"] == "history.csv"


def test_interrupted_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "h.csv"
    write_csv(path, {"t": np.arange(3.0), "x": np.ones(3)})

    class Boom(np.ndarray):
        pass

    bad = np.ones(3).view(Boom)
    with pytest.raises(TypeError):  # an object column cannot be written as numbers
        write_csv(path, {"t": np.arange(3.0), "x": bad, "y": object()})
    assert read_csv(path)["x"].tolist() == [1.0, 1.0, 1.0]
    assert [p.name for p in tmp_path.iterdir()] == ["h.csv"]  # no temporary file left behind
    os.remove(path)
