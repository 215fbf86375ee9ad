"""Right-hand side of the drop-shock equations of motion (the notes, §4, §6, §7)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .box import DropBox
from .quaternion import quat_to_matrix

__all__ = ["BoxLoads", "box_loads", "derivatives", "mechanical_energy"]


@dataclass(frozen=True)
class BoxLoads:
    """Forces on the box in one state, world frame."""

    net_force: np.ndarray
    """Gravity plus all corner forces [N], shape (3,)."""
    torque: np.ndarray
    """Moment of the corner forces about the CG [N·m], shape (3,)."""
    corner_forces: np.ndarray
    """Vertical spring–damper force at each of the eight corners [N], shape (8,), ≥ 0."""
    penetration: np.ndarray
    """max(0, −p_z) of each corner [m], shape (8,)."""


def _cross_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a × b for (n, 3) arrays (np.cross is slow for small arrays)."""
    return np.stack([
        a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
        a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
        a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
    ], axis=-1)


def box_loads(box: DropBox, y: np.ndarray, rot: np.ndarray | None = None) -> BoxLoads:
    """Corner forces, net force and torque in state ``y`` (the notes, §7 steps 1–7).

    All eight corners are checked against the ground, as the notes, §4 accumulates "over all eight corners";
    the top four only touch after a tilt of more than 90° minus the box's diagonal angle.
    ``rot`` is R(q) if already known.
    """
    rot = quat_to_matrix(y[6:10]) if rot is None else rot
    arms = box.corners_body @ rot.T  # r_corner in world axes [m], (8, 3)
    z = y[2] + arms[:, 2]
    wx, wy = y[10], y[11]
    v_z = y[5] + wx * arms[:, 1] - wy * arms[:, 0]  # z of v + ω × r (the notes, §7 step 3)
    penetration = np.maximum(0.0, -z)
    # Unilateral linear spring–damper, F = k·pen − c·v_n clipped at 0 (the notes, §4).
    spring_damper = np.maximum(0.0, box.stiffness * penetration - box.damping * v_z)
    force_z = np.where(penetration > 0.0, spring_damper, 0.0)
    net = np.array([0.0, 0.0, force_z.sum() - box.mass * box.gravity])  # plus gravity at the CG
    # Σ r × (0, 0, F_z) = Σ (r_y F_z, −r_x F_z, 0).
    torque = np.array([arms[:, 1] @ force_z, -(arms[:, 0] @ force_z), 0.0])
    return BoxLoads(net, torque, force_z, penetration)


def derivatives(box: DropBox, y: np.ndarray) -> np.ndarray:
    """dy/dt of the 13-component state y = [r, v, q, ω] (the notes, §6).

    m dv/dt = F, I_w dω/dt + ω × (I_w ω) = T with I_w = R I_body Rᵀ, dq/dt = ½ q_ω ⊗ q.
    """
    rot = quat_to_matrix(y[6:10])
    loads = box_loads(box, y, rot)
    i_body = np.diag(box.inertia_body)
    omega = y[10:13]
    omega_b = rot.T @ omega
    h_w = rot @ (i_body * omega_b)  # I_w ω
    gyro = _cross_rows(omega, h_w)
    # I_w⁻¹ = R I_body⁻¹ Rᵀ: the body inertia is diagonal, so no solve is needed.
    omega_dot = rot @ ((rot.T @ (loads.torque - gyro)) / i_body)
    qw, qx, qy, qz = y[6:10]
    wx, wy, wz = omega
    dy = np.empty(13)
    dy[0:3] = y[3:6]
    dy[3:6] = loads.net_force / box.mass
    # ½ [0, ω] ⊗ q written out (the notes, §6).
    dy[6] = 0.5 * (-wx * qx - wy * qy - wz * qz)
    dy[7] = 0.5 * (wx * qw + wy * qz - wz * qy)
    dy[8] = 0.5 * (wy * qw - wx * qz + wz * qx)
    dy[9] = 0.5 * (wz * qw + wx * qy - wy * qx)
    dy[10:13] = omega_dot
    return dy


def mechanical_energy(box: DropBox, y: np.ndarray) -> float:
    """Kinetic + gravity + spring energy [J] of state ``y``; conserved when c = 0 (the notes, §6 with no loss).

    Gravity potential is m G z_CG; each penetrating corner stores ½ k pen².
    """
    rot = quat_to_matrix(y[6:10])
    inertia_w = rot @ box.inertia_body @ rot.T
    omega = y[10:13]
    kinetic = 0.5 * box.mass * float(y[3:6] @ y[3:6]) + 0.5 * float(omega @ inertia_w @ omega)
    pen = box_loads(box, y).penetration
    return kinetic + box.mass * box.gravity * y[2] + 0.5 * box.stiffness * float(pen @ pen)
