"""One-DOF impact oscillator with bilateral clearance (Xu et al. 2022, §3.1, Fig. 5) and its tight reference.

    m ẍ + c ẋ + k x = F(t) + F_c(x, ẋ)                                            (Xu et al. 2022, Eq. 2)

The mass touches a rigid wall at x = +d or x = −d (d the clearance [m]); beyond a wall the overlap is
δ = |x| − d and the wall pushes back with one of the laws of :mod:`validation.impact.laws`.

What Xu et al. 2022, §3.1 prints and what we chose:
- m = 100 kg, d = 5 mm, initial speed 8 m/s, c_e = 0.9, E = 207 GPa, ν = 0.3, Lankarani–Nikravesh law.
- The contact geometry is not printed: we reuse the sphere pair of Xu et al. 2022, §2.2 (R = 10 / 9.9 mm,
  K = 1.509e11 N/m^1.5). With it the largest displacement is about 6 mm, as Xu et al. 2022, Fig. 6 shows.
- k0 and c0 are not printed: we take k0 = 1e6 N/m and c0 = 200 N·s/m (f0 = 15.9 Hz, ζ = 1 %), a soft
  structure whose linear part is still felt by the precise-integration method over 0.02 s.

The approach speed δ̇⁻ that the damped laws need is a memory of the contact. The fixed-step integrators
(:mod:`.newmark`, :mod:`.generalized_alpha`, :mod:`.precise_integration`) estimate it when a step first
enters a wall, by a third-order Taylor extrapolation of the free flight from the last free state to the
wall (:func:`approach_speed`); its error is O(Δt³) and does not spoil the methods' orders. The reference
(:func:`reference_solution`) locates the wall crossings as events of an adaptive DOP853 integration.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp

from .laws import (
    HERTZ_EXPONENT,
    ImpactLaw,
    damped_power_law_gradient,
    damping_factor,
    sphere_contact_stiffness,
)

__all__ = [
    "ClearanceOscillator",
    "ContactMemory",
    "OscillatorResult",
    "approach_speed",
    "reference_solution",
    "XU2022_CONTACT_STIFFNESS",
]

XU2022_CONTACT_STIFFNESS = sphere_contact_stiffness(207e9, 0.3, 0.010, 207e9, 0.3, 0.0099)
"""K [N/m^1.5] of the Xu et al. 2022, §2.2 sphere pair (E = 207 GPa, ν = 0.3, R = 10 / 9.9 mm), Xu et al. 2022, Eq.
4."""


@dataclass(frozen=True, kw_only=True)
class ClearanceOscillator:
    """Parameters of the clearance oscillator (defaults: Xu et al. 2022, §3.1 and the choices in the module doc)."""

    mass: float = 100.0
    """Mass m0 [kg]."""
    stiffness: float = 1.0e6
    """Linear structural stiffness k0 [N/m] (not printed in Xu et al. 2022)."""
    damping: float = 200.0
    """Linear structural damping c0 [N·s/m] (not printed in Xu et al. 2022)."""
    clearance: float = 0.005
    """Clearance d on each side [m]."""
    contact_stiffness: float = XU2022_CONTACT_STIFFNESS
    """Contact stiffness K [N/m^n]."""
    c_e: float = 0.9
    """Coefficient of restitution of the law [-]."""
    law: ImpactLaw = ImpactLaw.LANKARANI_NIKRAVESH
    """Impact law (Xu et al. 2022, §3.1 uses Lankarani–Nikravesh)."""
    exponent: float = HERTZ_EXPONENT
    """Force exponent n [-]."""
    forcing: Callable[[float], float] | None = None
    """External force F(t) [N], or None for free vibration."""
    _d: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "law", ImpactLaw(self.law))
        for name in ("mass", "clearance", "contact_stiffness", "exponent"):
            if not getattr(self, name) > 0.0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
        for name in ("stiffness", "damping"):
            if not getattr(self, name) >= 0.0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        object.__setattr__(self, "_d", damping_factor(self.law, self.c_e))  # validates c_e

    def external_force(self, t: float) -> float:
        """F(t) [N] at time ``t`` [s]."""
        return 0.0 if self.forcing is None else float(self.forcing(t))

    def free_acceleration(self, t: float, x: float, v: float) -> float:
        """Acceleration without contact (F − c v − k x)/m [m/s²] at ``t`` [s], ``x`` [m], ``v`` [m/s]."""
        return (self.external_force(t) - self.damping * v - self.stiffness * x) / self.mass

    def contact_force(self, x: float, v: float, memory: ContactMemory) -> tuple[float, float, float]:
        """Wall force on the mass F_c [N], ∂F_c/∂x [N/m], ∂F_c/∂v [N·s/m].

        ``x`` [m], ``v`` [m/s]; ``memory`` holds the approach speed of each wall (must be set for a
        wall the mass is inside of, when the law is damped).
        """
        d = self.clearance
        if x > d:  # right wall: δ = x − d, δ̇ = v, force pushes towards −x
            f, dfd, dfv = damped_power_law_gradient(x - d, v, self.contact_stiffness, self._d,
                                                    memory.v_right, self.exponent)
            return -f, -dfd, -dfv
        if x < -d:  # left wall: δ = −d − x, δ̇ = −v, force pushes towards +x
            f, dfd, dfv = damped_power_law_gradient(-d - x, -v, self.contact_stiffness, self._d,
                                                    memory.v_left, self.exponent)
            return f, -dfd, -dfv
        return 0.0, 0.0, 0.0

    def acceleration(self, t: float, x: float, v: float, memory: ContactMemory) -> float:
        """Full acceleration ẍ [m/s²] (Xu et al. 2022, Eq. 2 divided by m)."""
        return self.free_acceleration(t, x, v) + self.contact_force(x, v, memory)[0] / self.mass


@dataclass
class ContactMemory:
    """Approach speeds δ̇⁻ [m/s] of the current contacts with the right (+d) and left (−d) walls.

    NaN when the mass is not inside that wall. Mutable: the integrators update it step by step.
    """

    v_right: float = math.nan
    v_left: float = math.nan

    def candidates(
        self, osc: ClearanceOscillator, t: float, x: float, v: float, a: float, dt: float
    ) -> ContactMemory:
        """Memory to use for a trial step from the free state (t, x, v, a) over ``dt`` [s].

        Walls already in contact keep their speed; a wall not in contact gets the Taylor estimate of
        :func:`approach_speed`, used only if the trial state ends up inside it.
        """
        right, left = self.v_right, self.v_left
        if math.isnan(right):
            right = approach_speed(osc, t, x, v, a, +1, dt)
        if math.isnan(left):
            left = approach_speed(osc, t, x, v, a, -1, dt)
        return ContactMemory(right, left)

    def commit(self, osc: ClearanceOscillator, x: float, trial: ContactMemory) -> None:
        """After an accepted step ending at ``x`` [m]: keep the speed of walls the mass is inside of."""
        self.v_right = trial.v_right if x > osc.clearance else math.nan
        self.v_left = trial.v_left if x < -osc.clearance else math.nan


def approach_speed(
    osc: ClearanceOscillator, t: float, x: float, v: float, a: float, side: int, dt: float
) -> float:
    """Speed [m/s] with which free flight from (``t`` [s], ``x`` [m], ``v`` [m/s], ``a`` [m/s²])
    reaches the wall ``side`` (+1 right, −1 left), by a cubic Taylor expansion (error O(dt³)).

    The jerk is that of the linear free motion, (−c a − k v)/m, plus dF/dt by a central difference.
    If the wall is not reached within ``dt`` [s] the current normal speed is returned (a floor of
    1e-12 m/s keeps the damped laws finite).
    """
    eps = 1e-6 * dt
    f_dot = (osc.external_force(t + eps) - osc.external_force(t - eps)) / (2.0 * eps) if osc.forcing else 0.0
    jerk = (f_dot - osc.damping * a - osc.stiffness * v) / osc.mass
    gap = side * osc.clearance - x  # signed distance to the wall
    # Newton on s ↦ v s + a s²/2 + j s³/6 − gap from the linear guess; two or three iterations suffice.
    s = gap / v if v != 0.0 else 0.0
    if not (0.0 <= s <= 2.0 * dt):
        s = min(max(s, 0.0), dt)
    for _ in range(8):
        g = v * s + 0.5 * a * s * s + jerk * s**3 / 6.0 - gap
        dg = v + a * s + 0.5 * jerk * s * s
        if dg == 0.0:
            break
        step = g / dg
        s -= step
        if abs(step) <= 1e-15 * max(dt, abs(s)):
            break
    s = min(max(s, 0.0), 2.0 * dt)
    speed = side * (v + a * s + 0.5 * jerk * s * s)
    return max(speed, 1e-12)


@dataclass(frozen=True)
class OscillatorResult:
    """Time history of the oscillator; arrays of shape (step_count + 1,)."""

    method: str
    t: np.ndarray
    """Times [s]."""
    x: np.ndarray
    """Displacement [m]."""
    v: np.ndarray
    """Velocity [m/s]."""
    a: np.ndarray
    """Acceleration [m/s²]."""
    iterations: int = 0
    """Total Newton–Raphson iterations (implicit methods), 0 otherwise."""


def reference_solution(
    osc: ClearanceOscillator,
    x0: float,
    v0: float,
    t_eval: np.ndarray,
    *,
    rtol: float = 1e-12,
) -> OscillatorResult:
    """Tight reference: DOP853 between events at the walls, approach speed taken at the event.

    ``x0`` [m] must lie inside the clearance, ``v0`` [m/s], ``t_eval`` increasing times [s] starting
    at 0; ``rtol`` relative tolerance (absolute: rtol·d and rtol·max(|v0|, 1 m/s)).
    """
    d = osc.clearance
    if abs(x0) > d:
        raise ValueError(f"x0 must lie within the clearance [-{d}, {d}] m, got {x0!r}")
    t_eval = np.asarray(t_eval, dtype=float)
    t_end = float(t_eval[-1])
    atol = [rtol * d, rtol * max(abs(v0), 1.0)]
    memory = ContactMemory()
    x_out = np.full(t_eval.shape, np.nan)
    v_out = np.full(t_eval.shape, np.nan)
    t0, y0, side = 0.0, np.array([x0, v0]), 0
    a_out = np.full(t_eval.shape, np.nan)

    def rhs_free(t: float, y: np.ndarray) -> list[float]:
        return [y[1], osc.free_acceleration(t, y[0], y[1])]

    def rhs_contact(t: float, y: np.ndarray) -> list[float]:
        return [y[1], osc.acceleration(t, y[0], y[1], memory)]

    while t0 < t_end:
        if side == 0:  # free flight: stop at either wall
            def hit_right(_t, y):
                return y[0] - d

            def hit_left(_t, y):
                return -d - y[0]

            events = [hit_right, hit_left]
        else:  # inside wall `side`: stop when the overlap closes
            def leave(_t, y, s=side):
                return s * y[0] - d

            events = [leave]
        for ev in events:
            ev.terminal, ev.direction = True, (1.0 if side == 0 else -1.0)
        rhs = rhs_free if side == 0 else rhs_contact
        sol = solve_ivp(rhs, (t0, t_end), y0, method="DOP853", rtol=rtol, atol=atol,
                        events=events, dense_output=True)
        if sol.status < 0:
            raise RuntimeError(f"reference integration failed at t = {sol.t[-1]:.6g} s: {sol.message}")
        t1 = float(sol.t[-1])
        mask = (t_eval >= t0) & (t_eval <= t1)
        x_out[mask], v_out[mask] = sol.sol(t_eval[mask])
        # In free flight the samples near an event may sit a rounding error beyond the wall: no contact.
        accel = osc.free_acceleration if side == 0 else (lambda t, x, v: osc.acceleration(t, x, v, memory))
        a_out[mask] = [accel(t, x, v) for t, x, v in zip(t_eval[mask], x_out[mask], v_out[mask], strict=True)]
        if sol.status == 1:
            which = next(i for i, te in enumerate(sol.t_events) if len(te))
            y0 = sol.y_events[which][0].copy()
            if side == 0:
                side = +1 if which == 0 else -1
                y0[0] = side * d
                speed = side * y0[1]
                if side > 0:
                    memory.v_right = speed
                else:
                    memory.v_left = speed
            else:
                y0[0] = side * d
                memory.v_right = memory.v_left = math.nan
                side = 0
        t0 = t1
    return OscillatorResult("reference_dop853", t_eval, x_out, v_out, a_out)

