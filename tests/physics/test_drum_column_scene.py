"""The drum_column scene (issue 22, item 3): what it builds (bodies, joints, the statics of its joints
against validation.stack), its table motions (Eq. 42, pulses, records) and a short shaken run."""

import math

import numpy as np
import pytest

from dem.scenes.pulses import one_sine, ricker
from dem.scenes.scene import build_scene
from validation.stack import Drum, stack_thresholds

COARSE = {"r_joint": 0.02, "r_core": 0.05, "zone": 0.06}


def test_default_column_is_the_documented_one():
    scene = build_scene("drum_column", {})
    info, model = scene.info, scene.model
    names = [c.name for c in model.clumps]
    assert names == [f"drum{k}" for k in range(1, 13)] + ["capital"]
    assert [n for n, *_ in model.interfaces] == [f"joint{k}" for k in range(13)]
    assert info["height_m"] == pytest.approx(3.48, abs=1e-9)  # 10.43 m / 3 (module docstring)
    assert info["mass_kg"] == pytest.approx(sum(model.mass), rel=1e-12)
    # the numbers the docstring gives
    assert round(info["mass_kg"]) == 2425 and round(info["uplift_threshold_g"], 3) == 0.190
    assert (model.ball_count, model.hull_count) == (4650, 4310)
    # the joints close as 15 mm spheres at E = 50 GPa do: 40 mm spheres take 50 GPa × (40/15)^1.5
    assert info["contact_young_Pa"] == pytest.approx(217.73e9, rel=1e-4)
    assert info["first_joint_to_open"] == "joint0"


def test_joint_thresholds_are_the_statics_of_the_drums():
    """Without its capital the shaft is a stack of frustums: the scene's joint_uplift_g is validation.stack's
    (which does not use the engine) to round-off."""
    p = {"capital": False, "drums": 4, "shaft_height": 1.2} | COARSE
    scene = build_scene("drum_column", p)
    r = np.linspace(0.3175, 0.245, 5)
    statics = stack_thresholds([Drum(r[k], 0.3, top_radius=r[k + 1]) for k in range(4)])
    assert np.allclose(scene.info["joint_uplift_g"], statics.rocking, rtol=1e-9)


def test_pulses_peak_at_their_amplitude_and_end_at_rest():
    for make, duration in ((ricker, 1.5), (one_sine, 0.5)):
        sig = make(0.4, 2.0)
        t = np.linspace(0.0, sig.duration, 20001)
        assert np.max(np.abs(sig.acceleration(t))) == pytest.approx(0.4 * 9.81, rel=1e-4)
        assert sig.duration == pytest.approx(duration)
        assert abs(sig.velocity(sig.duration)) < 1e-12 and abs(sig.velocity(sig.duration + 1.0)) < 1e-12


@pytest.mark.parametrize("params, words", [
    ({"pulse": "ricker", "record": "x.AT2"}, "pulse and record"),
    ({"pulse": "one_sine", "pga_g": 0.2}, "'pga_g' does not apply to a pulse"),
    ({"pulse_pga_g": 0.5}, "'pulse_pga_g' applies to a pulse"),
    ({"drums": 0}, "'drums' must be"),
    ({"radius": 0.01}, "radius and top_radius must be >= r_joint"),
])
def test_bad_parameters_are_refused(params, words):
    with pytest.raises(ValueError, match=words):
        build_scene("drum_column", params)


def test_ricker_pulse_rocks_the_column(ti_cpu):
    """Three coarse drums and the capital under a 0.6 g, 2 Hz Ricker pulse (above the column's uplift
    threshold): the foot opens, every body is recorded, the energy balances, the table ends where the pulse
    leaves it."""
    from dem.run.driver import run_scene

    p = {"drums": 3, "shaft_height": 1.5, "pulse": "ricker", "pulse_pga_g": 0.6, "pulse_frequency": 2.0,
         "settle": 0.3, "t_end": 1.5, "dt": 5e-5} | COARSE
    scene = build_scene("drum_column", p)
    assert scene.info["uplift_threshold_g"] < 0.6
    res = run_scene(scene, progress=False, plots=False)
    h = res.history
    assert np.max(np.abs(h["drum1_theta_deg"])) > 0.1
    assert res.summary["max_energy_error"] < 1e-2
    for k in range(4):  # the table, drum 1 on 2, 2 on 3, the capital on drum 3
        assert np.all(np.isfinite(h[f"joint{k}_V"]))
    assert h["table_disp"][-1] == pytest.approx(ricker(0.6, 2.0).displacement(10.0), abs=1e-4)
    assert math.isfinite(h["capital_ux"][-1])


@pytest.mark.slow  # two packings of the 12-drum column for seconds of shaking: 1.5-2 min; CI runs it (.ci/run)
def test_first_rocking_excursion_keeps_with_the_packing_when_the_modulus_is_scaled(ti_cpu):
    """The default column's foot under a 0.4 g, 2 Hz Ricker pulse, up to its first excursion (1.37-1.40 s, before
    any impact), on 25 and 40 mm joint spheres. Scaled as r^{3/2} (dem.model.joint_modulus) the joints close as
    15 mm ones do and the excursions agree: measured 0.878 and 0.877°; the tolerance, 3 %, is half the spread the
    lattice near the rim leaves over 20-40 mm (0.829-0.878°, docs/examples/column_packing.md). At one modulus the
    40 mm joints are softer (δ ∝ r) and the foot rocks further: measured 1.006°, 15 % more; asserted > 8 %."""
    from dem.run.driver import run_scene

    def first_excursion(params):
        p = {"pulse": "ricker", "pulse_pga_g": 0.4, "pulse_frequency": 2.0, "t_end": 1.45, "dt": 5e-5} | params
        h = run_scene(build_scene("drum_column", p), progress=False, plots=False).history
        t, foot = np.asarray(h["t"]), np.asarray(h["drum1_theta_deg"])
        return float(np.max(np.abs(foot[t > 1.0])))

    coarse = first_excursion({})  # 40 mm, the default, its modulus scaled from 15 mm
    medium = first_excursion({"r_joint": 0.025, "r_core": 0.05, "zone": 0.06})
    unscaled = first_excursion({"stiffness_radius": 0.04})  # 40 mm at E = 50 GPa
    assert coarse > 0.5  # [deg]: it rocks (the uplift threshold is 0.19 g)
    assert coarse == pytest.approx(medium, rel=0.03)
    assert unscaled > 1.08 * coarse
