"""Contact bookkeeping: candidate lists and the Mindlin shear history (which is state).

    cand      (cap,)      ivec2 candidate (hull sphere, wall) pairs, rebuilt on the device when bodies or walls
                                have moved more than the skin since the last rebuild (Verlet list)
    hist      (n_h·n_w,)  vec4  per (hull sphere, wall): elastic shear force [N] (world frame), approach speed
                                δ̇⁻ when the contact formed [m/s] (0 when the contact is open)
    pairs     (cap_p,)    ivec2 candidate (hull sphere of body a, hull sphere of body b) pairs, a < b, sorted by
                                (a, b); built on the host (pair_search.py) when two bodies have moved more than
                                the pair skin
    pair_hist (cap_p,)    vec4  the same history for each candidate pair (shear force on a), carried over by
                                the host across pair rebuilds
    counts    (8,)        i32   [0] wall candidates, [1] rebuild flag of this step, [2] wall rebuilds so far,
                                [3] rebuild request, [4] a wall moves this step, [5] candidate pairs,
                                [6] pair rebuild needed (steps stop until the host rebuilds), [7] steps done
                                in the current launch

A wall pair's history is indexed by the pair, so it survives every rebuild unchanged; a pair drops out of
a list only when it is farther apart than the skin, and its history is cleared when the contact opens.
"""

import numpy as np
import taichi as ti

from . import runtime
from .model import Model

N_CAND, REBUILD_FLAG, REBUILDS, FORCE_REBUILD, WALLS_MOVING, N_PAIRS, PAIR_STOP, STEPS_DONE = range(8)


class Contacts:
    def __init__(self, model: Model):
        self.model = model
        nw = max(model.wall_count, 1)
        self.capacity = model.hull_count * nw
        self.cand = ti.ndarray(ti.types.vector(2, ti.i32), self.capacity)
        self.hist = ti.ndarray(ti.types.vector(4, runtime.real()), model.hull_count * nw)
        self.counts = ti.ndarray(ti.i32, 8)
        self.pair_capacity = 0
        self.pairs = self.pair_hist = None
        self.ensure_pair_capacity(1024 if model.clump_count > 1 else 1)
        self.reset()

    def ensure_pair_capacity(self, n: int) -> bool:
        """Grow the pair arrays to hold n pairs; returns True if they were reallocated."""
        if n <= self.pair_capacity:
            return False
        cap = max(n, 2 * self.pair_capacity)
        self.pairs = ti.ndarray(ti.types.vector(2, ti.i32), cap)
        self.pair_hist = ti.ndarray(ti.types.vector(4, runtime.real()), cap)
        self.pair_capacity = cap
        return True

    def reset(self):
        self.cand.fill(0)
        self.hist.fill(0.0)
        self.counts.fill(0)
        self.pairs.fill(0)
        self.pair_hist.fill(0.0)
        self.pair_keys = np.zeros(0, np.int64)  # host copy of the current pairs' keys i·n_h + j

    @property
    def candidate_count(self) -> int:
        return int(self.counts.to_numpy()[N_CAND])

    @property
    def rebuild_count(self) -> int:
        return int(self.counts.to_numpy()[REBUILDS])
