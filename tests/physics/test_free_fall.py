"""Free fall: the centred scheme integrates constant acceleration exactly (Itiola & El Shamy 2024, Eq. 23, 27).

With v(t−Δt/2) = v₀ given, v(t_n+½) = v₀ + g (n+1) Δt and x_n = x₀ + v₀ t_n + g (t_n² + t_n Δt)/2 exactly,
the trajectory of a body whose velocity is v₀ at t = −Δt/2. The only error is round-off.
"""

import numpy as np

from dem.physics.history_rows import C_POS, C_VEL

# Round-off of ~1e4 additions of numbers of order 1 in f64: 1e4 × 2.2e-16 ≈ 2e-12; a relative 1e-11
# margin still fails on any first-order error (Δt²·n ≈ 1e-2 here).
ROUND_OFF = 1e-11


def _falling(dem, parallel):
    b = dem.ModelBuilder(gravity=(0.3, -0.2, -9.81))
    b.add_clump(dem.single_sphere(0.01), material=dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5),
                mass=1.0, mass_from="spheres", position=(0.1, 0.2, 3.0), velocity=(1.0, 0.5, 2.0),
                angular_velocity=(0.0, 0.0, 0.0))
    return dem.Simulation(b.finalize(), dt=1e-3, history_every=1, parallel=parallel)


def test_free_fall_exact(ti_cpu):
    sim = _falling(ti_cpu, parallel=False)
    rows = sim.advance(5000)
    t = rows[:, 0]
    g = np.array([0.3, -0.2, -9.81])
    x0, v0 = np.array([0.1, 0.2, 3.0]), np.array([1.0, 0.5, 2.0])
    expected = x0 + np.outer(t, v0) + 0.5 * np.outer(t * t + t * 1e-3, g)
    x = sim.layout.clump(rows, 0, C_POS)
    assert np.max(np.abs(x - expected)) < ROUND_OFF * np.max(np.abs(expected))
    # velocity recorded at t_n is the mean of the half steps: v₀ + g (t_n + Δt/2)
    v = sim.layout.clump(rows, 0, C_VEL)
    assert np.max(np.abs(v - (v0 + np.outer(t + 0.5e-3, g)))) < ROUND_OFF * 50
    # energy ledger: all gravity work is kinetic energy
    e = rows[:, 1] - (rows[:, 3] - 0.5 * v0 @ v0)
    assert np.max(np.abs(e)) < ROUND_OFF * np.max(rows[:, 3])


def test_parallel_launch_matches_serial(ti_cpu):
    """The GPU code path (one parallel launch per step) on the CPU backend gives the same trajectory."""
    a = _falling(ti_cpu, parallel=False).advance(300)
    b = _falling(ti_cpu, parallel=True).advance(300)
    assert np.max(np.abs(a - b)) < ROUND_OFF * np.max(np.abs(a))
