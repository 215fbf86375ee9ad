"""``dem sweep`` (dem/sweep): the same table in process and on a 2-worker Dask LocalCluster, resuming a
sweep killed by SIGTERM, the result columns against exact kinematics, the rigid and DEM engines agreeing
far from the overturning boundary, and bad input refused before anything runs.

Tables are compared without ``wall_time_s`` (a timing): every other column must be identical, since the
rigid batch solver reproduces the scalar solver bit for bit whatever the batch (validation/rocking/batch.py)
and a serial CPU DEM run is bit-reproducible.
"""

import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from dem.records import SuiteRanges, suite_record, write_at2
from dem.run.response import default_overturn_angle, dem_response
from dem.sweep import SweepSpec, read_results, run_sweep

KINEMATIC_TOL = 1e-12
"""Result columns recomputed from exact kinematics: only rounding of O(1 m) quantities."""


def write_suite(folder, count, *, duration=(6.0, 6.0), f_g=(1.0, 3.0), seed=4):
    folder.mkdir(parents=True, exist_ok=True)
    ranges = SuiteRanges(duration=duration, f_g=f_g, pga_g=(0.2, 0.4))
    for i in range(count):
        model, acc = suite_record(seed, i, ranges)
        write_at2(folder / f"r{i}.AT2", model.dt, acc)
    return folder


def table(df):
    return df.drop(columns=["wall_time_s"]).reset_index(drop=True)


def test_local_cluster_gives_the_in_process_table(tmp_path):
    recs = write_suite(tmp_path / "recs", 3, duration=(8.0, 8.0), f_g=(0.5, 1.0))  # long periods: some overturn
    common = dict(scene="single_pier", records=sorted(recs.glob("*.AT2")), intensities=[0.3, 0.6, 1.0, 1.5],
                  scale_by="pga", engine="rigid", batch_size=3, vary={"mu": [0.59]})
    here = run_sweep(SweepSpec(out=tmp_path / "here", **common))
    dask = run_sweep(SweepSpec(out=tmp_path / "dask", **common), workers=2)
    assert len(here) == 12 and here["case_id"].is_unique
    assert len(list((tmp_path / "dask" / "parts").glob("*.parquet"))) == 4  # one part per batch
    pd.testing.assert_frame_equal(table(here), table(dask))
    assert here["overturned"].any() and not here["overturned"].all()  # the table holds both outcomes
    assert (here["status"] == "ok").all()


def test_killed_sweep_resumes_without_duplicates_or_gaps(tmp_path):
    recs = write_suite(tmp_path / "recs", 5, duration=(8.0, 8.0))
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "dem.cli", "sweep", "single_pier", "--records", str(recs), "--scale", "0.1:0.6:6",
            "--scale-by", "pga", "--engine", "rigid", "--rigid-dt", "1e-3", "--out", str(out)]
    proc = subprocess.Popen(args + ["--batch-size", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    deadline = time.time() + 300
    while len(list((out / "parts").glob("part-*.parquet"))) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    parts = list((out / "parts").glob("part-*.parquet"))
    assert proc.returncode == 128 + signal.SIGTERM, "the sweep ended before it could be killed"
    assert 2 <= len(parts) < 30
    for p in parts:  # every finished batch is a complete file
        assert pq.read_table(p).num_rows == 1
    # resume with the same command (larger batches: the batch size is not a setting of the folder)
    resumed = subprocess.run(args + ["--batch-size", "50"], capture_output=True, text=True,
                             cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(parts)} of 30 cases already done; running {30 - len(parts)}" in resumed.stderr
    reference = run_sweep(SweepSpec(scene="single_pier", records=sorted(recs.glob("*.AT2")),
                                    intensities=list(np.linspace(0.1, 0.6, 6)), scale_by="pga", engine="rigid",
                                    rigid_dt=1e-3, out=tmp_path / "whole"))
    got = read_results(out)
    assert got["case_id"].is_unique and set(got["case_id"]) == set(reference["case_id"])
    pd.testing.assert_frame_equal(table(got), table(reference))
    pd.testing.assert_frame_equal(table(pd.read_parquet(out / "results.parquet")), table(reference))


def _rolling_history(theta, slip, base, *, b, h, r):
    """History columns of a box rolling without slip on its lower edge sphere (radius r, centre at (±b, −h)
    in the body frame) over a base displaced by `base`, plus a slip `slip` of that sphere over the base."""
    sign = np.where(theta >= 0, 1.0, -1.0)
    # the lower sphere's centre: at rest at x = ±b; rolling moves it by r θ, the base and the slip carry it
    xc = sign * b + r * theta + base + slip
    zc = r
    x_g = xc - (sign * b * np.cos(theta) - h * np.sin(theta))
    z_g = zc + sign * b * np.sin(theta) + h * np.cos(theta)
    return {"theta_deg": np.degrees(theta), "pier_ux": x_g, "pier_uz": z_g - (r + h), "base_disp": base}


def test_result_columns_from_exact_rolling_kinematics():
    b, h, r = 0.72, 4.72, 0.08
    info = {"alpha_rad": math.atan(0.8 / 4.8),
            "rocking_bodies": [{"theta_deg": "theta_deg", "ux": "pier_ux", "uz": "pier_uz", "edge_radius": r,
                                "half_width": b, "half_height": h}]}
    t = np.linspace(0.0, 10.0, 5001)
    theta = 0.12 * np.sin(1.3 * t) * np.exp(-0.1 * t)
    base = 0.2 * np.sin(0.7 * t)
    slip = 0.004 * (np.tanh(t - 5.0) + np.tanh(5.0))  # a slip of 8 mm in all from t = 0, centred at t = 5 s
    hist = {"t": t} | _rolling_history(theta, slip, base, b=b, h=h, r=r)
    ov = default_overturn_angle(info["alpha_rad"])
    res = dem_response(hist, info, ov, 3e-4)
    assert res["max_slip_m"] == pytest.approx(np.max(np.abs(slip)), abs=KINEMATIC_TOL)
    # the raised edge sphere rises by 2 b |sin θ| while the other rolls (its centre stays at height r)
    assert res["max_uplift_m"] == pytest.approx(np.max(2 * b * np.abs(np.sin(theta))), abs=KINEMATIC_TOL)
    assert res["peak_theta_over_alpha"] == pytest.approx(np.max(np.abs(theta)) / info["alpha_rad"], rel=1e-12)
    assert res["residual_theta_over_alpha"] == pytest.approx(theta[-1] / info["alpha_rad"], rel=1e-12)
    assert not res["overturned"] and res["energy_error"] == 3e-4
    # pure rolling reads no slip; falling past θ_ov is overturning, at the first record beyond it
    fall = np.where(t < 4.0, 0.0, 0.5 * (t - 4.0) ** 2)
    hist = {"t": t} | _rolling_history(fall, 0 * t, 0 * t, b=b, h=h, r=r)
    res = dem_response(hist, info, ov, 0.0)
    assert res["overturned"] and res["peak_theta_over_alpha"] == math.inf
    assert res["overturn_time_s"] == t[np.argmax(fall >= ov)] and math.isnan(res["residual_theta_over_alpha"])
    assert res["max_slip_m"] < KINEMATIC_TOL


@pytest.fixture(scope="module")
def pulse_record(tmp_path_factory):
    """A one-cycle 1 Hz sine pulse of 1 g (CSV, values in g) followed by rest."""
    folder = tmp_path_factory.mktemp("pulse")
    t = np.arange(0, 601) * 0.005
    a = np.where(t < 1.0, np.sin(2 * math.pi * t), 0.0)
    path = folder / "pulse.csv"
    path.write_text("t,a_g\n" + "".join(f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t, a)))
    return path


def test_rigid_and_dem_agree_on_overturning_far_from_the_boundary(ti_cpu, pulse_record, tmp_path):
    # The pier under a 1 Hz one-cycle pulse. The rigid block survives 0.2 g with 0.04 α and overturns at
    # every amplitude from 0.5 to 1.1 g (checked with base_excited_batch): 0.2 g and 0.8 g are far from its
    # boundary. The DEM pier (coarse packing, r1 = 0.16 m: α' = 7.9° instead of 9.5°) must agree.
    spec = dict(scene="single_pier", records=[pulse_record], intensities=[0.2, 0.8], t_end=9.0,
                fixed={"r_base": 0.16, "r_core": 0.4})
    rigid = run_sweep(SweepSpec(out=tmp_path / "rigid", engine="rigid", **spec))
    dem = run_sweep(SweepSpec(out=tmp_path / "dem", engine="dem", **spec))
    print(pd.concat([rigid, dem])[["engine", "intensity", "peak_theta_over_alpha", "overturned", "overturn_time_s",
                                   "max_slip_m", "energy_error"]])
    assert list(rigid["overturned"]) == [False, True]
    assert list(dem["overturned"]) == list(rigid["overturned"])
    assert (dem["status"] == "ok").all() and dem["energy_error"].max() < 0.01
    assert dem.loc[0, "peak_theta_over_alpha"] < 0.5  # survives with a margin, as the rigid block does


def test_bad_sweeps_are_refused_before_running(tmp_path):
    recs = write_suite(tmp_path / "recs", 1)
    base = dict(scene="single_pier", records=sorted(recs.glob("*.AT2")), intensities=[0.5], engine="rigid")
    run_sweep(SweepSpec(out=tmp_path / "a", t_end=7.0, **base))
    with pytest.raises(ValueError, match="holds a sweep with t_end_s = 7.0"):
        run_sweep(SweepSpec(out=tmp_path / "a", t_end=8.0, **base))
    with pytest.raises(ValueError, match="scene 'pena_block' has no shaking table"):
        run_sweep(SweepSpec(out=tmp_path / "b", **(base | {"scene": "pena_block"})))
    # a vehicle's bed takes one record as it is: no scale or target PGA for the sweep to set
    with pytest.raises(ValueError, match="'vehicle_packages' takes a record but not the parameters a sweep sets"):
        run_sweep(SweepSpec(out=tmp_path / "b", **(base | {"scene": "vehicle_packages", "engine": "dem"})))
    with pytest.raises(ValueError, match="parameter 'mu' must be in"):
        run_sweep(SweepSpec(out=tmp_path / "c", vary={"mu": [-1.0]}, **base))
    with pytest.raises(ValueError, match="the sweep sets scale itself"):
        run_sweep(SweepSpec(out=tmp_path / "d", fixed={"scale": 2.0}, **base))
    out = subprocess.run([sys.executable, "-m", "dem.cli", "sweep", "single_pier", "--records", str(recs),
                          "--scale", "0.5", "--vary", "record=x", "--out", str(tmp_path / "e")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "dem: error: --vary record: the sweep sets record itself" in out.stderr
    assert not (tmp_path / "b").exists() and not (tmp_path / "e").exists()  # nothing written


def test_a_sweep_of_record_sets_takes_their_vertical_component(tmp_path):
    """(Issue 32, item 12.) A folder of record sets (dem.records.files: *.set.json) is swept one case per set. The
    rigid engine takes a set's vertical component into Housner's equation (g + a_v): its row is the solver's with
    that vertical acceleration, and differs from the horizontal record alone; the DEM scene of the same case moves
    its table up and down."""
    import json

    from dem.records.files import find_records
    from dem.scenes.scene import build_scene
    from validation.rocking.block import RockingBlock, resolve_restitution
    from validation.rocking.solver import solve

    folder = tmp_path / "sets"
    folder.mkdir()
    t = np.arange(0, 601) * 0.005
    for name, a in (("h.csv", np.where(t < 1.0, np.sin(2 * math.pi * t), 0.0)),
                    ("v.csv", np.where(t < 1.0, -0.6 * np.sin(2 * math.pi * t), 0.0))):  # lighter as it is pushed
        (folder / name).write_text("t,a_g\n" + "".join(f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t, a)))
    (folder / "a_horizontal.set.json").write_text(json.dumps({"record": "h.csv"}))
    (folder / "b_with_vertical.set.json").write_text(json.dumps({"record": "h.csv", "record_v": "v.csv"}))
    out = run_sweep(SweepSpec(scene="single_pier", records=find_records(folder), intensities=[0.3], scale_by="pga",
                              t_end=8.0, engine="rigid", out=tmp_path / "rigid"))
    rows = out.set_index("record")
    assert list(rows.index) == ["a_horizontal.set.json", "b_with_vertical.set.json"]
    horizontal, vertical = rows.loc["a_horizontal.set.json"], rows.loc["b_with_vertical.set.json"]
    assert (out["status"] == "ok").all()
    # the solver itself, with the case's accelerations: the scene's rigid reference (Housner, nominal α and p),
    # the sweep's step (0.005 s: the record's), the set scaled to 0.3 g by its first component
    scene = build_scene("single_pier", {"record": str(folder / "b_with_vertical.set.json"), "target_pga_g": 0.3})
    ref = scene.info["rigid_reference"]
    block = RockingBlock(ref["alpha"], ref["p"], resolve_restitution(ref["alpha"], ref["restitution"]), ref["g"])
    dt = 0.005
    tt = np.arange(int(round(8.0 / dt)) + 1) * dt
    a_h = 0.3 * 9.81 * np.where(tt < 1.0, np.sin(2 * math.pi * tt), 0.0)
    res = solve(block, a_h, 8.0, dt=dt, accel_dt=dt, vertical=-0.6 * a_h, overturn_angle=default_overturn_angle(
        ref["alpha"]))
    peak = np.nanmax(np.abs(res.theta)) / ref["alpha"]
    # the solver's numbers, through the sweep's sampling of the records (linear between 5 ms samples: the same
    # samples) and its baseline correction (a full sine cycle: ~1e-16 m/s²)
    assert vertical["peak_theta_over_alpha"] == pytest.approx(peak, rel=1e-6)
    assert abs(vertical["peak_theta_over_alpha"] - horizontal["peak_theta_over_alpha"]) > 0.01
    vel = scene.model.walls[0].motion.velocity
    assert np.max(np.abs(vel[:, 2])) > 0.1 and scene.info["base_pga_v_g"] == pytest.approx(0.18, rel=1e-6)


USER_SCENE = '''"""A user's block on a shaking table, declaring nothing but its table."""
import numpy as np

import dem
from dem.run.probes import BodyMotion
from dem.scenes.scene import Param, Scene
from dem.scenes.tools import SINE_KEYS, base_signal, shaking, shaking_direction, shaking_params

PARAMS = shaking_params({k: Param(v, k, "", low=0) for k, v in zip(SINE_KEYS, (0.5, 1.0, 1.0, 2.0, 3.0))}) | {
    "t_end": Param(1.5, "duration", "s", low=0, low_open=True)}


def build(p):
    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.8, damping_normal=0.2, damping_shear=0.2,
                               density=2500.0)
    tpl = dem.box_clump(0.1, 0.5, 0.1, r_core=0.025)
    b = dem.ModelBuilder()
    signal, info = base_signal(p, PARAMS)
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=stone, name="table",
                       motion=shaking(signal, direction=shaking_direction(p), t_end=p["t_end"]))
    c = b.add_clump(tpl, material=stone, position=(0, 0, -float(np.min(tpl.centers[:, 2] - tpl.radii))),
                    name="block")
    return Scene("my_block", b.finalize(), [BodyMotion("block", c)], 1e-4, p["t_end"], 5e-3, p, info)
'''


def test_a_users_scene_is_swept_without_declaring_rocking_bodies(ti_cpu, pulse_record, tmp_path):
    """(Issue 32, item 7.) A user's scene that takes the record parameters (shaking_params) and declares no rocking
    body, no α and no rigid reference: the DEM engine sweeps it, each row from its bodies (dem.run.bodies): the
    slender block (α = 11.3°) stays at 0.05 g and falls at 1 g, as the one-cycle 1 Hz pulse of that size throws
    it (uplift from g tan α = 0.2 g; at 1 g it lands past its overturning angle)."""
    scene = tmp_path / "my_block.py"
    scene.write_text(USER_SCENE)
    out = run_sweep(SweepSpec(scene=str(scene), records=[pulse_record], intensities=[0.05, 1.0], scale_by="pga",
                              t_end=1.5, engine="dem", out=tmp_path / "dem"))
    assert (out["status"] == "ok").all(), out[["status", "message"]]
    assert list(out["overturned"]) == [False, True]
    assert out.loc[0, "max_uplift_m"] < 1e-4 and out.loc[0, "peak_theta_over_alpha"] < 0.05
