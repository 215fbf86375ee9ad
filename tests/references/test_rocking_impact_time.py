"""Qi & Zhu's (2025) impact-time algorithm (time transformation + one RK step to s = 0, Qi & Zhu 2025, §3–4)."""

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from validation.rocking import closed_form as cf
from validation.rocking import free_rocking
from validation.rocking.impact_time import hermite_impact, time_transform_step, transform_is_safe
from validation.rocking.runge_kutta import RK4, TABLEAUS

ALPHA, P = math.radians(20), 3.5
WIDTH, HEIGHT = 2 * 0.6 * math.sin(ALPHA), 2 * 0.6 * math.cos(ALPHA)

# The requirement: the located impact lies on θ = 0 to 1e-10 rad (of the exact trajectory).
IMPACT_ANGLE_TOL = 1e-10
# In the transformed variable the θ component of dy/ds is exactly ±1 (Qi & Zhu 2025, Eq. 36–37): the step lands on
# θ = 0 up to rounding of θ_k (1e-3 rad) times Σ b_i = 1, a few ulps.
LANDING_TOL = 1e-18


def linear_rate(y):
    # linearised free rocking on side θ > 0: θ̈ = p² (θ − α)
    return (y[1], P * P * (y[0] - ALPHA), 1.0)


def exact_linear(t, theta0):
    th = ALPHA - (ALPHA - theta0) * math.cosh(P * t)
    om = -(ALPHA - theta0) * P * math.sinh(P * t)
    return th, om


@pytest.mark.parametrize("sigma1", [0.01, 0.003, 0.001])
def test_one_transformed_step_hits_the_exact_impact(sigma1):
    # Start one coarse step σ1 before the exact impact T/4 on the exact trajectory (Qi & Zhu 2025, §4.1 Step 2).
    theta0 = 0.5 * ALPHA
    t_impact = cf.free_rocking_period(theta0, ALPHA, P) / 4
    t_k = t_impact - 0.7 * sigma1
    th_k, om_k = exact_linear(t_k, theta0)
    assert transform_is_safe(th_k, om_k, P * P * (th_k - ALPHA))
    th_f, om_f, t_f = time_transform_step(linear_rate, (th_k, om_k, t_k), RK4)
    assert abs(th_f) <= LANDING_TOL
    # the exact trajectory at the computed t_f is on θ = 0 to 1e-10 rad: O(|s0|^5) error (Qi & Zhu 2025, Eq. 42)
    assert abs(exact_linear(t_f, theta0)[0]) <= IMPACT_ANGLE_TOL
    assert om_f == pytest.approx(exact_linear(t_impact, theta0)[1], rel=1e-9)


def test_error_of_the_transformed_step_shrinks_with_order_q():
    # q = 2, 3, 4 single steps from the same s0: error O(|s0|^{q+1}) (Qi & Zhu 2025, Eq. 42), so higher q is better.
    theta0 = 0.5 * ALPHA
    t_impact = cf.free_rocking_period(theta0, ALPHA, P) / 4
    t_k = t_impact - 0.01
    y_k = (*exact_linear(t_k, theta0), t_k)
    err = [abs(time_transform_step(linear_rate, y_k, TABLEAUS[q])[2] - t_impact) for q in (2, 3, 4)]
    assert err[0] > err[1] > err[2]


@pytest.mark.parametrize("dt", [1e-3, 5e-4])
def test_solver_impacts_lie_on_theta_zero_of_the_exact_nonlinear_trajectory(dt):
    # Nonlinear free rocking: the solver's impact times (Qi & Zhu's (2025) algorithm with RK4 at σ1 = dt) against
    # DOP853 at rtol 1e-13, evaluated at those times. The RK4 steps before the impact contribute
    # O(σ1^4) ≈ (p dt)^4 α ≈ 5e-11 rad at dt = 1e-3 s.
    theta0 = 0.6 * ALPHA
    res = free_rocking(WIDTH, HEIGHT, theta0, 0.5, dt=dt)
    t_f = res.impact_times[0]
    p = cf.frequency_parameter(WIDTH, HEIGHT)
    alpha = cf.slenderness(WIDTH, HEIGHT)
    sol = solve_ivp(lambda t, y: (y[1], -p * p * math.sin(alpha - y[0])), (0, t_f), (theta0, 0.0),
                    method="DOP853", rtol=1e-13, atol=1e-16)  # fmt: skip
    assert abs(sol.y[0, -1]) <= IMPACT_ANGLE_TOL


def test_crossing_after_a_turning_point_is_bracketed():
    # Moving away from θ = 0 at t_k, turning and crossing inside the step: the transform alone is ill
    # posed (θ̇ = 0 inside), hermite_impact brackets the crossing first. Its accuracy is that of one RK4
    # step of length τ ≈ 1.3 T/4 ≈ 0.024 s: (p τ)^5/120 θ0 ≈ 2e-11 rad for this tiny swing.
    theta0 = 0.002 * ALPHA  # tiny swing (chattering-like): a quarter period shorter than the step
    quarter = cf.free_rocking_period(theta0, ALPHA, P) / 4
    t_k = -0.3 * quarter  # on the way up to the peak at t = 0
    h = 1.6 * quarter
    y_k = (*exact_linear(t_k, theta0), t_k)
    y_k1 = exact_linear(t_k + h, theta0)
    assert y_k1[0] < 0 and not transform_is_safe(y_k[0], y_k[1], P * P * (y_k[0] - ALPHA))
    th_f, om_f, t_f = hermite_impact(linear_rate, y_k, y_k1, h, RK4, 1.0)
    assert th_f[0] == 0.0
    assert abs(exact_linear(float(t_f[0]), theta0)[0]) <= IMPACT_ANGLE_TOL
    np.testing.assert_allclose(t_f, quarter, atol=IMPACT_ANGLE_TOL / abs(om_f[0]))


def test_bounce_from_theta_zero_returning_inside_the_step():
    # After an impact the block leaves θ = 0 with a small θ̇0 > 0 and falls back within the step.
    # Linearised on θ > 0: θ = α (1 − cosh pt) + (θ̇0/p) sinh pt returns to 0 at pt = 2 atanh(θ̇0/(p α))
    # with θ̇ = −θ̇0. One RK4 step of that length τ ≈ 0.0094 s errs by (p τ)^5/120 × (α p) ≈ 4e-10 rad/s
    # in θ̇ (the α p sinh term dominates), a few 1e-12 rad in θ.
    om0 = 0.02
    t_back = 2 * math.atanh(om0 / (P * ALPHA)) / P
    h = 1.5 * t_back

    def exact(t):
        return (ALPHA * (1 - math.cosh(P * t)) + om0 / P * math.sinh(P * t),
                -ALPHA * P * math.sinh(P * t) + om0 * math.cosh(P * t))  # fmt: skip

    th1, om1 = exact(h)
    th_f, om_f, t_f = hermite_impact(linear_rate, (0.0, om0, 0.0), (th1, om1), h, RK4, 1.0)
    assert abs(exact(float(t_f[0]))[0]) <= IMPACT_ANGLE_TOL
    assert om_f[0] == pytest.approx(-om0, abs=1e-9)
