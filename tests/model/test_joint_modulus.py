"""dem.model.joint_modulus: a contact modulus scaled as r^{3/2} keeps a joint's closure law whatever the joint
spheres' size (its docstring derives it from Hertz's law on a lattice)."""

import math

import numpy as np
import pytest

from dem.model.joint_modulus import joint_modulus

DRUM = {"drums": 1, "capital": False, "shaft_height": 0.4, "r_core": 0.06, "zone": 0.08, "settle": 1.0,
        "t_end": 0.1, "dt": 2e-5, "beta_n": 0.5, "beta_s": 0.5}
"""One drum (R = 0.3175 m, 0.4 m high) standing on the table; the table does not move before 1 s."""


def test_modulus_goes_as_the_radius_to_the_three_halves():
    assert joint_modulus(50e9, 0.04, 0.015) == pytest.approx(50e9 * (0.04 / 0.015) ** 1.5, rel=1e-15)
    assert joint_modulus(50e9, 0.015, 0.015) == 50e9
    assert joint_modulus(50e9, 0.04, None) == 50e9  # no reference: the modulus as given
    with pytest.raises(ValueError, match=r"stiffness_radius must be in \(0, inf\) m, got 0"):
        joint_modulus(50e9, 0.04, 0.0)
    with pytest.raises(ValueError, match="radius must be > 0"):
        joint_modulus(50e9, -0.04, 0.015)


def _settled(r_joint: float, stiffness_radius: float) -> tuple[float, int, float, float]:
    """A drum settled on the table: its drop [m], the sphere contacts carrying it, its mass [kg] and the contacts'
    E [Pa]."""
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    scene = build_scene("drum_column", DRUM | {"r_joint": r_joint, "stiffness_radius": stiffness_radius})
    h = run_scene(scene, progress=False, plots=False).history
    drop = -np.asarray(h["drum1_uz"], float)
    # at rest: β = 0.5 on the interface has damped the settling out by 0.1 s (the last rows agree to 1e-9)
    assert abs(drop[-1] - drop[-5]) < 1e-9 * drop[-1]
    return float(drop[-1]), int(np.asarray(h["contact_count"])[-1]), scene.info["mass_kg"], \
        scene.info["contact_young_Pa"]


def test_a_drum_settles_as_hertz_predicts_and_as_far_on_any_packing_with_the_scaled_modulus(ti_cpu):
    nu = 0.25
    out = {}
    for r, ref in ((0.02, 0.02), (0.04, 0.04), (0.02, 0.015), (0.04, 0.015)):
        drop, n, mass, young = _settled(r, ref)
        # the engine's Hertz law on the table (dem.physics.contact_law: h_n = 2G√(2R̄)/(3(1−ν)), R̄ = r on a
        # wall), the weight shared evenly by the face's n contacts: m g / n = h_n δ^{3/2}; a flat face on a flat
        # table loads its rim ring as the lattice inside it, so to round-off (1 % allows the settling's last drift)
        g_mod = young / (2.0 * (1.0 + nu))
        h_n = 2.0 * g_mod * math.sqrt(2.0 * r) / (3.0 * (1.0 - nu))
        hertz = (mass * 9.81 / n / h_n) ** (2.0 / 3.0)
        assert drop == pytest.approx(hertz, rel=0.01), (r, ref)
        out[r, ref] = drop
    # at one modulus a joint of spheres twice as large closes twice as far (δ ∝ r, the lattice's contacts go as
    # 1/r²); scaled as r^{3/2} it closes as far. The lattice cut by the rim has 417 and 116 contacts, not 4:1
    # (ring spheres ≤ one spacing apart): 1.86 and 0.93, within 10 % of the lattice's 2 and 1
    assert out[0.04, 0.04] / out[0.02, 0.02] == pytest.approx(2.0, rel=0.1)
    assert out[0.04, 0.015] / out[0.02, 0.015] == pytest.approx(1.0, rel=0.1)
