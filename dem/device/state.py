"""Per-step state on the device: clump poses and velocities, force accumulators, wall displacements.

Arrays over the clumps and walls of every world (n_c clumps, n_w walls in all, laid out world by world as
in :class:`dem.device.model_arrays.DeviceModel`), world frame:
    pos     (n_c,) vec3  centre of mass at t_n [m]
    quat    (n_c,) vec4  orientation at t_n, unit quaternion (w, x, y, z), body → world
    rot     (n_c,) mat3  rotation matrix of ``quat`` (derived, kept to avoid recomputing it per contact)
    vel     (n_c,) vec3  velocity at t_{n−½} [m/s]
    omega   (n_c,) vec3  angular velocity at t_{n−½} [rad/s]
    wrench  (n_c,) vec6  contact force [N] and moment about the centre of mass [N·m] being accumulated for t_n
                         (layout.WR_FORCE, WR_TORQUE)
    damp    (n_c,) vec28 damping block being accumulated for t_n (damping_layout.py)
    damp_other (n_c,) vec12 [0:6] generalised force of other bodies' motion through the dashpots being
                         accumulated [N, N·m]; [6:12] the body's velocity change over its last step
                         [m/s, rad/s] (to extrapolate its velocity to t_n, see damping_layout.py)
    monitor (n_c,) vec8  motion bounds, stiffness sums, sleep state (layout.MON_*)
    wall_state (n_w,) vec10 displacement, motion bound, velocities (layout.WS_*)

Every world advances by the same number of steps in :meth:`dem.Simulation.advance`, so the step counter
and the time are the batch's: ``step`` and ``time`` = step · Δt.
"""

from __future__ import annotations

import numpy as np

from ..model.model import matrix_to_quat, quat_to_matrix
from . import layout as LY
from . import runtime
from .damping_layout import DAMP_WIDTH, OTHER_WIDTH
from .kernel_lang import ti
from .model_arrays import DeviceModel


class State:
    def __init__(self, dm: DeviceModel):
        real = runtime.real()
        v3, v4 = ti.types.vector(3, real), ti.types.vector(4, real)
        nc, nw = dm.clump_count, max(dm.wall_count, 1)
        self.device_model = dm
        self.pos = ti.ndarray(v3, nc)
        self.quat = ti.ndarray(v4, nc)
        self.rot = ti.ndarray(ti.types.matrix(3, 3, real), nc)
        self.vel = ti.ndarray(v3, nc)
        self.omega = ti.ndarray(v3, nc)
        self.wrench = ti.ndarray(ti.types.vector(6, real), nc)
        self.monitor = ti.ndarray(ti.types.vector(LY.MONITOR_WIDTH, real), nc)
        self.damp = ti.ndarray(ti.types.vector(DAMP_WIDTH, real), nc)
        self.damp_other = ti.ndarray(ti.types.vector(OTHER_WIDTH, real), nc)
        self.wall_state = ti.ndarray(ti.types.vector(LY.WALL_STATE_WIDTH, real), nw)
        self.time = 0.0  # t_n [s] of the next force evaluation
        self.step = 0  # steps taken
        self.reset()

    @property
    def models(self):
        return self.device_model.models

    def reset(self):
        clumps = [c for m in self.models for c in m.clumps]
        q = np.stack([matrix_to_quat(c.rotation) for c in clumps])
        self.set_poses(np.stack([c.position for c in clumps]), q)
        self.vel.from_numpy(np.stack([c.velocity for c in clumps]).astype(self._np()))
        self.omega.from_numpy(np.stack([c.angular_velocity for c in clumps]).astype(self._np()))
        for a in (self.wrench, self.monitor, self.damp, self.damp_other, self.wall_state):
            a.fill(0.0)
        self.time = 0.0
        self.step = 0
        self._set_wall_velocities(0.0)

    def _set_wall_velocities(self, t: float, dt: float = 0.0):
        """Wall velocities at t − Δt/2 and t, as the wall stage would have left them."""
        ws = self.wall_state.to_numpy()
        for k, m in enumerate(self.models):
            w0 = int(self.device_model.wall_start[k])
            for w in range(m.wall_count):
                ws[w0 + w, LY.WS_VEL_HALF:LY.WS_VEL_HALF + 3] = m.wall_velocity(w, max(t - 0.5 * dt, 0.0))
                ws[w0 + w, LY.WS_VEL_NOW:LY.WS_VEL_NOW + 3] = m.wall_velocity(w, t)
        self.wall_state.from_numpy(ws.astype(self._np()))

    def _np(self):
        return np.float64 if runtime.precision() == "f64" else np.float32

    def set_poses(self, pos: np.ndarray, quat: np.ndarray):
        """Poses of every clump of every world (centres [m], quaternions (w, x, y, z)), world by world."""
        quat = quat / np.linalg.norm(quat, axis=1, keepdims=True)
        self.pos.from_numpy(np.asarray(pos, float).astype(self._np()))
        self.quat.from_numpy(quat.astype(self._np()))
        self.rot.from_numpy(np.stack([quat_to_matrix(x) for x in quat]).astype(self._np()))

    def numpy(self) -> dict[str, np.ndarray]:
        """Host copies of the state arrays."""
        return {k: getattr(self, k).to_numpy() for k in
                ("pos", "quat", "rot", "vel", "omega", "wrench", "damp", "monitor", "wall_state")}
