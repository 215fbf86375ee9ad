"""Box, springs and drop parameters of the 3D drop-shock reference (the notes, §2–4, §9, §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .quaternion import quat_from_tilts, quat_to_matrix

__all__ = ["DropBox", "ModalEstimates", "BOTTOM_CORNER_NAMES"]

BOTTOM_CORNER_NAMES = ("corner0", "corner1", "corner2", "corner3")
"""Export names of the bottom corners, at body (x, y) = (−,−), (+,−), (+,+), (−,+)·(L_x/2, L_y/2)."""


@dataclass(frozen=True)
class ModalEstimates:
    """Rigid-body modal estimates and reference times of the notes, §9 (frequencies [Hz], times [s])."""

    f_heave: float
    """√(4k/m)/2π: vertical translation on the four springs."""
    f_pitch: float
    """√(k L_y²/I_xx)/2π: rotation about x."""
    f_roll: float
    """√(k L_x²/I_yy)/2π: rotation about y."""
    f_diag: float
    """√(K_diag/I_avg)/2π: tilt about a base diagonal (our reading: K_diag = 2k d², d the distance of
    the two off-axis corners from the diagonal, I_avg = (I_xx + I_yy)/2)."""
    f_max: float
    """Highest of the four."""
    dt_max: float
    """(1/f_max)/20: largest solver step, 20 steps per period of the highest mode."""
    t_drop: float
    """√(2h/G): free-fall time to first touch (exact for a flat drop)."""
    damping_ratio: float
    """Heave damping ratio ζ = 4c / (2√(4k·m)) = c/√(k m) (the notes, §10 HUD)."""
    t_end: float
    """Default end time: t_drop + 5 periods of the lowest mode (our reading of the notes, §9's T_ref)."""


@dataclass(frozen=True, kw_only=True)
class DropBox:
    """A rigid box on four bottom-corner spring–dampers, dropped onto z = 0 (the notes).

    Defaults are an illustrative 20 kg box; the notes prints no numbers.
    """

    weight: float = 200.0
    """Box weight W [N]."""
    gravity: float = 9.81
    """Gravitational acceleration G [m/s²]."""
    length_x: float = 0.6
    """Width L_x [m]."""
    length_y: float = 0.4
    """Depth L_y [m]."""
    length_z: float = 0.3
    """Height L_z [m]."""
    stiffness: float = 5.0e4
    """Spring stiffness k per corner [N/m]."""
    damping: float = 200.0
    """Damper coefficient c per corner [N·s/m]."""
    drop_height: float = 0.3
    """Initial height h of the lowest corner above the ground [m]."""
    theta_x: float = 0.0
    """Initial tilt about world x [rad]."""
    theta_y: float = 0.0
    """Initial tilt about world y [rad]."""

    def __post_init__(self) -> None:
        for name in ("weight", "gravity", "length_x", "length_y", "length_z", "stiffness"):
            if not getattr(self, name) > 0.0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
        for name in ("damping", "drop_height"):
            if not getattr(self, name) >= 0.0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        for name in ("theta_x", "theta_y"):
            if not abs(getattr(self, name)) < 0.5 * math.pi:
                raise ValueError(f"{name} must lie in (-pi/2, pi/2) rad, got {getattr(self, name)!r}")

    @property
    def mass(self) -> float:
        """m = W/G [kg] (the notes, §3)."""
        return self.weight / self.gravity

    @cached_property
    def inertia_body(self) -> np.ndarray:
        """Principal inertia about the CG in body axes, diag(I_xx, I_yy, I_zz) [kg·m²] (the notes, §3)."""
        m, lx, ly, lz = self.mass, self.length_x, self.length_y, self.length_z
        return np.diag([m / 12.0 * (ly**2 + lz**2), m / 12.0 * (lx**2 + lz**2), m / 12.0 * (lx**2 + ly**2)])

    @cached_property
    def corners_body(self) -> np.ndarray:
        """Corner offsets from the CG in body axes [m], shape (8, 3): the four bottom corners first
        (order of :data:`BOTTOM_CORNER_NAMES`), then the four top corners in the same (x, y) order."""
        hx, hy, hz = 0.5 * self.length_x, 0.5 * self.length_y, 0.5 * self.length_z
        xy = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        return np.array([(x, y, -hz) for x, y in xy] + [(x, y, hz) for x, y in xy])

    def initial_state(
        self, *, velocity: np.ndarray | None = None, angular_velocity: np.ndarray | None = None
    ) -> np.ndarray:
        """13-component state y = [r, v, q, ω] at t = 0 (the notes, §5, §12).

        The quaternion comes from the tilts; the CG is placed above the origin so that the lowest of
        the eight corners is at ``drop_height``. ``velocity`` [m/s] and ``angular_velocity`` [rad/s,
        world frame] default to zero as in the notes, §12 (nonzero values serve the conservation tests).
        """
        q = quat_from_tilts(self.theta_x, self.theta_y)
        z_corners = (self.corners_body @ quat_to_matrix(q).T)[:, 2]
        y = np.zeros(13)
        y[2] = self.drop_height - float(np.min(z_corners))
        if velocity is not None:
            y[3:6] = velocity
        y[6:10] = q
        if angular_velocity is not None:
            y[10:13] = angular_velocity
        return y

    def modal_estimates(self, *, periods: float = 5.0) -> ModalEstimates:
        """Modal frequencies, Δt_max and reference times of the notes, §9; ``periods`` of the lowest mode
        after first touch set the default end time."""
        m, k = self.mass, self.stiffness
        ixx, iyy = self.inertia_body[0, 0], self.inertia_body[1, 1]
        lx, ly = self.length_x, self.length_y
        two_pi = 2.0 * math.pi
        f_heave = math.sqrt(4.0 * k / m) / two_pi
        f_pitch = math.sqrt(k * ly**2 / ixx) / two_pi  # 4 springs at y = ±L_y/2: Σk y² = k L_y²
        f_roll = math.sqrt(k * lx**2 / iyy) / two_pi
        d = lx * ly / math.hypot(lx, ly)  # distance of the two off-diagonal corners from a diagonal
        f_diag = math.sqrt(2.0 * k * d**2 / (0.5 * (ixx + iyy))) / two_pi
        freqs = (f_heave, f_pitch, f_roll, f_diag)
        f_max = max(freqs)
        t_drop = math.sqrt(2.0 * self.drop_height / self.gravity)
        return ModalEstimates(
            f_heave=f_heave,
            f_pitch=f_pitch,
            f_roll=f_roll,
            f_diag=f_diag,
            f_max=f_max,
            dt_max=1.0 / f_max / 20.0,
            t_drop=t_drop,
            damping_ratio=self.damping / math.sqrt(k * m),
            t_end=t_drop + periods / min(freqs),
        )
