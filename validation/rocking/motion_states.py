"""Motion states after an impact: the impulse and contact conditions of Qi & Zhu 2025, §2 (Eq. 1–21).

Block of mass m, full width 2b, full height 2h (Qi & Zhu 2025, Fig. 1), generalised coordinates q = [y_h, y_v, θ]
of the centre of mass, I_G = m R²/3 (Qi & Zhu 2025, Eq. 2). The block has been rotating about corner 1
(x = −b) and strikes the base with corner 2 (x = +b) at normal speed v = |ġ_N2⁻| = 2b|θ̇⁻| (Qi & Zhu 2025, Eq. 13).
Impulses are positive when they push the block up (normal) or towards +x (tangential); the friction
is assumed to prevent slip during the impact (ġ_T = 0, Qi & Zhu 2025, Eq. 7).

After the impact (Qi & Zhu 2025, §2.1–2.2, Fig. 2) corner 1 either stays down (h/b <= 1/√2, Qi & Zhu 2025, Eq. 17) — the
block comes to rest (ε_N = 0) or bounces on corner 1 (ε_N > 0) — or lifts (h/b >= 1/√2, Qi & Zhu 2025, Eq. 21)
— the block rocks about corner 2 (ε_N = 0) or detaches (ε_N > 0). Qi & Zhu 2025 prints the bound as "1 2";
only 1/√2 makes Λ_N1 of Eq. 15 change sign (sin²α = 2/3), which is also where Housner's
e = 1 − 1.5 sin²α reaches 0.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from validation.rocking._checks import in_range, positive

CRITICAL_ASPECT = 1.0 / math.sqrt(2.0)
"""h/b separating "corner 1 stays down" from "corner 1 lifts" (Qi & Zhu 2025, Eq. 17 and 21)."""


class ImpactOutcome(enum.Enum):
    """Motion state right after the impact on corner 2 (Qi & Zhu 2025, §2, Fig. 2)."""

    REST = "rest"
    """Corner 1 stays down, ε_N = 0: the block stops (Qi & Zhu 2025, §2.1 case 1)."""
    BOUNCE = "bounce"
    """Corner 1 stays down, ε_N > 0: corner 2 rebounds, the block rocks on about corner 1 (§2.1 case 2)."""
    ROCK = "rock"
    """Corner 1 lifts, ε_N = 0: the block rocks about corner 2 (§2.2 case 1, Housner's assumption)."""
    DETACH = "detach"
    """Corner 1 lifts, ε_N > 0: both corners leave the base (§2.2 case 2)."""


@dataclass(frozen=True)
class ImpactImpulses:
    """Impulses [N s] of one impact and the normal contact velocities [m/s] just after it.

    normal: (Λ_N1, Λ_N2); tangential: Λ_T at the corner that keeps contact; gap_rate_after:
    (ġ_N1⁺, ġ_N2⁺); omega_ratio: θ̇⁺/θ̇⁻ [-] of the rotation; outcome: the Qi & Zhu 2025, §2 state.
    """

    normal: tuple[float, float]
    tangential: float
    gap_rate_after: tuple[float, float]
    omega_ratio: float
    outcome: ImpactOutcome


def _geometry(width: float, height: float) -> tuple[float, float, float]:
    b, h = 0.5 * positive("width", width), 0.5 * positive("height", height)
    return b, h, math.atan2(b, h)


def impact_matrices(mass: float, width: float, height: float) -> dict[str, np.ndarray]:
    """M, W_N, W_T (Qi & Zhu 2025, Eq. 2) and the Delassus blocks G_NN, G_NT, G_TN, G_TT (Qi & Zhu 2025, Eq. 6).

    mass [kg], width = 2b and height = 2h [m]. W_N columns: corners 1 (x = −b) and 2 (x = +b);
    W_T: tangential direction at the bottom face (lever arm h).
    """
    m = positive("mass", mass)
    b, h, _ = _geometry(width, height)
    i_g = m * (b * b + h * h) / 3.0  # Qi & Zhu 2025, Eq. 2: I_G = m R²/3
    big_m = np.diag([m, m, i_g])
    w_n = np.array([[0.0, 0.0], [1.0, 1.0], [-b, b]])
    w_t = np.array([[1.0], [0.0], [h]])
    m_inv = np.linalg.inv(big_m)
    return {
        "M": big_m, "W_N": w_n, "W_T": w_t,
        "G_NN": w_n.T @ m_inv @ w_n, "G_NT": w_n.T @ m_inv @ w_t,
        "G_TN": w_t.T @ m_inv @ w_n, "G_TT": w_t.T @ m_inv @ w_t,
    }  # fmt: skip


def pivot_stays_impulses(mass: float, width: float, height: float, impact_speed: float, restitution_n: float):
    """(Λ_N1, Λ_N2, Λ_T1) [N s] when corner 1 keeps contact (Qi & Zhu 2025, Eq. 15–16).

    Λ_N1 = m v (1 + ε)(1/2 − 1/(3 sin²α)), Λ_N2 = m v (1 + ε)/(3 sin²α), Λ_T1 = −½ m v (1 + ε) cot α,
    with v = impact_speed [m/s] > 0 and ε = restitution_n [-]. Consistent (Λ_N1 >= 0) iff h/b <= 1/√2.
    """
    m, v = positive("mass", mass), positive("impact_speed", impact_speed)
    eps = in_range("restitution_n", restitution_n, 0.0, 1.0)
    _, _, alpha = _geometry(width, height)
    s2 = math.sin(alpha) ** 2
    k = m * v * (1.0 + eps)
    return k * (0.5 - 1.0 / (3.0 * s2)), k / (3.0 * s2), -0.5 * k / math.tan(alpha)


def pivot_lifts_impulses(mass: float, width: float, height: float, impact_speed: float, restitution_n: float):
    """(Λ_N2, Λ_T2, ġ_N1⁺) when corner 1 lifts off (Qi & Zhu 2025, Eq. 19–20); impulses [N s], ġ_N1⁺ [m/s].

    Λ_N2 = m v (1 + ε)(1 − ¾ sin²α), Λ_T2 = −⅜ m v (1 + ε) sin 2α, ġ_N1⁺ = v (1 + ε)(1 − 1.5 sin²α).
    Consistent (ġ_N1⁺ >= 0) iff h/b >= 1/√2. With ε = 0, ġ_N1⁺/v = θ̇⁺/θ̇⁻ = Housner's e (Qi & Zhu 2025, Eq. 24).
    """
    m, v = positive("mass", mass), positive("impact_speed", impact_speed)
    eps = in_range("restitution_n", restitution_n, 0.0, 1.0)
    _, _, alpha = _geometry(width, height)
    s2 = math.sin(alpha) ** 2
    k = m * v * (1.0 + eps)
    return k * (1.0 - 0.75 * s2), -0.375 * k * math.sin(2.0 * alpha), v * (1.0 + eps) * (1.0 - 1.5 * s2)


def impact_outcome(width: float, height: float, restitution_n: float) -> ImpactOutcome:
    """Motion state after the impact from h/b and ε_N (Qi & Zhu 2025, Eq. 17 and 21, Fig. 2)."""
    eps = in_range("restitution_n", restitution_n, 0.0, 1.0)
    b, h, _ = _geometry(width, height)
    if h / b <= CRITICAL_ASPECT:
        return ImpactOutcome.REST if eps == 0.0 else ImpactOutcome.BOUNCE
    return ImpactOutcome.ROCK if eps == 0.0 else ImpactOutcome.DETACH


def solve_impact(mass: float, width: float, height: float, impact_speed: float, restitution_n: float) -> ImpactImpulses:
    """Impact on corner 2 solved from the matrices of Qi & Zhu 2025, Eq. 2–9 under the complementarity of Eq. 12.

    Both contact sets are tried — corner 1 held (v_N1 = 0) and corner 1 free (Λ_N1 = 0) — and the one
    with Λ_N >= 0 and v_N >= 0 is returned; an independent check of the closed forms above.
    """
    m, v = positive("mass", mass), positive("impact_speed", impact_speed)
    eps = in_range("restitution_n", restitution_n, 0.0, 1.0)
    b, _, _ = _geometry(width, height)
    mats = impact_matrices(m, width, height)
    g_tt_inv = np.linalg.inv(mats["G_TT"])
    g_red = mats["G_NN"] - mats["G_NT"] @ g_tt_inv @ mats["G_TN"]  # Qi & Zhu 2025, Eq. 9
    gdot_minus = np.array([0.0, -v])  # corner 1 at rest on the base, corner 2 approaching (Eq. 13)
    rhs = (1.0 + eps) * gdot_minus  # (E + ε_N) ġ_N⁻
    # corner 1 held: v_N = 0 for both corners
    lam = np.linalg.solve(g_red, -rhs)
    if lam[0] >= -1e-12 * abs(lam[1]):
        v_n = np.zeros(2)
    else:  # corner 1 free: Λ_N1 = 0, v_N2 = 0
        lam = np.array([0.0, -rhs[1] / g_red[1, 1]])
        v_n = g_red @ lam + rhs
    lam_t = float((-g_tt_inv @ mats["G_TN"] @ lam)[0])  # Qi & Zhu 2025, Eq. 7
    gdot_plus = v_n - eps * gdot_minus  # Qi & Zhu 2025, Eq. 8: v_N = ġ_N⁺ + ε_N ġ_N⁻
    # rotation: ġ_N2 − ġ_N1 = 2 b θ̇ (Qi & Zhu 2025, Eq. 13 with W_N)
    omega_ratio = float((gdot_plus[1] - gdot_plus[0]) / (gdot_minus[1] - gdot_minus[0]))
    outcome = impact_outcome(width, height, eps)
    return ImpactImpulses(
        (float(lam[0]), float(lam[1])),
        lam_t,
        (float(gdot_plus[0]), float(gdot_plus[1])),
        omega_ratio,
        outcome,
    )


def impact_friction_demand(width: float, height: float) -> float:
    """Friction coefficient [-] needed at the corner that keeps contact so that it does not slip.

    Corner 1 held (h/b <= 1/√2): |Λ_T1|/Λ_N1 = ½ cot α / (½ − 1/(3 sin²α)) (Qi & Zhu 2025, Eq. 15–16);
    corner 2 pivot (h/b >= 1/√2): |Λ_T2|/Λ_N2 = 3 sin α cos α / (1 + 3 cos²α) (Qi & Zhu 2025, Eq. 19–20).
    Independent of ε_N and of the impact speed.
    """
    b, h, alpha = _geometry(width, height)
    s, c = math.sin(alpha), math.cos(alpha)
    if h / b <= CRITICAL_ASPECT:
        den = 0.5 - 1.0 / (3.0 * s * s)
        return math.inf if den <= 0.0 else 0.5 * c / s / den
    return 3.0 * s * c / (1.0 + 3.0 * c * c)
