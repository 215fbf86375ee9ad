"""Closed forms for the rigid rocking block (Housner 1963; Qi & Zhu 2025, §3).

Geometry: a rectangle of full width 2b and full height 2h (Qi & Zhu 2025, Fig. 1), half-diagonal R = sqrt(b² + h²),
slenderness α = atan(b/h). Rocking angle θ [rad] is positive when the block pivots on the corner that
a negative base acceleration lifts it onto (validation.rocking's sign convention).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import quad

from validation.rocking._checks import in_range, positive

STANDARD_GRAVITY = 9.81
"""Gravitational acceleration used by default [m/s²] (Itiola & El Shamy 2024, §5.1 uses g = 9.81 m/s²)."""


def half_diagonal(width: float, height: float) -> float:
    """Half-diagonal R [m] of a width × height rectangle (Qi & Zhu 2025, Eq. 2: R² = h² + b²)."""
    w = positive("width", width)
    h = positive("height", height)
    return 0.5 * math.hypot(w, h)


def slenderness(width: float, height: float) -> float:
    """Slenderness angle α [rad], tan α = b/h = width/height (Qi & Zhu 2025, §2)."""
    return math.atan2(positive("width", width), positive("height", height))


def frequency_parameter(width: float, height: float, *, g: float = STANDARD_GRAVITY) -> float:
    """Housner's frequency parameter p [rad/s] of a rectangular block, p² = 3g/(4R).

    Qi & Zhu 2025, §3: p² = m g R / I_O with I_O = (4/3) m R² about a base corner.
    """
    return math.sqrt(3.0 * positive("g", g) / (4.0 * half_diagonal(width, height)))


def housner_restitution(alpha: float) -> float:
    """Housner's angular-velocity ratio across an impact, e = 1 − 1.5 sin²α [-] (Qi & Zhu 2025, Eq. 24).

    From conservation of angular momentum about the new pivot. Negative for α > asin(sqrt(2/3))
    (h/b < 1/√2): such a block does not rock about the other corner (Qi & Zhu 2025, Eq. 17).
    """
    a = in_range("alpha", alpha, 0.0, 0.5 * math.pi)
    return 1.0 - 1.5 * math.sin(a) ** 2


def uplift_threshold(alpha: float, *, g: float = STANDARD_GRAVITY) -> float:
    """Base acceleration [m/s²] above which a block at rest uplifts, |ü_g| > g tan α (Housner 1963)."""
    a = in_range("alpha", alpha, 0.0, 0.5 * math.pi)
    return positive("g", g) * math.tan(a)


def _check_amplitude(theta0: float, alpha: float) -> tuple[float, float]:
    a = in_range("alpha", alpha, 1e-12, 0.5 * math.pi)
    th = abs(float(theta0))
    if not (0.0 <= th < a):
        raise ValueError(f"theta0 must satisfy 0 <= |theta0| < alpha = {a:.6g} rad, got {theta0!r}")
    return th, a


def linear_free_rocking_theta(t: np.ndarray | float, theta0: float, alpha: float, p: float) -> np.ndarray:
    """Linearised free rocking from rest, θ(t) = α − (α − θ0) cosh(p t) [rad] (Housner 1963).

    Valid from release (t = 0, θ = θ0, θ̇ = 0) until the first impact at t = T/4.
    A negative θ0 gives the mirrored solution.
    """
    th, a = _check_amplitude(theta0, alpha)
    pp = positive("p", p)
    s = 1.0 if theta0 >= 0 else -1.0
    return s * (a - (a - th) * np.cosh(pp * np.asarray(t, dtype=float)))


def free_rocking_period(theta0: float, alpha: float, p: float, *, linear: bool = True) -> float:
    """Period T [s] of free rocking with amplitude θ0 [rad] and no energy loss.

    Linearised: T = (4/p) arccosh(1/(1 − θ0/α)) (Housner 1963).
    Nonlinear: T = 4 ∫_0^θ0 dθ / θ̇(θ) with ½θ̇² = p²[cos(α − θ0) − cos(α − θ)] (energy of Qi & Zhu 2025, Eq. 22
    with ü_g = 0); the substitution θ = θ0(1 − u²) removes the turning-point singularity.
    """
    th, a = _check_amplitude(theta0, alpha)
    pp = positive("p", p)
    if th == 0.0:
        return 0.0
    if linear:
        return 4.0 / pp * math.acosh(1.0 / (1.0 - th / a))

    def integrand(u: float) -> float:
        theta = th * (1.0 - u * u)
        # cos(α − θ0) − cos(α − θ) written as a product: no cancellation near the turning point
        gap = 2.0 * math.sin(a - 0.5 * (th + theta)) * math.sin(0.5 * th * u * u)
        return 2.0 * th / math.sqrt(2.0 * pp * pp * gap / (u * u))

    quarter, _ = quad(integrand, 0.0, 1.0, epsabs=0.0, epsrel=1e-12, limit=200)
    return 4.0 * quarter


def amplitude_after_impacts(
    theta0: float, alpha: float, restitution: float, n: int | np.ndarray, *, linear: bool = True
) -> np.ndarray:
    """Free-rocking amplitude θ_n [rad] after n impacts, starting from rest at amplitude θ0 [rad].

    Each impact scales θ̇ at θ = 0 by e (Qi & Zhu 2025, Eq. 23). With the energy integral between impacts:
    linearised  (α − θ_n)² = α² − e^{2n} [α² − (α − θ0)²]        (Housner 1963)
    nonlinear   cos(α − θ_n) = cos α + e^{2n} [cos(α − θ0) − cos α].
    """
    th, a = _check_amplitude(theta0, alpha)
    e = in_range("restitution", restitution, 0.0, 1.0)
    nn = np.asarray(n)
    if np.any(nn < 0):
        raise ValueError(f"n must be >= 0, got {n!r}")
    k = e ** (2.0 * nn)
    if linear:
        return a - np.sqrt(a * a - k * (a * a - (a - th) ** 2))
    return a - np.arccos(math.cos(a) + k * (math.cos(a - th) - math.cos(a)))


def linear_free_rocking_impact_times(theta0: float, alpha: float, p: float, restitution: float, n: int) -> np.ndarray:
    """Times [s] of the first n impacts of linearised free rocking released from rest at θ0 [rad].

    The first impact comes a quarter period after release; each later one half a period (of the
    current amplitude, amplitude_after_impacts) after the previous one.
    """
    th, a = _check_amplitude(theta0, alpha)
    pp = positive("p", p)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n!r}")
    amps = amplitude_after_impacts(th, a, restitution, np.arange(n))
    half = np.array([0.5 * free_rocking_period(float(x), a, pp) for x in amps])
    if n:
        half[0] *= 0.5  # release to first impact is a quarter period
    return np.cumsum(half)


def linear_free_rocking(t: np.ndarray, theta0: float, alpha: float, p: float, restitution: float) -> np.ndarray:
    """Piecewise closed-form θ(t) [rad] of linearised free rocking with impacts (Housner 1963).

    Between impacts the block swings through a peak of amplitude θ_k on alternating sides;
    about that peak, θ = ±[α − (α − θ_k) cosh(p (t − t_peak))]. Once the amplitude has decayed below
    1e-15 α (the impacts accumulate in finite time) θ is 0.
    """
    th, a = _check_amplitude(theta0, alpha)
    pp = positive("p", p)
    e = in_range("restitution", restitution, 0.0, 1.0)
    tt = np.asarray(t, dtype=float)
    out = np.zeros_like(tt)
    s = 1.0 if theta0 >= 0 else -1.0
    amp, t_peak, start = th, 0.0, -np.inf
    for _ in range(100000):
        if amp < 1e-15 * a:
            break
        quarter = 0.25 * free_rocking_period(amp, a, pp)
        end = t_peak + quarter  # next impact
        sel = (tt >= start) & (tt <= end)
        out[sel] = s * (a - (a - amp) * np.cosh(pp * (tt[sel] - t_peak)))
        if end >= tt.max(initial=0.0):
            break
        amp = float(amplitude_after_impacts(amp, a, e, 1))
        s = -s
        start = end
        t_peak = end + 0.25 * free_rocking_period(amp, a, pp)
    return out
