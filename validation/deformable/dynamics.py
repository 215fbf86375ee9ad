"""Equations of motion of the deformable rocking body (the paper, Eqs. 1–5), derived by Lagrange.

the paper's printed equations did not survive in our copy of the seed; they are re-derived here from the paper's
kinetic and potential energies, in SI units (see :mod:`.body`). With the tipping point as origin,
s = r_c + p0 + φq the position of a material point in body axes and Rot(θ) the tilt:

    T = ½ J(q) θ̇² + B θ̇ q̇ + ½ m_q q̇²                     (the paper kinetic energy, one mode)
    V = M g_e·Rot(θ) w + ½ k_q q²,   w = r_c + Φ q / M     (gravity + strain energy, the paper)

where g_e = (ẍ_g, g + ÿ_g) adds the base acceleration as a uniform inertial field (the equations
are written in the frame of the moving support). Lagrange's equations give, with J' = dJ/dq,

    J θ̈ + B q̈ = −V_θ − J' q̇ θ̇                                         (the paper, Eq. 2, rocking)
    B θ̈ + m_q q̈ = −V_q − k_q q − c_q q̇ + ½ J' θ̇²                       (the paper, Eq. 1)
    V_θ = M g_e·Rot(θ)(k × w),  V_q = g_e·Rot(θ) Φ.

With both tipping points down (θ ≡ 0) only the second equation remains, with θ̇ = θ̈ = 0, and the
base must supply the moment Q = B q̈ + V_θ about tipping point 1 or 2. Contact lasts while the
reaction stays inside the base: Q ≥ 0 about point 1 and Q ≤ 0 about point 2 (the paper, Eq. 4's α within
[−α1, α2]); uplift starts when one of these fails (the paper, section "Uplift").
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .body import DeformableBody

__all__ = [
    "GroundAcceleration",
    "effective_gravity",
    "rocking_accelerations",
    "contact_acceleration",
    "uplift_margin",
    "reaction_force",
    "kinetic_energy",
    "potential_energy",
    "overturning_angle",
]

GroundAcceleration = Callable[[float], tuple[float, float]]
"""t [s] ↦ (ẍ_g, ÿ_g) [m/s²]: horizontal and vertical acceleration of the support."""


def effective_gravity(
    body: DeformableBody, t: float, ground: GroundAcceleration | None
) -> tuple[float, float]:
    """g_e = (ẍ_g, g + ÿ_g) [m/s²] at time ``t`` [s]: gravity plus the support's inertial field."""
    if ground is None:
        return 0.0, body.gravity
    ax, ay = ground(t)
    return float(ax), body.gravity + float(ay)


def _rot(theta: float, vx: float, vy: float) -> tuple[float, float]:
    c, s = math.cos(theta), math.sin(theta)
    return c * vx - s * vy, s * vx + c * vy


def _potential_gradient(body: DeformableBody, pivot: int, theta: float, q: float,
                        g_e: tuple[float, float]) -> tuple[float, float]:
    """(V_θ [N·m], V_q [N]) of the gravity-plus-base field."""
    rx, ry = body.cg_from_pivot(pivot)
    px, py = body.participation
    wx, wy = rx + px * q / body.mass, ry + py * q / body.mass
    kx, ky = _rot(theta, -wy, wx)  # Rot(θ)(k × w)
    fx, fy = _rot(theta, px, py)  # Rot(θ) Φ
    return body.mass * (g_e[0] * kx + g_e[1] * ky), g_e[0] * fx + g_e[1] * fy


def rocking_accelerations(body: DeformableBody, pivot: int, theta: float, theta_dot: float, q: float,
                          q_dot: float, g_e: tuple[float, float]) -> tuple[float, float]:
    """(θ̈ [rad/s²], q̈ [m/s²]) while rocking on tipping point ``pivot`` (+1: point 1, −1: point 2).

    ``theta`` [rad], ``theta_dot`` [rad/s], ``q`` [m], ``q_dot`` [m/s], ``g_e`` from
    :func:`effective_gravity`. Solves the 2×2 mass matrix of the module doc (the paper, Eqs. 1–2).
    """
    j = body.rotational_inertia(pivot, q)
    jp = body.rotational_inertia_slope(pivot, q)
    b = body.coupling(pivot)
    v_theta, v_q = _potential_gradient(body, pivot, theta, q, g_e)
    r1 = -v_theta - jp * q_dot * theta_dot
    r2 = -v_q - body.modal_stiffness * q - body.modal_damping * q_dot + 0.5 * jp * theta_dot**2
    det = j * body.modal_mass - b * b
    return (body.modal_mass * r1 - b * r2) / det, (j * r2 - b * r1) / det


def contact_acceleration(body: DeformableBody, q: float, q_dot: float, g_e: tuple[float, float]) -> float:
    """q̈ [m/s²] with both tipping points down (θ ≡ 0): m_q q̈ = −V_q − k_q q − c_q q̇ (the paper, Eq. 1)."""
    px, py = body.participation
    v_q = g_e[0] * px + g_e[1] * py
    return (-v_q - body.modal_stiffness * q - body.modal_damping * q_dot) / body.modal_mass


def uplift_margin(
    body: DeformableBody, pivot: int, q: float, q_dot: float, g_e: tuple[float, float]
) -> float:
    """pivot·Q [N·m]: the base moment about tipping point ``pivot`` needed to keep θ = 0, signed so that
    it is positive while the reaction lies inside the base; uplift about ``pivot`` when it turns
    negative (the paper, section "Uplift", Eq. 4). Equivalently −pivot·θ̈·(J − B²/m_q) of the free rocking equations."""
    q_ddot = contact_acceleration(body, q, q_dot, g_e)
    v_theta, _ = _potential_gradient(body, pivot, 0.0, q, g_e)
    return pivot * (body.coupling(pivot) * q_ddot + v_theta)


def reaction_force(body: DeformableBody, pivot: int, theta: float, theta_dot: float, theta_ddot: float,
                   q: float, q_dot: float, q_ddot: float, g_e: tuple[float, float]) -> tuple[float, float]:
    """Support reaction on the body (F_x, F_y) [N] in inertial axes (the paper, Eq. 3).

    F = M a_c + M g_e with a_c the acceleration of the deformed c.g. relative to the support:
    a_c = Rot(θ)[θ̈ k×w − θ̇² w + 2θ̇ k×(Φ q̇/M) + Φ q̈/M], w = r_c + Φq/M. ``pivot`` = 0 means both
    points down (θ = θ̇ = θ̈ = 0; any pivot gives the same F then).
    """
    m = body.mass
    rx, ry = body.cg_from_pivot(pivot if pivot else 1)
    px, py = body.participation
    wx, wy = rx + px * q / m, ry + py * q / m
    ux, uy = px * q_dot / m, py * q_dot / m
    ax = -theta_ddot * wy - theta_dot**2 * wx - 2.0 * theta_dot * uy + px * q_ddot / m
    ay = theta_ddot * wx - theta_dot**2 * wy + 2.0 * theta_dot * ux + py * q_ddot / m
    ax, ay = _rot(theta, ax, ay)
    return m * (ax + g_e[0]), m * (ay + g_e[1])


def kinetic_energy(body: DeformableBody, pivot: int, theta_dot: float, q: float, q_dot: float) -> float:
    """T = ½Jθ̇² + Bθ̇q̇ + ½m_q q̇² [J] relative to the support (``pivot`` 0: θ̇ = 0)."""
    if pivot == 0:
        return 0.5 * body.modal_mass * q_dot**2
    return (0.5 * body.rotational_inertia(pivot, q) * theta_dot**2 + body.coupling(pivot) * theta_dot * q_dot
            + 0.5 * body.modal_mass * q_dot**2)


def potential_energy(body: DeformableBody, pivot: int, theta: float, q: float) -> float:
    """Gravity (c.g. height above the base times M g) plus strain ½k_q q² [J]."""
    rx, ry = body.cg_from_pivot(pivot if pivot else 1)
    px, py = body.participation
    _, height = _rot(theta, rx + px * q / body.mass, ry + py * q / body.mass)
    return body.mass * body.gravity * height + 0.5 * body.modal_stiffness * q * q


def overturning_angle(body: DeformableBody, pivot: int, *, iterations: int = 50) -> float:
    """Tilt [rad] of the unstable static equilibrium about ``pivot`` under gravity (the paper, Eq. 5).

    Solves k_q q = −V_q(θ) and tan θ = w_x / w_y (the deformed c.g. above the tipping point) by fixed
    point; for small static deformation θ ≈ ±atan(α) (the paper). Signed: > 0 for point 1, < 0 for point 2.
    """
    rx, ry = body.cg_from_pivot(pivot)
    px, py = body.participation
    theta, q = math.atan2(rx, ry), 0.0
    for _ in range(iterations):
        fx, fy = _rot(theta, px, py)
        q = -body.gravity * fy / body.modal_stiffness
        theta = math.atan2(rx + px * q / body.mass, ry + py * q / body.mass)
    return theta
