"""Unit-quaternion helpers, q = [q_w, q_x, q_y, q_z] mapping body to world (the notes, §5–6)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["quat_multiply", "quat_to_matrix", "quat_from_tilts", "quat_from_axis_angle"]


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a ⊗ b of two quaternions [w, x, y, z], shape (4,)."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrix R (body → world), shape (3, 3), of the unit quaternion ``q``."""
    w, x, y, z = q
    return np.array([
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ])


def quat_from_axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    """Unit quaternion of a rotation by ``angle`` [rad] about ``axis`` (any nonzero length)."""
    axis = np.asarray(axis, dtype=float)
    norm = float(np.linalg.norm(axis))
    if norm == 0.0:
        raise ValueError("axis must be a nonzero vector")
    s = math.sin(0.5 * angle) / norm
    return np.array([math.cos(0.5 * angle), axis[0] * s, axis[1] * s, axis[2] * s])


def quat_from_tilts(theta_x: float, theta_y: float) -> np.ndarray:
    """Orientation from the initial tilts of the notes, §12: θ_x [rad] about world x, then θ_y [rad] about world y.

    the notes does not say in which order the tilts compose; we apply x first (R = R_y(θ_y) R_x(θ_x)).
    """
    qx = quat_from_axis_angle(np.array([1.0, 0.0, 0.0]), theta_x)
    qy = quat_from_axis_angle(np.array([0.0, 1.0, 0.0]), theta_y)
    return quat_multiply(qy, qx)
