"""Impacts, energy, overturning, chatter and sliding of the deformable rocking body (the deformable rocking body paper,
docs/references.md).

IMPULSE_TOL: the energy lost in an impact is computed twice, from the velocities (T⁻ − T⁺) and from
the impulse (Kelvin: −½ P·v_P⁻, the paper, Eq. 10); both are closed-form algebra on the same state, so they
agree to rounding, ~1e-14 relative. ENERGY_TOL: between impacts, undamped and unforced, the energy
is a first integral; DOP853 at rtol 1e-10 over ~10³ steps keeps it to ~1e-9 relative.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from validation.deformable import (
    DeformableBody,
    impact,
    overturning_angle,
    reaction_force,
    rocking_accelerations,
    shear_block,
    simulate_rocking,
    static_deflection,
)

IMPULSE_TOL = 1e-10
ENERGY_TOL = 1e-8

WIDTH, HEIGHT, MASS = 0.25, 1.0, 500.0
ALPHA = math.atan(WIDTH / HEIGHT)


def _body(coupling: float, frequency: float, *, damping_ratio: float = 0.05) -> DeformableBody:
    sb = shear_block(WIDTH, HEIGHT, MASS, frequency, damping_ratio=damping_ratio)
    return DeformableBody(
        mass=MASS, cg_height=HEIGHT / 2, b1=WIDTH / 2, b2=WIDTH / 2, radius_of_gyration=sb.radius_of_gyration,
        modal_mass=sb.modal_mass, modal_stiffness=sb.modal_stiffness,
        participation=(coupling * sb.participation[0], 0.0), shear=coupling * sb.shear,
        damping_ratio=damping_ratio,
    )


@pytest.mark.parametrize("coupling", [0.0, 0.3, 1.0])
def test_energy_lost_per_impact_matches_the_impulse_formula(coupling):
    body = _body(coupling, 20.0)
    rng = np.random.default_rng(5)
    for _ in range(20):  # arbitrary pre-impact states, both directions
        pivot = int(rng.choice([1, -1]))
        w = -pivot * rng.uniform(0.01, 1.0)
        q, qd = rng.normal(0, 1e-3), rng.normal(0, 0.1)
        out = impact(body, pivot, w, q, qd)
        assert out.energy_loss > 0.0
        assert out.energy_loss == pytest.approx(out.energy_loss_impulse, rel=IMPULSE_TOL)
        assert out.impulse[1] > 0.0  # the support pushes
    res = simulate_rocking(body, 1.5, theta0=0.5 * ALPHA)
    assert res.impacts
    for rec in res.impacts:
        assert rec.outcome.energy_loss == pytest.approx(rec.outcome.energy_loss_impulse, rel=IMPULSE_TOL)


def test_energy_is_conserved_between_impacts_and_drops_by_the_recorded_loss():
    body = _body(0.3, 20.0, damping_ratio=0.0)
    res = simulate_rocking(body, 2.0, theta0=0.5 * ALPHA)
    energy = res.energy()
    scale = MASS * 9.81 * HEIGHT / 2 * (1 - math.cos(0.5 * ALPHA))  # energy above rest [J]
    # Each impact time appears twice (end of one phase, start of the next): split the history there.
    cuts = [0] + [int(np.searchsorted(res.t, r.t, side="left")) + 1 for r in res.impacts] + [len(res.t)]
    assert len(res.impacts) == 4
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        assert np.ptp(energy[a:b]) < ENERGY_TOL * energy[a]
    for k, rec in zip(cuts[1:-1], res.impacts, strict=True):
        assert energy[k - 1] - energy[k] == pytest.approx(rec.outcome.energy_loss, abs=ENERGY_TOL * energy[k])
        assert rec.outcome.energy_loss > 0.01 * scale


def test_rigid_impact_restitution_energy_and_impulse_ratio():
    # Uncoupled mode: Housner's impact. θ̇⁺ = e θ̇⁻, e = 1 − 1.5 sin²α (for the uniform rectangle);
    # energy lost ½ J θ̇⁻² (1 − e²); impulse P = M Δv_c gives |P_x|/P_y = (h/b)(1 − e)/(1 + e).
    body = _body(0.0, 50.0)
    e = 1 - 1.5 * math.sin(ALPHA) ** 2
    out = impact(body, -1, 0.4, 0.0, 0.0)  # rocking on point 2, striking with point 1
    assert out.pivot_after == 1
    assert out.theta_dot == pytest.approx(e * 0.4, rel=1e-13)
    j = body.rotational_inertia(1, 0.0)
    assert out.energy_loss == pytest.approx(0.5 * j * 0.4**2 * (1 - e * e), rel=1e-13)
    assert out.friction_ratio == pytest.approx(HEIGHT / WIDTH * (1 - e) / (1 + e), rel=1e-13)


def test_required_friction_at_release_matches_the_rigid_closed_form():
    # Released at rest from θ0 on point 1: θ̈ = −M g c_x / J with c = Rot(θ0)(b, h) the c.g. from the
    # pivot, a_c = θ̈ k × c, F = M(a_c + g J) (the paper, Eq. 3); friction needed |F_x| / F_y.
    body = _body(0.0, 50.0)
    theta0 = 0.5 * ALPHA
    b, h = WIDTH / 2, HEIGHT / 2
    cx, cy = b * math.cos(theta0) - h * math.sin(theta0), b * math.sin(theta0) + h * math.cos(theta0)
    th_dd = -MASS * 9.81 * cx / body.rotational_inertia(1, 0.0)
    expected = abs(-th_dd * cy) / (th_dd * cx + 9.81)
    res = simulate_rocking(body, 0.1, theta0=theta0)
    assert res.friction_ratio[0] == pytest.approx(expected, rel=1e-10)
    th_dd2, _ = rocking_accelerations(body, 1, theta0, 0.0, 0.0, 0.0, (0.0, 9.81))
    fx, fy = reaction_force(body, 1, theta0, 0.0, th_dd2, 0.0, 0.0, 0.0, (0.0, 9.81))
    assert abs(fx) / fy == pytest.approx(expected, rel=1e-12)
    # Over free rocking the impacts need more than the release: (h/b)(1 − e)/(1 + e) = 0.185 here.
    long = simulate_rocking(body, 1.0, theta0=theta0)
    assert long.required_friction == pytest.approx(max(r.outcome.friction_ratio for r in long.impacts))


def test_overturning_follows_the_static_instability():
    body = _body(0.0, 50.0)
    assert overturning_angle(body, 1) == pytest.approx(ALPHA, rel=1e-14)  # the paper, Eq. 5, no deformation
    assert overturning_angle(body, -1) == pytest.approx(-ALPHA, rel=1e-14)
    # From θ = 0 a rigid block overturns iff ½ J θ̇² > M g R (1 − cos α) (energy to bring c.g. over P).
    j = body.rotational_inertia(1, 0.0)
    w_crit = math.sqrt(2 * MASS * 9.81 * math.hypot(WIDTH / 2, HEIGHT / 2) * (1 - math.cos(ALPHA)) / j)
    below = simulate_rocking(body, 2.0, theta_dot0=0.99 * w_crit)
    above = simulate_rocking(body, 2.0, theta_dot0=1.01 * w_crit)
    assert not below.overturned and below.theta.max() < ALPHA
    assert above.overturned and above.theta[-1] == pytest.approx(ALPHA, rel=1e-8)
    # A flexible body: the static drift toward the pivot lowers the angle; check the paper, Eq. 5's residuals.
    soft = shear_block(WIDTH, HEIGHT, MASS, 2.0)
    th = overturning_angle(soft, 1)
    q = static_deflection(soft, th, 1)
    wx = soft.b1 + soft.participation[0] * q / MASS
    assert math.tan(th) == pytest.approx(wx / (HEIGHT / 2), rel=1e-12)
    assert th < ALPHA


def test_chatter_is_stopped_after_impacts_closer_than_a_mode_period():
    body = _body(0.0, 50.0)  # mode period 20 ms
    res = simulate_rocking(body, 8.0, theta0=0.5 * ALPHA)
    last = res.impacts[-1]
    assert last.chatter and not any(r.chatter for r in res.impacts[:-1])
    intervals = np.diff(res.impact_times)
    assert intervals[-1] < 2 * math.pi / body.modal_frequency <= intervals[-2]
    after = res.t > last.t
    assert np.all(res.pivot[after] == 0) and np.all(res.theta[after] == 0.0)
    # Free rocking of Housner's block: impact intervals shrink by about e per impact.
    e = 1 - 1.5 * math.sin(ALPHA) ** 2
    assert intervals[-1] / intervals[-2] == pytest.approx(e, rel=0.02)


def test_shear_block_integrals_and_dimensionless_parameters():
    # Linear shear mode φ = (Y/H) i on a uniform block: Φ = M/2, m_q = M/3, S = −M h/6 (closed forms
    # of the integrals in shear_block's docstring); the paper's dimensionless set follows with q̃ = q/h.
    b = shear_block(WIDTH, HEIGHT, MASS, 10.0)
    d = b.dimensionless()
    assert d["alpha1"] == d["alpha2"] == pytest.approx(WIDTH / HEIGHT)
    assert d["mu"] == pytest.approx(1 / 3) and d["gamma_x"] == pytest.approx(0.5)
    assert d["shear"] == pytest.approx(-1 / 6) and d["gamma_y"] == 0.0 and d["dilation"] == 0.0
    assert d["rho2"] == pytest.approx(((WIDTH / 2) ** 2 + (HEIGHT / 2) ** 2) / 3 / (HEIGHT / 2) ** 2)
    assert b.modal_frequency == pytest.approx(2 * math.pi * 10.0)
    # Coupling about a tipping point: B = ∫k·(s × φ) dm = −∫Y²/H dm = −M H/3.
    assert b.coupling(1) == pytest.approx(-MASS * HEIGHT / 3) and b.coupling(-1) == b.coupling(1)
    # Rigid frequency parameter of a rectangle: p² = 3g/(4R).
    assert b.rigid_frequency() == pytest.approx(math.sqrt(3 * 9.81 / (4 * math.hypot(WIDTH / 2, HEIGHT / 2))))


def test_bad_input_raises_value_error_naming_the_parameter():
    with pytest.raises(ValueError, match="modal_stiffness"):
        DeformableBody(mass=1.0, cg_height=1.0, b1=0.1, b2=0.1, radius_of_gyration=0.3, modal_mass=0.3,
                       modal_stiffness=-1.0)
    with pytest.raises(ValueError, match="positive definite"):
        DeformableBody(mass=1.0, cg_height=1.0, b1=0.1, b2=0.1, radius_of_gyration=0.3, modal_mass=0.01,
                       modal_stiffness=1.0, participation=(1.0, 0.0))
    with pytest.raises(ValueError, match="theta0"):
        simulate_rocking(_body(0.0, 50.0), 1.0, theta0=1.2 * ALPHA)
    with pytest.raises(ValueError, match="t_end"):
        simulate_rocking(_body(0.0, 50.0), 0.0)
    with pytest.raises(ValueError, match="pivot_before"):
        impact(_body(0.0, 50.0), 0, -1.0, 0.0, 0.0)
