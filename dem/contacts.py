"""Contact bookkeeping: the near-wall candidate list and the Mindlin shear history (which is state).

    cand   (cap,)          ivec2 candidate (hull sphere, wall) pairs, rebuilt when bodies or walls have moved
                                 more than the skin since the last rebuild (Verlet list)
    hist   (n_h·n_w,)      vec4  per (hull sphere, wall): elastic shear force [N] (world frame), approach speed
                                 δ̇⁻ when the contact formed [m/s] (0 when the contact is open)
    counts (8,)            i32   [0] candidates, [1] rebuild flag of this step, [2] rebuilds so far

The history is indexed by the pair, not by the candidate slot, so it survives every rebuild unchanged;
a pair drops out of the candidate list only when it is farther apart than the skin, and its history
is cleared as soon as the contact opens.
"""

from __future__ import annotations

import taichi as ti

from . import runtime
from .model import Model

N_CAND, REBUILD_FLAG, REBUILDS = 0, 1, 2


class Contacts:
    def __init__(self, model: Model):
        real = runtime.real()
        self.model = model
        nw = max(model.wall_count, 1)
        self.capacity = model.hull_count * nw
        self.cand = ti.ndarray(ti.types.vector(2, ti.i32), self.capacity)
        self.hist = ti.ndarray(ti.types.vector(4, real), model.hull_count * nw)
        self.counts = ti.ndarray(ti.i32, 8)
        self.reset()

    def reset(self):
        self.cand.fill(0)
        self.hist.fill(0.0)
        self.counts.fill(0)

    @property
    def candidate_count(self) -> int:
        return int(self.counts.to_numpy()[N_CAND])

    @property
    def rebuild_count(self) -> int:
        return int(self.counts.to_numpy()[2])
