"""Verification of the 3D drop-shock reference (validation.drop_shock, the drop-shock method notes, docs/references.md).

Closed forms and conservation laws only. Tolerances are tied to the RKF45 per-step tolerance `tol`:
the controller keeps each step's scaled local error ≤ tol, and over the few hundred steps of these
runs the global error stays within a small multiple of tol (measured: 0.5–1.5·tol·L for the flat
drop), so the bounds below allow GLOBAL_FACTOR·tol.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.optimize import brentq

from validation.drop_shock import DropBox, integrate_cash_karp, simulate_drop, write_csv, write_json
from validation.drop_shock.export import COLUMNS
from validation.drop_shock.quaternion import quat_multiply, quat_to_matrix

GLOBAL_FACTOR = 10.0
"""Global error allowed per unit of per-step tol and reference scale (see module doc)."""


def _flat_drop_closed_form(box: DropBox):
    """Free fall to t_drop = √(2h/G), then the linear oscillator m ü + 4c u̇ + 4k u = mG for the
    penetration u of each corner, u(0) = 0, u̇(0) = √(2Gh), valid while k u + c u̇ ≥ 0 (the notes, §4)."""
    m, g, k, c, h = box.mass, box.gravity, box.stiffness, box.damping, box.drop_height
    t_drop, v_imp = math.sqrt(2 * h / g), math.sqrt(2 * g * h)
    wn = math.sqrt(4 * k / m)
    zeta = 4 * c / (2 * math.sqrt(4 * k * m))
    wd = wn * math.sqrt(1 - zeta**2)
    u_st = m * g / (4 * k)
    a_coef, b_coef = -u_st, (v_imp - zeta * wn * u_st) / wd

    def pen(t):
        s = np.asarray(t) - t_drop
        return u_st + np.exp(-zeta * wn * s) * (a_coef * np.cos(wd * s) + b_coef * np.sin(wd * s))

    def pen_rate(t):
        s = np.asarray(t) - t_drop
        e = np.exp(-zeta * wn * s)
        return e * ((b_coef * wd - zeta * wn * a_coef) * np.cos(wd * s)
                    - (a_coef * wd + zeta * wn * b_coef) * np.sin(wd * s))

    def corner_force(t):
        return k * pen(t) + c * pen_rate(t)

    # End of validity: the corner force first returns to zero (after that the damper would pull).
    t_half = t_drop + math.pi / wd
    t_sep = brentq(corner_force, t_drop + 0.5 * math.pi / wd, t_half + 0.5 * math.pi / wd)
    return t_drop, t_sep, pen, corner_force


@pytest.mark.parametrize("tol", [1e-6, 1e-8])
def test_flat_drop_matches_free_fall_then_oscillator_on_4k(tol):
    box = DropBox(damping=20.0)
    res = simulate_drop(box, tol=tol)
    t_drop, t_sep, pen, corner_force = _flat_drop_closed_form(box)
    z_bottom = res.states[:, 2] - 0.5 * box.length_z
    length = max(box.length_x, box.length_y, box.length_z, box.drop_height)  # error floor of the solver

    fall = res.t <= t_drop
    # Free fall is a quadratic in t, which RK4/5 integrate exactly: only rounding is left.
    assert np.max(np.abs(z_bottom[fall] - (box.drop_height - 0.5 * box.gravity * res.t[fall] ** 2))) < 1e-12

    contact = (res.t > t_drop) & (res.t < t_sep)
    assert contact.sum() >= 10
    err_pen = np.max(np.abs(-z_bottom[contact] - pen(res.t[contact])))
    assert err_pen < GLOBAL_FACTOR * tol * length
    f_ref = corner_force(res.t[contact])
    for j in range(4):  # flat drop: the four corners carry the same load
        err_f = np.max(np.abs(res.corner_loads[contact, j] - f_ref)) / np.max(f_ref)
        assert err_f < GLOBAL_FACTOR * tol * 100  # force ~ k·pen: relative error ≤ pen error / pen_max
    # a_G = |4F − mG|/(mG) (the notes, §10).
    a_ref = np.abs(4 * f_ref - box.weight) / box.weight
    assert np.max(np.abs(res.cg_accel_G[contact] - a_ref)) < GLOBAL_FACTOR * tol * 100 * np.max(a_ref)
    assert np.allclose(res.cg_accel_G[fall], 1.0, atol=1e-12)  # free fall reads 1 G


def test_free_flight_conserves_energy_and_angular_momentum_with_unit_quaternion():
    # High drop, c = 0, no contact within t_end, tumbling about a generic axis (I_xx ≠ I_yy ≠ I_zz).
    box = DropBox(damping=0.0, drop_height=100.0, theta_x=0.3, theta_y=-0.2)
    tol = 1e-10
    res = simulate_drop(box, tol=tol, t_end=1.0, velocity=np.array([0.3, -0.1, 0.5]),
                        angular_velocity=np.array([3.0, -5.0, 7.0]))
    assert not np.any(res.corner_loads)
    energy = res.energy()
    kinetic_scale = 0.5 * box.mass * 2 * box.gravity * 5.0  # ~ kinetic energy gained falling 5 m [J]
    # Energy error accumulates like the global error: GLOBAL_FACTOR·tol of the energy scale.
    assert np.max(np.abs(energy - energy[0])) < GLOBAL_FACTOR * tol * kinetic_scale * 10
    # Angular momentum about the CG, L = R I_body Rᵀ ω, is constant (no torque in flight).
    lw = []
    for y in res.states:
        rot = quat_to_matrix(y[6:10])
        lw.append(rot @ box.inertia_body @ rot.T @ y[10:13])
    lw = np.array(lw)
    assert np.max(np.linalg.norm(lw - lw[0], axis=1)) < GLOBAL_FACTOR * tol * np.linalg.norm(lw[0]) * 10
    # |q| = 1: stored states are normalised; before normalisation the drift is a local error ~ tol.
    assert np.max(np.abs(np.linalg.norm(res.states[:, 6:10], axis=1) - 1.0)) < 1e-14
    assert res.quaternion_drift < tol


def test_tilted_drop_with_undamped_springs_conserves_energy():
    box = DropBox(damping=0.0, theta_x=0.08, theta_y=0.05)
    tol = 1e-9
    res = simulate_drop(box, tol=tol)
    assert np.any(res.corner_loads > 0)
    energy = res.energy()
    scale = box.weight * box.drop_height  # potential energy released [J]
    assert np.max(np.abs(energy - energy[0])) < GLOBAL_FACTOR * tol * scale * 10
    assert np.max(np.abs(np.linalg.norm(res.states[:, 6:10], axis=1) - 1.0)) < 1e-14


def test_step_control_meets_the_tolerance():
    box = DropBox(theta_x=0.08, theta_y=0.05)
    t_out = np.linspace(0.0, 0.5, 51)
    ref = simulate_drop(box, tol=1e-12, t_out=t_out)
    length = max(box.length_x, box.length_y, box.length_z, box.drop_height)
    errors = []
    for tol in (1e-6, 1e-8):
        res = simulate_drop(box, tol=tol, t_out=t_out)
        assert res.stats.forced == 0
        assert np.all(res.step_error <= 1.0)  # every accepted step met err ≤ tol
        assert res.stats.rejected > 0  # the controller did act (contact kinks)
        err = np.max(np.abs(res.states[:, 0:3] - ref.states[:, 0:3])) / length
        assert err < GLOBAL_FACTOR * tol
        errors.append(err)
    assert errors[1] < errors[0] / 10  # tighter tol, smaller error
    assert np.allclose(ref.t, t_out)


def test_cash_karp_is_fifth_order_on_a_smooth_problem():
    # y' = −y with fixed steps (tol huge so nothing is rejected): global error ∝ h^5 (Cash–Karp 1990).
    errs = []
    for h in (0.1, 0.05):
        t, y, _, _ = integrate_cash_karp(lambda _t, y: -y, 0.0, np.array([1.0]), 1.0, tol=1e9,
                                         floor=np.ones(1), h_max=h, h_min=h, h0=h)
        errs.append(abs(y[-1, 0] - math.exp(-1.0)))
    order = math.log2(errs[0] / errs[1])
    assert 4.7 < order < 5.3  # asymptotic order 5, ±0.3 for the pre-asymptotic range


def test_modal_estimates_and_initial_state():
    box = DropBox(theta_x=0.1, theta_y=-0.05)
    m = box.modal_estimates()
    assert m.f_heave == pytest.approx(math.sqrt(4 * box.stiffness / box.mass) / (2 * math.pi))
    assert m.dt_max == pytest.approx(1.0 / m.f_max / 20.0)
    assert m.t_drop == pytest.approx(math.sqrt(2 * box.drop_height / box.gravity))
    y0 = box.initial_state()
    corners_z = y0[2] + (box.corners_body @ quat_to_matrix(y0[6:10]).T)[:, 2]
    assert corners_z.min() == pytest.approx(box.drop_height)  # lowest corner at h (the notes, §12)
    q = y0[6:10]
    assert np.allclose(quat_multiply(q, q * np.array([1, -1, -1, -1])), [1, 0, 0, 0])


def test_bad_input_raises_value_error_naming_the_parameter():
    with pytest.raises(ValueError, match="stiffness"):
        DropBox(stiffness=-1.0)
    with pytest.raises(ValueError, match="theta_x"):
        DropBox(theta_x=2.0)
    with pytest.raises(ValueError, match="tol"):
        simulate_drop(DropBox(), tol=0.0)


def test_exports_are_complete(tmp_path):
    res = simulate_drop(DropBox(theta_x=0.05), t_out=np.linspace(0, 0.4, 41), tol=1e-6)
    write_csv(res, tmp_path / "drop.csv")
    write_json(res, tmp_path / "drop.json")
    data = np.loadtxt(tmp_path / "drop.csv", delimiter=",", skiprows=1)
    header = (tmp_path / "drop.csv").read_text().splitlines()[0].split(",")
    assert tuple(header) == COLUMNS and data.shape == (41, 6)
    assert np.allclose(data[:, 2:], res.corner_loads) and np.allclose(data[:, 1], res.cg_accel_G)
    doc = json.loads((tmp_path / "drop.json").read_text())
    assert doc["columns"] == list(COLUMNS)
    assert doc["metadata"]["units"]["t"] == "s"
    assert doc["metadata"]["parameters"]["k_N_m"] == res.box.stiffness
    assert len(doc["data"]["corner3"]) == 41
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []  # no temp left over
