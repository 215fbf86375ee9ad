"""Free rocking from the step-by-step solver against Housner's closed forms (Housner 1963; Zhang & Makris 2001).

Block of Qi & Zhu 2025, Table 1: α = 20°, R = 0.6 m, p = 3.5 rad/s. Default step dt = 1e-3 s (σ1 of Qi & Zhu 2025,
§4.2).
"""

import math

import numpy as np
import pytest

from validation.rocking import MotionState, free_rocking
from validation.rocking import closed_form as cf
from validation.rocking.transitions import CHATTER_WINDOW

WIDTH, HEIGHT = 2 * 0.6 * math.sin(math.radians(20)), 2 * 0.6 * math.cos(math.radians(20))
ALPHA = cf.slenderness(WIDTH, HEIGHT)
P = cf.frequency_parameter(WIDTH, HEIGHT)
E_HOUSNER = cf.housner_restitution(ALPHA)

# RK4 at dt = 1e-3 s with p = 3.5 rad/s: global error ~ (p dt)^4 α · (p t) ≈ 1.5e-10 · 0.35 · 10 ≈ 5e-10
# rad over a few seconds; the impact-time steps add O(|s0|^5). Trajectory and impact-angle tolerance:
RK4_ANGLE_TOL = 1e-7
# The same error in time: angle error / |θ̇| with |θ̇| >~ 0.05 rad/s at the impacts compared.
RK4_TIME_TOL = 1e-8


def test_linearised_solution_before_first_impact():
    # θ(t) = α − (α − θ0) cosh(p t) until t = T/4 (Housner 1963)
    theta0 = 0.5 * ALPHA
    res = free_rocking(WIDTH, HEIGHT, theta0, 0.3, linear=True)
    exact = cf.linear_free_rocking_theta(res.t, theta0, ALPHA, P)
    np.testing.assert_allclose(res.theta, exact, atol=RK4_ANGLE_TOL, rtol=0)
    assert res.impact_times == [] and res.state == MotionState.ROCKING


def test_linearised_solution_with_impacts_matches_piecewise_closed_form():
    theta0 = 0.7 * ALPHA
    res = free_rocking(WIDTH, HEIGHT, theta0, 3.0, linear=True)
    exact = cf.linear_free_rocking(res.t, theta0, ALPHA, P, E_HOUSNER)
    np.testing.assert_allclose(res.theta, exact, atol=RK4_ANGLE_TOL, rtol=0)
    n = 8
    times = cf.linear_free_rocking_impact_times(theta0, ALPHA, P, E_HOUSNER, n)
    np.testing.assert_allclose(res.impact_times[:n], times, atol=RK4_TIME_TOL, rtol=0)


@pytest.mark.parametrize("linear", [True, False])
@pytest.mark.parametrize("frac", [0.1, 0.5, 0.9])
def test_period_vs_amplitude_without_energy_loss(linear, frac):
    # e = 1: impacts every half period T(θ0)/2, the first at T/4 (Housner 1963; nonlinear by quadrature)
    theta0 = frac * ALPHA
    res = free_rocking(WIDTH, HEIGHT, theta0, 3.0, restitution=1.0, linear=linear)
    period = cf.free_rocking_period(theta0, ALPHA, P, linear=linear)
    k = np.arange(len(res.impact_times))
    assert len(k) >= 2
    np.testing.assert_allclose(res.impact_times, period / 4 + k * period / 2, atol=RK4_TIME_TOL, rtol=0)


@pytest.mark.parametrize("linear", [True, False])
def test_amplitude_decay_after_n_impacts(linear):
    theta0 = 0.8 * ALPHA
    res = free_rocking(WIDTH, HEIGHT, theta0, 3.0, linear=linear)
    n = 6
    expected = cf.amplitude_after_impacts(theta0, ALPHA, E_HOUSNER, np.arange(1, n + 1), linear=linear)
    bounds = [*res.impact_times[: n + 1]]
    for k in range(n):
        sel = np.flatnonzero((res.t > bounds[k]) & (res.t < bounds[k + 1]))
        j = sel[np.argmax(np.abs(res.theta[sel]))]
        y0, y1, y2 = np.abs(res.theta[j - 1 : j + 2])
        peak = y1 + (y2 - y0) ** 2 / (8 * (2 * y1 - y0 - y2))  # parabola through the 3 grid points
        # parabolic interpolation error O(θ''' dt³) ≈ p³ α dt³ ≈ 1.5e-8 rad on top of RK4's error
        assert peak == pytest.approx(expected[k], abs=RK4_ANGLE_TOL + 2e-8)


def test_nonlinear_free_rocking_agrees_with_adaptive_reference():
    # Two independent integrations: Qi & Zhu's (2025) algorithm at dt = 1e-3 s, SciPy DOP853 with event location.
    theta0 = 0.6 * ALPHA
    a = free_rocking(WIDTH, HEIGHT, theta0, 2.0)
    b = free_rocking(WIDTH, HEIGHT, theta0, 2.0, method="adaptive")
    np.testing.assert_allclose(a.theta, b.theta, atol=RK4_ANGLE_TOL, rtol=0)
    np.testing.assert_allclose(a.impact_times[:10], b.impact_times[:10], atol=RK4_TIME_TOL, rtol=0)


def test_impacts_accumulate_and_the_block_comes_to_rest():
    # With e < 1 the impacts accumulate in finite time (Zeno); the linearised sum of half periods is
    # t_rest = T(θ0)/4 + Σ_k T(θ_k)/2. Rest is declared at the impact after which the remaining
    # impacts would accumulate within CHATTER_WINDOW/p (solver.py), so at most that long before t_rest
    # (plus one output step).
    theta0 = 0.5 * ALPHA
    res = free_rocking(WIDTH, HEIGHT, theta0, 4.0, linear=True)
    amps = cf.amplitude_after_impacts(theta0, ALPHA, E_HOUSNER, np.arange(1, 2000))
    t_rest = cf.free_rocking_period(theta0, ALPHA, P) / 4 + sum(
        cf.free_rocking_period(float(x), ALPHA, P) / 2 for x in amps if x > 0
    )
    assert res.state == MotionState.REST and not res.overturned
    first_rest = res.t[np.argmax(res.states == MotionState.REST)]
    assert t_rest - CHATTER_WINDOW / P - 1e-3 < first_rest <= t_rest + 1e-3
    # impacts while |θ̇| >~ 0.05 rad/s (the first 12) on the closed-form times (RK4_TIME_TOL's premise)
    times = cf.linear_free_rocking_impact_times(theta0, ALPHA, P, E_HOUSNER, 12)
    np.testing.assert_allclose(res.impact_times[:12], times, atol=RK4_TIME_TOL, rtol=0)
    assert np.all(res.theta[res.t > t_rest + 1e-3] == 0.0)


def test_symmetric_release_gives_mirrored_response():
    a = free_rocking(WIDTH, HEIGHT, 0.4 * ALPHA, 1.5)
    b = free_rocking(WIDTH, HEIGHT, -0.4 * ALPHA, 1.5)
    np.testing.assert_array_equal(a.theta, -b.theta)
    assert a.impact_times == b.impact_times


def test_release_beyond_alpha_overturns():
    res = free_rocking(WIDTH, HEIGHT, 1.02 * ALPHA, 3.0)
    assert res.overturned and res.state == MotionState.OVERTURNED
    k = int(np.searchsorted(res.t, res.overturn_time))
    assert np.all(np.isnan(res.theta[k:])) and np.all(np.abs(res.theta[:k]) < 0.5 * math.pi)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"theta0": 0.0}, "theta0"),
        ({"theta0": 2.0}, "theta0"),
        ({"method": "euler"}, "method"),
        ({"restitution": 1.2}, "restitution"),
        ({"t_end": -1.0}, "t_end"),
        ({"dt": 0.0}, "dt"),
        ({"order": 5}, "order"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, name):
    args = {"theta0": 0.1, "t_end": 1.0, **kwargs}
    th, te = args.pop("theta0"), args.pop("t_end")
    with pytest.raises(ValueError, match=name):
        free_rocking(WIDTH, HEIGHT, th, te, **args)


def test_squat_block_needs_an_explicit_restitution():
    # h/b < 1/√2: Housner's e < 0, the block does not rock about the other corner (Qi & Zhu 2025, Eq. 17)
    with pytest.raises(ValueError, match="restitution"):
        free_rocking(2.0, 0.5, 0.1, 1.0)
    assert free_rocking(2.0, 0.5, 0.1, 1.0, restitution=0.0).state == MotionState.REST
