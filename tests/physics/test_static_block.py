"""A block at rest on a wall carries its weight with the resultant at its centre; bodies at rest sleep
and wake when a wall moves."""

import numpy as np

from dem.model.walls import WallMotion
from dem.physics.history_rows import C_VEL
from dem.run.probes import Interface, ProbeContext
from tests.builders import block_on_floor, energies

MASS, G = 2.0, 9.81


def _settle(dem, **kw):
    model = block_on_floor(dem, mass=MASS, interface=True, **kw)
    sim = dem.Simulation(model, dt=2e-6, history_every=500, **({"sleep": False} | {}))
    return model, sim, sim.advance(100_000)  # 0.2 s: the bed's modes (~1 kHz, ζ ≈ β√N ≈ 1) are long gone


def test_block_at_rest_carries_its_weight(ti_cpu):
    model, sim, rows = _settle(ti_cpu)
    slot = model.interface_slot["base"]
    probe = Interface("base", slot, 0, (0.0, 0.0, -0.05), 0.1, MASS * G)
    cols = probe.evaluate(rows[-5:], ProbeContext(model, sim.layout))
    # static equilibrium: Σ F_n = m g to the ledger's round-off; the last residual motion decays as
    # e^{−ζωt} and is far below 1e-9 after 0.2 s
    assert np.allclose(cols["base_V_ratio"], 1.0, atol=1e-9)
    # a symmetric block on a symmetric bed: the resultant is at the centre (1e-9 of the width)
    assert np.all(np.abs(cols["base_ecc"]) < 1e-9)
    assert np.all(np.abs(cols["base_H"]) < 1e-9 * MASS * G)
    # every sphere of the bottom layer carries load (7 × 7 for this lattice)
    tpl = model.clumps[0].template
    bottom = np.isclose(tpl.centers[:, 2], tpl.centers[:, 2].min())
    assert np.all(cols["base_contacts"] == bottom.sum())
    e = energies(rows)
    floor = MASS * G * 0.1
    residual = e["E_body"] - e["E_kinetic"] - e["E_strain"] - e["E_damping"] - e["E_friction"]
    # settling dissipates the strain of the initial drop onto the bed; implicit dashpots balance to
    # 1e-6 of m g × size
    assert np.max(np.abs(residual)) < 1e-6 * floor


def test_resting_block_sleeps_and_wakes_when_the_wall_moves(ti_cpu):
    dem = ti_cpu
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.25, friction=0.5, damping_normal=0.2, damping_shear=0.2)
    tpl = dem.box_clump(0.1, 0.1, 0.1, r_core=0.01)
    low = float(np.min(tpl.centers[:, 2] - tpl.radii))
    b = dem.ModelBuilder()
    b.add_clump(tpl, material=mat, mass=MASS, position=(0, 0, -low))
    # the floor stands still for 0.3 s, then moves sideways at 1 mm/s
    t = np.arange(0.0, 0.6, 1e-3)
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, motion=WallMotion.along((1, 0, 0), np.where(t > 0.3, 1e-3, 0.0),
                                                                          1e-3))
    sim = dem.Simulation(b.finalize(), dt=2e-6, history_every=1000)
    rows = sim.advance(140_000)  # 0.28 s
    assert sim.state.monitor.to_numpy()[0, 5] == 1.0  # asleep
    # asleep, the body is at rest and its contacts still carry its weight on observed steps
    assert np.allclose(np.linalg.norm(sim.layout.clump(rows[-3:], 0, 13), axis=1), MASS * 9.81, rtol=1e-6)
    rows = sim.advance(60_000)  # to 0.4 s: the wall has moved for 0.1 s
    assert sim.state.monitor.to_numpy()[0, 5] == 0.0  # awake
    # dragged by friction, the block moves with the floor (1 mm/s) once it has caught up
    assert abs(sim.layout.clump(rows[-1:], 0, C_VEL)[0, 0] - 1e-3) < 1e-5


def test_fast_forward_of_a_quiescent_run_is_exact(ti_cpu):
    """Once every body sleeps and no wall will move, the run loop writes the remaining records without
    stepping; the history is identical, bit for bit, to stepping through."""
    from dem.physics import simulation as solver
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    scene = build_scene("pena_block", {"r_core": 0.04, "r_base": 0.01, "theta0_deg": 1.0})
    fast = run_scene(scene, t_end=1.5, progress=False)
    assert fast.summary["quiescent_from_s"] is not None and fast.summary["quiescent_from_s"] < 1.5
    quiescent = solver.Simulation.quiescent
    try:
        solver.Simulation.quiescent = lambda self: False
        slow = run_scene(scene, t_end=1.5, progress=False)
    finally:
        solver.Simulation.quiescent = quiescent
    assert set(fast.history) == set(slow.history)
    for k in fast.history:
        assert np.array_equal(fast.history[k], slow.history[k]), k
