"""Elastic response spectra of accelerograms: peak response of damped single-degree-of-freedom oscillators.

For each period T (ω = 2π/T) and damping ratio ζ the oscillator u'' + 2ζω u' + ω² u = −a(t) starts from
rest; its peak |u| is the spectral displacement SD [m], PSV = ω SD [m/s] and the pseudo-acceleration
PSA = ω² SD [m/s²] (Chopra, *Dynamics of Structures*, §6.6).

Integration: the record is piecewise linear between samples, and over each step the response is the exact
solution for a linearly varying load (Nigam & Jennings 1969, "Calculation of response spectra from
strong-motion earthquake records", BSSA 59(2): the step is a fixed linear map x_{k+1} = A x_k + B0 a_k +
B1 a_{k+1} of the state x = (u, u')). A, B0, B1 are taken here from the matrix exponential of the
oscillator augmented with the load and its slope (Van Loan 1978), which is the same exact solution
without transcribing the closed-form coefficients. The recurrence is vectorised over records and periods.

Peaks are read at the samples. To bound the error of that, each sample interval is split into ``substeps``
exact sub-steps (the load is linear inside, so this changes nothing but where the peak is looked for),
by default enough for 20 points per period of the shortest period: |u| near a peak is then sampled with a
relative error ≤ (2π/20)²/8 ≈ 1.2 % at the very worst, typically far less.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import expm

DAMPING = 0.05
"""Damping ratio of the standard design spectra [-]."""
POINTS_PER_PERIOD = 20


@dataclass(frozen=True)
class Spectrum:
    """Response spectra of R records at P periods.

    periods [s], shape (P,); damping ζ [-]; sd [m], psv [m/s], psa [m/s²], shape (R, P) (or (P,) for a
    single record passed as a 1-D array). At T = 0 the oscillator is rigid: SD = 0 and PSA = PGA.
    """

    periods: np.ndarray
    damping: float
    sd: np.ndarray
    psv: np.ndarray
    psa: np.ndarray


def log_periods(t_min: float = 0.02, t_max: float = 5.0, count: int = 100) -> np.ndarray:
    """``count`` periods [s] spaced evenly in log between t_min and t_max."""
    if not (0.0 < t_min < t_max and math.isfinite(t_max)):
        raise ValueError(f"periods need 0 < t_min < t_max [s], got {t_min!r}, {t_max!r}")
    if int(count) < 2:
        raise ValueError(f"count must be >= 2, got {count!r}")
    return np.geomspace(t_min, t_max, int(count))


def step_matrices(omega: np.ndarray, zeta: float, h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact one-step maps of u'' + 2ζω u' + ω² u = −a(t), a linear over the step h [s] (Nigam & Jennings
    1969): x_{k+1} = A x_k + B0 a_k + B1 a_{k+1}, x = (u, u'). Shapes (P, 2, 2), (P, 2), (P, 2)."""
    P = omega.size
    A = np.empty((P, 2, 2))
    B0 = np.empty((P, 2))
    B1 = np.empty((P, 2))
    for i, w in enumerate(omega):
        # augmented state (u, u', a, ȧ): a' = ȧ, ȧ' = 0 — the load is linear in the step (Van Loan 1978)
        M = np.array([[0.0, 1.0, 0.0, 0.0],
                      [-w * w, -2.0 * zeta * w, -1.0, 0.0],
                      [0.0, 0.0, 0.0, 1.0],
                      [0.0, 0.0, 0.0, 0.0]])
        E = expm(M * h)
        A[i] = E[:2, :2]
        # a(τ) = a_k + (a_{k+1} − a_k) τ/h: the slope column times (a_{k+1} − a_k)/h
        B1[i] = E[:2, 3] / h
        B0[i] = E[:2, 2] - B1[i]
    return A, B0, B1


def response_spectrum(accel, dt: float, periods, *, damping: float = DAMPING,
                      substeps: int | None = None, lengths=None) -> Spectrum:
    """Response spectra of accelerograms ``accel`` [m/s²] (shape (n,) or (R, n), samples every dt [s] from
    t = 0, piecewise linear between samples, oscillators at rest at t = 0) at ``periods`` [s] (≥ 0).
    ``substeps`` (default: POINTS_PER_PERIOD per shortest nonzero period) splits each interval where peaks
    are looked for. The record is followed by nothing: peaks during free vibration after it are not seen
    (append zeros to include them). ``lengths`` (one per row): the row's record is its first lengths[r]
    samples, padded after them (records of several lengths in one call; the padding is not looked at)."""
    a = np.asarray(accel, dtype=float)
    single = a.ndim == 1
    a2 = np.atleast_2d(a)
    if a2.ndim != 2 or a2.shape[1] < 2 or not np.all(np.isfinite(a2)):
        raise ValueError(f"accel must be a finite array of shape (n,) or (records, n), n >= 2 [m/s²], "
                         f"got shape {a.shape}")
    if not (math.isfinite(dt) and dt > 0.0):
        raise ValueError(f"dt must be finite and > 0 [s], got {dt!r}")
    T = np.atleast_1d(np.asarray(periods, dtype=float))
    if T.ndim != 1 or T.size == 0 or not np.all(np.isfinite(T)) or np.any(T < 0.0):
        raise ValueError("periods must be a 1-D array of finite periods >= 0 [s]")
    if not (0.0 <= damping < 1.0):
        raise ValueError(f"damping must be in [0, 1), got {damping!r}")
    pos = T > 0.0
    if substeps is None:
        t_min = float(T[pos].min()) if pos.any() else dt
        substeps = max(1, math.ceil(dt * POINTS_PER_PERIOD / t_min))
    m = int(substeps)
    if m < 1:
        raise ValueError(f"substeps must be >= 1, got {substeps!r}")
    R, n = a2.shape
    ends = np.full((R, 1), n) if lengths is None else np.asarray(lengths, dtype=int).reshape(R, 1)
    if np.any(ends < 2) or np.any(ends > n):
        raise ValueError(f"lengths must be in [2, {n}]")
    last = (ends - 1) * m  # the last sub-step sample of each row's record
    sd = np.zeros((R, T.size))
    if pos.any():
        omega = 2.0 * math.pi / T[pos]
        A, B0, B1 = step_matrices(omega, damping, dt / m)
        # the load at the sub-steps: a_k + (a_{k+1} − a_k) j/m, j = 0..m−1, then the last sample
        frac = np.arange(m) / m
        fine = (a2[:, :-1, None] + np.diff(a2, axis=1)[:, :, None] * frac).reshape(R, -1)
        fine = np.concatenate([fine, a2[:, -1:]], axis=1)
        u = np.zeros((R, omega.size))
        v = np.zeros((R, omega.size))
        peak = np.zeros((R, omega.size))
        a00, a01, a10, a11 = A[:, 0, 0], A[:, 0, 1], A[:, 1, 0], A[:, 1, 1]
        b00, b01, b10, b11 = B0[:, 0], B0[:, 1], B1[:, 0], B1[:, 1]
        for k in range(fine.shape[1] - 1):
            ak, ak1 = fine[:, k, None], fine[:, k + 1, None]
            u, v = (a00 * u + a01 * v + b00 * ak + b10 * ak1,
                    a10 * u + a11 * v + b01 * ak + b11 * ak1)
            np.maximum(peak, np.where(k + 1 <= last, np.abs(u), 0.0), out=peak)
        sd[:, pos] = peak
    omega_all = np.where(pos, 2.0 * math.pi / np.where(pos, T, 1.0), 0.0)
    psa = sd * omega_all**2
    pga = np.max(np.where(np.arange(n) < ends, np.abs(a2), 0.0), axis=1)
    psa[:, ~pos] = pga[:, None]  # a rigid oscillator follows the ground: PSA = PGA
    psv = sd * omega_all
    if single:
        sd, psv, psa = sd[0], psv[0], psa[0]
    return Spectrum(T, float(damping), sd, psv, psa)


def spectral_acceleration(accel, dt: float, period: float, *, damping: float = DAMPING) -> np.ndarray | float:
    """PSA [m/s²] at one period [s] of one record (float) or of each row of ``accel`` (array)."""
    s = response_spectrum(accel, dt, [period], damping=damping)
    return float(s.psa[0]) if np.ndim(accel) == 1 else s.psa[:, 0]
