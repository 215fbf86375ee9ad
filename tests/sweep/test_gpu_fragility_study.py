"""docs/examples/gpu_fragility_study.py (issue 30, item 6): the one command of the 1,000-case study, here at a size
the CPU runs in seconds, and its sample: which cases it takes and how it projects the study's time."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "examples"))
import gpu_fragility_study as G  # noqa: E402


def test_the_levels_and_the_sample_spread_over_the_study():
    assert G.levels(20)[:3] == [0.1, 0.2, 0.3] and G.levels(20)[-1] == 2.0
    assert G.spread(list(range(50)), 4) == [6, 18, 31, 43]  # the middles of four equal parts
    assert G.spread(list(range(20)), 20) == list(range(20))
    assert G.sample_shape(16, 50, 20) == (4, 4)
    assert G.sample_shape(10, 50, 20) in ((2, 5), (5, 2))
    assert G.sample_shape(7, 50, 20) == (7, 1)  # a prime: one level, seven records
    with pytest.raises(SystemExit, match="a product a × b"):
        G.sample_shape(23, 4, 4)
    with pytest.raises(SystemExit, match="a sample of 5 from 4"):
        G.spread([1, 2, 3, 4], 5)


def test_the_study_runs_as_one_command_and_projects_from_its_sample(tmp_path):
    """4 records × 2 levels, a sample of 2 DEM cases on the CPU: every step runs, the rigid sweep takes all 8 cases,
    the DEM sweep the 2 of the sample, each for the whole study's duration, and the study's time is the sample's
    scaled by 8/2."""
    out = tmp_path / "study"
    p = subprocess.run([sys.executable, "docs/examples/gpu_fragility_study.py", "--arch", "cpu", "--records", "4",
                        "--levels", "2", "--duration", "2:3", "--sample", "2", "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    doc = json.loads((out / "figures" / "numbers.json").read_text())
    assert doc["cases"] == 8 and doc["dem_cases_run"] == 2
    assert doc["study"] == "projected from 2 of the 8 cases"
    assert doc["study_s"] == pytest.approx(4 * doc["dem_sweep_s"], rel=1e-12)
    rigid = json.loads((out / "rigid" / "sweep.json").read_text())
    dem = json.loads((out / "dem" / "sweep.json").read_text())
    assert dem["t_end_s"] == rigid["t_end_s"] == doc["t_end_s"]  # the sample runs the study's duration
    assert doc["batch_world_steps"] == 2 * round(doc["t_end_s"] / doc["dt_s"])
    import pandas as pd

    r, d = pd.read_parquet(out / "rigid" / "results.parquet"), pd.read_parquet(out / "dem" / "results.parquet")
    assert len(r) == 8 and len(d) == 2 and (d["status"] == "ok").all()
    assert sorted(d["pga_g"].round(6)) == [1.0, 2.0]  # a sample of 1 record × 2 levels (nearer a square than 2 × 1)
    assert d["record"].nunique() == 1 and d["record"].iloc[0] == sorted(r["record"].unique())[2]  # the middle
