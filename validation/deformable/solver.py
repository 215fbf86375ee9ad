"""Event-driven integration of the deformable rocking body (the paper, section "Uplift" … "Chattering", "Numerics").

Phases: both tipping points down (state q, q̇; θ ≡ 0) or rocking on one point (state θ, θ̇, q, q̇).
Each phase is integrated with SciPy's DOP853 (the paper used a Runge–Kutta scheme) until an event:
- uplift (contact phase): :func:`~.dynamics.uplift_margin` of either point crosses zero (the paper, Eq. 4);
- impact (rocking phase): θ returns to 0 → momentum conditions of :func:`~.impact.impact` (the paper, Eqs. 6–9);
- overturning (rocking phase): |θ| passes the unstable equilibrium of the paper, Eq. 5 moving outwards;
  the run stops there (the paper: "prudent … to avoid following an unstable trajectory").
Chatter (the paper, section "Chattering"): when two impacts follow closer than ``chatter_ratio`` periods of the mode,
θ and θ̇ are set to zero and the body goes to the contact phase.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp

from .body import DeformableBody
from .dynamics import (
    GroundAcceleration,
    contact_acceleration,
    effective_gravity,
    kinetic_energy,
    overturning_angle,
    potential_energy,
    reaction_force,
    rocking_accelerations,
    uplift_margin,
)
from .impact import ImpactOutcome, impact

__all__ = ["ImpactRecord", "DeformableRockingResult", "simulate_rocking", "static_deflection"]


@dataclass(frozen=True)
class ImpactRecord:
    """One impact (or a chatter stop) and its outcome."""

    t: float
    """Time [s]."""
    pivot_before: int
    """Tipping point rocked on before (+1 point 1, −1 point 2)."""
    theta_dot_before: float
    """θ̇⁻ [rad/s]."""
    q_dot_before: float
    """q̇⁻ [m/s]."""
    outcome: ImpactOutcome
    """Velocities after, impulse [N·s], energy lost [J]."""
    chatter: bool = False
    """True if the chatter rule stopped the rocking here (θ = θ̇ = 0 imposed after the impact)."""


@dataclass(frozen=True)
class DeformableRockingResult:
    """History of a run; arrays share the first axis (sample_count,)."""

    body: DeformableBody
    t: np.ndarray
    """Times [s]."""
    theta: np.ndarray
    """Tilt θ [rad] (> 0 on point 1)."""
    theta_dot: np.ndarray
    """θ̇ [rad/s]."""
    q: np.ndarray
    """Modal coordinate [m]."""
    q_dot: np.ndarray
    """q̇ [m/s]."""
    pivot: np.ndarray
    """+1 / −1 rocking on point 1 / 2, 0 both points down (int)."""
    reaction: np.ndarray
    """Support reaction (F_x, F_y) [N], shape (sample_count, 2) (the paper, Eq. 3)."""
    impacts: list[ImpactRecord] = field(default_factory=list)
    """Impacts in time order."""
    uplift_times: list[float] = field(default_factory=list)
    """Times [s] at which a flat body started to rock (the paper, section "Uplift")."""
    overturned: bool = False
    """Whether the run stopped on the overturning check (the paper, Eq. 5)."""
    stop_time: float = math.nan
    """Time [s] of the overturning stop, or NaN."""
    ground_acceleration: GroundAcceleration | None = None

    @property
    def impact_times(self) -> np.ndarray:
        """Times of the impacts [s]."""
        return np.array([r.t for r in self.impacts])

    @property
    def friction_ratio(self) -> np.ndarray:
        """|F_x| / F_y along the history [-] (the paper, section "Sliding"); inf where F_y ≤ 0."""
        fx, fy = self.reaction[:, 0], self.reaction[:, 1]
        return np.where(fy > 0.0, np.abs(fx) / np.where(fy > 0.0, fy, 1.0), np.inf)

    @property
    def required_friction(self) -> float:
        """Friction coefficient needed to prevent sliding over the run: the largest of the force ratio
        and of the impulse ratios |P_x|/P_y of the impacts [-] (the paper, section "Sliding")."""
        ratios = [float(np.max(self.friction_ratio))] if len(self.t) else []
        ratios += [r.outcome.friction_ratio for r in self.impacts]
        return max(ratios) if ratios else 0.0

    def energy(self) -> np.ndarray:
        """T + gravity + strain energy relative to the support [J] (conserved between impacts
        without damping and base motion)."""
        b = self.body
        return np.array([
            kinetic_energy(b, int(p), w, q, qd) + potential_energy(b, int(p), th, q)
            for th, w, q, qd, p in zip(self.theta, self.theta_dot, self.q, self.q_dot, self.pivot,
                                       strict=True)
        ])


def static_deflection(body: DeformableBody, theta: float, pivot: int) -> float:
    """q [m] that balances gravity with the body held at tilt ``theta`` [rad] on ``pivot``: k_q q = −V_q."""
    px, py = body.participation
    fy = math.sin(theta) * px + math.cos(theta) * py  # (Rot(θ) Φ)_y
    return -body.gravity * fy / body.modal_stiffness


def simulate_rocking(
    body: DeformableBody,
    t_end: float,
    *,
    theta0: float = 0.0,
    theta_dot0: float = 0.0,
    q0: float | None = None,
    q_dot0: float = 0.0,
    ground_acceleration: GroundAcceleration | None = None,
    dt_out: float | None = None,
    rtol: float = 1e-10,
    chatter_ratio: float = 1.0,
    max_impacts: int = 10_000,
) -> DeformableRockingResult:
    """Integrate the deformable rocking body from t = 0 to ``t_end`` [s].

    ``theta0`` [rad], ``theta_dot0`` [rad/s], ``q0`` [m] (default: the static deflection at θ0),
    ``q_dot0`` [m/s]; ``ground_acceleration`` t ↦ (ẍ_g, ÿ_g) [m/s²] or None; ``dt_out`` [s] uniform
    output spacing (default: the integrator's own steps); ``rtol`` DOP853 relative tolerance;
    ``chatter_ratio`` [-]: impacts closer than this many mode periods 2π/ω_q stop the rocking;
    ``max_impacts``: safety limit on the number of impacts (RuntimeError beyond).
    """
    if not t_end > 0.0:
        raise ValueError(f"t_end must be > 0 s, got {t_end!r}")
    if not chatter_ratio >= 0.0:
        raise ValueError(f"chatter_ratio must be >= 0, got {chatter_ratio!r}")
    if dt_out is not None and not dt_out > 0.0:
        raise ValueError(f"dt_out must be > 0 s, got {dt_out!r}")
    alpha = min(body.slenderness)
    theta_min, theta_max = overturning_angle(body, -1), overturning_angle(body, 1)
    if not theta_min < theta0 < theta_max:
        raise ValueError(f"theta0 must lie between the overturning angles {theta_min:.4g} and "
                         f"{theta_max:.4g} rad, got {theta0!r}")
    pivot = 1 if theta0 > 0 else -1 if theta0 < 0 else (1 if theta_dot0 > 0 else -1 if theta_dot0 < 0 else 0)
    q = static_deflection(body, theta0, pivot or 1) if q0 is None else q0
    state = [theta0, theta_dot0, q, q_dot0] if pivot else [q, q_dot0]
    theta_ot = {1: theta_max, -1: theta_min}
    p = body.rigid_frequency()
    omega_q = body.modal_frequency
    # Absolute tolerances from the motion's scales: tilt α, rate pα; the mode's response to a
    # velocity jump of order (b1+b2)·pα has amplitude (b1+b2)pα/ω_q.
    v_scale = (body.b1 + body.b2) * p * alpha
    scales = {"theta": alpha, "theta_dot": p * alpha, "q": v_scale / omega_q + body.gravity * body.mass
              / body.modal_stiffness * 1e-3, "q_dot": v_scale}
    atol_rock = rtol * np.array([scales["theta"], scales["theta_dot"], scales["q"], scales["q_dot"]])
    atol_flat = atol_rock[2:]

    samples: list[tuple[np.ndarray, np.ndarray, int]] = []  # (t, y(4, n), pivot)
    impacts: list[ImpactRecord] = []
    uplifts: list[float] = []
    overturned, stop_time = False, math.nan
    t = 0.0
    last_impact = -math.inf
    chatter_interval = chatter_ratio * 2.0 * math.pi / omega_q

    def g_e(s: float) -> tuple[float, float]:
        return effective_gravity(body, s, ground_acceleration)

    # Uplift needs the base moment to fall below −ε·M g (b1 + b2): a relative margin of 1e-9 keeps a body
    # that only touches the uplift limit (margin ≈ 0, about to recover) from lifting for no time at all.
    margin_floor = 1e-9 * body.mass * body.gravity * (body.b1 + body.b2)
    hold_flat = False  # set when a rocking phase made no progress: skip the immediate-uplift check once
    stalls = 0

    while t < t_end:
        if pivot == 0:
            # Uplift right away if the base cannot hold the body flat now (e.g. after an impact).
            margins = {s: uplift_margin(body, s, state[0], state[1], g_e(t)) for s in (1, -1)}
            if not hold_flat and min(margins.values()) < -margin_floor:
                pivot = min(margins, key=margins.get)
                uplifts.append(t)
                state = [0.0, 0.0, state[0], state[1]]
                continue
            hold_flat = False

            def rhs_flat(s: float, y: np.ndarray) -> list[float]:
                return [y[1], contact_acceleration(body, y[0], y[1], g_e(s))]

            events = []
            for s_ in (1, -1):
                def lift(s: float, y: np.ndarray, s_: int = s_) -> float:
                    return uplift_margin(body, s_, y[0], y[1], g_e(s)) + margin_floor
                lift.terminal, lift.direction = True, -1.0
                events.append(lift)
            sol = solve_ivp(rhs_flat, (t, t_end), state, method="DOP853", rtol=rtol, atol=atol_flat,
                            events=events, dense_output=dt_out is not None)
            _store(samples, sol, 0, dt_out, t)
            t = float(sol.t[-1])
            if sol.status == 1:
                which = 0 if len(sol.t_events[0]) else 1
                pivot = 1 if which == 0 else -1
                uplifts.append(t)
                y = sol.y_events[which][0]
                state = [0.0, 0.0, float(y[0]), float(y[1])]
            continue

        def rhs_rock(s: float, y: np.ndarray, pv: int = pivot) -> list[float]:
            th_dd, q_dd = rocking_accelerations(body, pv, y[0], y[1], y[2], y[3], g_e(s))
            return [y[1], th_dd, y[3], q_dd]

        def back_to_flat(_s: float, y: np.ndarray, pv: int = pivot) -> float:
            return pv * y[0]

        def overturn(_s: float, y: np.ndarray, pv: int = pivot) -> float:
            return pv * (y[0] - theta_ot[pv])

        back_to_flat.terminal, back_to_flat.direction = True, -1.0
        overturn.terminal, overturn.direction = True, 1.0
        sol = solve_ivp(rhs_rock, (t, t_end), state, method="DOP853", rtol=rtol, atol=atol_rock,
                        events=[back_to_flat, overturn], dense_output=dt_out is not None)
        _store(samples, sol, pivot, dt_out, t)
        progressed = float(sol.t[-1]) > t
        t = float(sol.t[-1])
        if sol.status != 1:
            break
        stalls = 0 if progressed else stalls + 1
        if stalls > 10:
            raise RuntimeError(f"rocking phase makes no progress at t = {t:.9g} s")
        if len(sol.t_events[1]):
            overturned, stop_time = True, t
            break
        y = sol.y_events[0][0]
        w_minus, q_now, qd_minus = float(y[1]), float(y[2]), float(y[3])
        if w_minus * pivot >= 0.0 or not progressed:
            # Touched down with no returning speed (a lift-off that did not happen): lie flat, and do not
            # lift again at this same instant.
            pivot, state, hold_flat = 0, [q_now, qd_minus], True
            continue
        outcome = impact(body, pivot, w_minus, q_now, qd_minus)
        chatter = outcome.pivot_after != 0 and t - last_impact < chatter_interval
        if chatter:
            # the paper, section "Chattering": stop the rocking, keep the mode's state.
            t_flat = kinetic_energy(body, 0, 0.0, q_now, outcome.q_dot)
            outcome = ImpactOutcome(0, 0.0, outcome.q_dot, outcome.impulse,
                                    kinetic_energy(body, pivot, w_minus, q_now, qd_minus) - t_flat,
                                    outcome.energy_loss_impulse)
        impacts.append(ImpactRecord(t, pivot, w_minus, qd_minus, outcome, chatter))
        if len(impacts) > max_impacts:
            raise RuntimeError(f"more than max_impacts={max_impacts} impacts by t = {t:.6g} s")
        last_impact = t
        pivot = outcome.pivot_after
        state = [0.0, outcome.theta_dot, q_now, outcome.q_dot] if pivot else [q_now, outcome.q_dot]

    t_all, y_all, pv_all = _concatenate(samples)
    reaction = np.array([
        _reaction(body, int(pv), ts, y, g_e(ts)) for ts, y, pv in zip(t_all, y_all.T, pv_all, strict=True)
    ]).reshape(-1, 2)
    return DeformableRockingResult(body, t_all, y_all[0], y_all[1], y_all[2], y_all[3], pv_all, reaction,
                                   impacts, uplifts, overturned, stop_time, ground_acceleration)


def _store(samples: list, sol, pivot: int, dt_out: float | None, t0: float) -> None:
    """Append a phase's samples as full 4-component states (θ = θ̇ = 0 in the contact phase)."""
    if dt_out is None:
        ts, ys = sol.t, sol.y
    else:
        k0 = math.ceil(t0 / dt_out - 1e-9)
        k1 = math.floor(sol.t[-1] / dt_out + 1e-9)
        ts = np.arange(k0, k1 + 1) * dt_out
        ts = ts[(ts >= t0) & (ts <= sol.t[-1])]
        if samples and len(ts) and len(samples[-1][0]) and ts[0] <= samples[-1][0][-1]:
            ts = ts[1:]
        ys = sol.sol(ts) if len(ts) else np.zeros((sol.y.shape[0], 0))
    if pivot == 0:
        ys = np.vstack([np.zeros((2, ys.shape[1])), ys])
    samples.append((np.asarray(ts, dtype=float), ys, pivot))


def _concatenate(samples: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ts = np.concatenate([s[0] for s in samples]) if samples else np.zeros(0)
    ys = np.hstack([s[1] for s in samples]) if samples else np.zeros((4, 0))
    pv = (np.concatenate([np.full(len(s[0]), s[2], dtype=int) for s in samples]) if samples
          else np.zeros(0, dtype=int))
    return ts, ys, pv


def _reaction(body: DeformableBody, pivot: int, t: float, y: np.ndarray, g_e: tuple[float, float]):
    theta, w, q, qd = y
    if pivot == 0:
        q_dd = contact_acceleration(body, q, qd, g_e)
        return reaction_force(body, 0, 0.0, 0.0, 0.0, q, qd, q_dd, g_e)
    th_dd, q_dd = rocking_accelerations(body, pivot, theta, w, q, qd, g_e)
    return reaction_force(body, pivot, theta, w, th_dd, q, qd, q_dd, g_e)
