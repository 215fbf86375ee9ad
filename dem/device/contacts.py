"""Contact bookkeeping on the device (:class:`ContactArrays`): candidate lists and the Mindlin shear history (which is
state), for every world.

    cand      (Σ n_h·n_w,) ivec2 candidate (hull sphere, wall) pairs of each world, in the world's region
                                 [cand0, cand0 + n_h·n_w); rebuilt on the device when bodies or walls have
                                 moved more than the skin since the last rebuild (Verlet list)
    hist      (Σ n_h·n_w,) vec5  per (hull sphere, wall): elastic shear force [N] (world frame), approach speed
                                 δ̇⁻ when the contact formed [m/s] (0 when the contact is open), shear
                                 stiffness k_s of the last step [N/m] (layout.HIST_*)
    pairs     (W·2·cap,) ivec5  body-pair list entries (side p of body a, side q of body b, cluster of p, cluster
                                 of q, the search's hint; physics/pair_entry.py, layout.PAIR_*), a < b, grouped
                                 by (a, b). World w's region holds two lists
                                 of ``pair_capacity`` pairs; the current one is the half counts[w, CT_PAIR_HALF]
                                 (the device search writes the new list into the other half, carries the
                                 history over, then swaps). The serial path's host search uses half 0.
    pair_hist (W·2·cap,) vec5   the same history for each candidate pair (shear force on a), in the current
                                 half; the rows of the other half are scratch, with one writer at a time: during a
                                 step's contact stages the geometry pass's findings for each entry (layout.PG_*,
                                 physics/pair_geometry_pass.py), during a device search the new list's history
                                 (a kernel binds at most runtime.MAX_KERNEL_ARRAYS arrays: no room for another)
    counts    (W, layout.COUNTS_WIDTH) i32 per-world counters (layout.CT_*)

A wall pair's history is indexed by the pair, so it survives every rebuild unchanged; a pair drops out of
a list only when it is farther apart than the skin, and its history is cleared when the contact opens.
"""

import numpy as np

from . import layout as LY
from . import runtime
from .kernel_lang import ti
from .model_arrays import DeviceModel


class ContactArrays:
    """The device arrays of every world's contact bookkeeping (module docstring): ``Simulation.contacts``.
    (Not dem.model.body_contacts.BodyPairContacts, the contacts two builder bodies make at t = 0 on the host.)"""

    def __init__(self, dm: DeviceModel):
        self.device_model = dm
        self.world_count = dm.world_count
        self.capacity = max(dm.cand_capacity, 1)
        self.cand = ti.ndarray(ti.types.vector(2, ti.i32), self.capacity)
        self.hist = ti.ndarray(ti.types.vector(LY.HIST_WIDTH, runtime.real()), self.capacity)
        self.counts = ti.ndarray(ti.i32, (self.world_count, LY.COUNTS_WIDTH))
        self.pair_capacity = 0
        self.pairs = self.pair_hist = None
        self.ensure_pair_capacity(1024 if any(m.clump_count > 1 for m in dm.models) else 1)
        # the body-pair lists' skins [m] (the kernels read world_param's copy) and the step of each world's last
        # search: host values that change as a run goes (dem.physics.simulation, the adaptive pair skin), kept here
        # so that checkpoints carry them
        self.pair_skin_start = dm.world_param_np[:, LY.WP_PAIR_SKIN].copy()
        self.reset()

    def ensure_pair_capacity(self, n: int) -> bool:
        """Grow every world's pair region to hold n pairs per list, keeping each world's current list and its
        history; returns True if the arrays were reallocated."""
        if n <= self.pair_capacity:
            return False
        old = self.pair_capacity
        cap = max(n, 2 * old)
        keep = None
        if self.pairs is not None:
            keep = (self.pairs.to_numpy().reshape(self.world_count, 2, old, LY.PAIR_WIDTH),
                    self.pair_hist.to_numpy().reshape(self.world_count, 2, old, LY.HIST_WIDTH))
        self.pairs = ti.ndarray(ti.types.vector(LY.PAIR_WIDTH, ti.i32), self.world_count * 2 * cap)
        self.pair_hist = ti.ndarray(ti.types.vector(LY.HIST_WIDTH, runtime.real()), self.world_count * 2 * cap)
        self.pair_capacity = cap
        if keep is None:
            self.pairs.fill(0)
            self.pair_hist.fill(0.0)
        else:
            p = np.zeros((self.world_count, 2, cap, LY.PAIR_WIDTH), np.int32)
            h = np.zeros((self.world_count, 2, cap, LY.HIST_WIDTH), keep[1].dtype)
            p[:, :, :old] = keep[0]
            h[:, :, :old] = keep[1]
            self.pairs.from_numpy(p.reshape(-1, LY.PAIR_WIDTH))
            self.pair_hist.from_numpy(h.reshape(-1, LY.HIST_WIDTH))
        return True

    def reset(self):
        self.cand.fill(0)
        self.hist.fill(0.0)
        self.counts.fill(0)
        self.pairs.fill(0)
        self.pair_hist.fill(0.0)
        self.pair_skin_now = self.pair_skin_start.copy()
        self.pair_search_step = np.zeros(self.world_count, np.int64)

    def pair_region(self, w: int, half: int = 0) -> slice:
        """Rows of world w's pair list `half` in ``pairs`` / ``pair_hist``."""
        start = (2 * w + half) * self.pair_capacity
        return slice(start, start + self.pair_capacity)

    def counters(self) -> np.ndarray:
        """Host copy of the per-world counters, shape (W, layout.COUNTS_WIDTH)."""
        return self.counts.to_numpy()

    @property
    def candidate_count(self) -> int:
        return int(self.counters()[:, LY.CT_N_CAND].sum())

    @property
    def rebuild_count(self) -> int:
        """Wall-candidate rebuilds so far (world 0's for a single world; the sum over worlds)."""
        return int(self.counters()[:, LY.CT_REBUILDS].sum())
