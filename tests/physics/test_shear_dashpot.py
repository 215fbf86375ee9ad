"""The shear dashpot coefficient c_s = 2β_s√(m_c k_s) of the Hertz–Mindlin law (004 §2.1; spec §2), pinned
by two motions whose answer depends on it (issue 15, "Checks": dropping the √(k_s/k_n) factor from c_s in
dem/physics/contact_law.py — 9 % more shear damping at ν = 0.28 — passed every test before these).

1. Tangential free vibration of a body on its contact bed. An n × n bed of spheres held at the Hertz
   overlap δ0 (vertical motion and rotations fixed), pushed sideways: each contact is a Mindlin spring
   k_s = κ k_n, κ = 2(1−ν)/(2−ν), k_n = (3/2) h_n √δ0 (constant at fixed overlap, since the incremental
   shear spring is then exactly linear), in parallel with a dashpot c_s = 2β_s√(M k_s) (body mass). So
   M ẍ + N c_s ẋ + N k_s x = 0: x = A e^{−σt} sin(ω_d t + φ), σ = N c_s/(2M), ω_d = √(N k_s/M − σ²).
2. Oblique impact of a free sphere on a wall, sticking (μ so large the contact never slides): the contact
   point's tangential velocity after the impact against the SciPy solution of the same Hertz–Mindlin law
   (normal Hertz spring and dashpot, incremental Mindlin spring k_s(δ), shear dashpot, the sphere's
   rotation through the lever R − δ/2, as the engine's contact point in the middle of the overlap).
"""

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import curve_fit

from dem.physics.contact_law import hertz_stiffness_factor
from dem.physics.history_rows import C_OMEGA, C_POS, C_VEL, G_NC
from tests.builders import block_on_sphere_bed

NU = 0.28  # the Peña granite's ν: κ = 0.837, √κ = 0.915
TOL_DECAY = 1e-2
"""Relative error allowed on the decay rate σ: the fit is exact to 2e-6 (a linear oscillator integrated with
400 steps per period, implicit dashpots of second order); dropping √κ from c_s raises σ by 1/√κ − 1 = 9.3 %."""
TOL_OBLIQUE = 2e-3
"""Absolute error allowed on the tangential velocity ratio (0.353; 0.320 without √κ): the engine resolves the
contact with 2,000 steps, and the contact's start and end fall inside a step (first order, 5e-4)."""


def _damped_sine(t, a, sigma, omega, phase, offset):
    return a * np.exp(-sigma * t) * np.sin(omega * t + phase) + offset


@pytest.mark.parametrize("n", [2, 7])
def test_tangential_free_vibration_on_a_bed_decays_at_the_rate_beta_s_gives(ti_cpu, n):
    dem = ti_cpu
    mass, beta_s, v0 = 2.0, 0.02, 1e-4
    model, delta0, h_n = block_on_sphere_bed(dem, n=n, mass=mass, poisson=NU, beta_n=0.1, beta_s=beta_s,
                                             velocity=(v0, 0.0, 0.0), fixed="y,z,rx,ry,rz")
    k_s = 2 * (1 - NU) / (2 - NU) * 1.5 * h_n * math.sqrt(delta0)  # Mindlin k_s = κ k_n (004 §2.1)
    c_s = 2 * beta_s * math.sqrt(mass * k_s)  # body mass (spec §2)
    count = n * n
    sigma = count * c_s / (2 * mass)
    omega = math.sqrt(count * k_s / mass - sigma**2)
    dt = 2 * math.pi / omega / 400
    sim = dem.Simulation(model, dt=dt, history_every=1, sleep=False)
    rows = sim.advance(int(6 * 400))
    t, x = rows[:, 0], sim.layout.clump(rows, 0, C_POS)[:, 0]
    fit, _ = curve_fit(_damped_sine, t, x - x[0], p0=[v0 / omega, sigma, omega, 0.0, 0.0])
    assert abs(fit[1] / sigma - 1) < TOL_DECAY, (fit[1], sigma)
    assert abs(fit[2] / omega - 1) < 1e-3  # the shear springs: Σk_s (measured 1e-5)
    # it never slid: the shear force stays far below μ F_n (μ = 10), so the dashpot was never cut
    assert np.max(np.abs(x - x[0])) * count * k_s < 0.01 * 10 * mass * 9.81


def _oblique_reference(radius, mass, shear_modulus, poisson, beta_n, beta_s, vx, vz):
    """Sticking oblique impact of a free sphere on a fixed plane, Hertz–Mindlin with dashpots on the body
    mass (spec §2; full normal force: the dashpot may pull at the end, as the engine's default): returns the
    contact point's tangential velocity ÷ its value before the impact, and the normal restitution."""
    h_n = hertz_stiffness_factor(shear_modulus, poisson, radius)
    kappa = 2 * (1 - poisson) / (2 - poisson)
    inertia = 0.4 * mass * radius**2

    def rhs(_t, y):
        z, vz_, _x, vx_, omega, f_s = y
        d = max(radius - z, 0.0)
        k_n = 1.5 * h_n * math.sqrt(d)
        k_s = kappa * k_n
        c_n, c_s = 2 * beta_n * math.sqrt(mass * k_n), 2 * beta_s * math.sqrt(mass * k_s)
        arm = radius - 0.5 * d  # contact point in the middle of the overlap
        v_t = vx_ - arm * omega  # contact point along x: v + ω × (0, 0, −arm)
        f_t = f_s - c_s * v_t
        return [vz_, (h_n * d**1.5 - c_n * vz_) / mass, vx_, f_t / mass, -arm * f_t / inertia, -k_s * v_t]

    def separates(_t, y):
        return y[0] - radius

    separates.terminal, separates.direction = True, 1
    sol = solve_ivp(rhs, (0.0, 1.0), [radius, vz, 0.0, vx, 0.0, 0.0], events=separates, method="DOP853",
                    rtol=1e-10, atol=1e-14, first_step=1e-9, max_step=1e-6)
    y = sol.y_events[0][0]
    return (y[3] - radius * y[4]) / vx, -y[1] / vz


def test_oblique_impact_tangential_velocity_ratio_matches_the_ode(ti_cpu):
    dem = ti_cpu
    r, m, g_mod, beta_n, beta_s, vx, vz = 0.01, 0.05, 1e9, 0.1, 0.1, 0.3, -1.0
    ratio_ref, e_ref = _oblique_reference(r, m, g_mod, NU, beta_n, beta_s, vx, vz)
    mat = dem.Material.hertz(shear_modulus=g_mod, poisson=NU, friction=1e6, damping_normal=beta_n,
                             damping_shear=beta_s)
    b = dem.ModelBuilder(gravity=(0.0, 0.0, 0.0))
    b.add_clump(dem.single_sphere(r), material=mat, mass=m, mass_from="spheres", position=(0.0, 0.0, r + 1e-7),
                velocity=(vx, 0.0, vz))
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat)
    h_n = hertz_stiffness_factor(g_mod, NU, r)
    t_c = 2.94 * (1.25 * m * vz**2 / h_n) ** 0.4 / abs(vz)  # undamped Hertz contact time (contact_law.hertz_impact)
    sim = dem.Simulation(b.finalize(), dt=t_c / 2000, history_every=100, sleep=False)
    rows = sim.advance(3 * 2000)
    v = sim.layout.clump(rows, 0, C_VEL)[-1]
    w = sim.layout.clump(rows, 0, C_OMEGA)[-1]
    assert rows[-1, G_NC] == 0  # separated
    ratio = (v[0] - r * w[1]) / vx  # contact point after separation: v + ω × (0, 0, −r)
    assert abs(-v[2] / vz - e_ref) < TOL_OBLIQUE  # the normal restitution (β_n) too
    assert abs(ratio - ratio_ref) < TOL_OBLIQUE, (ratio, ratio_ref)
    # the shear dashpot matters here: without it the ratio would be far off (a check that the test can fail)
    no_dashpot, _ = _oblique_reference(r, m, g_mod, NU, beta_n, 0.0, vx, vz)
    assert abs(no_dashpot - ratio_ref) > 20 * TOL_OBLIQUE
