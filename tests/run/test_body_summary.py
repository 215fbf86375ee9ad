"""summary.json's ``bodies`` (dem.run.bodies) against the history of a short coarse run: two slender blocks
(0.1 × 0.1 × 0.4 m, 20 mm spheres) on a floor, one at rest and one set rotating about its corner fast enough to
go past its tipping angle and fall; and the tracker on made-up history rows (a moving table, a drop).

The history's rocking angle (dem.run.probes.RockingAngle) and centre displacement (BodyMotion) are computed from
the same history rows as the summary, by other formulas (atan2 of a rotated axis against the angle of a relative
quaternion): they agree to round-off, ANGLE_TOL, for a rotation about one axis.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

ANGLE_TOL = 1e-9  # [rad]: two formulas of one rotation in f64 (each ~1e-15); the motion stays in the x–z plane
DISP_TOL = 1e-12  # [m]: the same positions, differenced
T_END = 0.45  # [s]: the pushed block passes α at ~0.12 s and reaches θ_ov at ~0.35 s (rigid estimate)
SIZE = (0.1, 0.4)  # width (x and y) and height [m]: α = atan(0.05/0.2) = 14°
OMEGA0 = 2.5  # [rad/s] about the corner: 1.45 rad/s lifts its centre over the corner (½ I_O ω² = m g ΔR)


def _scene():
    import dem
    from dem.run.probes import BodyMotion, RockingAngle
    from dem.scenes.scene import Scene

    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.8, damping_normal=0.2, damping_shear=0.2,
                               density=2500.0)
    w, h = SIZE
    tpl = dem.box_clump(w, h, w, r_core=0.02)  # width, height, thickness
    z0 = -float(np.min(tpl.centers[:, 2] - tpl.radii))
    b = dem.ModelBuilder()
    rest = b.add_clump(tpl, material=stone, position=(-0.5, 0.0, z0), name="resting")
    # rotating about its +x bottom edge (the pivot O): v = ω × (G − O), G − O = (−w/2, 0, h/2)
    omega = np.array([0.0, OMEGA0, 0.0])
    v = np.cross(omega, [-w / 2, 0.0, h / 2])
    push = b.add_clump(tpl, material=stone, position=(0.5, 0.0, z0), velocity=v, angular_velocity=omega,
                       name="pushed")
    b.add_wall((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), material=stone, name="floor")
    model = b.finalize()
    probes = [RockingAngle("resting_theta_deg", rest), BodyMotion("resting", rest),
              RockingAngle("pushed_theta_deg", push), BodyMotion("pushed", push)]
    return Scene("two_blocks", model, probes, 1e-4, T_END, 2e-3, {})


@pytest.fixture(scope="module")
def two_blocks(ti_cpu, tmp_path_factory):
    from dem.run.driver import run_scene

    out = tmp_path_factory.mktemp("two_blocks")
    result = run_scene(_scene(), out_dir=out, progress=False, plots=False)
    return result, json.loads((out / "summary.json").read_text())


def test_peaks_and_residuals_are_the_historys(two_blocks):
    result, summary = two_blocks
    h = result.history
    bodies = {b["name"]: b for b in summary["bodies"]}
    assert list(bodies) == ["resting", "pushed"]
    for name, b in bodies.items():
        theta = np.radians(h[f"{name}_theta_deg"])
        k = int(np.argmax(np.abs(theta)))
        assert b["peak_rotation_rad"] == pytest.approx(abs(theta[k]), abs=ANGLE_TOL)
        assert b["peak_tilt_rad"] == pytest.approx(abs(theta[k]), abs=ANGLE_TOL)
        assert b["residual_rotation_rad"] == pytest.approx(abs(theta[-1]), abs=ANGLE_TOL)
        # about −y... or +y: the rotation vector lies along y with θ's sign (RockingAngle: positive about +y)
        assert b["residual_rotation_vector_rad"][1] == pytest.approx(theta[-1], abs=ANGLE_TOL)
        ux, uz = h[f"{name}_ux"], h[f"{name}_uz"]
        assert b["residual_displacement_m"][0] == pytest.approx(ux[-1] - ux[0], abs=DISP_TOL)
        assert b["residual_displacement_m"][2] == pytest.approx(uz[-1] - uz[0], abs=DISP_TOL)
        assert b["residual_horizontal_drift_m"] >= abs(ux[-1] - ux[0]) - DISP_TOL
        assert b["ground"] is None and b["residual_drift_m"] == b["residual_displacement_m"]  # the floor stays
    if bodies["pushed"]["peak_rotation_rad"] > ANGLE_TOL:  # the time of a peak that is not round-off
        k = int(np.argmax(np.abs(h["pushed_theta_deg"])))
        assert bodies["pushed"]["peak_rotation_time_s"] == pytest.approx(h["t"][k], abs=1e-12)


def test_the_pushed_block_fell_and_the_resting_one_did_not(two_blocks):
    result, summary = two_blocks
    h = result.history
    rest, push = summary["bodies"]
    assert not rest["fell"] and rest["fell_time_s"] is None and rest["fell_by"] is None
    assert summary["null_reasons"]["bodies[0].fell_time_s"] == "the body did not fall"
    assert rest["peak_rotation_rad"] < 1e-6 and rest["residual_horizontal_drift_m"] < 1e-6
    assert push["fell"] and push["fell_by"] == "tilt"
    alpha = math.atan2(SIZE[0] / 2, SIZE[1] / 2)
    assert push["overturn_angle_rad"] == pytest.approx((alpha + math.pi / 2) / 2, rel=1e-12)  # the solid's α
    # the first record at which |θ| reached θ_ov
    theta = np.abs(np.radians(h["pushed_theta_deg"]))
    first = int(np.flatnonzero(theta >= push["overturn_angle_rad"])[0])
    assert push["fell_time_s"] == pytest.approx(h["t"][first], abs=1e-12)
    assert push["overturn_angle_from"] == rest["overturn_angle_from"] == "body geometry"


def test_summary_line_names_the_fallen_body(two_blocks):
    from dem.output.headline import headline_text

    _result, summary = two_blocks
    line = headline_text(summary)
    assert line.startswith(f"1 of 2 bodies fell (pushed at {summary['bodies'][1]['fell_time_s']:.3g} s)"), line
    assert "tipped over" not in line and "passed α" not in line  # one time for one collapse


def test_one_time_of_collapse_everywhere_without_declarations(two_blocks, tmp_path):
    """(Issue 32: a user's statue fell while worlds.csv said overturned False, the response "no body overturned",
    events nothing, and --stop-on overturn ran to the end.) The two blocks' scene declares nothing (no rocking
    bodies, no events, no α): the pushed block's fall is the same time in summary.json's bodies and response,
    its overturn event, a batch's worlds.csv, and a run stopped on it."""
    import pandas as pd

    from dem.run.driver import run_scene
    from dem.run.worlds import WorldBatch, run_worlds

    _result, summary = two_blocks
    fell = summary["bodies"][1]["fell_time_s"]
    assert summary["response"]["overturned"] is True and summary["response"]["overturn_time_s"] == fell
    assert [(e["event"], e["body"], e["t"]) for e in summary["events"]] == [("overturn", "pushed", fell)]
    # every body measured: the resting block neither slips nor lifts (round-off of its settling: micrometres)
    rest = summary["bodies"][0]
    assert rest["max_slip_m"] < 1e-5 and rest["max_uplift_m"] < 1e-5
    assert summary["bodies"][1]["max_uplift_m"] > 0.01  # the pushed block's far edge rises as it tips (0.1 m × sin θ)

    stopped = run_scene(_scene(), stop_on=("overturn",), progress=False, plots=False)
    assert stopped.summary["status"] == "stopped" and stopped.summary["stopped_by"]["t"] == fell
    assert stopped.summary["t_end"] == pytest.approx(fell, abs=1e-9)

    out = tmp_path / "batch"
    run_worlds(WorldBatch([_scene()], [{}]), out_dir=out, progress=False, plots=False)
    row = pd.read_csv(out / "worlds.csv").iloc[0]
    assert bool(row["overturned"]) and row["overturn_time_s"] == pytest.approx(fell, abs=1e-12)
    assert row["bodies_fell"] == 1 and row["first_fell_body"] == "pushed"


def test_drift_is_measured_on_a_moving_table_and_a_drop_is_a_fall():
    """Made-up rows (no run): a block carried 0.3 m by its table and shifted 2 mm on it (its slip); a second
    block that drops off what carried it (its centre 0.06 m lower on the table than where it rested: more than
    half its 0.1 m width) without turning."""
    import dem
    from dem.model.walls import WallMotion
    from dem.physics.history_rows import C_KT, C_POS, C_QUAT, CLUMP_WIDTH, HistoryRowLayout
    from dem.run.bodies import BodyTracker

    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.8, density=2500.0)
    tpl = dem.box_clump(SIZE[0], SIZE[1], SIZE[0], r_core=0.02)
    b = dem.ModelBuilder()
    b.add_wall((0, 0, 0), (0, 0, 1), material=stone, name="table",
               motion=WallMotion.from_function(lambda t: np.outer(np.ones_like(t), [1.0, 0.0, 0.0]), 1.0, 1e-3))
    carried = b.add_clump(tpl, material=stone, position=(-0.5, 0.0, 0.2), name="carried")
    dropped = b.add_clump(tpl, material=stone, position=(0.5, 0.0, 0.2), name="dropped")
    model = b.finalize()
    lay = HistoryRowLayout(model.clump_count, model.wall_count, model.slot_count)
    rows = np.zeros((3, lay.width))
    rows[:, 0] = [0.0, 0.1, 0.3]
    for c in (carried, dropped):
        base = lay.clump_base + CLUMP_WIDTH * c
        rows[:, base + C_QUAT] = 1.0
        rows[:, base + C_POS: base + C_POS + 3] = model.clumps[c].position
        rows[0, base + C_KT] = 1e6  # resting on the table at t = 0 (a contact's stiffness, N/m)
    table = np.array([0.0, 0.1, 0.3])
    rows[:, lay.wall_base] = table  # the table's displacement along x
    rows[:, lay.clump_base + CLUMP_WIDTH * carried + C_POS] += table + [0.0, 0.0, 0.002]
    rows[:, lay.clump_base + CLUMP_WIDTH * dropped + C_POS + 2] -= [0.0, 0.04, 0.06]
    tracker = BodyTracker(model, lay, {})
    tracker.update(rows[:2])
    tracker.update(rows[2:])  # in two chunks, as a run hands them
    got, why = tracker.summary()
    assert got[0]["ground"] == got[1]["ground"] == "table"
    assert got[0]["residual_displacement_m"] == pytest.approx([0.302, 0.0, 0.0], abs=DISP_TOL)
    assert got[0]["residual_drift_m"] == pytest.approx([0.002, 0.0, 0.0], abs=DISP_TOL)
    assert not got[0]["fell"] and why["bodies[0].fell_time_s"] == "the body did not fall"
    assert got[1]["drop_limit_m"] == pytest.approx(SIZE[0] / 2)
    assert (got[1]["fell"], got[1]["fell_by"], got[1]["fell_time_s"]) == (True, "drop", 0.3)
    assert got[1]["peak_rotation_rad"] == 0.0
    # slip over the table: the 2 mm it was shifted (every footprint point alike), no uplift
    assert got[0]["max_slip_m"] == pytest.approx(0.002, abs=DISP_TOL) and got[0]["max_uplift_m"] == 0.0
    # the dropped block's footprint went down, not up; it stayed where it was while the table moved 0.3 m under
    # it, to the record of its fall included: a slip of 0.3 m over the table
    assert got[1]["max_uplift_m"] == 0.0 and got[1]["max_slip_m"] == pytest.approx(0.3, abs=DISP_TOL)


def test_a_body_dropped_from_a_height_is_measured_from_where_it_lands():
    """Made-up rows: a block released 0.3 m above a floor (no contact at t = 0) falls 0.3 m and lands: by
    design, not a fall; it falls only once it drops more than half its width below where it landed."""
    import dem
    from dem.physics.history_rows import C_KT, C_POS, C_QUAT, CLUMP_WIDTH, HistoryRowLayout
    from dem.run.bodies import BodyTracker

    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.8, density=2500.0)
    tpl = dem.box_clump(SIZE[0], SIZE[1], SIZE[0], r_core=0.02)
    b = dem.ModelBuilder()
    b.add_wall((0, 0, 0), (0, 0, 1), material=stone, name="floor")
    c = b.add_clump(tpl, material=stone, position=(0.0, 0.0, 0.5), name="box")
    model = b.finalize()
    lay = HistoryRowLayout(model.clump_count, model.wall_count, model.slot_count)
    rows = np.zeros((4, lay.width))
    rows[:, 0] = [0.0, 0.25, 0.5, 0.75]
    base = lay.clump_base + CLUMP_WIDTH * c
    rows[:, base + C_QUAT] = 1.0
    rows[:, base + C_POS + 2] = [0.5, 0.2, 0.2, 0.1]  # lands at 0.25 s, then 0.1 m lower (> 0.05 m)
    rows[1:, base + C_KT] = [1e6, 1e6, 0.0]
    tracker = BodyTracker(model, lay, {})
    tracker.update(rows[:3])
    assert not tracker.summary()[0][0]["fell"]
    assert tracker.falls(rows[3:])[0][1]["t"] == 0.75  # the event, before the rows are taken
    tracker.update(rows[3:])
    got = tracker.summary()[0][0]
    assert (got["fell"], got["fell_by"], got["fell_time_s"]) == (True, "drop", 0.75)


COLUMN = {"drums": 3, "capital": False, "shaft_height": 1.2, "radius": 0.15, "top_radius": 0.15, "r_joint": 0.025,
          "r_core": 0.05, "zone": 0.05, "pulse": "one_sine", "pulse_frequency": 1.0, "settle": 0.1, "t_end": 2.5}


@pytest.mark.slow
@pytest.mark.parametrize("pga_g, falls", [(0.6, True), (0.05, False)])
def test_a_drum_column_knocked_down_by_a_pulse_falls_and_one_shaken_gently_stands(ti_cpu, pga_g, falls):
    """A slender column of three coarse drums (1.2 m, R = 0.15 m: α = 14°) on a table, one-sine pulse of 1 s:
    at 0.6 g every drum falls (the top one off the column: by drop, ~1.2 s; the others by tilt, ~1.3 s), at
    0.05 g (below the column's uplift at tan α ≈ 0.25 g) none does, and every drum's peak rotation is its
    rocking-angle column's. ~10 s of stepping each."""
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    scene = build_scene("drum_column", COLUMN | {"pulse_pga_g": pga_g})
    result = run_scene(scene, progress=False, plots=False)
    h, bodies = result.history, result.summary["bodies"]
    assert [b["name"] for b in bodies] == ["drum1", "drum2", "drum3"]
    for b in bodies:
        assert b["fell"] is falls and b["ground"] == "table", b
        assert b["overturn_angle_from"] == "scene alpha_rad"  # the column's, as dem.run.assembly_response's
        theta = np.radians(h[f"{b['name']}_theta_deg"])
        if not falls:  # rocking in the plane of the shaking only (after a fall, drums turn every way)
            assert b["peak_rotation_rad"] == pytest.approx(np.max(np.abs(theta)), abs=1e-6)
            assert b["peak_tilt_rad"] < 0.01 and b["residual_horizontal_drift_m"] < 1e-3
        else:
            assert 0.5 < b["fell_time_s"] < 2.0 and b["fell_by"] in ("tilt", "drop")
