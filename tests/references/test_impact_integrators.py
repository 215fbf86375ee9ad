"""The three integrators of Xu et al. 2022, §2.3 on the clearance oscillator of Xu et al. 2022, §3.1.

Reference: DOP853 at rtol 1e-12 with events at the walls (validation.impact.reference_solution).
Orders: Newmark-β (γ = 1/2, β = 1/4) and generalized-α are second order, precise integration with
the three-point Adams quadrature of Xu et al. 2022, Eq. 42 third order. The wall force is only C¹ at first touch
(δ^{3/2}), which adds scatter of ±0.5 to the order between two step sizes; we therefore fit the
slope of log(error) against log(Δt) over five halvings and allow ±0.3 around the stated order.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from scipy.integrate import quad

from validation.impact import (
    ClearanceOscillator,
    ImpactLaw,
    duhamel_matrices,
    expm_2n,
    generalized_alpha,
    generalized_alpha_parameters,
    newmark_newton,
    precise_integration,
    reference_solution,
)

METHODS = {"newmark": newmark_newton, "generalized_alpha": generalized_alpha, "precise": precise_integration}
STATED_ORDER = {"newmark": 2.0, "generalized_alpha": 2.0, "precise": 3.0}
ORDER_TOL = 0.3
"""Allowed deviation of the fitted order (see module doc)."""

V0 = 8.0  # Xu et al. 2022, §3.1 initial speed [m/s]


def _error(res, ref, osc):
    """Max displacement error / clearance + max velocity error / V0 [-]."""
    return np.max(np.abs(res.x - ref.x)) / osc.clearance + np.max(np.abs(res.v - ref.v)) / V0


@pytest.mark.parametrize("name", list(METHODS))
def test_converges_at_stated_order(name):
    osc = ClearanceOscillator()  # Lankarani–Nikravesh, c_e = 0.9 as Xu et al. 2022, §3.1
    t_end = 0.004  # two impacts: first at 0.6 ms, second at 2.5 ms
    dts = t_end / 400 * 0.5 ** np.arange(5)  # 10 µs … 0.625 µs; contact lasts ~450 µs
    errors = []
    for dt in dts:
        res = METHODS[name](osc, 0.0, V0, t_end, dt)
        ref = reference_solution(osc, 0.0, V0, res.t)
        errors.append(_error(res, ref, osc))
    order = np.polyfit(np.log(dts), np.log(errors), 1)[0]
    assert abs(order - STATED_ORDER[name]) < ORDER_TOL, (order, errors)


@pytest.fixture(scope="module")
def run_003():
    """Xu et al. 2022, §3.1 over its 0.02 s window, Δt = 2 µs, all three methods and the reference."""
    osc = ClearanceOscillator()
    runs = {name: f(osc, 0.0, V0, 0.02, 2e-6) for name, f in METHODS.items()}
    ref = reference_solution(osc, 0.0, V0, runs["newmark"].t)
    return osc, runs, ref


def test_three_integrators_agree_on_the_clearance_oscillator(run_003):
    osc, runs, ref = run_003
    # Measured at Δt = 2 µs: |x − x_ref| ≤ 1.4 µm, |v − v_ref| ≤ 7.3 mm/s (second-order methods;
    # precise integration 0.4 µm, 2.4 mm/s). Bounds: 3× that, i.e. 8e-4 d and 3e-3 V0.
    for res in runs.values():
        assert np.max(np.abs(res.x - ref.x)) < 8e-4 * osc.clearance
        assert np.max(np.abs(res.v - ref.v)) < 3e-3 * V0
    # Pairwise, which is what Xu et al. 2022, Figs. 6–7 show.
    names = list(runs)
    for i in range(3):
        for j in range(i + 1, 3):
            assert np.max(np.abs(runs[names[i]].x - runs[names[j]].x)) < 1.6e-3 * osc.clearance


def test_largest_displacement_is_about_6_mm(run_003):
    # Xu et al. 2022, §3.1: "the displacement reaches a maximum of about 6 mm" with the 5 mm clearance.
    _, runs, ref = run_003
    assert 5.9e-3 < ref.x.max() < 6.4e-3
    for res in runs.values():
        assert res.x.max() == pytest.approx(ref.x.max(), rel=1e-4)  # peak sampled on the same grid


def test_linear_free_vibration_is_exact_for_precise_integration():
    # No wall within reach: m ẍ + c ẋ + k x = 0. Precise integration propagates the linear part with
    # e^{Hη} itself, so only the two RK4 starter steps err, by ~(ωΔt)^5/120 ≈ 1e-12 of the amplitude.
    # Newmark (average acceleration) has the period error (ωΔt)²/12, i.e. a phase lag ω t (ωΔt)²/12.
    osc = ClearanceOscillator(clearance=10.0)
    m, c, k = osc.mass, osc.damping, osc.stiffness
    wn = np.sqrt(k / m)
    zeta = c / (2 * np.sqrt(k * m))
    wd = wn * np.sqrt(1 - zeta**2)
    t_end, dt = 0.05, 1e-4
    amplitude = V0 / wd
    res = precise_integration(osc, 0.0, V0, t_end, dt)
    x_exact = np.exp(-zeta * wn * res.t) * amplitude * np.sin(wd * res.t)
    assert np.max(np.abs(res.x - x_exact)) < 1e-11 * amplitude
    nm = newmark_newton(osc, 0.0, V0, t_end, dt)
    lag = wn * t_end * (wn * dt) ** 2 / 12
    assert np.max(np.abs(nm.x - x_exact)) == pytest.approx(amplitude * lag, rel=0.5)


def test_expm_2n_and_duhamel_matrices():
    h = np.array([[-1.0, 0.01], [100.0 - 1e6, -1.0]])  # H of the default oscillator, Xu et al. 2022, Eq. 37
    eta = 1e-4
    assert np.allclose(expm_2n(h * eta), scipy.linalg.expm(h * eta), rtol=0, atol=1e-13)
    phi, g0, g1, g2 = duhamel_matrices(h, eta)
    for j, g in enumerate((g0, g1, g2)):
        for r in range(2):
            for col in range(2):
                val = quad(lambda tau, r=r, col=col, j=j: scipy.linalg.expm(h * (eta - tau))[r, col] * tau**j,
                           0.0, eta, epsabs=0, epsrel=1e-12)[0]
                assert g[r, col] == pytest.approx(val, rel=1e-9, abs=1e-13 * abs(g).max())


def test_other_laws_run_and_hertz_conserves_energy_through_an_impact():
    # Hertz with no structural spring or damper: the mass leaves the wall at its impact speed.
    osc = ClearanceOscillator(law=ImpactLaw.HERTZ, stiffness=0.0, damping=0.0)
    for f in METHODS.values():
        res = f(osc, 0.0, V0, 0.002, 1e-6)  # one impact at the right wall, back inside by 1.7 ms
        assert res.v[-1] == pytest.approx(-V0, rel=1e-4)  # O(Δt²) energy error through the contact


def test_generalized_alpha_parameters_and_input_checks():
    assert generalized_alpha_parameters(1.0) == pytest.approx((0.5, 0.5, 0.25, 0.5))  # trapezoidal rule
    am, af, beta, gamma = generalized_alpha_parameters(0.8)
    assert gamma == pytest.approx(0.5 + af - am) and beta == pytest.approx(0.25 * (gamma + 0.5) ** 2)
    osc = ClearanceOscillator()
    with pytest.raises(ValueError, match="rho_inf"):
        generalized_alpha(osc, 0.0, V0, 1e-3, 1e-5, rho_inf=1.5)
    with pytest.raises(ValueError, match="gamma"):
        newmark_newton(osc, 0.0, V0, 1e-3, 1e-5, gamma=0.4)
    with pytest.raises(ValueError, match="dt"):
        precise_integration(osc, 0.0, V0, 1e-3, -1.0)
    with pytest.raises(ValueError, match="x0"):
        newmark_newton(osc, 0.01, V0, 1e-3, 1e-5)
    with pytest.raises(ValueError, match="c_e"):
        ClearanceOscillator(c_e=1.5)
