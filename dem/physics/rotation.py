"""Rotations inside kernels: unit quaternions (w, x, y, z) and 3×3 matrices.

No f64 ``sin``/``cos``/``exp`` is used, because Taichi's Vulkan backend has none: the rotation of one
step is built from truncated series, which are exact to round-off for the rotation angles of an
explicit DEM step (the solver refuses steps that rotate a body by more than 0.2 rad).
"""


from ..device.kernel_lang import ti


@ti.func
def quat_mul(a, b):
    """Hamilton product a ⊗ b of quaternions stored (w, x, y, z)."""
    return ti.Vector([
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ])


@ti.func
def quat_to_mat(q):
    """Rotation matrix of a unit quaternion (body → world)."""
    w, x, y, z = q[0], q[1], q[2], q[3]
    return ti.Matrix([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


@ti.func
def quat_from_rotvec(phi):
    """Unit quaternion of the rotation vector φ (axis · angle [rad]), for |φ| ≲ 0.5.

    cos(|φ|/2) and sin(|φ|/2)/|φ| by their Taylor series to the x⁸ term: for |φ| ≤ 0.5 the truncation
    error is below 1e-13, under f64 round-off after the normalisation that follows.
    """
    x2 = 0.25 * phi.dot(phi)  # (|φ|/2)²
    c = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0)))
    s = 0.5 * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))))
    q = ti.Vector([c, s * phi[0], s * phi[1], s * phi[2]])
    return q / q.norm()
