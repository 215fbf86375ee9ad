"""A column of drums as the worlds of one batch (issue 22, item 5), and its response row
(dem.run.assembly_response): joint dislocations and residual rotations from the drums' histories.

On the serial CPU path a world runs in one thread with its own sums, its own host pair search over its own
bodies, whatever the other worlds do (tests/run/test_worlds.py): "the same history" is the same bytes."""

import math

import numpy as np
import pandas as pd
import pytest

from dem.run.assembly_response import ASSEMBLY_COLUMNS, assembly_response
from dem.scenes.scene import build_scene

# two coarse drums and the capital; Δt = 5e-5 s is stable for this packing (tests/physics/test_drum_column_scene.py)
COLUMN = {"drums": 2, "shaft_height": 1.0, "r_joint": 0.02, "r_core": 0.05, "zone": 0.06, "settle": 0.02,
          "dt": 5e-5, "pulse": "one_sine", "pulse_frequency": 8.0}
ROUND_OFF = 1e-12  # [m, rad]: a few ulps of the face-point arithmetic on lengths of ~1 m


def _history(info, model, *, shift=None, tilt=0.0, table=0.0, theta_path=None):
    """Two history rows (start, end) of a column moved by hand: at the end each block shifted by shift[k]
    [m] along x, and the whole column turned rigidly by `tilt` [rad] about its foot's rim at (+R, 0), on a
    table displaced by `table` [m] (the column carried with it)."""
    blocks = info["assembly"]["blocks"]
    shift = np.zeros(len(blocks)) if shift is None else np.asarray(shift, float)
    pivot = np.array([info["rigid_reference"]["width"] / 2, 0.0])
    h = {"t": np.array([0.0, 1.0]), "table_disp": np.array([0.0, table])}
    c, s = math.cos(tilt), math.sin(tilt)
    for k, b in enumerate(blocks):
        x0 = np.asarray(model.clumps[k].position, float)[[0, 2]] - pivot
        x1 = np.array([x0[0] * c + x0[1] * s, -x0[0] * s + x0[1] * c])  # turned about +y (RockingAngle's sign)
        ux, uz = x1 - x0
        h[b["ux"]] = np.array([0.0, ux + shift[k] + table])
        h[b["name"] + "_uz"] = np.array([0.0, uz])
        h[b["theta_deg"]] = np.array([0.0, math.degrees(tilt)]) if theta_path is None else theta_path(k)
    return h


def test_dislocation_is_the_offset_between_faces_not_the_motion_of_the_column():
    """Built from the scene's own info (no engine): a column carried by the table, or turned rigidly about its
    foot's rim, is not dislocated (to round-off); a drum pushed 7 mm over the one below is, at its joint;
    a drum past θ_ov makes the column fall, and no residual is read."""
    scene = build_scene("drum_column", {k: v for k, v in COLUMN.items() if not k.startswith("pulse")})
    info, model = scene.info, scene.model
    n = len(info["assembly"]["blocks"])
    carried = assembly_response(_history(info, model, table=0.05), info)
    assert carried["residual_dislocation_m"] < ROUND_OFF and not carried["overturned"]
    tilted = assembly_response(_history(info, model, tilt=math.radians(2.0)), info)
    assert tilted["residual_dislocation_m"] < ROUND_OFF
    assert tilted["residual_rotation_deg"] == pytest.approx(2.0, abs=ROUND_OFF)
    assert tilted["residual_theta_over_alpha"] == pytest.approx(math.radians(2.0) / info["alpha_rad"], rel=1e-12)
    pushed = assembly_response(_history(info, model, shift=[0.0, 0.007] + [0.007] * (n - 2)), info)
    assert pushed["residual_dislocation_m"] == pytest.approx(0.007, abs=ROUND_OFF)
    assert pushed["residual_dislocation_joint"] == "joint1"
    angle = 0.5 * (info["alpha_rad"] + 0.5 * math.pi)  # dem.run.response's θ_ov
    fell = assembly_response(_history(info, model, theta_path=lambda k: np.array(
        [0.0, math.degrees(angle) + 1.0 if k == 1 else 0.0])), info)
    assert fell["overturned"] and fell["fell_body"] == "drum2" and fell["overturn_time_s"] == 1.0
    assert math.isinf(fell["peak_theta_over_alpha"]) and math.isnan(fell["residual_dislocation_m"])


def test_column_worlds_are_their_runs_alone(ti_cpu, tmp_path):
    """`dem run drum_column --vary pulse_pga_g=0.8,1.2` as run_worlds runs it: each world's history is the
    one run_scene writes for that pulse alone, byte for byte (three bodies a world: per-world host pair
    search), and worlds.csv's dislocation columns are those of the world's own history."""
    from dem.run.driver import run_scene
    from dem.run.worlds import build_worlds, run_worlds

    pgas = (0.8, 1.2)
    worlds = build_worlds("drum_column", [{"pulse_pga_g": a} for a in pgas], common=COLUMN)
    results = run_worlds(worlds, t_end=0.1, out_dir=tmp_path / "batch", progress=False, plots=False)
    assert [r.summary["status"] for r in results] == ["ok", "ok"]
    table = pd.read_csv(tmp_path / "batch" / "worlds.csv", keep_default_na=False)
    assert set(ASSEMBLY_COLUMNS) <= set(table.columns)
    for k, a in enumerate(pgas):
        scene = build_scene("drum_column", COLUMN | {"pulse_pga_g": a})
        alone = run_scene(scene, t_end=0.1, out_dir=tmp_path / f"alone{k}", progress=False, plots=False)
        assert (tmp_path / f"alone{k}" / "history.parquet").read_bytes() == \
            (tmp_path / "batch" / f"world_{k:03d}" / "history.parquet").read_bytes(), f"world {k}"
        row = assembly_response(alone.history, scene.info, energy_error=alone.summary["max_energy_error"])
        assert float(table["residual_dislocation_m"][k]) == pytest.approx(row["residual_dislocation_m"], rel=1e-9)
        assert table["residual_dislocation_joint"][k] == row["residual_dislocation_joint"]
    # the stronger pulse rocks the column more: the batch did not mix the worlds up
    assert table["peak_theta_over_alpha"][1] > table["peak_theta_over_alpha"][0] > 0
