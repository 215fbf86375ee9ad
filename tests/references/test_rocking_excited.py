"""Block on a moving base: uplift threshold, mirror symmetry, overturning, convergence, RK order."""

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from validation.rocking import MotionState, base_excited
from validation.rocking import closed_form as cf
from validation.rocking.signals import ExponentialSine, ramped_sine, sine_pulse

WIDTH, HEIGHT = 2 * 0.6 * math.sin(math.radians(20)), 2 * 0.6 * math.cos(math.radians(20))
ALPHA = cf.slenderness(WIDTH, HEIGHT)
P = cf.frequency_parameter(WIDTH, HEIGHT)
G = 9.81
THRESHOLD = cf.uplift_threshold(ALPHA)

# The uplift instant of a linear ramp is found by root finding to xtol = 1e-14 s.
UPLIFT_TIME_TOL = 1e-12
# Mirror symmetry holds to rounding: sin is odd and cos even in IEEE arithmetic, so exact here.
MIRROR_TOL = 0.0
# Qi & Zhu 2025, Eq. 44 excitation, 3 s, a few impacts: RK4 at dt = 1e-3 s vs dt = 1e-4 s and vs DOP853 at
# rtol 1e-11. Global RK4 error ≈ (p dt)^4 α × (number of swings) ≈ 1.5e-10 × 0.35 × 10 ≈ 5e-10, and
# each impact passes the error on through e < 1; 1e-7 rad leaves room for the impact-time steps.
CONVERGED_ANGLE_TOL = 1e-7


def test_no_uplift_just_below_threshold_on_both_sides():
    # Housner 1963: a block at rest uplifts only if |ü_g| > g tan α
    for sign in (1.0, -1.0):
        res = base_excited(WIDTH, HEIGHT, sign * (1 - 1e-9) * THRESHOLD, 2.0)
        assert res.uplift_times == [] and res.state == MotionState.REST
        assert np.all(res.theta == 0.0) and np.all(res.omega == 0.0)


def test_uplift_just_above_threshold_towards_the_right_side():
    # ü_g > g tan α tips the block onto θ < 0, ü_g < −g tan α onto θ > 0 (validation.rocking's sign convention)
    for sign in (1.0, -1.0):
        res = base_excited(WIDTH, HEIGHT, sign * 1.01 * THRESHOLD, 0.5)
        assert res.uplift_times == [0.0]
        assert np.all(np.sign(res.theta[1:]) == -sign)


def test_uplift_instant_of_a_ramp_on_both_sides():
    rate = 2.0  # [m/s³]
    t_up = THRESHOLD / rate
    for sign in (1.0, -1.0):
        res = base_excited(WIDTH, HEIGHT, lambda t, s=sign: s * rate * t, t_up + 0.2)
        assert res.uplift_times[0] == pytest.approx(t_up, abs=UPLIFT_TIME_TOL)
        assert np.all(res.theta[res.t <= t_up] == 0.0)
        assert np.all(np.sign(res.theta[res.t > t_up + 0.01]) == -sign)


def test_mirrored_excitation_gives_mirrored_response():
    sig = ExponentialSine(0.6 * G, 1.76, 2 * math.pi * 2.0)
    a = base_excited(WIDTH, HEIGHT, sig, 4.0)
    b = base_excited(WIDTH, HEIGHT, lambda t: -sig(t), 4.0)
    assert len(a.impact_times) >= 3
    np.testing.assert_allclose(a.theta, -b.theta, atol=MIRROR_TOL, rtol=0)
    np.testing.assert_allclose(a.impact_times, b.impact_times, atol=MIRROR_TOL, rtol=0)


def test_overturning_under_a_long_strong_pulse_and_not_under_a_short_one():
    # A pulse much longer than 1/p acts quasi-statically: 2 g tan α for ~1 s tips the block over.
    long_pulse = sine_pulse(2.0 * THRESHOLD, 2.0)
    res = base_excited(WIDTH, HEIGHT, long_pulse, 4.0)
    assert res.overturned and res.state == MotionState.OVERTURNED
    assert 0.0 < res.overturn_time < 1.5
    k = int(np.searchsorted(res.t, res.overturn_time))
    assert np.all(np.isnan(res.theta[k:])) and np.all(res.theta[1:k] <= 0)  # tipped towards θ < 0
    # the same peak over 0.1 s only rocks the block (Housner's scale effect: a short pulse carries
    # too little velocity)
    short = base_excited(WIDTH, HEIGHT, sine_pulse(2.0 * THRESHOLD, 0.1), 4.0)
    assert not short.overturned and short.uplift_times and short.peak_theta < ALPHA


def test_time_transform_converges_to_tiny_steps_and_to_scipy():
    sig = ExponentialSine(0.7 * G, 1.76, 2 * math.pi * 1.5)  # Qi & Zhu 2025, Eq. 44, β of Qi & Zhu 2025, Table 1
    coarse = base_excited(WIDTH, HEIGHT, sig, 3.0, dt=1e-3)
    fine = base_excited(WIDTH, HEIGHT, sig, 3.0, dt=1e-4)
    adapt = base_excited(WIDTH, HEIGHT, sig, 3.0, dt=1e-3, method="adaptive", rtol=1e-11, atol=1e-13)
    assert len(coarse.impact_times) >= 3
    np.testing.assert_allclose(coarse.theta, fine.theta[::10], atol=CONVERGED_ANGLE_TOL, rtol=0)
    np.testing.assert_allclose(coarse.theta, adapt.theta, atol=CONVERGED_ANGLE_TOL, rtol=0)
    np.testing.assert_allclose(coarse.impact_times, adapt.impact_times, atol=CONVERGED_ANGLE_TOL / 0.05)


def test_step_end_impacts_lag_by_less_than_one_step():
    # Qi & Zhu's (2025) RK comparison methods apply the impact at the end of the step in which θ changed sign:
    # the impact time is late by less than dt, whatever the order of the RK method; Qi & Zhu's (2025) algorithm
    # places it to RK accuracy.
    sig = ExponentialSine(0.7 * G, 1.76, 2 * math.pi * 1.5)
    ref = base_excited(WIDTH, HEIGHT, sig, 2.0, dt=1e-4)
    for dt in (2e-3, 1.3e-3, 1e-3):
        for method in ("rk2", "rk3", "rk4"):
            lag = base_excited(WIDTH, HEIGHT, sig, 2.0, dt=dt, method=method).impact_times[0] - ref.impact_times[0]
            assert 0.0 <= lag < dt
        tt = base_excited(WIDTH, HEIGHT, sig, 2.0, dt=dt).impact_times[0]
        assert tt == pytest.approx(ref.impact_times[0], abs=CONVERGED_ANGLE_TOL / 0.05)


@pytest.mark.parametrize("order", [2, 3, 4])
def test_runge_kutta_error_order_on_a_smooth_interval(order):
    # Released at 0.6 α with a smooth base motion, no impact before t = 0.25 s. Global error of a
    # p-th order method ∝ dt^p: halving dt divides it by 2^p. Observed orders within ±0.3 of p (the
    # asymptotic regime is reached at these steps; checked over three step sizes).
    sig = ExponentialSine(0.2 * G, 1.76, 5.0)
    t_end, theta0 = 0.25, 0.6 * ALPHA

    def rhs(t, y):
        phi = ALPHA - y[0]
        return (y[1], -P * P * (math.sin(phi) + sig(t) / G * math.cos(phi)))  # Qi & Zhu 2025, Eq. 22, θ > 0

    exact = solve_ivp(rhs, (0, t_end), (theta0, 0.0), method="DOP853", rtol=1e-13, atol=1e-15).y[0, -1]
    steps = (0.025, 0.0125, 0.00625)
    err = []
    for dt in steps:
        res = base_excited(WIDTH, HEIGHT, sig, t_end, dt=dt, method=f"rk{order}", theta0=theta0)
        assert res.impact_times == []
        err.append(abs(res.theta[-1] - exact))
    rates = np.log2(np.array(err[:-1]) / np.array(err[1:]))
    assert np.all(np.abs(rates - order) < 0.3), rates


def test_sampled_record_equals_the_same_signal_as_a_callable():
    # An array with accel_dt is interpolated linearly; a callable doing the same gives the same run.
    dt = 0.01
    sig = ramped_sine(b=0.5)
    samples = sig(np.arange(0, 6.0 + dt / 2, dt))
    from validation.rocking.signals import SampledRecord

    rec = SampledRecord(samples, dt)
    a = base_excited(WIDTH, HEIGHT, samples, 6.0, accel_dt=dt)
    b = base_excited(WIDTH, HEIGHT, rec, 6.0, dt=dt)
    np.testing.assert_array_equal(a.theta, b.theta)
    with pytest.raises(ValueError, match="accel_dt"):
        base_excited(WIDTH, HEIGHT, samples, 6.0)
