"""Precise integration with the Adams multi-step treatment of the nonlinear force (Xu et al. 2022, §2.3 (3)).

With the dual variable p = m ẋ + c x/2 (Xu et al. 2022, Eq. 33) the oscillator becomes ż = H z + f(z, t) for
z = [x, p] (Xu et al. 2022, Eqs. 32, 34), with (Xu et al. 2022, Eqs. 36–37, one DOF)

    H = [[−c/(2m), 1/m], [c²/(4m) − k, −c/(2m)]],        f = [0, F(t) + F_c(x, ẋ)].

Over a step η the Duhamel formula (Xu et al. 2022, Eq. 38) is exact for the linear part; the nonlinear force is
replaced by the quadratic through f_{k−2}, f_{k−1}, f_k (Xu et al. 2022, Eq. 42), giving the explicit three-step
scheme of Xu et al. 2022, Eq. 43. The integrals of e^{H(η−τ)} τ^j (Xu et al. 2022, Eq. 41) are read off the exponential
of an augmented block matrix (Van Loan 1978), and every exponential is computed by Zhong's 2^N algorithm,
the "precise" part of the method. The scheme is third-order accurate; the first two steps are taken
with the classical fourth-order Runge–Kutta method so as not to lower that order.
"""

from __future__ import annotations

import numpy as np

from .newmark import _check_steps
from .oscillator import ClearanceOscillator, ContactMemory, OscillatorResult

__all__ = ["expm_2n", "duhamel_matrices", "precise_integration"]


def expm_2n(a: np.ndarray, *, doublings: int = 20, taylor_terms: int = 4) -> np.ndarray:
    """Matrix exponential e^A by Zhong's 2^N algorithm (precise integration).

    e^A = (e^{A/2^N})^{2^N}; the small exponential is kept as T = e^{A/2^N} − I (Taylor, ``taylor_terms``
    terms) and squared N times as T ← 2T + T², so that the identity is added only at the end and the
    small increment is not lost to rounding. ``a`` square matrix [dimensionless, e.g. Hη].
    """
    a = np.asarray(a, dtype=float)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"a must be a square matrix, got shape {a.shape}")
    if doublings < 0 or taylor_terms < 1:
        raise ValueError(f"doublings must be >= 0 and taylor_terms >= 1, got {doublings!r}, {taylor_terms!r}")
    small = a / 2.0**doublings
    t = np.zeros_like(small)
    term = np.eye(a.shape[0])
    for j in range(1, taylor_terms + 1):
        term = term @ small / j
        t = t + term
    for _ in range(doublings):
        t = 2.0 * t + t @ t
    return np.eye(a.shape[0]) + t


def duhamel_matrices(h: np.ndarray, eta: float, *, doublings: int = 20) -> tuple[np.ndarray, ...]:
    """Φ = e^{Hη} and G_j = ∫₀^η e^{H(η−τ)} τ^j dτ for j = 0, 1, 2 (Xu et al. 2022, Eqs. 40–41, unscaled).

    ``h`` system matrix H [1/s], ``eta`` step [s]. Uses the exponential of the block matrix
    [[H, I, 0, 0], [0, 0, I, 0], [0, 0, 0, I], [0, 0, 0, 0]]·η whose first block row holds
    Φ, G_0, G_1, G_2/2.
    """
    h = np.asarray(h, dtype=float)
    n = h.shape[0]
    z = np.zeros((4 * n, 4 * n))
    z[:n, :n] = h
    for b in range(3):
        z[b * n:(b + 1) * n, (b + 1) * n:(b + 2) * n] = np.eye(n)
    e = expm_2n(z * eta, doublings=doublings)
    phi, g0, g1, g2_half = (e[:n, b * n:(b + 1) * n] for b in range(4))
    # The block exponential integrates in units of η: G_j above already carries η^{j+1}.
    return phi, g0, g1, 2.0 * g2_half


def precise_integration(
    osc: ClearanceOscillator,
    x0: float,
    v0: float,
    t_end: float,
    dt: float,
    *,
    doublings: int = 20,
) -> OscillatorResult:
    """Integrate ``osc`` from x0 [m], v0 [m/s] to ``t_end`` [s] with fixed step ``dt`` [s].

    ``doublings``: N of the 2^N algorithm. Explicit: stable while dt·ω_contact ≲ 0.7 (the
    third-order Adams–Bashforth bound on the imaginary axis), ω_contact the contact's tangent frequency.
    """
    steps = _check_steps(t_end, dt)
    if steps < 3:
        raise ValueError(f"t_end / dt must be >= 3 for the three-step scheme, got {steps}")
    m, c, k, d = osc.mass, osc.damping, osc.stiffness, osc.clearance
    if abs(x0) > d:
        raise ValueError(f"x0 must lie within the clearance [-{d}, {d}] m, got {x0!r}")
    h = np.array([[-c / (2.0 * m), 1.0 / m], [c * c / (4.0 * m) - k, -c / (2.0 * m)]])  # Xu et al. 2022, Eq. 37
    phi, g0, g1, g2 = duhamel_matrices(h, dt, doublings=doublings)
    # Weights of f_k, f_{k−1}, f_{k−2} after inserting the quadratic of Xu et al. 2022, Eq. 42 (Xu et al. 2022, Eq. 43);
    # only the second column matters because f acts on p alone.
    w0 = (g0 + 1.5 / dt * g1 + 0.5 / dt**2 * g2)[:, 1]
    w1 = (-2.0 / dt * g1 - 1.0 / dt**2 * g2)[:, 1]
    w2 = (0.5 / dt * g1 + 0.5 / dt**2 * g2)[:, 1]
    p11, p12, p21, p22 = phi[0, 0], phi[0, 1], phi[1, 0], phi[1, 1]

    t = np.arange(steps + 1) * dt
    x = np.empty(steps + 1)
    v = np.empty(steps + 1)
    acc = np.empty(steps + 1)
    g = np.empty(steps + 1)  # F(t) + F_c: the nonlinear term f's second entry [N]
    memory = ContactMemory()

    def force(i: int) -> None:
        g[i] = osc.external_force(t[i]) + osc.contact_force(x[i], v[i], memory)[0]
        acc[i] = (g[i] - c * v[i] - k * x[i]) / m

    def advance_memory(i: int) -> None:
        # The step i → i+1 just entered a wall: estimate the approach speed from free state i.
        a_free = osc.free_acceleration(t[i], x[i], v[i])
        memory.commit(osc, x[i + 1], memory.candidates(osc, t[i], x[i], v[i], a_free, dt))

    x[0], v[0] = x0, v0
    force(0)
    for i in range(2):  # starter: classical RK4 on (x, ẋ)
        trial = memory.candidates(osc, t[i], x[i], v[i], acc[i], dt)

        def rhs(s: float, xs: float, vs: float, trial: ContactMemory = trial) -> tuple[float, float]:
            return vs, osc.acceleration(s, xs, vs, trial)

        k1 = rhs(t[i], x[i], v[i])
        k2 = rhs(t[i] + dt / 2, x[i] + dt / 2 * k1[0], v[i] + dt / 2 * k1[1])
        k3 = rhs(t[i] + dt / 2, x[i] + dt / 2 * k2[0], v[i] + dt / 2 * k2[1])
        k4 = rhs(t[i] + dt, x[i] + dt * k3[0], v[i] + dt * k3[1])
        x[i + 1] = x[i] + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        v[i + 1] = v[i] + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        memory.commit(osc, x[i + 1], trial)
        force(i + 1)

    for i in range(2, steps):
        q, p = x[i], m * v[i] + 0.5 * c * x[i]  # Xu et al. 2022, Eq. 33
        fk, fk1, fk2 = g[i], g[i - 1], g[i - 2]
        q_new = p11 * q + p12 * p + w0[0] * fk + w1[0] * fk1 + w2[0] * fk2  # Xu et al. 2022, Eq. 43
        p_new = p21 * q + p22 * p + w0[1] * fk + w1[1] * fk1 + w2[1] * fk2
        x[i + 1] = q_new
        v[i + 1] = (p_new - 0.5 * c * q_new) / m
        advance_memory(i)
        force(i + 1)
    return OscillatorResult("precise_integration", t, x, v, acc)
