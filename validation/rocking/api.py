"""Public entry points: free_rocking and base_excited for a rectangular block (issue 3), body_free_rocking and
body_base_excited for any rigid body given as a RockingBlock (RockingBlock.from_body: m, R, α, I_O; issue 31)."""

from __future__ import annotations

from validation.rocking.block import RockingBlock
from validation.rocking.closed_form import STANDARD_GRAVITY
from validation.rocking.result import RockingResult
from validation.rocking.signals import AccelLike
from validation.rocking.solver import solve


def base_excited(
    width: float,
    height: float,
    accel: AccelLike,
    t_end: float,
    *,
    restitution: float | None = None,
    linear: bool = False,
    method: str = "time_transform",
    dt: float | None = None,
    accel_dt: float | None = None,
    theta0: float = 0.0,
    omega0: float = 0.0,
    g: float = STANDARD_GRAVITY,
    order: int = 4,
    overturn_angle: float | None = None,
    rest_omega: float | None = None,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    vertical: AccelLike = None,
) -> RockingResult:
    """Rocking of a rigid width × height [m] block on a base with horizontal acceleration `accel` (and vertical
    acceleration `vertical` [m/s², + up], given as `accel`; gravity as the block feels it is then g + ü_v).

    accel: a signal from validation.rocking.signals, a callable t [s] ↦ ü_g [m/s²], an array of
    samples [m/s²] every accel_dt [s], a constant [m/s²], or None. Over [0, t_end] [s], output every
    dt [s] (default accel_dt for samples, else 1e-3 s; also the step σ1 of the fixed-step methods).
    restitution: θ̇⁺/θ̇⁻ at impact, None for Housner's 1 − 1.5 sin²α (Qi & Zhu 2025, Eq. 24).
    linear: linearised equation (slender blocks). method: "time_transform" (Qi & Zhu 2025, §4, RK order `order`),
    "rk2", "rk3", "rk4" (impact at the step end, Qi & Zhu 2025, Table 2), "adaptive" (SciPy DOP853, rtol/atol).
    theta0 [rad], omega0 [rad/s]: initial state; g [m/s²]; overturn_angle [rad] (default π/2);
    rest_omega [rad/s]: post-impact speed below which the block is put to rest.
    Returns t, theta, omega, states, impact_times, uplift_times, overturned, overturn_time, state.
    """
    block = RockingBlock.rectangle(width, height, restitution=restitution, g=g)
    return solve(
        block, accel, t_end, linear=linear, method=method, dt=dt, accel_dt=accel_dt, theta0=theta0,
        omega0=omega0, order=order, overturn_angle=overturn_angle, rest_omega=rest_omega, rtol=rtol,
        atol=atol, vertical=vertical,
    )  # fmt: skip


def free_rocking(
    width: float,
    height: float,
    theta0: float,
    t_end: float,
    *,
    restitution: float | None = None,
    linear: bool = False,
    method: str = "time_transform",
    dt: float = 1e-3,
    g: float = STANDARD_GRAVITY,
    order: int = 4,
    rest_omega: float | None = None,
) -> RockingResult:
    """Free rocking of a width × height [m] block released from rest at θ0 [rad] (0 < |θ0| < π/2).

    Fixed base. Arguments as in base_excited; t_end [s], dt [s].
    """
    if float(theta0) == 0.0:
        raise ValueError("theta0 must be non-zero (a block released at θ = 0 stays at rest)")
    return base_excited(
        width, height, None, t_end, restitution=restitution, linear=linear, method=method, dt=dt,
        theta0=theta0, g=g, order=order, rest_omega=rest_omega,
    )  # fmt: skip


def body_base_excited(block: RockingBlock, accel: AccelLike, t_end: float, **options) -> RockingResult:
    """Rocking of any rigid body (`block`: e.g. RockingBlock.from_body(m, R, α, I_O)) on a base with
    horizontal acceleration `accel`; options as in :func:`base_excited`."""
    return solve(block, accel, t_end, **options)


def body_free_rocking(block: RockingBlock, theta0: float, t_end: float, **options) -> RockingResult:
    """Free rocking of any rigid body (`block`) released from rest at θ0 [rad]; options as in
    :func:`free_rocking`."""
    if float(theta0) == 0.0:
        raise ValueError("theta0 must be non-zero (a body released at θ = 0 stays at rest)")
    return solve(block, None, t_end, theta0=theta0, **options)
