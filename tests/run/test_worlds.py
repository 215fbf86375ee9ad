"""Batches of worlds (dem.run.worlds, dem.physics.simulation): each world of a batch is the simulation it
would be alone.

On the serial CPU path a world runs in one thread with its own sums, in list order, whatever the other
worlds do, so "the same" means the same bits (np.array_equal). The block path (one thread block per world,
body pairs searched on the device) runs on the CPU with one thread per world: its pair lists come in
another order, so it agrees with the serial path to round-off growth (tests/device/test_backends.py's measure).
"""

import math

import numpy as np
import pandas as pd
import pytest

from tests.builders import block_on_floor, colliding_boxes, tilted_stack
from tests.device.test_backends import AGREEMENT, _compare

PENA_COARSE = {"r_base": 0.01, "r_core": 0.04}


def _alone(dem, model, steps, **kw):
    return dem.Simulation(model, dt=1e-5, **kw).advance(steps)


def test_each_world_is_bit_identical_to_its_run_alone(ti_cpu):
    """A block rocking on a floor, a tilted stack (wall and body–body contacts, a host pair search), and the
    same block under another gravity: three worlds of one batch, each equal to its run alone to the bit."""
    dem = ti_cpu
    models = [block_on_floor(dem, theta=0.2, interface=True), tilted_stack(dem),
              block_on_floor(dem, theta=0.2, interface=True, gravity=(0.0, 0.0, -3.7))]
    batch = dem.Simulation(models, dt=1e-5, history_every=10).advance(4000)
    assert isinstance(batch, list) and len(batch) == 3
    for k, m in enumerate(models):
        alone = _alone(dem, m, 4000, history_every=10)
        assert np.array_equal(batch[k], alone), f"world {k}"
    # the gravities differ, so do the worlds: the batch did not mix them up
    assert not np.array_equal(batch[0][:, 1], batch[2][:, 1])


def test_peña_worlds_with_different_tilts_match_their_runs_alone(ti_cpu, tmp_path):
    """run_worlds over θ0 = 1°, 3° (coarse Peña block, 0.3 s): each world's history file is the one
    run_scene writes for that θ0, byte for byte, and worlds.csv has one row per world."""
    from dem.run.driver import run_scene
    from dem.run.worlds import build_worlds, run_worlds
    from dem.scenes.scene import build_scene

    worlds = build_worlds("pena_block", [{"theta0_deg": 1.0}, {"theta0_deg": 3.0}], common=PENA_COARSE)
    results = run_worlds(worlds, t_end=0.3, out_dir=tmp_path / "batch", progress=False, plots=False)
    assert [r.summary["status"] for r in results] == ["ok", "ok"]
    for k, theta in enumerate((1.0, 3.0)):
        alone = run_scene(build_scene("pena_block", {**PENA_COARSE, "theta0_deg": theta}), t_end=0.3,
                          out_dir=tmp_path / f"alone{k}", progress=False, plots=False)
        a = (tmp_path / f"alone{k}" / "history.parquet").read_bytes()
        b = (tmp_path / "batch" / f"world_{k:03d}" / "history.parquet").read_bytes()
        assert a == b, f"world {k}"
        assert results[k].summary["max_energy_error"] == alone.summary["max_energy_error"]
        # the summary names the compiled step kernel; the same one ran both (a world's bits are one kernel's)
        assert results[k].summary["kernel_variant"] == alone.summary["kernel_variant"]
        assert results[k].summary["kernel_variant"].endswith("-f64-serial-implicit")
    table = pd.read_csv(tmp_path / "batch" / "worlds.csv")
    assert list(table["theta0_deg"]) == [1.0, 3.0] and list(table["status"]) == ["ok", "ok"]
    # the block released from θ0 reaches θ0 again at most (it loses energy at each impact): peak θ/α = θ0/α
    alpha = results[0].summary["alpha_rad"]
    assert list(table["peak_theta_over_alpha"]) == pytest.approx(np.radians([1.0, 3.0]) / alpha, rel=1e-9)


def test_an_overturning_world_stops_and_the_others_go_on(ti_cpu, tmp_path):
    """The coarse Peña block released past its tipping angle (14.5° > 14.31°) overturns and leaves the base
    (it stops there, status 'stopped', within 4 s: tests/run/test_events.py); the one released from 2° rocks on to
    the end, its history the same as alone."""
    from dem.run.driver import run_scene
    from dem.run.worlds import run_worlds
    from dem.scenes.scene import build_scene

    results = run_worlds("pena_block", [{**PENA_COARSE, "theta0_deg": 14.5}, {**PENA_COARSE, "theta0_deg": 2.0}],
                         t_end=4.0, out_dir=tmp_path / "b", progress=False, plots=False)
    over, ok = (r.summary for r in results)
    assert over["status"] == "stopped" and over["stopped_by"]["event"] == "left_domain"
    assert [e["event"] for e in over["events"]][0] == "overturn" and over["t_end"] < 4.0
    assert ok["status"] == "ok" and ok["t_end"] == pytest.approx(4.0)
    alone = run_scene(build_scene("pena_block", {**PENA_COARSE, "theta0_deg": 2.0}), t_end=4.0,
                      out_dir=tmp_path / "a", progress=False, plots=False)
    assert (tmp_path / "a" / "history.parquet").read_bytes() == \
        (tmp_path / "b" / "world_001" / "history.parquet").read_bytes()
    assert alone.summary["status"] == "ok"
    table = pd.read_csv(tmp_path / "b" / "worlds.csv")
    assert list(table["overturned"]) == [True, False] and list(table["status"]) == ["stopped", "ok"]
    # the per-body test (dem.run.bodies: tilt past θ_ov, or a drop) agrees with the rocking response's
    assert list(table["bodies_fell"]) == [1, 0]
    assert table["first_fell_body"].fillna("").tolist() == [over["bodies"][0]["name"], ""]


def test_a_sleeping_world_is_fast_forwarded_while_the_others_step(ti_cpu, tmp_path):
    """A block set down flat (it settles and sleeps within 0.1 s) next to one released from 3° (still rocking
    at 0.6 s): the first is fast-forwarded from its sleep on (quiescent_from_s), the second steps to the end;
    both equal their runs alone."""
    from dem.run.driver import run_scene
    from dem.run.worlds import run_worlds
    from dem.scenes.scene import build_scene

    params = [{**PENA_COARSE, "theta0_deg": 0.0}, {**PENA_COARSE, "theta0_deg": 3.0}]
    results = run_worlds("pena_block", params, t_end=0.6, out_dir=tmp_path / "b", progress=False, plots=False)
    rest, rocking = (r.summary for r in results)
    assert rest["quiescent_from_s"] is not None and rest["quiescent_from_s"] < 0.6
    assert rocking["quiescent_from_s"] is None
    for k, p in enumerate(params):
        run_scene(build_scene("pena_block", p), t_end=0.6, out_dir=tmp_path / f"a{k}", progress=False, plots=False)
        assert (tmp_path / f"a{k}" / "history.parquet").read_bytes() == \
            (tmp_path / "b" / f"world_{k:03d}" / "history.parquet").read_bytes(), f"world {k}"


def _colliding_spheres(dem, *, gap=0.006, speed=1.0):
    """Two 5 mm spheres (two clumps) flying at each other at ±speed [m/s] from `gap` [m] apart, no gravity:
    farther apart than the pair skin at t = 0, so they touch only if a later pair search finds them."""
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5, damping_normal=0.1)
    b = dem.ModelBuilder(gravity=(0.0, 0.0, 0.0))
    r = 0.005
    b.add_clump(dem.single_sphere(r), material=mat, mass=0.01, mass_from="spheres",
                position=(-(r + gap / 2), 0, 0), velocity=(speed, 0, 0))
    b.add_clump(dem.single_sphere(r), material=mat, mass=0.01, mass_from="spheres",
                position=(r + gap / 2, 0, 0), velocity=(-speed, 0, 0))
    return b.finalize()


def test_device_pair_search_finds_what_the_host_search_finds(ti_cpu):
    """Two spheres that come within reach only after several pair searches, in a batch with a block that
    needs none: on the block path (device search; the CPU runs it one thread per world) they collide and
    bounce as on the serial path (host k-d tree), and the block's world is untouched by the searches."""
    dem = ti_cpu
    from dem.physics.history_rows import C_VEL, HistoryRowLayout

    models = [_colliding_spheres(dem), block_on_floor(dem, theta=0.1)]
    serial = dem.Simulation(models, dt=1e-5, history_every=10, parallel=False)
    rs = serial.advance(1000)
    block = dem.Simulation(models, dt=1e-5, history_every=10, parallel=True)
    rb = block.advance(1000)
    lay = HistoryRowLayout(2, 0, 0)
    v_serial = lay.clump(rs[0], 0, C_VEL)[:, 0]
    assert v_serial[0] > 0.99 and v_serial[-1] < -0.5  # they met and bounced back (restitution ≈ 0.8 at β = 0.1)
    from dem.device.layout import CT_PAIR_SEARCHES

    searches = block.contacts.counters()[:, CT_PAIR_SEARCHES]
    assert searches[0] > 2 and searches[1] == 0  # the spheres' world searched again and again, the block's never
    for k in range(2):
        assert _compare(rs[k], rb[k]) < AGREEMENT, f"world {k}"


def test_pair_list_overflow_on_the_device_is_recovered(ti_cpu):
    """A device pair list with room for one pair overflows when the two boxes meet: that world stops, the
    host grows the lists and searches, and the run goes on as one that had room from the start."""
    dem = ti_cpu
    from dem.device import layout
    from dem.device.kernel_lang import ti
    from dem.physics.history_rows import G_NC

    models = [colliding_boxes(dem)]
    ref = dem.Simulation(models, dt=1e-5, history_every=10, parallel=True).advance(600)[0]
    sim = dem.Simulation(models, dt=1e-5, history_every=10, parallel=True)
    c = sim.contacts
    assert c.counters()[0, layout.CT_N_PAIRS] == 0  # apart at t = 0: an empty list, nothing to keep
    c.pairs = ti.ndarray(ti.types.vector(layout.PAIR_WIDTH, ti.i32), 2)  # one pair per half of the world's region
    c.pair_hist = ti.ndarray(ti.types.vector(layout.HIST_WIDTH, dem.device.runtime.real()), 2)
    c.pairs.fill(0)
    c.pair_hist.fill(0.0)
    c.pair_capacity = 1
    sim._pack_cache = None
    out = sim.advance(600)[0]
    assert c.pair_capacity > 40  # grown to hold the ~50 pairs of the meeting faces
    assert ref[:, G_NC].max() > 20  # [contacts] the faces met (then bounced apart)
    assert _compare(ref, out) < AGREEMENT


def test_world_parameters_are_checked_before_anything_is_built(ti_cpu, tmp_path, capsys):
    from dem.cli.main import main
    from dem.run.worlds import build_worlds, world_overrides

    with pytest.raises(ValueError, match="--worlds must be a whole number >= 1"):
        world_overrides(count=0)
    with pytest.raises(ValueError, match=r"does not match the --vary values \(2 × 3 = 6 worlds\)"):
        world_overrides(vary={"a": [1, 2], "b": [1, 2, 3]}, count=4)
    with pytest.raises(ValueError, match="world 1 .*theta0_deg.*must be in"):
        build_worlds("pena_block", [{"theta0_deg": 1.0}, {"theta0_deg": 99.0}])
    cases = [(["--vary", "nosuch=1,2"], "unknown parameter 'nosuch'"),
             (["--vary", "theta0_deg=1,99"], "'theta0_deg' must be in [-60, 60]"),
             (["--vary", "theta0_deg=1,2", "--worlds", "3"], "does not match the --vary values"),
             (["--worlds", "0"], "--worlds must be a whole number >= 1"),
             (["--vary", "theta0_deg=1,", ], "no empty value"),
             (["--vary", "theta0_deg=1,2", "--set", "theta0_deg=3"], "both given")]
    for args, message in cases:
        out = tmp_path / "o"
        assert main(["run", "pena_block", *args, "--no-progress", "--out", str(out)]) == 2, args
        err = capsys.readouterr().err.strip()
        assert err.startswith("dem: error:") and "\n" not in err and message in err, (args, err)
        assert not (out / "world_000").exists()


def test_a_batch_too_large_for_the_memory_is_refused(ti_cpu):
    """10⁶ Peña worlds would need terabytes: refused with the figure before any device array exists (the error line
    and what it says: tests/cli/test_batch_memory_errors.py)."""
    from dem.physics.batch_memory import BatchTooLarge, batch_bytes, check_batch_memory
    from dem.scenes.scene import build_scene

    model = build_scene("pena_block", PENA_COARSE).model
    per_world = batch_bytes([model])
    assert 1e5 < per_world < 1e8  # [bytes]: a coarse block's hull spheres, state and history buffer
    with pytest.raises(BatchTooLarge, match=r"a batch of 1,000,000 worlds needs about .* of device memory .* per"):
        check_batch_memory([model] * 1_000_000)
    check_batch_memory([model] * 4)  # a handful fits


def test_cli_batch_writes_a_folder_per_world_and_the_table(ti_cpu, tmp_path, capsys):
    from dem.cli.main import main
    out = tmp_path / "b"
    assert main(["run", "pena_block", "--set", "r_base=0.01", "r_core=0.04", "--vary", "theta0_deg=1,2",
                 "mu=0.5,0.7", "--t-end", "0.05", "--no-progress", "--no-plots", "--out", str(out)]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert "4 worlds (4 ok)" in line and "world-steps/s" in line
    table = pd.read_csv(out / "worlds.csv")
    assert list(table["theta0_deg"]) == [1, 1, 2, 2] and list(table["mu"]) == [0.5, 0.7, 0.5, 0.7]
    assert all((out / f"world_{k:03d}" / "history.parquet").exists() for k in range(4))
    assert math.isclose(table["t_end"][0], 0.05)
