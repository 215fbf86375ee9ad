"""Contact force laws as pure functions of plain numbers (SI units), shared by every contact kernel.

Sign conventions: δ > 0 is the overlap [m]; δ̇ > 0 when the bodies approach [m/s]; forces are
magnitudes along the contact normal [N]. The shear law works on vectors in the contact plane.

Hertz–Mindlin (Itiola & El Shamy 2024, §2.1, PFC "hertz"), with R̄ the contact radius (2R₁R₂/(R₁+R₂) ball–ball, R
ball–wall):
    h_n = 2G√(2R̄) / (3(1−ν))                      normal stiffness factor, F_n = h_n δ^{3/2}
    k_n = dF_n/dδ = (3/2) h_n √δ                   tangent normal stiffness
    k_s = 2(3G²(1−ν)R̄)^{1/3} / (2−ν) · F_n^{1/3}   the paper's shear stiffness; with F_n = h_n δ^{3/2} the cube
        = 2G√(2R̄δ) / (2−ν)                        root simplifies exactly to this form (no pow needed)
    dashpots: 2β√(m_c k) δ̇ with k = k_n (normal) or k_s (shear); the shear dashpot is cut while sliding.
Strain energy: normal ∫F_n dδ = (2/5) h_n δ^{5/2}; shear |F_s|²/(2k_s) (Itiola & El Shamy 2024, §4.2). The shear
spring is hypoelastic (k_s changes with δ at constant force): the work of that change, W_k, and the slip are
booked exactly per step (shear_force, docs/shear_unloading.md).
"""


import math

import numpy as np

from ..device import runtime
from ..device.kernel_lang import ti
from ..model.materials import (
    DAMPING_MASSES,
    PAIR_BN,
    PAIR_BS,
    PAIR_CHI,
    PAIR_HFAC,
    PAIR_KN,
    PAIR_KS,
    PAIR_KSRATIO,
    PAIR_LAW,
    PAIR_MU,
    PAIR_NOTENSION,
    PAIR_RESCALE,
    PAIR_SHARED,
    PAIR_SQRT_KSRATIO,
    ContactLaw,
)

LAW_LINEAR = int(ContactLaw.LINEAR)
LAW_HERTZ = int(ContactLaw.HERTZ_MINDLIN)

NormalForce = None  # struct type of :func:`normal_force`'s result, defined at init (runtime.define_types)
ShearForce = None  # struct type of :func:`shear_force`'s result, defined at init


def _define_types(real):
    global NormalForce, ShearForce
    v3 = ti.types.vector(3, real)
    NormalForce = ti.types.struct(
        elastic=real, dashpot=real,  # spring and dashpot force along the normal [N] (dashpot at δ̇ as given)
        k_n=real, k_s=real,  # tangent normal and shear stiffness [N/m]
        strain=real,  # normal strain energy [J]
        c_s=real, c_n=real,  # shear and normal dashpot coefficients [N·s/m]
    )
    ShearForce = ti.types.struct(
        elastic=v3, dashpot=v3,  # elastic (Mindlin) shear force and the shear dashpot's [N]
        slip=real,  # slip dissipation D of the step [J]
        strain=real,  # shear strain energy |F|²/(2k_s) [J]
        c_s=real,  # shear dashpot coefficient in effect [N·s/m] (0 while sliding)
        stiffness_work=real,  # work of the stiffness change W_k [J]
    )


runtime.define_types(_define_types)


@ti.func
def share_stiffness(p, share):
    """The material pair p with its stiffness scaled by `share` [-] (h_n, linear k_n and k_s: every force, stiffness
    and strain energy of the contact scales with it; the dashpots follow from the scaled stiffness): a contact that
    carries part of a joint's stiffness (docs/joints.md). share = 1 returns p's values unchanged, bit for bit."""
    q = p
    q[PAIR_HFAC] = p[PAIR_HFAC] * share
    q[PAIR_KN] = p[PAIR_KN] * share
    q[PAIR_KS] = p[PAIR_KS] * share
    return q


@ti.func
def normal_stiffness(p, r_eff, delta):
    """Tangent normal stiffness k_n [N/m] of a contact of R̄ = r_eff [m] at overlap δ = delta > 0 [m], as
    :func:`normal_force` computes it (linear: k_n; Hertz and the impact laws: (3/2) h_n √δ)."""
    k_n = p[PAIR_KN]
    if ti.cast(p[PAIR_LAW], ti.i32) != LAW_LINEAR:
        h_n = p[PAIR_HFAC] * ti.sqrt(2.0 * r_eff)
        k_n = 1.5 * h_n * ti.sqrt(delta)
    return k_n


@ti.func
def dashpot_mass(p, m_c, k_n, k_sum):
    """The mass in the contact's dashpots [kg]: m_c ("body"), or under "shared" the contact's share
    m_c k_n / K_I of its interface's mass (docs/damping.md, Eq. D1), K_I = k_sum [N/m] the sum of the
    interface's k_n (interface_stiffness.py; max(K_I, k_n) so that a share never exceeds the whole)."""
    m = m_c
    if p[PAIR_SHARED] > 0.5 and k_sum > 0.0:
        m = m_c * k_n / ti.max(k_sum, k_n)
    return m


# Host reference of the dashpot mass (docs/damping.md, Eq. D1-D3): what :func:`dashpot_mass` and the stiffness sums
# of interface_stiffness.py compute in the kernels, in NumPy, for the tests and the derivation.
#   "body" (004 §2.1, the default): every contact of a body with a wall uses the body's mass M, every contact
#   between two bodies their reduced mass M = m_a m_b/(m_a + m_b); a body resting on N contacts of stiffness k has
#   N dashpots 2β√(M k) in parallel against N springs: damping ratio β√N.
#   "shared": the active contacts of one interface (a body with one wall or one other body) share its mass M in
#   proportion to their normal stiffness: m_i = M k_n,i / K_n, K_n = Σ_j k_n,j, so
#   c_n,i = 2β_n k_n,i √(M/K_n) and Σ c_n,i = 2β_n √(M K_n): the interface's damping ratio is β_n whatever N.
def contact_masses(k_n, mass: float, *, damping_mass: str = "body", k_sum: float | None = None) -> np.ndarray:
    """Dashpot mass m_c,i [kg] of each active contact of one interface (host reference of :func:`dashpot_mass`).

    Args:
        k_n: tangent normal stiffness of each contact [N/m], shape (N,), all > 0.
        mass: the interface's mass M [kg] (a body's mass against a wall, the reduced mass between bodies).
        damping_mass: "body" or "shared" (see above).
        k_sum: K_n [N/m] to share by; default Σ k_n (this step's). A kernel that only knows the last step's
            sum passes it here: each share is then M k_n,i / max(K_n, k_n,i) (docs/damping.md, Eq. D5), so a
            contact never gets more than the whole mass, and the first contact of an impact (K_n = 0) gets M.
    """
    k = np.asarray(k_n, float)
    if damping_mass not in DAMPING_MASSES:
        raise ValueError(f"damping_mass must be one of {', '.join(DAMPING_MASSES)}, got {damping_mass!r}")
    if not (np.isfinite(mass) and mass > 0):
        raise ValueError(f"mass must be > 0 [kg], got {mass}")
    if np.any(~(k > 0)):
        raise ValueError("k_n must be > 0 [N/m] for every active contact")
    if damping_mass == "body":
        return np.full(k.shape, float(mass))
    total = float(k.sum()) if k_sum is None else float(k_sum)
    return mass * k / np.maximum(total, k)


def dashpot_coefficients(k, m_c, beta: float) -> np.ndarray:
    """c_i = 2β √(m_c,i k_i) [N·s/m] (004 §2.1) for stiffness k [N/m] (k_n or k_s) and masses m_c [kg]."""
    return 2.0 * beta * np.sqrt(np.asarray(m_c, float) * np.asarray(k, float))


def interface_damping_ratio(k, c, mass: float) -> float:
    """ζ = Σc / (2√(M Σk)) [-]: damping ratio of a mass M [kg] moving on the interface's springs k [N/m] and
    dashpots c [N·s/m] in parallel (translation along their common direction)."""
    return float(np.sum(c) / (2.0 * np.sqrt(mass * np.sum(k))))


@ti.func
def normal_force(p, r_eff, m_c, delta, delta_dot, v_impact, k_sum):
    """Normal force of one contact.

    Args:
        p: material-pair parameter vector (``materials.PAIR_*`` layout).
        r_eff: R̄ [m]; m_c: the interface's mass [kg] (a body's mass against a wall, the reduced mass of two
        bodies); delta: overlap δ > 0 [m]; delta_dot: δ̇ [m/s];
        v_impact: δ̇⁻, approach speed when the contact formed [m/s] (impact laws only);
        k_sum: the interface's stiffness sum K_I [N/m] under ``damping_mass = "shared"`` (ignored otherwise):
        the dashpots then use the contact's share of m_c (:func:`dashpot_mass`).
    Returns:
        a ``NormalForce``: elastic [N], dashpot [N], k_n tangent [N/m], k_s [N/m], normal strain energy [J],
        shear dashpot coefficient c_s = 2β_s√(m_c k_s) [N·s/m], normal dashpot coefficient c_n [N·s/m].
    Every law's normal dashpot is linear in δ̇, f_damp = c_n δ̇ (for the impact laws c_n = f_el χ̂/δ̇⁻), so the
    solver can also apply it implicitly. With ``no_tension`` a dashpot that would pull harder than the
    spring pushes is clipped (f_damp = −f_el) and c_n is returned as 0.
    """
    law = ti.cast(p[PAIR_LAW], ti.i32)
    f_e = 0.0
    f_d = 0.0
    k_n = 0.0
    k_s = 0.0
    e_n = 0.0
    c_n = 0.0
    c_s = 0.0
    if law == LAW_LINEAR:
        k_n = p[PAIR_KN]  # Itiola & El Shamy 2024, Eq. 1
        k_s = p[PAIR_KS]  # Itiola & El Shamy 2024, Eq. 2
        f_e = k_n * delta
        e_n = 0.5 * k_n * delta * delta
        m = dashpot_mass(p, m_c, k_n, k_sum)
        c_n = 2.0 * p[PAIR_BN] * ti.sqrt(m * k_n)
        c_s = 2.0 * p[PAIR_BS] * ti.sqrt(m * k_s)
        f_d = c_n * delta_dot
    else:
        sq = ti.sqrt(delta)
        h_n = p[PAIR_HFAC] * ti.sqrt(2.0 * r_eff)  # Itiola & El Shamy 2024, Eq. 5: h_n = 2G√(2R̄)/(3(1−ν))
        f_e = h_n * delta * sq  # δ^{3/2} as δ·√δ (no pow on Vulkan f64)
        k_n = 1.5 * h_n * sq
        k_s = p[PAIR_KSRATIO] * k_n  # = 2G√(2R̄δ)/(2−ν), module docstring
        e_n = 0.4 * h_n * delta * delta * sq
        root_mk = ti.sqrt(dashpot_mass(p, m_c, k_n, k_sum) * k_n)
        c_n = 2.0 * p[PAIR_BN] * root_mk
        c_s = 2.0 * p[PAIR_BS] * root_mk * p[PAIR_SQRT_KSRATIO]
        if law == LAW_HERTZ:
            f_d = c_n * delta_dot  # Itiola & El Shamy 2024, Step 3
        else:
            # Xu et al. 2022, Table 2: F = Kδ^{3/2}(1 + χ̂ δ̇/δ̇⁻), K = h_n (same Hertz stiffness)
            c_n = f_e * p[PAIR_CHI] / ti.max(v_impact, 1e-12)
            f_d = c_n * delta_dot
    if p[PAIR_NOTENSION] > 0.5 and f_e + f_d < 0.0:
        f_d = -f_e
        c_n = 0.0
    return NormalForce(elastic=f_e, dashpot=f_d, k_n=k_n, k_s=k_s, strain=e_n, c_s=c_s, c_n=c_n)


@ti.func
def shear_force(p, fs_old, ks_old, normal, v_shear, k_s, f_elastic, c_shear, dt):
    """Incremental Mindlin shear force with Coulomb slip (Itiola & El Shamy 2024, §2.1 Step 2 and 4), and the
    energy it exchanges in the step (docs/shear_unloading.md, Eqs. S1–S5).

    Args:
        p: material-pair parameters; fs_old: shear force of the last step F⁰ [N] (vector); ks_old: the shear
        stiffness of the last step k_s⁰ [N/m] (0 for a new contact); normal: unit contact normal now;
        v_shear: relative tangential velocity of body 1 w.r.t. body 2 [m/s]; k_s: shear stiffness now [N/m];
        f_elastic: elastic normal force [N]; c_shear: shear dashpot coefficient 2β_s√(m_c k_s) [N·s/m];
        dt: time step [s].
    Returns:
        a ``ShearForce``: elastic shear force F [N], shear dashpot force [N], slip dissipation D [J], shear strain
        energy |F|²/(2k_s) [J], shear dashpot coefficient in effect [N·s/m] (0 while sliding), work of the
        stiffness change W_k [J].
    The old force is first turned into the current contact plane, keeping its magnitude (PFC); on a flat wall it
    already lies in that plane and the square roots of the turn are skipped. Under ``shear_unloading =
    "rescale"`` (materials.PAIR_RESCALE) it is then scaled by k_s/k_s⁰ when k_s has fallen (Thornton et al.
    2013, Eq. 18b). With F̂⁰ the force the increment starts from and T = F̂⁰ − k_s v_s Δt the trial force, the
    spring's work in the step, −½(F⁰ + F)·v_s Δt (the trapezoid the centred scheme's kinetic energy sees), is
    exactly ΔΨ + W_k + D, Ψ = |F|²/(2k_s):
        D   = (T − F)·(F + F̂⁰)/(2k_s)                                (S2: slip on the Coulomb cut)
        W_k = |F⁰|²/(2k_s⁰) − |F̂⁰|²/(2k_s) − ½(F⁰ − F̂⁰)·v_s Δt       (S3: the stiffness change at constant force)
    """
    fs = fs_old
    along = fs_old.dot(normal)
    mag2 = fs_old.dot(fs_old)
    if along * along > 1e-24 * mag2:
        fs = fs_old - along * normal
        m2 = fs.dot(fs)
        if m2 > 0.0:
            fs *= ti.sqrt(mag2 / m2)
    w_k = 0.0
    f0 = fs
    if ks_old > 0.0 and k_s > 0.0:
        if p[PAIR_RESCALE] > 0.5 and k_s < ks_old:
            f0 = fs * (k_s / ks_old)  # S4: the spring gives back the energy of the force it can no longer carry
            w_k = 0.5 * mag2 * (ks_old - k_s) / (ks_old * ks_old) - 0.5 * (fs - f0).dot(v_shear) * dt
        else:
            w_k = 0.5 * mag2 * (k_s - ks_old) / (ks_old * k_s)  # S3 with F̂⁰ = F⁰: ½|F⁰|²(1/k_s⁰ − 1/k_s)
    trial = f0 - k_s * dt * v_shear
    f_max = p[PAIR_MU] * f_elastic
    t2 = trial.dot(trial)
    new = trial
    slip = 0.0
    damp = -c_shear * v_shear
    c_eff = c_shear
    if t2 > f_max * f_max:
        c_eff = 0.0
        t_mag = ti.sqrt(t2)
        new = trial * (f_max / t_mag)
        damp = ti.Vector([0.0, 0.0, 0.0])  # slip-cut: no shear dashpot while sliding (Itiola & El Shamy 2024, Step 4)
        if k_s > 0.0:
            slip = (trial - new).dot(new + f0) / (2.0 * k_s)  # S2
    e_s = 0.0
    if k_s > 0.0:
        e_s = new.dot(new) / (2.0 * k_s)
    return ShearForce(elastic=new, dashpot=damp, slip=slip, strain=e_s, c_s=c_eff, stiffness_work=w_k)


# --------------------------------------------------------------------------------------------------
# Host-side relations (NumPy/SciPy), used to choose β and to check the engine.

def hertz_stiffness_factor(shear_modulus: float, poisson: float, radius_eff: float) -> float:
    """h_n = 2G√(2R̄)/(3(1−ν)) [N/m^{3/2}] (Itiola & El Shamy 2024, Eq. 5)."""
    return 2.0 * shear_modulus * math.sqrt(2.0 * radius_eff) / (3.0 * (1.0 - poisson))


def hertz_impact(mass: float, speed: float, h_n: float) -> tuple[float, float]:
    """Undamped Hertz impact of a mass on a spring F = h_n δ^{3/2}: (peak overlap [m], duration [s]).

    Energy: ½ m v² = (2/5) h_n δ_max^{5/2}. Duration: t_c = 2 ∫₀^δmax dδ / √(v² − (4h/5m) δ^{5/2})
    = 2 (δ_max/v) ∫₀¹ dx/√(1−x^{5/2}) = 2.94327… δ_max/v (Johnson, Contact Mechanics §11.4).
    """
    d_max = (1.25 * mass * speed * speed / h_n) ** 0.4
    return d_max, HERTZ_DURATION_CONSTANT * d_max / speed


# 2∫₀¹ (1−x^{5/2})^{−1/2} dx = 2·√π Γ(7/5)/Γ(9/10)… evaluated once by quadrature below.
def _duration_constant() -> float:
    from scipy.integrate import quad

    # substitute x = 1 − u² to remove the endpoint singularity
    val, _ = quad(lambda u: 2.0 * u / math.sqrt(1.0 - (1.0 - u * u) ** 2.5), 0.0, 1.0, limit=200)
    return 2.0 * val


HERTZ_DURATION_CONSTANT = _duration_constant()


def restitution_from_beta_hertz(beta: float) -> float:
    """Coefficient of restitution of a Hertz contact with the dashpot 2β√(m k_n) δ̇, k_n = (3/2) h_n √δ.

    In the scaled variables x = δ/δ*, τ = t v/δ* (δ* = (m v²/h_n)^{2/5}) the equation of motion
    x'' + 2β√(3/2) x^{1/4} x' + x^{3/2} = 0 (x(0) = 0, x'(0) = 1) no longer depends on m, v or h_n, so
    e depends on β alone. It is integrated with SciPy (rtol 1e-10) until the contact opens (x = 0).
    Tension at the end of the contact is allowed, as in the engine's default ("full") dashpot mode.
    """
    from scipy.integrate import solve_ivp

    if beta < 0:
        raise ValueError(f"beta must be >= 0, got {beta}")
    c = 2.0 * beta * math.sqrt(1.5)

    def rhs(_t, y):
        x = max(y[0], 0.0)
        return [y[1], -c * x**0.25 * y[1] - x**1.5]

    def opened(_t, y):
        return y[0]

    opened.terminal = True
    opened.direction = -1
    sol = solve_ivp(rhs, (0.0, 50.0), [0.0, 1.0], events=opened, rtol=1e-10, atol=1e-13, first_step=1e-6)
    if not sol.t_events[0].size:
        return 0.0  # never separates: fully damped
    return float(-sol.y_events[0][0][1])


def beta_from_restitution_hertz(restitution: float) -> float:
    """Inverse of :func:`restitution_from_beta_hertz` (β for a wanted e in (0, 1])."""
    from scipy.optimize import brentq

    if not 0.0 < restitution <= 1.0:
        raise ValueError(f"restitution must be in (0, 1], got {restitution}")
    if restitution == 1.0:
        return 0.0
    return float(brentq(lambda b: restitution_from_beta_hertz(b) - restitution, 0.0, 5.0, xtol=1e-12))


def restitution_from_beta_linear(beta: float) -> float:
    """e = exp(−πβ/√(1−β²)) for the linear spring–dashpot (β < 1)."""
    if not 0.0 <= beta < 1.0:
        raise ValueError(f"beta must be in [0, 1), got {beta}")
    return float(np.exp(-math.pi * beta / math.sqrt(1.0 - beta * beta)))
