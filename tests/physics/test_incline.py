"""A block on an inclined plane sticks while tan θ < μ and otherwise slides with a = g (sin θ − μ cos θ).
The incline is made by tilting gravity over a horizontal floor (the same mechanics)."""

import math

import numpy as np
import pytest

from dem.physics.history_rows import C_POS, C_VEL
from tests.builders import block_on_floor, energies

MU, G = 0.4, 9.81


def _on_incline(dem, theta):
    gravity = (G * math.sin(theta), 0.0, -G * math.cos(theta))
    # a squat block (0.2 wide, 0.05 high) does not tip at these angles
    model = block_on_floor(dem, width=0.2, height=0.05, thickness=0.2, r=0.0125, mass=2.0, mu=MU, beta=0.3,
                           gravity=gravity)
    sim = dem.Simulation(model, dt=2e-6, history_every=250, sleep=False)
    return sim, sim.advance(150_000)  # 0.3 s


@pytest.mark.parametrize("theta_deg", [15.0, 20.0])
def test_block_sticks_below_friction_angle(ti_cpu, theta_deg):
    sim, rows = _on_incline(ti_cpu, math.radians(theta_deg))
    t = rows[:, 0]
    x = sim.layout.clump(rows, 0, C_POS)[:, 0]
    # The block starts just touching the plane with the tangential load already on, so while the bed's
    # normal forces build up (Coulomb cap μF_n) it micro-slips some tens of µm in the first milliseconds.
    # Then, tan θ < μ: it stays put; from 0.1 s to 0.3 s it moves less than 0.1 µm (elastic shear
    # deflection of the bed: F_t / ΣK_s ≈ 0.3 µm in all).
    late = t >= 0.1
    assert np.ptp(x[late]) < 1e-7
    assert abs(sim.layout.clump(rows, 0, C_VEL)[-1, 0]) < 1e-6


@pytest.mark.parametrize("theta_deg", [25.0, 35.0])
def test_block_slides_with_coulomb_acceleration(ti_cpu, theta_deg):
    theta = math.radians(theta_deg)
    sim, rows = _on_incline(ti_cpu, theta)
    t = rows[:, 0]
    v = sim.layout.clump(rows, 0, C_VEL)[:, 0]
    late = t > 0.1  # after the bed has settled and every contact slips
    a = np.polyfit(t[late], v[late], 1)[0]
    expected = G * (math.sin(theta) - MU * math.cos(theta))
    # all contacts at the Coulomb limit: a = g(sin θ − μ cos θ) to 1e-3 (the slip-cut dashpots leave only
    # the normal bed's small oscillation)
    assert abs(a - expected) < 1e-3 * G, (a, expected)
    e = energies(rows)
    residual = e["E_body"] - e["E_kinetic"] - e["E_strain"] - e["E_damping"] - e["E_friction"]
    # friction work dominates here; the ledger balances to 1e-4 of the work done by gravity
    assert np.max(np.abs(residual)) < 1e-4 * np.max(np.abs(e["E_body"]))
