"""Closed forms of rigid rocking (validation/rocking/closed_form.py) against independent evaluations.

Each tolerance below is for one concept and says why it has its value.
"""

import math

import numpy as np
import pytest

from validation.rocking import closed_form as cf

# Closed forms evaluated two ways in double precision: agreement to a few hundred ulps.
ROUNDING_TOL = 1e-12
# Itiola & El Shamy 2024, §5.2 prints p and p̄ to three significant digits (p = 1.23, p̄ = 1.072 rad/s).
PAPER_PRINT_TOL = 5e-3
# scipy quad of the nonlinear period at epsrel = 1e-12.
QUADRATURE_TOL = 1e-9


def test_frequency_parameter_is_housner_for_a_rectangle():
    # p² = 3g/(4R), R the half-diagonal (Housner 1963; Zhang & Makris 2001; Qi & Zhu 2025, §3 with I_O = 4/3 m R²).
    w, h = 0.41, 1.128
    r = 0.5 * math.hypot(w, h)
    assert cf.half_diagonal(w, h) == pytest.approx(r, rel=ROUNDING_TOL)
    assert cf.frequency_parameter(w, h) ** 2 == pytest.approx(3 * 9.81 / (4 * r), rel=ROUNDING_TOL)
    # m g R / I_O with I_O = I_G + m R², I_G = m (w² + h²)/12 (Qi & Zhu 2025, Eq. 2 and §3)
    i_o = (w * w + h * h) / 12 + r * r
    assert cf.frequency_parameter(w, h) ** 2 == pytest.approx(9.81 * r / i_o, rel=ROUNDING_TOL)


def test_single_pier_numbers_of_004():
    # Itiola & El Shamy 2024, §5.2: 1.6 m × 9.6 m pier, α = 9.46°, p = 1.23 rad/s, g tan α = 0.167 g.
    alpha = cf.slenderness(1.6, 9.6)
    assert math.degrees(alpha) == pytest.approx(9.46, abs=PAPER_PRINT_TOL)
    assert cf.frequency_parameter(1.6, 9.6) == pytest.approx(1.23, abs=PAPER_PRINT_TOL)
    assert cf.uplift_threshold(alpha) / 9.81 == pytest.approx(1.6 / 9.6, rel=ROUNDING_TOL)


def test_housner_restitution():
    # e = 1 − 1.5 sin²α (Qi & Zhu 2025, Eq. 24): 1 for a needle, 0 at sin²α = 2/3 (h/b = 1/√2, Qi & Zhu 2025, Eq. 17).
    assert cf.housner_restitution(0.0) == 1.0
    assert cf.housner_restitution(math.asin(math.sqrt(2 / 3))) == pytest.approx(0.0, abs=ROUNDING_TOL)
    assert cf.housner_restitution(math.radians(20)) == pytest.approx(1 - 1.5 * math.sin(math.radians(20)) ** 2)


def test_linear_free_rocking_reaches_zero_at_quarter_period():
    alpha, p = 0.25, 2.0
    for theta0 in (0.05 * alpha, 0.5 * alpha, 0.95 * alpha):
        period = cf.free_rocking_period(theta0, alpha, p)
        assert period == pytest.approx(4 / p * math.acosh(1 / (1 - theta0 / alpha)), rel=ROUNDING_TOL)
        assert cf.linear_free_rocking_theta(period / 4, theta0, alpha, p) == pytest.approx(0.0, abs=ROUNDING_TOL)
        assert cf.linear_free_rocking_theta(0.0, -theta0, alpha, p) == pytest.approx(-theta0, rel=ROUNDING_TOL)


def test_nonlinear_period_tends_to_linear_for_slender_blocks():
    # For α → 0 the nonlinear equation becomes the linearised one; at α = 1e-3 rad the terms dropped
    # are O(α²) = 1e-6 relative.
    alpha, p = 1e-3, 3.0
    for frac in (0.1, 0.5, 0.9):
        lin = cf.free_rocking_period(frac * alpha, alpha, p, linear=True)
        non = cf.free_rocking_period(frac * alpha, alpha, p, linear=False)
        assert non == pytest.approx(lin, rel=1e-5)


def test_nonlinear_period_by_direct_integration():
    # Independent check: integrate θ̈ = −p² sin(α − θ) from rest at θ0 until θ = 0 (quarter period).
    from scipy.integrate import solve_ivp

    alpha, p, theta0 = math.radians(20), 3.5, math.radians(12)

    def hit(t, y):
        return y[0]

    hit.terminal = True
    sol = solve_ivp(lambda t, y: (y[1], -p * p * math.sin(alpha - y[0])), (0, 5), (theta0, 0.0),
                    events=hit, rtol=1e-12, atol=1e-14, method="DOP853")  # fmt: skip
    quarter = sol.t_events[0][0]
    assert cf.free_rocking_period(theta0, alpha, p, linear=False) == pytest.approx(4 * quarter, rel=QUADRATURE_TOL)


def test_amplitude_after_impacts_linear_and_nonlinear():
    alpha, e = math.radians(15), 0.9
    theta0 = 0.6 * alpha
    n = np.arange(6)
    lin = cf.amplitude_after_impacts(theta0, alpha, e, n)
    non = cf.amplitude_after_impacts(theta0, alpha, e, n, linear=False)
    assert lin[0] == pytest.approx(theta0) and non[0] == pytest.approx(theta0)
    assert np.all(np.diff(lin) < 0) and np.all(np.diff(non) < 0)
    # linearised energy: θ̇² at θ = 0 is p²[α² − (α − θ_n)²], scaled by e² per impact (Housner 1963)
    energy = alpha**2 - (alpha - lin) ** 2
    np.testing.assert_allclose(energy[1:] / energy[:-1], e * e, rtol=ROUNDING_TOL)
    # nonlinear: cos(α − θ_n) − cos α scales by e² per impact
    energy = np.cos(alpha - non) - math.cos(alpha)
    np.testing.assert_allclose(energy[1:] / energy[:-1], e * e, rtol=1e-9)


def test_piecewise_linear_solution_is_continuous_and_decays():
    alpha, p, e = 0.2, 3.0, 0.85
    t = np.linspace(0, 3, 30001)
    th = cf.linear_free_rocking(t, 0.5 * alpha, alpha, p, e)
    times = cf.linear_free_rocking_impact_times(0.5 * alpha, alpha, p, e, 4)
    assert np.max(np.abs(np.diff(th))) < 1e-3  # no jumps in θ (only θ̇ jumps at impacts)
    for k, ti in enumerate(times):
        assert np.interp(ti, t, th) == pytest.approx(0.0, abs=2e-4)
        seg = th[(t > ti) & (t < (times[k + 1] if k + 1 < len(times) else ti + 0.01))]
        assert np.all(np.sign(seg) == (-1) ** (k + 1))


@pytest.mark.parametrize(
    ("func", "args", "name"),
    [
        (cf.half_diagonal, (-1.0, 1.0), "width"),
        (cf.slenderness, (1.0, 0.0), "height"),
        (cf.free_rocking_period, (0.3, 0.2, 1.0), "theta0"),
        (cf.amplitude_after_impacts, (0.1, 0.2, 1.5, 1), "restitution"),
        (cf.frequency_parameter, (1.0, float("nan")), "height"),
    ],
)
def test_bad_input_names_the_parameter(func, args, name):
    with pytest.raises(ValueError, match=name):
        func(*args)
