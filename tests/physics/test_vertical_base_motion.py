"""Ground motion in three components (issue 32, item 12): a record set moves a table in 3D, and a vertical base
acceleration a_v changes gravity as a rocking block feels it, g + a_v (Housner 1963; Zhang & Makris 2001):
θ̈ = −p² [(1 + a_v/g) sin(α sgnθ − θ) + (a_h/g) cos(α sgnθ − θ)].

- the rigid solver under a constant a_v: the free-rocking quarter period with p √(1 + a_v/g) (closed form);
- the DEM block released tilted on a table that moves up and down (one sine cycle of a_v, 0.5 g): its first
  impact comes when the rigid block rolling on its edge spheres (validation.rocking.pivot) under the same a_v
  says, and well before it would without it;
- a record set from scene parameters: each component along its axis in the table, one scale factor for all.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

G = 9.81
THETA0 = math.radians(2.9)  # [rad]: the Peña block's release
PULSE_G, PULSE_S = 0.5, 0.4  # one sine cycle of vertical acceleration: amplitude [g], period [s]
IMPACT_TOL = 2e-3  # relative: DEM against the rolling rigid block at 10 mm edge spheres, Δt 1e-5 s (at 004's 5 mm
# packing they agree to 4e-5 without base motion, tests/physics/test_block_free_rocking.py); the pulse moves the
# impact by ~8 %, forty times this


def _pulse(t):
    t = np.asarray(t, float)
    return np.where((t >= 0) & (t <= PULSE_S), PULSE_G * G * np.sin(2 * math.pi * t / PULSE_S), 0.0)


def test_rigid_block_under_constant_vertical_acceleration_rocks_with_g_plus_av():
    from validation.rocking import base_excited
    from validation.rocking.closed_form import free_rocking_period, frequency_parameter, slenderness

    w, h, av = 0.25, 1.0, 0.3 * G
    res = base_excited(w, h, None, 1.0, theta0=THETA0, vertical=av, dt=1e-4)
    p = frequency_parameter(w, h) * math.sqrt(1 + av / G)  # p² = 3 (g + a_v) / (4 R)
    quarter = free_rocking_period(THETA0, slenderness(w, h), p, linear=False) / 4
    # the solver's impact time from its time transformation (4th-order RK at 1e-4 s): 1e-7 s
    assert res.impact_times[0] == pytest.approx(quarter, abs=1e-7)
    still = base_excited(w, h, None, 1.0, theta0=THETA0, dt=1e-4)
    assert res.impact_times[0] == pytest.approx(still.impact_times[0] / math.sqrt(1 + av / G), rel=1e-6)
    with pytest.raises(ValueError, match="falls faster than g"):
        base_excited(w, h, None, 0.5, theta0=THETA0, vertical=-1.2 * G, dt=1e-4)


def _block_on_a_vertical_table():
    import dem
    from dem.model.base_motion import Recorded
    from dem.model.motion_set import MotionSet
    from dem.run.probes import RockingAngle
    from dem.scenes.scene import Scene
    from dem.scenes.tools import shaking

    granite = dem.Material.hertz(young=50.7e9, poisson=0.28, friction=0.7, damping_normal=0.15,
                                 damping_shear=0.15)
    block = dem.box_clump(0.25, 1.0, 0.2, r_core=0.04, r_base=0.01, r_top=0.01, base_zone=0.15)
    c0, s0 = math.cos(THETA0), math.sin(THETA0)
    rot = np.array([[c0, 0.0, s0], [0.0, 1.0, 0.0], [-s0, 0.0, c0]])  # about +y
    lowest = float(np.min((block.centers @ rot.T)[:, 2] - block.radii))
    t = np.linspace(0.0, PULSE_S, 801)
    table = MotionSet(vertical=Recorded(t, _pulse(t)))
    b = dem.ModelBuilder(gravity=(0.0, 0.0, -G))
    c = b.add_clump(block, material=granite, mass=120.0, position=(0.0, 0.0, -lowest), orientation=rot,
                    name="block")
    b.add_wall((0, 0, 0), (0, 0, 1), material=granite, size=(1.0, 0.5), name="table",
               motion=shaking(table, t_end=0.3))
    return Scene("vertical", b.finalize(), [RockingAngle("theta_deg", c)], 1e-5, 0.3, 2e-5, {})


def test_dem_block_first_impact_under_a_vertical_pulse_matches_the_rigid_block(ti_cpu):
    from dem.run.driver import run_scene
    from validation.rocking import base_excited
    from validation.rocking.pivot import pivot_geometry

    scene = _block_on_a_vertical_table()
    vel = scene.model.walls[0].motion.velocity
    assert np.all(vel[:, :2] == 0.0) and np.max(vel[:, 2]) > 0.1  # the table moves up and down only
    res = run_scene(scene, progress=False, plots=False)
    t, th = res.history["t"], np.radians(res.history["theta_deg"])
    k = int(np.flatnonzero(th <= 0.0)[0])
    t_dem = t[k - 1] + (t[k] - t[k - 1]) * th[k - 1] / (th[k - 1] - th[k])  # first θ = 0, interpolated

    geo = pivot_geometry(scene.model, 0)
    w, h = geo.equivalent_rectangle()  # Housner's equation with the rolling block's α' and p (pivot.py)
    rigid = base_excited(w, h, None, 0.3, theta0=THETA0, vertical=_pulse, dt=1e-5).impact_times[0]
    still = base_excited(w, h, None, 0.3, theta0=THETA0, dt=1e-5).impact_times[0]
    assert abs(t_dem - rigid) < IMPACT_TOL * rigid, (t_dem, rigid, still)
    assert still - rigid > 20 * IMPACT_TOL * rigid  # the pulse's heavier half brings the impact forward


def test_record_set_moves_the_table_along_each_component(tmp_path):
    from dem.model.motion_set import MotionSet
    from dem.scenes.scene import load_scene_module, resolve_params
    from dem.scenes.tools import base_signal, shaking, shaking_direction

    t = np.arange(0.0, 2.0, 0.01)
    for name, amp in (("h1.csv", 0.2), ("h2.csv", 0.1), ("v.csv", 0.05)):
        np.savetxt(tmp_path / name, np.column_stack([t, amp * np.sin(2 * math.pi * t)]), delimiter=",")
    module = load_scene_module("single_pier")
    p = resolve_params(module.PARAMS, {"record": str(tmp_path / "h1.csv"), "record_h2": str(tmp_path / "h2.csv"),
                                       "record_v": str(tmp_path / "v.csv"), "target_pga_g": 0.4,
                                       "direction_deg": 90.0}, scene="single_pier")
    sig, info = base_signal(p, module.PARAMS)
    assert isinstance(sig, MotionSet)
    # one factor for the set (the first component to 0.4 g): the others keep their ratios to it
    assert info["record_scale_factor"] == pytest.approx(2.0, rel=1e-3)  # sampled peak 0.2 g → 0.4 g
    assert info["base_pga_h2_g"] == pytest.approx(0.5 * info["base_pga_g"], rel=1e-9)
    assert info["base_pga_v_g"] == pytest.approx(0.25 * info["base_pga_g"], rel=1e-9)
    table = shaking(sig, direction=shaking_direction(p), t_end=2.0)
    times = np.arange(len(table.velocity)) * table.dt
    # direction_deg = 90: the first component along +y, the second 90° further (−x), the vertical up
    for axis, component in ((1, sig.horizontal), (0, sig.transverse), (2, sig.vertical)):
        want = component.velocity(times) * (-1.0 if axis == 0 else 1.0)
        assert table.velocity[:, axis] == pytest.approx(want, abs=1e-12)
