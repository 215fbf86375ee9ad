"""An unstable run stops with a diagnosis and keeps what it wrote; the critical time step estimate
marks the explicit scheme's stability limit."""

import json
import math

import numpy as np
import pytest

from dem.model.timestep import damped_limit, estimate_critical_timestep
from dem.output.history import read_history
from dem.run.driver import SimulationUnstable, run_scene
from dem.scenes.scene import Scene


def _linear_sphere_scene(dem, beta, dt):
    """A 1 kg ball on a linear spring–dashpot floor (k = 1e6 N/m): one mode, ω = 1000 rad/s, ζ = β. It starts
    at its static overlap m g / k with a 1e-4 m/s nudge: the oscillation (~1e-7 m, up to 3× more in the
    discrete solution near the limit) never opens the contact, so the mode stays linear."""
    mat = dem.Material.linear(normal_stiffness=1e6, shear_stiffness=5e5, friction=0.5, damping_normal=beta)
    b = dem.ModelBuilder()
    b.add_clump(dem.single_sphere(0.05), material=mat, mass=1.0, mass_from="spheres",
                position=(0, 0, 0.05 - 9.81e-6), velocity=(0, 0, -1e-4))
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat)
    return Scene("ball", b.finalize(), [], dt, 0.2, 1e-3, {})


def _amplitude_growth(dem, beta, factor):
    """Largest displacement of the ball from its equilibrium ÷ the initial amplitude v₀/ω = 1e-7 m, over
    600 steps at factor × Δt_crit."""
    from dem.physics.history_rows import C_POS

    scene = _linear_sphere_scene(dem, beta, 1e-4)
    sim = dem.Simulation(scene.model, dt=factor * damped_limit(1000.0, beta), history_every=1,
                         implicit_damping=False, sleep=False)
    rows = sim.advance(600)
    z = sim.layout.clump(rows, 0, C_POS)[:, 2] - (0.05 - 9.81e-6)  # static overlap m g / k
    return np.max(np.abs(z)) / 1e-7


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0])
def test_explicit_dashpot_stability_limit(ti_cpu, beta):
    """Δt_crit = (2/ω)(√(1+ζ²) − ζ): 5 % below it the oscillation stays bounded by the centred scheme's
    magnification 1/√(1 − (ωΔt/2)²) ≤ 3.2 (undamped; less with damping); 10 % above it the amplitude
    grows until the contact opens (9.8e-6 m static overlap, ≈ 100× the initial amplitude)."""
    assert _amplitude_growth(ti_cpu, beta, 0.95) <= 3.3
    assert _amplitude_growth(ti_cpu, beta, 1.10) > 50.0


def test_unstable_run_stops_with_diagnosis_and_keeps_its_output(ti_cpu, tmp_path):
    with pytest.raises(SimulationUnstable, match=r"runaway overlap|energy blow-up|non-finite") as info:
        run_scene(_linear_sphere_scene(ti_cpu, 1.0, 1.2 * damped_limit(1000.0, 1.0)), progress=False,
                  implicit_damping=False, force=True, sleep=False, out_dir=tmp_path / "bad")
    summary = json.loads((tmp_path / "bad" / "summary.json").read_text())
    assert summary["status"] == "unstable" and summary["diagnosis"] in str(info.value)
    hist = read_history(tmp_path / "bad")
    assert len(hist["t"]) > 0 and len(info.value.result.history["t"]) == len(hist["t"])


def test_estimate_matches_the_single_contact_limit(ti_cpu):
    """For one contact the a-priori estimate is the exact limit of its only mode."""
    dem = ti_cpu
    scene = _linear_sphere_scene(dem, 0.5, 1e-4)
    est = estimate_critical_timestep(scene.model, implicit_damping=False)
    assert math.isclose(est.dt, damped_limit(1000.0, 0.5), rel_tol=1e-9)
    est_implicit = estimate_critical_timestep(scene.model, implicit_damping=True)
    assert math.isclose(est_implicit.dt, 2.0 / 1000.0, rel_tol=1e-9)


def _box_stack(dem, n, damping_mass="shared", beta=0.0, joints="solid"):
    """n boxes of 0.1 m (1 kg, undamped by default) stacked with place_on on a floor: 64 sphere contacts a joint
    under joints "spheres", 128 at half stiffness under "solid" (faces of one size, docs/joints.md)."""
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.25, friction=0.5, damping_mass=damping_mass,
                             damping_normal=beta, damping_shear=beta)
    tpl = dem.box_clump(0.1, 0.1, 0.1, r_core=0.01)
    b = dem.ModelBuilder(joints=joints)
    ids = []
    for k in range(n):
        ids.append(b.add_clump(tpl, material=mat, mass=1.0, position=(0, 0, 0.05 + 0.1 * k), name=f"box{k}"))
        if k:
            b.place_on(ids[k], ids[k - 1])
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat)
    return b.finalize()


def test_estimate_of_a_stack_is_the_mode_of_all_its_bodies(ti_cpu):
    """Five stacked boxes: the highest mode has neighbours moving against each other, stiffer than one box on a
    fixed bed. Measured: the stack stands at 1.2 × the estimate 2/ω_max of all bodies together and blows up at
    1.6 ×, a step that one box on its bed (1.67 × 2/ω_max) would have allowed; at 0.9 × it stands (the top
    settles by ~2e-5 m, its static overlaps)."""
    from dem.model.timestep import ASSEMBLY
    from dem.physics.history_rows import C_POS

    model = _box_stack(ti_cpu, 5)
    est = estimate_critical_timestep(model)
    assert est.face == ASSEMBLY and "5 bodies together" in est.describe(model)
    single = 2.0 / estimate_critical_timestep(_box_stack(ti_cpu, 1)).omega
    assert 1.6 * est.dt < single  # the old, body-on-a-bed estimate would have allowed the unstable step

    def top_motion(factor):
        sim = ti_cpu.Simulation(model, dt=factor * est.dt, history_every=20, sleep=False)
        rows = sim.advance(int(0.05 / (factor * est.dt)))
        z = sim.layout.clump(rows, 4, C_POS)[:, 2]
        return float(np.nanmax(np.abs(z - z[0])))

    assert top_motion(0.9) < 1e-4  # [m]: settling only
    assert top_motion(1.6) > 1e-2  # [m]: thrown off the stack


def test_body_dashpot_mass_between_bodies_is_noted_and_is_what_breaks_a_stack(ti_cpu):
    """The body's dashpot mass on every contact of a 64-contact joint gives it ζ = β√64 = 4.8 at β = 0.6; the
    dashpots between two bodies act on the other's velocity explicitly. Measured (0.05 s): with the shared mass
    the top box settles by 1.8e-5 m at 0.1, 0.3 and 0.5 × the undamped estimate (2.9e-4 m at 0.9 ×); with the
    body's it strays by 1.9e-4 m at 0.3 ×, 3.2e-3 m at 0.5 × and is thrown 166 m at 0.9 ×. The run's notes say so
    before it starts (dem.model.timestep.body_dashpot_notes); nothing is said of the shared mass."""
    from dem.model.timestep import body_dashpot_notes
    from dem.physics.history_rows import C_POS

    dt = 0.9 * estimate_critical_timestep(_box_stack(ti_cpu, 5, joints="spheres")).dt

    def top_motion(model):
        sim = ti_cpu.Simulation(model, dt=dt, history_every=20, sleep=False)
        z = sim.layout.clump(sim.advance(int(0.05 / dt)), 4, C_POS)[:, 2]
        return float(np.nanmax(np.abs(z - z[0])))

    # sphere on sphere, as measured (the dashpots' coupling between bodies is the same through solids)
    shared, body = _box_stack(ti_cpu, 5, "shared", 0.6, "spheres"), _box_stack(ti_cpu, 5, "body", 0.6, "spheres")
    assert body_dashpot_notes(shared) == []
    (note,) = body_dashpot_notes(body)
    assert "64 contacts" in note and "β√N = 4.8" in note and "damping_mass='shared'" in note
    assert body_dashpot_notes(_box_stack(ti_cpu, 5, "body", 0.1, "spheres")) == []  # ζ = 0.8: not overdamped
    assert top_motion(shared) < 1e-3  # [m]: it stands (2.9e-4 m: settling under the heavier damping)
    assert top_motion(body) > 1e-2  # [m]: thrown off the stack
