"""Layout of one record row written by the kernels (every ``record_every`` steps), and its decoding.

A row holds everything at the record time t_n: the ledger, then per clump its pose at t_n, velocities
at t_n (mean of the half steps), the contact force and torque at t_n and stiffness sums for the
critical-time-step monitor, then per wall its displacement and velocity, then per probe slot the summed
contact force, moment about the world origin, number of contacts and sum of normal forces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GLOBAL_COLUMNS = ("t", "E_body", "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction",
                  "contact_count", "max_overlap_ratio", "rebuilds")
G_T, G_EB, G_EW, G_EK, G_ES, G_ED, G_EF, G_NC, G_OVL, G_REB = range(len(GLOBAL_COLUMNS))

# per clump: pos(3) quat(4) vel(3) omega(3) force(3) torque(3) k_n sum, k_n·lever² sum, c_n sum
CLUMP_WIDTH = 22
C_POS, C_QUAT, C_VEL, C_OMEGA, C_FORCE, C_TORQUE, C_KT, C_KR, C_CT = 0, 3, 7, 10, 13, 16, 19, 20, 21
WALL_WIDTH = 6  # displacement(3), velocity(3)
SLOT_WIDTH = 8  # force(3), moment about origin(3), contact count, Σ normal force


@dataclass(frozen=True)
class RecordLayout:
    clump_count: int
    wall_count: int
    slot_count: int

    @property
    def clump_base(self) -> int:
        return len(GLOBAL_COLUMNS)

    @property
    def wall_base(self) -> int:
        return self.clump_base + CLUMP_WIDTH * self.clump_count

    @property
    def slot_base(self) -> int:
        return self.wall_base + WALL_WIDTH * self.wall_count

    @property
    def width(self) -> int:
        return self.slot_base + SLOT_WIDTH * self.slot_count

    def clump(self, rows: np.ndarray, c: int, field: int, n: int = 3) -> np.ndarray:
        b = self.clump_base + CLUMP_WIDTH * c + field
        return rows[:, b: b + n]

    def wall(self, rows: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
        b = self.wall_base + WALL_WIDTH * w
        return rows[:, b: b + 3], rows[:, b + 3: b + 6]

    def slot(self, rows: np.ndarray, s: int) -> np.ndarray:
        b = self.slot_base + SLOT_WIDTH * s
        return rows[:, b: b + SLOT_WIDTH]
