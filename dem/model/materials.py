"""Contact materials: which force law a contact uses and its parameters (SI units).

A :class:`Material` is attached to clumps and walls. A contact between two materials uses the pair's
parameters: the same material gives its own; two different materials are mixed by :func:`mix` unless
the model builder is given an explicit pair (``ModelBuilder.set_pair``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

import numpy as np

DAMPING_MASSES = ("body", "shared")
"""Values of :attr:`Material.damping_mass`: the mass in each dashpot's 2β√(m_c k) (docs/damping.md)."""
DAMPING_MASSES_IN_KERNELS = ("body", "shared")
"""The values the contact kernels implement today; the others are refused when a model is built."""
SHEAR_UNLOADINGS = ("incremental", "rescale")
"""Values of :attr:`Material.shear_unloading`: what the stored Mindlin shear force does when the shear stiffness
falls (docs/shear_unloading.md)."""


class ContactLaw(enum.IntEnum):
    """Normal force law of a contact. The shear law is Mindlin's incremental spring with Coulomb slip."""

    HERTZ_MINDLIN = 0  # Itiola & El Shamy 2024, §2.1: F = h_n δ^{3/2} + viscous dashpot 2β√(m_c k_n) δ̇
    LINEAR = 1  # Itiola & El Shamy 2024, Eq. 1–2: F = k_n δ + dashpot 2β√(m_c k_n) δ̇, constant k_s
    HUNT_CROSSLEY = 2  # Xu et al. 2022, Eq. 5–6: F = Kδ^{3/2} [1 + 3(1−c_e)/2 · δ̇/δ̇⁻]
    LANKARANI_NIKRAVESH = 3  # Xu et al. 2022, Eq. 8: F = Kδ^{3/2} [1 + 3(1−c_e²)/4 · δ̇/δ̇⁻]
    GONTHIER = 4  # Xu et al. 2022, Eq. 9–10, factor (1−c_e²)/c_e (docs/references.md)
    FLORES = 5  # Xu et al. 2022, Eq. 13: F = Kδ^{3/2} [1 + 8(1−c_e)/(5c_e) · δ̇/δ̇⁻]


IMPACT_LAWS = (
    ContactLaw.HUNT_CROSSLEY,
    ContactLaw.LANKARANI_NIKRAVESH,
    ContactLaw.GONTHIER,
    ContactLaw.FLORES,
)


def impact_damping_factor(law: ContactLaw, restitution: float) -> float:
    """χ̂ in F = Kδ^{3/2} (1 + χ̂ δ̇/δ̇⁻) for the impact laws of Xu et al. 2022, §2.2 (dimensionless).

    δ̇⁻ is the normal approach speed when the contact forms. Gonthier's factor is read as (1−c_e²)/c_e:
    Xu et al. 2022, Eq. 9 prints (1−c_e²)/c_e², but its own Eq. 10 (χ = dK/(c_e δ̇⁻), d = 1−c_e²) gives the form
    used here, which is the one that reproduces a separation speed c_e·v (docs/references.md).
    """
    e = float(restitution)
    if not 0.0 < e <= 1.0:
        raise ValueError(f"restitution must be in (0, 1], got {restitution}")
    if law == ContactLaw.HUNT_CROSSLEY:
        return 1.5 * (1.0 - e)  # Xu et al. 2022, Eq. 6: b = 3K(1−c_e)/(2δ̇⁻)
    if law == ContactLaw.LANKARANI_NIKRAVESH:
        return 0.75 * (1.0 - e * e)  # Xu et al. 2022, Eq. 8
    if law == ContactLaw.GONTHIER:
        return (1.0 - e * e) / e  # Xu et al. 2022, Eq. 10 with d = 1 − c_e²
    if law == ContactLaw.FLORES:
        return 8.0 * (1.0 - e) / (5.0 * e)  # Xu et al. 2022, Eq. 12–13
    return 0.0


@dataclass(frozen=True)
class Material:
    """Contact parameters of a body surface.

    Attributes:
        shear_modulus: G [Pa] of the Hertz–Mindlin law (also K = h_n of the impact laws).
        poisson: ν [-], in [0, 0.5).
        friction: Coulomb coefficient μ [-], ≥ 0.
        damping_normal: β_n, critical-damping ratio of the normal dashpot [-], in [0, 1].
        damping_shear: β_s, same for the shear dashpot (cut while sliding) [-], in [0, 1].
        law: normal force law (:class:`ContactLaw`).
        normal_stiffness: k_n [N/m] of the linear law.
        shear_stiffness: k_s [N/m] of the linear law.
        restitution: c_e [-] of the impact laws (Xu et al. 2022).
        no_tension: if True the total normal force (spring + dashpot) is clipped at zero; the paper
            (Itiola & El Shamy 2024, "full normal behaviour") lets the dashpot pull at the end of an impact, so the
            default is False.
        density: ρ [kg/m³] used when a clump's mass is computed from its spheres or its solid shape.
        damping_mass: the mass m_c in each dashpot's 2β√(m_c k): ``"body"`` (Itiola & El Shamy 2024, the
            default: the body's mass, the two bodies' reduced mass between bodies, at every contact) or
            ``"shared"`` (that mass shared among the contacts of one interface in proportion to their normal
            stiffness, so the interface's damping ratio is β whatever the packing; docs/damping.md). The
            contact kernels do not support ``"shared"`` yet: a model using it is refused when it is built
            (:func:`pair_vector`).
        shear_unloading: what the stored shear force does when the contact unloads (k_s falls):
            ``"incremental"`` (Itiola & El Shamy 2024 and PFC, the default: nothing, F ← F − k_s v_s Δt) or
            ``"rescale"`` (F is first scaled by k_s/k_s⁰, so the spring can no longer give out energy it was
            never given; Thornton et al. 2013, Eq. 18b; LAMMPS ``mindlin_rescale/force``). docs/shear_unloading.md.
    """

    shear_modulus: float = 0.0
    poisson: float = 0.25
    friction: float = 0.5
    damping_normal: float = 0.0
    damping_shear: float = 0.0
    law: ContactLaw = ContactLaw.HERTZ_MINDLIN
    normal_stiffness: float = 0.0
    shear_stiffness: float = 0.0
    restitution: float = 1.0
    no_tension: bool = False
    density: float = 0.0
    damping_mass: str = "body"
    shear_unloading: str = "incremental"

    @classmethod
    def hertz(cls, *, young: float | None = None, shear_modulus: float | None = None, poisson: float,
              friction: float, damping_normal: float = 0.0, damping_shear: float = 0.0,
              density: float = 0.0, no_tension: bool = False, damping_mass: str = "body",
              shear_unloading: str = "incremental") -> Material:
        """Hertz–Mindlin material from G (or E, with G = E / (2(1+ν)))."""
        if shear_modulus is None:
            if young is None:
                raise ValueError("give shear_modulus G [Pa] or young E [Pa]")
            shear_modulus = young / (2.0 * (1.0 + poisson))
        return cls(shear_modulus=shear_modulus, poisson=poisson, friction=friction,
                   damping_normal=damping_normal, damping_shear=damping_shear, density=density,
                   no_tension=no_tension, damping_mass=damping_mass, shear_unloading=shear_unloading).validated()

    @classmethod
    def linear(cls, *, normal_stiffness: float, shear_stiffness: float, friction: float,
               damping_normal: float = 0.0, damping_shear: float = 0.0, density: float = 0.0,
               damping_mass: str = "body") -> Material:
        """Linear spring–dashpot material (Itiola & El Shamy 2024, Eq. 1–2)."""
        return cls(law=ContactLaw.LINEAR, normal_stiffness=normal_stiffness, shear_stiffness=shear_stiffness,
                   friction=friction, damping_normal=damping_normal, damping_shear=damping_shear,
                   density=density, damping_mass=damping_mass).validated()

    @classmethod
    def impact(cls, law: ContactLaw, *, shear_modulus: float, poisson: float, restitution: float,
               friction: float = 0.0, damping_shear: float = 0.0, density: float = 0.0,
               shear_unloading: str = "incremental") -> Material:
        """One of the impact laws of Xu et al. 2022 (Hunt–Crossley, Lankarani–Nikravesh, Gonthier, Flores)."""
        if law not in IMPACT_LAWS:
            raise ValueError(f"law must be one of {[x.name for x in IMPACT_LAWS]}, got {law!r}")
        return cls(law=law, shear_modulus=shear_modulus, poisson=poisson, restitution=restitution,
                   friction=friction, damping_shear=damping_shear, density=density,
                   shear_unloading=shear_unloading).validated()

    def validated(self) -> Material:
        """Return self after checking every parameter's range (ValueError names the parameter)."""
        _check("poisson", self.poisson, 0.0, 0.5, hi_open=True)
        _check("friction", self.friction, 0.0, np.inf)
        _check("damping_normal", self.damping_normal, 0.0, 1.0)
        _check("damping_shear", self.damping_shear, 0.0, 1.0)
        _check("density", self.density, 0.0, np.inf)
        if self.damping_mass not in DAMPING_MASSES:
            raise ValueError(f"damping_mass must be one of {', '.join(DAMPING_MASSES)}, got {self.damping_mass!r}")
        if self.shear_unloading not in SHEAR_UNLOADINGS:
            raise ValueError(f"shear_unloading must be one of {', '.join(SHEAR_UNLOADINGS)}, "
                             f"got {self.shear_unloading!r}")
        if self.law == ContactLaw.LINEAR:
            _check("normal_stiffness", self.normal_stiffness, 0.0, np.inf, lo_open=True)
            _check("shear_stiffness", self.shear_stiffness, 0.0, np.inf)
        else:
            _check("shear_modulus", self.shear_modulus, 0.0, np.inf, lo_open=True)
        if self.law in IMPACT_LAWS:
            _check("restitution", self.restitution, 0.0, 1.0, lo_open=True)
        return self

    def with_(self, **changes) -> Material:
        return replace(self, **changes).validated()


def _check(name: str, value: float, lo: float, hi: float, *, lo_open: bool = False, hi_open: bool = False):
    v = float(value)
    ok = np.isfinite(v) or hi == np.inf and v == np.inf
    ok = ok and (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi)
    if not ok:
        lb = "(" if lo_open else "["
        rb = ")" if hi_open else "]"
        raise ValueError(f"{name} must be in {lb}{lo:g}, {hi:g}{rb}, got {value!r}")


def mix(a: Material, b: Material) -> Material:
    """Default parameters of a contact between two different materials.

    Moduli combine in series (the harmonic mean, as two springs meeting at the contact), ν and the
    damping ratios average, friction takes the smaller coefficient. Both must use the same law.
    """
    if a == b:
        return a
    if a.law != b.law:
        raise ValueError(f"materials with different laws ({a.law.name}, {b.law.name}) need an explicit pair")
    if a.damping_mass != b.damping_mass:
        raise ValueError(f"materials with different damping_mass ({a.damping_mass}, {b.damping_mass}) need an "
                         "explicit pair")
    if a.shear_unloading != b.shear_unloading:
        raise ValueError(f"materials with different shear_unloading ({a.shear_unloading}, {b.shear_unloading}) need "
                         "an explicit pair")

    def series(x: float, y: float) -> float:
        return 2.0 * x * y / (x + y) if x > 0 and y > 0 else 0.0

    return Material(
        shear_modulus=series(a.shear_modulus, b.shear_modulus),
        poisson=0.5 * (a.poisson + b.poisson),
        friction=min(a.friction, b.friction),
        damping_normal=0.5 * (a.damping_normal + b.damping_normal),
        damping_shear=0.5 * (a.damping_shear + b.damping_shear),
        law=a.law,
        normal_stiffness=series(a.normal_stiffness, b.normal_stiffness),
        shear_stiffness=series(a.shear_stiffness, b.shear_stiffness),
        restitution=min(a.restitution, b.restitution),
        no_tension=a.no_tension or b.no_tension,
        damping_mass=a.damping_mass,
        shear_unloading=a.shear_unloading,
    ).validated()


# Layout of the per-pair parameter vector on the device (one row per material pair).
# The last three are derived constants kept so the kernels do no divisions per contact.
(PAIR_LAW, PAIR_G, PAIR_NU, PAIR_MU, PAIR_BN, PAIR_BS, PAIR_KN, PAIR_KS, PAIR_CHI, PAIR_NOTENSION,
 PAIR_HFAC, PAIR_KSRATIO, PAIR_SQRT_KSRATIO, PAIR_SHARED, PAIR_RESCALE) = range(15)
PAIR_PARAM_COUNT = 15


def pair_vector(m: Material) -> np.ndarray:
    """Device row of a material pair (see the ``PAIR_*`` indices).

    Refuses (ValueError) a ``damping_mass`` the kernels do not implement yet, so that no model runs with
    another dashpot mass than the one it asked for (docs/damping.md says what the kernels need)."""
    if m.damping_mass not in DAMPING_MASSES_IN_KERNELS:
        raise ValueError(f"damping_mass={m.damping_mass!r} is not available yet (the contact kernels implement "
                         f"{', '.join(DAMPING_MASSES_IN_KERNELS)} only; see docs/damping.md)")
    v = np.zeros(PAIR_PARAM_COUNT)
    v[PAIR_LAW] = int(m.law)
    v[PAIR_G] = m.shear_modulus
    v[PAIR_NU] = m.poisson
    v[PAIR_MU] = m.friction
    v[PAIR_BN] = m.damping_normal
    v[PAIR_BS] = m.damping_shear
    v[PAIR_KN] = m.normal_stiffness
    v[PAIR_KS] = m.shear_stiffness
    v[PAIR_CHI] = impact_damping_factor(m.law, m.restitution) if m.law in IMPACT_LAWS else 0.0
    v[PAIR_NOTENSION] = 1.0 if m.no_tension else 0.0
    v[PAIR_HFAC] = 2.0 * m.shear_modulus / (3.0 * (1.0 - m.poisson))  # h_n / √(2R̄)
    v[PAIR_KSRATIO] = 2.0 * (1.0 - m.poisson) / (2.0 - m.poisson)  # Hertz–Mindlin k_s / k_n
    v[PAIR_SQRT_KSRATIO] = np.sqrt(v[PAIR_KSRATIO])
    v[PAIR_SHARED] = 1.0 if m.damping_mass == "shared" else 0.0  # dashpot mass shared by stiffness (D1)
    v[PAIR_RESCALE] = 1.0 if m.shear_unloading == "rescale" else 0.0  # shear force scaled when k_s falls
    return v
