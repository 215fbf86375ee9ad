"""A torque-free asymmetric body: kinetic energy and angular momentum are conserved, and a spin about
the intermediate principal axis is unstable (it flips: the tennis-racket / Dzhanibekov effect)."""

import numpy as np

from dem.model.model import quat_to_matrix
from dem.physics.history_rows import C_OMEGA, C_QUAT


def _rotate(q, v):
    w, x, y, z = q.T
    u = np.stack([x, y, z], 1)
    t = 2 * np.cross(u, v)
    return v + w[:, None] * t + np.cross(u, t)


def _spin(dem, dt, t_end=10.0):
    # a solid box 0.1 × 0.2 × 0.4 m: I = m/12 diag(0.2, 0.17, 0.05), the y axis is the intermediate one
    tpl = dem.box_clump(0.1, 0.4, 0.2, r_core=0.02)
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5)
    b = dem.ModelBuilder(gravity=(0, 0, 0))
    b.add_clump(tpl, material=mat, mass=3.0, angular_velocity=np.array([1e-3, 5.0, 1e-3]))  # spin about y
    sim = dem.Simulation(b.finalize(), dt=dt, history_every=int(round(2e-3 / dt)))
    rows = sim.advance(int(round(t_end / dt)))
    w = sim.layout.clump(rows, 0, C_OMEGA)
    q = sim.layout.clump(rows, 0, C_QUAT, 4)
    rot = np.stack([quat_to_matrix(x) for x in q])
    iw = np.einsum("nij,jk,nlk->nil", rot, sim.model.inertia[0], rot)
    ang_mom = np.einsum("nij,nj->ni", iw, w)
    energy = 0.5 * np.einsum("ni,ni->n", w, ang_mom)
    return q, ang_mom, energy


def test_intermediate_axis_flips_with_conserved_energy_and_momentum(ti_cpu):
    q, ang_mom, energy = _spin(ti_cpu, 2e-4)  # |ω|Δt = 1e-3; 10 s: several flips (e-folding ≈ 0.3 s)
    l0 = np.linalg.norm(ang_mom[0])
    # Itiola & El Shamy's (2024) mid-step Euler solve is second order: the drifts of the vector L and of E over 10 s
    # are bounded by (|ω|Δt)² = 1e-6 relative (measured 1.1e-7 and 9.0e-8, both ∝ Δt²: test below). (E's drift read
    # 1.1e-10 while Taichi's CFG optimisation was on: it computed the step ~3e-11 off the NumPy reference below.)
    assert np.max(np.linalg.norm(ang_mom - ang_mom[0], axis=1)) < 1e-6 * l0
    assert np.max(np.abs(energy - energy[0])) < 1e-6 * energy[0]
    # the body's y axis, initially along the spin, turns over: its component along L changes sign
    y_axis = _rotate(q, np.array([0.0, 1.0, 0.0]))
    along = y_axis @ (ang_mom[0] / l0)
    assert along[0] > 0.99 and along.min() < -0.99


def test_rotation_is_second_order(ti_cpu):
    """Halving Δt divides the angular-momentum and energy drifts by 4 (a first-order scheme would give 2)."""
    drift, e_drift = [], []
    for dt in (4e-4, 2e-4):
        _q, ang_mom, energy = _spin(ti_cpu, dt)
        drift.append(np.max(np.linalg.norm(ang_mom - ang_mom[0], axis=1)))
        e_drift.append(np.max(np.abs(energy - energy[0])))
    assert 3.5 < drift[0] / drift[1] < 4.5, drift
    assert 3.5 < e_drift[0] / e_drift[1] < 4.5, e_drift  # measured 3.6e-7 / 9.0e-8 relative


def _reference_steps(inertia, w0, dt, n):
    """004's rotation step for a torque-free body, in NumPy: four passes of the implicit Euler equations with the
    gyroscopic term at the previous pass's mid-step ω̄ (dem/physics/integrator.py), the world inertia R I Rᵀ at t_n, then
    q ← exp(ω⁺Δt) q. Returns the mid-step ω of each step."""
    def rot(q):
        w, x, y, z = q
        return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])

    q, out = np.array([1.0, 0.0, 0.0, 0.0]), []
    for _ in range(n):
        iw = rot(q) @ inertia @ rot(q).T
        w_mid = w0
        for _k in range(4):
            w1 = np.linalg.solve(iw, iw @ w0 - dt * np.cross(w_mid, iw @ w_mid))
            w_mid = 0.5 * (w0 + w1)
        out.append(0.5 * (w0 + w1))
        a = np.linalg.norm(w1) * dt
        dq = np.r_[np.cos(a / 2), np.sin(a / 2) * w1 / np.linalg.norm(w1)]
        q = np.r_[dq[0] * q[0] - dq[1:] @ q[1:], dq[0] * q[1:] + q[0] * dq[1:] + np.cross(dq[1:], q[1:])]
        w0 = w1
    return np.array(out)


def test_rotation_step_matches_a_numpy_reference(ti_cpu):
    """The step's mid-step ω agrees with the same procedure written in NumPy, to round-off: 1e-13 relative on
    components a thousandth of |ω| (a few ulp of |ω| after three steps). This caught Taichi's CFG optimisation
    computing the small components 3e-11 off (issue 19)."""
    dem = ti_cpu
    tpl = dem.box_clump(0.1, 0.4, 0.2, r_core=0.02)
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5)
    b = dem.ModelBuilder(gravity=(0, 0, 0))
    b.add_clump(tpl, material=mat, mass=3.0, angular_velocity=np.array([1e-3, 5.0, 1e-3]))
    sim = dem.Simulation(b.finalize(), dt=2e-4, history_every=1)
    rows = sim.advance(3)
    got = sim.layout.clump(rows, 0, C_OMEGA)
    want = _reference_steps(sim.model.inertia[0], np.array([1e-3, 5.0, 1e-3]), 2e-4, 3)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0.0)
