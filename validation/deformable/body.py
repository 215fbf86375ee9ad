"""Parameters of a planar deformable body with one assumed mode on rocking supports (the deformable rocking body paper,
docs/references.md).

Geometry (the paper, section "Geometry"): the c.g. of the undeformed body is at height h above the base; the left
tipping point 1 is a distance b1 to its left, the right tipping point 2 a distance b2 to its right;
α1 = b1/h, α2 = b2/h. θ > 0 is a counter-clockwise tilt about point 1, θ < 0 a clockwise tilt about
point 2. A material point at p0 (from the c.g., body axes i, j) moves to p0 + φ(p0) q, with one
dimensionless vector mode shape φ that vanishes at both tipping points (the paper: "the same material
points regardless of the deformation"; pinned-base modes, the paper, section "Numerics") and a generalized
coordinate q [m].

The dynamics need only integrals of φ over the body (the paper, section "Kinetics", defined there in dimensionless
form; here in SI units):

    modal mass              m_q = ∫ φ·φ dm              [kg]     (the paper: deformation mass matrix)
    participation           Φ   = ∫ φ dm                 [kg]     (the paper: base excitation participation)
    shear coupling          S   = ∫ k·(p0 × φ) dm        [kg·m]   (the paper: modal shear parameter)
    dilation                D   = ∫ p0·φ dm              [kg·m]   (the paper: modal dilation parameter)
    modal stiffness         k_q = strain energy 2V_s/q²  [N/m]    (the paper: deformation stiffness)

plus the mass M, the radius of gyration ρ about the c.g. (J_cg = M ρ²) and a modal damping ratio
(the paper: "material damping" proportional to the mass and stiffness matrices). With one mode the
Coriolis term ∫ k·(φ × φ) dm of the paper vanishes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["DeformableBody", "shear_block"]

GRAVITY = 9.81
"""Default gravitational acceleration [m/s²]."""


@dataclass(frozen=True, kw_only=True)
class DeformableBody:
    """Planar body on two tipping points with one assumed mode (see the module doc for the integrals)."""

    mass: float
    """M [kg]."""
    cg_height: float
    """h: height of the undeformed c.g. above the base [m]."""
    b1: float
    """Distance from the c.g. projection to the left tipping point 1 [m]."""
    b2: float
    """Distance from the c.g. projection to the right tipping point 2 [m]."""
    radius_of_gyration: float
    """ρ about the c.g. of the undeformed body [m]."""
    modal_mass: float
    """m_q = ∫φ·φ dm [kg]."""
    modal_stiffness: float
    """k_q [N/m]; math.inf is not allowed (use a large value for a nearly rigid body)."""
    participation: tuple[float, float] = (0.0, 0.0)
    """Φ = ∫φ dm in body axes (i, j) [kg]."""
    shear: float = 0.0
    """S = ∫k·(p0 × φ) dm [kg·m]."""
    dilation: float = 0.0
    """D = ∫p0·φ dm [kg·m]."""
    damping_ratio: float = 0.0
    """Modal damping ratio ζ [-]: c_q = 2ζ√(k_q m_q)."""
    gravity: float = GRAVITY
    """g [m/s²]."""

    def __post_init__(self) -> None:
        for name in ("mass", "cg_height", "b1", "b2", "radius_of_gyration", "modal_mass", "modal_stiffness",
                     "gravity"):
            value = getattr(self, name)
            if not (value > 0.0 and math.isfinite(value)):
                raise ValueError(f"{name} must be finite and > 0, got {value!r}")
        if not (0.0 <= self.damping_ratio < 1.0):
            raise ValueError(f"damping_ratio must lie in [0, 1), got {self.damping_ratio!r}")
        if len(self.participation) != 2:
            raise ValueError(f"participation must be a pair (Phi_x, Phi_y) in kg, got {self.participation!r}")
        phi = (float(self.participation[0]), float(self.participation[1]))
        object.__setattr__(self, "participation", phi)
        # The mass matrix [[J, B], [B, m_q]] must be positive definite about both tipping points.
        for pivot in (1, -1):
            det = self.rotational_inertia(pivot, 0.0) * self.modal_mass - self.coupling(pivot) ** 2
            if not det > 0.0:
                raise ValueError(
                    f"participation/shear/modal_mass give a mass matrix that is not positive definite about "
                    f"tipping point {1 if pivot > 0 else 2} (det = {det!r}); check the mode integrals"
                )

    # Geometry per tipping point: pivot = +1 is point 1 (θ > 0), pivot = −1 is point 2 (θ < 0).

    def cg_from_pivot(self, pivot: int) -> tuple[float, float]:
        """r_c: tipping point → undeformed c.g., body axes [m] (the paper: r_c = −αh i + h j)."""
        return (self.b1, self.cg_height) if pivot > 0 else (-self.b2, self.cg_height)

    def pivot_position(self, pivot: int) -> float:
        """x of the tipping point relative to the c.g. projection, on the base [m]."""
        return -self.b1 if pivot > 0 else self.b2

    def rotational_inertia(self, pivot: int, q: float) -> float:
        """J(q) = ∫|s|² dm about the tipping point of the deformed body [kg·m²].

        s = r_c + p0 + φq, so J = M(|r_c|² + ρ²) + 2q(r_c·Φ + D) + m_q q².
        """
        rx, ry = self.cg_from_pivot(pivot)
        px, py = self.participation
        return (self.mass * (rx * rx + ry * ry + self.radius_of_gyration**2)
                + 2.0 * q * (rx * px + ry * py + self.dilation) + self.modal_mass * q * q)

    def rotational_inertia_slope(self, pivot: int, q: float) -> float:
        """dJ/dq = 2(r_c·Φ + D) + 2 m_q q [kg·m]."""
        rx, ry = self.cg_from_pivot(pivot)
        px, py = self.participation
        return 2.0 * (rx * px + ry * py + self.dilation) + 2.0 * self.modal_mass * q

    def coupling(self, pivot: int) -> float:
        """B = ∫k·(s × φ) dm = k·(r_c × Φ) + S [kg·m]: the rotation–mode inertia coupling."""
        rx, ry = self.cg_from_pivot(pivot)
        px, py = self.participation
        return rx * py - ry * px + self.shear

    @property
    def modal_damping(self) -> float:
        """c_q = 2ζ√(k_q m_q) [N·s/m]."""
        return 2.0 * self.damping_ratio * math.sqrt(self.modal_stiffness * self.modal_mass)

    @property
    def modal_frequency(self) -> float:
        """ω_q = √(k_q/m_q): the mode's circular frequency with the base held flat [rad/s]."""
        return math.sqrt(self.modal_stiffness / self.modal_mass)

    @property
    def slenderness(self) -> tuple[float, float]:
        """(α1, α2) = (b1/h, b2/h) [-], the paper's tipping parameters."""
        return self.b1 / self.cg_height, self.b2 / self.cg_height

    def dimensionless(self) -> dict[str, float]:
        """the paper's dimensionless parameters, with the paper's q̃ = q/h (so φ̃ = h φ) [all -].

        alpha1, alpha2 = b/h; rho2 = ρ²/h²; mu = ∫φ̃·φ̃ dm/(M h²) = m_q/M; kappa = k̃/(M g h) = k_q h/(M g);
        gamma_x, gamma_y = ∫φ̃ dm/(M h) = Φ/M; shear = S/(M h); dilation = D/(M h).
        """
        m, h = self.mass, self.cg_height
        return {
            "alpha1": self.b1 / h, "alpha2": self.b2 / h, "rho2": (self.radius_of_gyration / h) ** 2,
            "mu": self.modal_mass / m, "kappa": self.modal_stiffness * h / (m * self.gravity),
            "gamma_x": self.participation[0] / m, "gamma_y": self.participation[1] / m,
            "shear": self.shear / (m * h), "dilation": self.dilation / (m * h),
        }

    def rigid_frequency(self, pivot: int = 1) -> float:
        """p = √(M g R / J_pivot) [rad/s], R the pivot–c.g. distance: the rigid block's frequency
        parameter (3g/(4R) squared for a uniform rectangle)."""
        rx, ry = self.cg_from_pivot(pivot)
        return math.sqrt(self.mass * self.gravity * math.hypot(rx, ry) / self.rotational_inertia(pivot, 0.0))


def shear_block(
    width: float,
    height: float,
    mass: float,
    frequency: float,
    *,
    damping_ratio: float = 0.05,
    gravity: float = GRAVITY,
) -> DeformableBody:
    """Uniform rectangular block (``width`` × ``height`` [m], ``mass`` [kg]) with a linear shear mode.

    Mode φ = (Y/H) i, Y the height above the base, H = ``height``: q [m] is the horizontal drift of the
    top; φ vanishes on the whole base, so at both tipping points. Its integrals, with h = H/2 and
    y = Y − h: Φ = (M/2, 0), m_q = M/3, S = −∫y φ_x dm = −M h/6, D = ∫x φ_x dm = 0, and
    k_q = m_q (2π ``frequency``)² so that the flat-base mode has that frequency [Hz]. ρ² = (b² + h²)/3
    with b = width/2, the rectangle's value, so that the stiff limit is Housner's block.
    """
    for name, value in (("width", width), ("height", height), ("mass", mass), ("frequency", frequency)):
        if not value > 0.0:
            raise ValueError(f"{name} must be > 0, got {value!r}")
    b, h = 0.5 * width, 0.5 * height
    m_q = mass / 3.0
    return DeformableBody(
        mass=mass,
        cg_height=h,
        b1=b,
        b2=b,
        radius_of_gyration=math.sqrt((b * b + h * h) / 3.0),
        modal_mass=m_q,
        modal_stiffness=m_q * (2.0 * math.pi * frequency) ** 2,
        participation=(0.5 * mass, 0.0),
        shear=-mass * h / 6.0,
        dilation=0.0,
        damping_ratio=damping_ratio,
        gravity=gravity,
    )
