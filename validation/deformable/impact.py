"""Impact of the deformable body on the support at θ = 0 (the paper, section "Impacts", Eqs. 6–10).

The body rocking on tipping point `old` returns to θ = 0 with θ̇⁻ and strikes with the other point,
`new` (for θ̇⁻ > 0 the impact is at point 1; the paper, Eq. 9 swaps the roles for θ̇⁻ < 0). The impulse acts
at `new` only. Take (x_P, y_P, θ, q) with P the material point `new` as generalized coordinates: the
impulse has no component along θ or q, because φ(P) = 0, so the generalized momenta

    p_θ = k·((M r_c + Φ q) × v_P) + J θ̇ + B q̇     (moment of momentum about P, the paper, Eq. 8)
    p_q = Φ·v_P + B θ̇ + m_q q̇                       (momentum of the mode, the paper, Eq. 7)

are conserved through the impact, while P stops: v_P⁺ = 0 (no rebound, as Housner's block). Before
the impact P moves with v_P⁻ = θ̇⁻ k × (P_new − P_old). If the resulting θ̇⁺ keeps rocking about `new`
(sign of θ̇⁻), the body lifts off `old`; otherwise both points stay down, θ̇⁺ = 0 and only p_q is
conserved. The impulse is the change of linear momentum L = M v_P + θ̇ k × (M r_c + Φq) + Φ q̇
(the paper, Eq. 6), its friction ratio |P_x|/P_y the friction coefficient needed not to slide (the paper,
section "Sliding").

Energy lost (the paper, Eq. 10): T⁻ − T⁺ computed from the velocities, and independently from the impulse
by Kelvin's theorem, ΔT = Σ_i P_i·(v_i⁻ + v_i⁺)/2 over the struck points, i.e. −½ P_new·v_P⁻.
"""

from __future__ import annotations

from dataclasses import dataclass

from .body import DeformableBody
from .dynamics import kinetic_energy

__all__ = ["ImpactOutcome", "impact"]


@dataclass(frozen=True)
class ImpactOutcome:
    """Velocities after an impact and what the impact cost."""

    pivot_after: int
    """+1 rocking on point 1, −1 on point 2, 0 both points down."""
    theta_dot: float
    """θ̇⁺ [rad/s]."""
    q_dot: float
    """q̇⁺ [m/s]."""
    impulse: tuple[float, float]
    """Total support impulse on the body (P_x, P_y) [N·s]."""
    energy_loss: float
    """T⁻ − T⁺ [J] from the velocities."""
    energy_loss_impulse: float
    """−½ P_new·v_P⁻ [J], the impulse formula (the paper, Eq. 10 via Kelvin's theorem)."""

    @property
    def friction_ratio(self) -> float:
        """|P_x| / P_y [-]: friction coefficient needed for the impulse not to slide (the paper, section "Sliding")."""
        return abs(self.impulse[0]) / self.impulse[1] if self.impulse[1] > 0.0 else float("inf")


def _linear_momentum(body: DeformableBody, pivot: int, v_p: tuple[float, float], theta_dot: float,
                     q: float, q_dot: float) -> tuple[float, float]:
    """L = M v_P + θ̇ k × (M r_c + Φ q) + Φ q̇ [kg·m/s] at θ = 0 (body axes = inertial axes)."""
    rx, ry = body.cg_from_pivot(pivot)
    px, py = body.participation
    ax, ay = body.mass * rx + px * q, body.mass * ry + py * q
    return (body.mass * v_p[0] - theta_dot * ay + px * q_dot,
            body.mass * v_p[1] + theta_dot * ax + py * q_dot)


def impact(
    body: DeformableBody, pivot_before: int, theta_dot: float, q: float, q_dot: float
) -> ImpactOutcome:
    """Apply the momentum conditions of the paper, Eqs. 6–8 at θ = 0.

    ``pivot_before`` ±1 the tipping point rocked on until now, ``theta_dot`` θ̇⁻ [rad/s] (sign
    −pivot_before), ``q`` [m], ``q_dot`` q̇⁻ [m/s].
    """
    if pivot_before not in (1, -1):
        raise ValueError(f"pivot_before must be +1 or -1, got {pivot_before!r}")
    if theta_dot * pivot_before > 0.0:
        raise ValueError(f"theta_dot must point back towards theta = 0 (sign {-pivot_before:+d}), "
                         f"got {theta_dot!r}")
    new = -pivot_before
    # Velocity of the striking point before impact: rotation about the old tipping point.
    v_p = (0.0, theta_dot * (body.pivot_position(new) - body.pivot_position(pivot_before)))
    rx, ry = body.cg_from_pivot(new)
    px, py = body.participation
    j, b, m_q = body.rotational_inertia(new, q), body.coupling(new), body.modal_mass
    ax, ay = body.mass * rx + px * q, body.mass * ry + py * q
    p_theta = ax * v_p[1] - ay * v_p[0] + j * theta_dot + b * q_dot  # the paper, Eq. 8, about the new point
    p_q = px * v_p[0] + py * v_p[1] + b * theta_dot + m_q * q_dot  # the paper, Eq. 7
    det = j * m_q - b * b
    w_plus = (m_q * p_theta - b * p_q) / det
    qd_plus = (j * p_q - b * p_theta) / det
    t_minus = kinetic_energy(body, pivot_before, theta_dot, q, q_dot)
    l_minus = _linear_momentum(body, new, v_p, theta_dot, q, q_dot)
    if w_plus * new > 0.0:  # keeps rocking, now on the new point; the old point lifts off
        l_plus = _linear_momentum(body, new, (0.0, 0.0), w_plus, q, qd_plus)
        impulse = (l_plus[0] - l_minus[0], l_plus[1] - l_minus[1])
        t_plus = kinetic_energy(body, new, w_plus, q, qd_plus)
        loss_impulse = -0.5 * (impulse[0] * v_p[0] + impulse[1] * v_p[1])
        return ImpactOutcome(new, w_plus, qd_plus, impulse, t_minus - t_plus, loss_impulse)
    # Both points stay down: θ̇⁺ = 0, the mode keeps its momentum (no q-impulse at either point).
    qd_plus = p_q / m_q
    l_plus = _linear_momentum(body, new, (0.0, 0.0), 0.0, q, qd_plus)
    impulse = (l_plus[0] - l_minus[0], l_plus[1] - l_minus[1])
    # Split the vertical impulse between the points by the moment about the new point, which only the
    # old point's impulse has: (x_old − x_new) P_old,y = p_θ⁺ − p_θ⁻ with p_θ⁺ = B q̇⁺.
    arm = body.pivot_position(pivot_before) - body.pivot_position(new)
    p_old_y = (b * qd_plus - p_theta) / arm
    loss_impulse = -0.5 * (impulse[1] - p_old_y) * v_p[1]
    t_plus = kinetic_energy(body, 0, 0.0, q, qd_plus)
    return ImpactOutcome(0, 0.0, qd_plus, impulse, t_minus - t_plus, loss_impulse)
