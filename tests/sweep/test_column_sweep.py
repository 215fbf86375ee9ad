"""`dem sweep drum_column` (issue 22, item 5): the DEM engine's rows of a column (every drum, its joints'
dislocations), the rigid engine's reference (the monolithic column on its foot's rim) and what it refuses,
and `dem fragility --dislocations`."""

import math

import numpy as np
import pandas as pd
import pytest

from dem.cli.main import main
from dem.run.assembly_response import ASSEMBLY_COLUMNS, assembly_response
from dem.scenes.scene import build_scene
from dem.sweep.fragility import damage_outcomes

# three coarse drums and the capital, Δt = 5e-5 s (stable for this packing: tests/physics/test_drum_column_scene.py)
COARSE = ["drums=3", "shaft_height=1.5", "r_joint=0.02", "r_core=0.05", "zone=0.06", "settle=0.02", "dt=5e-5"]
T_END = "0.15"  # [s]: records of 0.1 s, then 0.03 s free (short: the test checks the plumbing, not a fragility)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    out = tmp_path_factory.mktemp("records")
    assert main(["records", "synth", "--count", "2", "--seed", "11", "--out", str(out), "--duration", "0.1:0.1",
                 "--freq", "3:4", "--pga", "0.3:0.4"]) == 0
    return out


def _sweep(records, out, *extra):
    return main(["sweep", "drum_column", "--records", str(records), "--scale", "0.6,1.2", "--scale-by", "pga",
                 "--set", *COARSE, "--t-end", T_END, "--out", str(out), "--no-progress", *extra])


def test_column_sweep_runs_end_to_end_and_writes_the_store(ti_cpu, records, tmp_path, capsys):
    """2 records × 2 PGAs through the DEM engine, as one batch of four worlds: the store holds four rows with
    the assembly's columns; one case's row is the row of that case run alone (the serial path: the same
    history to the bit); a re-run finds everything done; dem fragility fits the dislocation measure."""
    from dem.run.driver import run_scene

    out = tmp_path / "dem"
    assert _sweep(records, out, "--engine", "dem") == 0
    df = pd.read_parquet(out / "results.parquet")
    assert len(df) == 4 and list(df["status"]) == ["ok"] * 4 and (out / "sweep.json").exists()
    assert set(ASSEMBLY_COLUMNS) <= set(df.columns)
    assert df["pga_g"].to_numpy() == pytest.approx(df["intensity"].to_numpy(), rel=1e-12)  # --scale-by pga
    assert np.all(np.isfinite(df["residual_dislocation_m"])) and not df["overturned"].any()
    case = df.iloc[3]
    params = dict(s.split("=") for s in COARSE) | {"record": str(records / case["record"]), "scale": case["scale"],
                                                   "t_end": float(T_END)}
    scene = build_scene("drum_column", params)
    alone = run_scene(scene, progress=False, plots=False)
    row = assembly_response(alone.history, scene.info, energy_error=alone.summary["max_energy_error"])
    for k in ("peak_theta_over_alpha", "residual_dislocation_m", "residual_rotation_deg", "max_uplift_m"):
        assert case[k] == row[k], k  # the same history, the same arithmetic
    capsys.readouterr()
    assert _sweep(records, out, "--engine", "dem") == 0  # resumed: nothing left to run
    assert "4 cases in" in capsys.readouterr().out and len(pd.read_parquet(out / "results.parquet")) == 4
    assert main(["fragility", str(out), "--dislocations", "1e-6,1", "--bootstrap", "0", "--out",
                 str(tmp_path / "frag")]) == 0
    text = (tmp_path / "frag" / "fragility.json").read_text()
    assert "dislocation>=1e-06" in text and "dislocation>=1" in text


def test_rigid_reference_is_the_monolithic_column():
    """One drum, no capital: the rigid reference is Housner's rigid cylinder (radius R, height H) — p² = m g
    R₀/I_O with I_O = m(3R² + H²)/12 + m(R² + H²/4) about the rim, e = 1 − 2 m R²/I_O (angular momentum about
    the rim it lands on), α = atan(2R/H); the scene's mass properties are the solid's, so to round-off."""
    R, H = 0.3, 1.2
    scene = build_scene("drum_column", {"drums": 1, "shaft_height": H, "radius": R, "top_radius": R,
                                        "capital": False, "r_joint": 0.03, "r_core": 0.06, "zone": 0.08})
    ref, m = scene.info["rigid_reference"], scene.model.mass[0]
    i_o = m * (3 * R**2 + H**2) / 12 + m * (R**2 + H**2 / 4)
    assert ref["alpha"] == pytest.approx(math.atan(2 * R / H), rel=1e-9)
    assert ref["p"] == pytest.approx(math.sqrt(m * 9.81 * math.hypot(R, H / 2) / i_o), rel=1e-9)
    assert ref["restitution"] == pytest.approx(1 - 2 * m * R**2 / i_o, rel=1e-9)


def test_rigid_engine_runs_the_monolithic_column_and_refuses_the_edge_geometry(records, tmp_path, capsys):
    assert _sweep(records, tmp_path / "rigid", "--engine", "rigid") == 0
    df = pd.read_parquet(tmp_path / "rigid" / "results.parquet")
    assert len(df) == 4 and list(df["status"]) == ["ok"] * 4
    assert "residual_dislocation_m" not in df  # one rigid body: no joints
    capsys.readouterr()
    assert _sweep(records, tmp_path / "edge", "--engine", "rigid", "--rigid-geometry", "edge") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dem: error: --rigid-geometry edge") and len(err.splitlines()) == 1
    assert main(["fragility", str(tmp_path / "rigid"), "--dislocations", "0.01", "--bootstrap", "0"]) == 2
    assert "dem: error: --dislocations" in capsys.readouterr().err


def test_dislocation_outcomes_count_overturned_cases_as_exceeding():
    df = pd.DataFrame({"overturned": [False, False, True], "peak_theta_over_alpha": [0.1, 0.5, math.inf],
                       "residual_dislocation_m": [0.002, 0.02, math.nan]})
    assert damage_outcomes(df, "dislocation>=0.01").tolist() == [False, True, True]
    with pytest.raises(ValueError, match="residual_dislocation_m"):
        damage_outcomes(df.drop(columns="residual_dislocation_m"), "dislocation>=0.01")
