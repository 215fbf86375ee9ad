"""Drop-shock simulation: initial state, RKF45 integration and recorded outputs (the notes, §8–10, §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .box import DropBox, ModalEstimates
from .dynamics import box_loads, derivatives, mechanical_energy
from .rkf45 import CashKarpStats, integrate_cash_karp

__all__ = ["DropShockResult", "simulate_drop", "drop_shock_histories"]


@dataclass(frozen=True)
class DropShockResult:
    """Recorded response of one drop (the notes, §10). Arrays share the first axis (sample_count,)."""

    box: DropBox
    t: np.ndarray
    """Times of the accepted steps (or of ``t_out``) [s]."""
    cg_accel_G: np.ndarray
    """‖F‖/(m G): resultant CG acceleration in units of G [-] (the notes, §10; 1 in free fall)."""
    cg_accel_vec_G: np.ndarray
    """F/(m G), world frame [-], shape (sample_count, 3)."""
    corner_loads: np.ndarray
    """Vertical force of the four bottom springs [N], shape (sample_count, 4), order of
    :data:`~validation.drop_shock.box.BOTTOM_CORNER_NAMES`."""
    states: np.ndarray
    """State y = [r (m), v (m/s), q (-), ω (rad/s, world)], shape (sample_count, 13)."""
    step_error: np.ndarray
    """Scaled error err/tol of the step ending at each sample [-] (≤ 1 unless forced)."""
    quaternion_drift: float
    """Largest |1 − |q|| before normalisation over all accepted steps [-]."""
    top_contact: bool
    """Whether a top corner ever touched the ground at a recorded sample."""
    modal: ModalEstimates
    """the notes, §9 estimates used for Δt_max and t_end."""
    settings: dict = field(default_factory=dict)
    """Solver settings (tol, safety, exponent, h_min, h_max, t_end)."""
    stats: CashKarpStats = field(default_factory=CashKarpStats)
    """Accepted / rejected / forced steps and right-hand-side evaluations."""

    def energy(self) -> np.ndarray:
        """Kinetic + gravity + spring energy at each sample [J]."""
        return np.array([mechanical_energy(self.box, y) for y in self.states])


def simulate_drop(
    box: DropBox,
    *,
    t_end: float | None = None,
    tol: float = 1e-8,
    safety: float = 0.9,
    exponent: float = 0.2,
    h_min: float | None = None,
    h_max: float | None = None,
    t_out: np.ndarray | None = None,
    velocity: np.ndarray | None = None,
    angular_velocity: np.ndarray | None = None,
) -> DropShockResult:
    """Drop ``box`` and integrate with Cash–Karp RKF45 (the notes, §8).

    ``t_end`` [s] defaults to the the notes, §9 estimate; ``tol`` per-step relative error [-]; ``safety``,
    ``exponent`` of the step update; ``h_max`` [s] defaults to Δt_max of the notes, §9; ``h_min`` [s] to
    1e-9·Δt_max; ``t_out`` optional increasing output times [s] (steps land on them, e.g. a uniform
    grid to compare with a DEM run); ``velocity`` [m/s] and ``angular_velocity`` [rad/s] initial
    values (zero in the notes, §12).
    """
    modal = box.modal_estimates()
    t_end = modal.t_end if t_end is None else t_end
    h_max = modal.dt_max if h_max is None else h_max
    h_min = 1e-9 * modal.dt_max if h_min is None else h_min
    y0 = box.initial_state(velocity=velocity, angular_velocity=angular_velocity)
    # Error floors: lengths ~ the largest of box size and drop height; speeds ~ impact speed; ω ~ v/L.
    length = max(box.length_x, box.length_y, box.length_z, box.drop_height)
    speed = math.sqrt(2.0 * box.gravity * length)
    floor = np.concatenate([np.full(3, length), np.full(3, speed), np.ones(4), np.full(3, speed / length)])
    drift = [0.0]

    def normalise(y: np.ndarray) -> np.ndarray:
        norm = float(np.linalg.norm(y[6:10]))
        drift[0] = max(drift[0], abs(1.0 - norm))
        y = y.copy()
        y[6:10] /= norm  # the notes, §5: normalise after each accepted step
        return y

    t, ys, errs, stats = integrate_cash_karp(
        lambda _t, y: derivatives(box, y),
        0.0,
        y0,
        t_end,
        tol=tol,
        floor=floor,
        h_max=h_max,
        h_min=h_min,
        h0=min(h_max, 1e-3 * t_end),
        safety=safety,
        exponent=exponent,
        post_step=normalise,
        t_out=t_out,
    )
    weight = box.mass * box.gravity
    accel = np.empty((len(t), 3))
    corners = np.empty((len(t), 4))
    top = False
    for i, y in enumerate(ys):
        loads = box_loads(box, y)
        accel[i] = loads.net_force / weight
        corners[i] = loads.corner_forces[:4]
        top = top or bool(np.any(loads.corner_forces[4:] > 0.0))
    return DropShockResult(
        box=box,
        t=t,
        cg_accel_G=np.linalg.norm(accel, axis=1),
        cg_accel_vec_G=accel,
        corner_loads=corners,
        states=ys,
        step_error=errs,
        quaternion_drift=drift[0],
        top_contact=top,
        modal=modal,
        settings={"tol": tol, "safety": safety, "exponent": exponent, "h_min": h_min, "h_max": h_max,
                  "t_end": t_end},
        stats=stats,
    )


def drop_shock_histories(
    box: DropBox, *, t_out: np.ndarray | None = None, tol: float = 1e-8, t_end: float | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The histories a DEM drop-box run is compared with.

    Returns t [s], CG acceleration [G] and the four corner loads [N], shape (n, 4).
    """
    if t_out is not None and t_end is None:
        t_end = float(np.asarray(t_out)[-1])
    res = simulate_drop(box, tol=tol, t_out=t_out, t_end=t_end)
    return res.t, res.cg_accel_G, res.corner_loads
