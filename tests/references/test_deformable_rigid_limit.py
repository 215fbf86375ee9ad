"""The deformable rocking body (docs/references.md) against the rigid block (Housner 1963) it must reduce to.

Rigid references: (1) `_rigid_free_rocking` below, a self-contained integration of Housner's equation
θ'' = −p² sin(α sgn θ − θ) (Housner 1963; Zhang & Makris 2001) with DOP853 at rtol 1e-12 and θ̇⁺ = e θ̇⁻ at θ = 0,
e = 1 − 1.5 sin²α, written before the analytical-rocking solver existed; (2) that solver,
`validation.rocking.free_rocking` (method "adaptive"), once it landed. Neither shares code with
validation.deformable.

How the deformable body reduces. Between impacts a stiff mode follows the rocking quasi-statically and
θ(t) departs from the rigid solution by O((p/ω_q)²). At an impact, the paper's momentum conditions do not
involve k_q, so the mode always takes a velocity jump. Splitting the motion after the impact into the
slow rocking mode and the fast modal one, the slow rotation rate is p_θ⁻/J, the conserved moment of
momentum about the new tipping point divided by the rigid inertia, i.e. Housner's θ̇⁺ exactly; the
fast part carries the rest and is damped away. So the stiff limit is Housner's block as long as the
fast part does not reverse θ̇ at lift-off, which holds for moderate modal coupling (shown here for a
mode with 30 % of the shear block's participation). With the full linear shear mode of
`shear_block` (B²/(J m_q) = 0.94) the jump reverses θ̇ and the paper's rule lands the body flat instead.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from validation.deformable import DeformableBody, impact, shear_block, simulate_rocking
from validation.rocking import free_rocking

WIDTH, HEIGHT, MASS = 0.25, 1.0, 500.0  # a Peña-like block (scenes/pena_block.py)
ALPHA = math.atan(WIDTH / HEIGHT)
THETA0 = 0.5 * ALPHA
DT_OUT = 1e-3


def _rigid_free_rocking(theta0: float, t_eval: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Housner's rigid block released from θ0 at rest: θ at ``t_eval`` and the impact times."""
    b, h = WIDTH / 2, HEIGHT / 2
    r = math.hypot(b, h)
    p = math.sqrt(3 * 9.81 / (4 * r))
    e = 1 - 1.5 * math.sin(ALPHA) ** 2
    theta = np.full(len(t_eval), np.nan)
    t, y, impacts = 0.0, [theta0, 0.0], []
    while t < t_eval[-1]:
        s = 1.0 if y[0] > 0 or (y[0] == 0 and y[1] > 0) else -1.0

        def back(_t, y, s=s):
            return s * y[0]

        back.terminal, back.direction = True, -1
        sol = solve_ivp(lambda _t, y, s=s: [y[1], -p * p * math.sin(ALPHA * s - y[0])], (t, t_eval[-1]), y,
                        method="DOP853", rtol=1e-12, atol=1e-14, events=back, dense_output=True)
        mask = (t_eval >= t) & (t_eval <= sol.t[-1])
        theta[mask] = sol.sol(t_eval[mask])[0]
        t = sol.t[-1]
        if sol.status == 1:
            impacts.append(t)
            y = [0.0, e * sol.y_events[0][0][1]]
    return theta, np.array(impacts)


def _body(coupling: float, frequency: float, *, damping_ratio: float = 0.05) -> DeformableBody:
    """The block with its shear mode's participation and shear scaled by ``coupling``."""
    sb = shear_block(WIDTH, HEIGHT, MASS, frequency, damping_ratio=damping_ratio)
    return DeformableBody(
        mass=MASS, cg_height=HEIGHT / 2, b1=WIDTH / 2, b2=WIDTH / 2, radius_of_gyration=sb.radius_of_gyration,
        modal_mass=sb.modal_mass, modal_stiffness=sb.modal_stiffness,
        participation=(coupling * sb.participation[0], 0.0), shear=coupling * sb.shear,
        damping_ratio=damping_ratio,
    )


@pytest.fixture(scope="module")
def rigid():
    t = np.arange(0.0, 2.5 + DT_OUT / 2, DT_OUT)
    theta, impacts = _rigid_free_rocking(THETA0, t)
    return t, theta, impacts


@pytest.fixture(scope="module")
def coupled_200():
    """30 % coupling, stiff (200 Hz) mode, 5 % modal damping, released from θ0, 2.5 s."""
    return simulate_rocking(_body(0.3, 200.0), 2.5, theta0=THETA0, dt_out=DT_OUT)


def _theta_error(res, rigid) -> float:
    t, theta, _ = rigid
    n = min(len(res.t), len(t))
    assert np.allclose(res.t[:n], t[:n])
    return float(np.max(np.abs(res.theta[:n] - theta[:n]))) / THETA0


def test_uncoupled_mode_gives_the_rigid_block_exactly(rigid):
    # Φ = S = 0: the mode decouples and the rocking equations are Housner's. Both solvers run DOP853
    # (rtol 1e-10 here, 1e-12 in the reference) and locate impacts by events: agreement ~1e-9 θ0.
    res = simulate_rocking(_body(0.0, 50.0), 2.5, theta0=THETA0, dt_out=DT_OUT)
    assert _theta_error(res, rigid) < 1e-7
    assert np.allclose(res.impact_times, rigid[2], rtol=0, atol=1e-8)
    e = 1 - 1.5 * math.sin(ALPHA) ** 2
    for rec in res.impacts:
        assert rec.outcome.theta_dot / rec.theta_dot_before == pytest.approx(e, rel=1e-12)


def test_stiff_mode_converges_to_the_rigid_block_like_omega_squared(rigid, coupled_200):
    # 30 % coupling, 5 % modal damping, 2.5 s = five impacts. Measured: max |θ − θ_rigid| = 1.3e-3 θ0
    # at 50 Hz and 8.3e-5 θ0 at 200 Hz: the O((p/ω_q)²) law predicts a factor 16.
    err_50 = _theta_error(simulate_rocking(_body(0.3, 50.0), 2.5, theta0=THETA0, dt_out=DT_OUT), rigid)
    res_200 = coupled_200
    err_200 = _theta_error(res_200, rigid)
    assert err_200 < 2e-4
    assert 10 < err_50 / err_200 < 25
    assert len(res_200.impacts) == len(rigid[2]) == 5
    assert np.allclose(res_200.impact_times, rigid[2], rtol=0, atol=1e-4)


def test_matches_the_analytical_rocking_solver(rigid, coupled_200):
    # validation.rocking's adaptive (DOP853) rigid block, output every 1 ms. Uncoupled mode: the same
    # equations, so agreement to the solvers' tolerances; 30 % coupling at 200 Hz: the O((p/ω_q)²)
    # difference measured against our own reference above (< 2e-4 θ0).
    ref = free_rocking(WIDTH, HEIGHT, THETA0, 2.5, method="adaptive", dt=DT_OUT)
    assert np.allclose(ref.t, rigid[0]) and np.max(np.abs(ref.theta - rigid[1])) < 1e-7 * THETA0
    uncoupled = simulate_rocking(_body(0.0, 50.0), 2.5, theta0=THETA0, dt_out=DT_OUT)
    for res, tol in ((uncoupled, 1e-7), (coupled_200, 2e-4)):
        n = min(len(res.t), len(ref.t))
        assert np.max(np.abs(res.theta[:n] - ref.theta[:n])) < tol * THETA0
        assert np.allclose(res.impact_times[:5], ref.impact_times[:5], rtol=0, atol=1e-4)


def test_first_flight_of_full_shear_mode_is_rigid_and_impact_lands_flat(rigid):
    # Before the first impact the stiff shear block rocks as the rigid one, to O((p/ω_q)²).
    t_rigid, theta_rigid, impacts = rigid
    errors = []
    for f in (50.0, 200.0):
        res = simulate_rocking(_body(1.0, f), 0.36, theta0=THETA0, dt_out=DT_OUT)
        mask = t_rigid[: len(res.t)] < impacts[0]
        n = len(res.t)
        errors.append(np.max(np.abs(res.theta[:n][mask] - theta_rigid[:n][mask])) / THETA0)
        assert res.impact_times[0] == pytest.approx(impacts[0], abs=5e-6)
    assert errors[1] < 2e-5 and 10 < errors[0] / errors[1] < 30  # measured 1.9e-4 → 9.4e-6
    # At the impact the paper's conditions give the mode the whole horizontal momentum: θ̇⁺ would reverse,
    # so both tipping points stay down; the slow rate p_θ⁻/J is still Housner's θ̇⁺.
    body = _body(1.0, 200.0)
    w = -1.0  # rocking on point 1 (θ > 0) and coming back; the impact is at point 2
    out = impact(body, 1, w, 0.0, 0.0)
    assert out.pivot_after == 0 and out.theta_dot == 0.0
    assert out.energy_loss == pytest.approx(out.energy_loss_impulse, rel=1e-12)
    j = body.rotational_inertia(-1, 0.0)
    rx, _ = body.cg_from_pivot(-1)
    v_p = w * (body.pivot_position(-1) - body.pivot_position(1))  # vertical speed of point 2 before
    p_theta_minus = MASS * rx * v_p + j * w  # moment of momentum about point 2 (the paper, Eq. 8 with q = 0)
    assert p_theta_minus / j == pytest.approx(w * (1 - 1.5 * math.sin(ALPHA) ** 2), rel=1e-12)


def test_uplift_under_a_ramp_starts_at_g_tan_alpha_in_the_stiff_limit():
    # Support acceleration ẍ_g = r t: a rigid block lifts when ẍ_g = g tan α (Housner 1963). A
    # flexible body lifts earlier (the mode's quasi-static drift moves the c.g.); the shift is O(ω_q⁻²).
    rate = 2.0
    t_rigid = 9.81 * math.tan(ALPHA) / rate
    shifts = []
    for f in (20.0, 80.0):
        res = simulate_rocking(_body(1.0, f), 1.5, ground_acceleration=lambda t: (rate * t, 0.0))
        assert res.uplift_times and res.pivot[-1] == 1  # tips about point 1 (support pushed to +x)
        shifts.append(t_rigid - res.uplift_times[0])
    assert 0 < shifts[1] < 1e-4 * t_rigid  # measured 7e-5 s
    assert 12 < shifts[0] / shifts[1] < 20  # factor 16 for a 4× higher frequency


def test_resonant_mode_lifts_the_body_below_the_rigid_threshold():
    # the paper's motivation: harmonic support motion at 0.3 g tan α cannot lift a rigid block, but at the
    # mode's frequency the deformation builds up enough base moment to cause uplift and impacts.
    f = 5.0
    amp = 0.3 * 9.81 * math.tan(ALPHA)
    res = simulate_rocking(_body(1.0, f, damping_ratio=0.02), 1.5,
                           ground_acceleration=lambda t: (amp * math.sin(2 * math.pi * f * t), 0.0))
    assert res.uplift_times and res.uplift_times[0] < 0.5
    assert len(res.impacts) > 0 and not res.overturned
    stiff = simulate_rocking(_body(1.0, 200.0), 1.5,
                             ground_acceleration=lambda t: (amp * math.sin(2 * math.pi * f * t), 0.0))
    assert not stiff.uplift_times and np.all(stiff.theta == 0.0)
