"""The stepping loop of W independent worlds (W = 1 for a single model), and its two launch paths.

A step is the same everywhere (step.py). What differs is how a launch spreads the work:

* Serial path (the CPU backend's default). One thread runs all the steps of one world in a loop; worlds
  run in parallel over the CPU's threads. A launch costs ~0.1 ms here, far more than a step of a rocking
  block, so one launch runs thousands of steps; and a serial loop over the few hundred or thousand spheres
  near the base is faster than spreading them over threads. Body pairs are searched on the host
  (pair_search.py, a k-d tree) when a world's pair skin is exceeded: that world stops, the others run on.
  Bit for bit the same as running each world alone.

* Block path (GPU backends; also runs on the CPU with one thread per world, for testing). One thread block
  per world loops over the steps inside one launch, with block-level barriers between the stages of a
  step (step_blocks.py); every stage spreads its items (candidate clusters, contacts, clumps) over the
  block's threads, and body pairs are searched on the device. Why: a GPU launch costs 50–90 µs of host
  time with Taichi (and ~0.7 ms when 30 arrays go through argument packs), while a rocking scene's step is
  a few µs of device work on 10²–10⁴ contacts — a launch per step is launch-bound, and one scene cannot fill
  a GPU. A block per world looping over steps removes the launch from the step (measured on an H100 with a
  probe kernel of this shape: 371,000 steps/s for one world, 78 million world-steps/s for 1,000 worlds);
  the argument packs are processed once per launch of thousands of steps. Each thread sums its share of a list
  into partials of its own, which a reduction adds up in share order (share_sums.py): no float atomics; the sums
  are split otherwise than the serial path's, so results agree with the serial path to round-off growth only.

Reproducibility: the serial path is bit-for-bit deterministic, whatever the split into launches and
whatever the other worlds do; so is the block path for a given block size (share_sums.py), whatever order the
threads run in.
"""


import math
import time
from collections.abc import Sequence

import numpy as np

from ..device import layout as LY
from ..device import runtime
from ..device.backends import check_block_dim
from ..device.contacts import ContactArrays
from ..device.host_copy import gather, scatter
from ..device.kernel_args import KERNEL_ARRAY_COUNT, ContactArgs, DiagArgs, ModelArgs, StateArgs
from ..device.kernel_lang import ti
from ..device.model_arrays import DeviceModel
from ..device.state import State
from ..model.model import Model
from ..version import renamed_keyword
from . import block_counts as BC
from . import ledger as L
from . import share_sums as SS
from .batch_memory import check_batch_memory, check_ledger_index, history_rows
from .history_rows import SLOT_WIDTH, HistoryRowLayout
from .pair_search import carry_history, entry_bodies, entry_clusters, entry_keys, find_pairs, sort_entries
from .record_copy import written_rows
from .step import serial_world_steps
from .step_blocks import block_world_steps

# Default Verlet skin in smallest radii. A thin skin keeps few candidates beside a tilted face (a block
# tilted by 1° has spheres within 0.2 mm of the floor over 11 mm of its base instead of 140 mm with a
# 2.5 mm skin) at the price of more rebuilds, which the cluster test keeps cheap. Measured on the Peña
# block while rocking: skin 2.5 mm 50 µs/step, 0.5 mm 24 µs/step, 0.2 mm 14 µs/step.
SKIN_RADII = 0.04
# Default skin of the body-pair list in smallest radii on the block path: a search costs a block-wide search;
# a wider skin than the walls' (SKIN_RADII) makes them rarer.
PAIR_SKIN_RADII = 0.25
# The serial path's default pair skin adapts, in smallest radii between these bounds, starting at the least: a
# host search costs a pause of the world's step loop (a hundred steps or more of a structure of many blocks),
# a thin skin makes each step cheaper (fewer entries; near a joint's edge the search can name the face or leave
# the entry out: docs/joints.md, "Cost"). At a search that comes fewer than PAIR_SEARCH_GROW steps after the
# world's last the skin doubles; more than PAIR_SEARCH_SHRINK steps after, it halves. Deterministic: it depends on
# the step counts alone, and checkpoints carry it (ContactArrays.pair_skin_now).
PAIR_SKIN_RANGE_RADII = (0.1, 1.0)
PAIR_SEARCH_GROW = 400
PAIR_SEARCH_SHRINK = 4000
# A search on the serial path's step loop, at an unchanged skin, looks again only at the pairs of the bodies whose
# motion bound (MON_PAIR_MOTION) has reached this fraction of the skin, and keeps the other pairs' entries as they
# are: the rest's two largest bounds then sum to less than half the skin, so the next search is as far off as
# after a full one, and a structure whose top rocks while its base rests searches the top alone.
PAIR_PARTIAL_MOTION = 0.25

assert KERNEL_ARRAY_COUNT <= runtime.MAX_KERNEL_ARRAYS


# Loop iterations per world on the threaded serial path. Taichi 1.7's CPU backend ran a parallel loop of up
# to 512 iterations on one thread here (2 cores: 512 long iterations used one core, 1,024 used both), so a
# loop over W worlds ran on one core whatever W. Each world is therefore spread over WORLD_SPREAD
# iterations, one task of WORLD_SPREAD iterations per world, the first of which runs the world and the rest
# return at once (2 worlds then used both cores).
WORLD_SPREAD = 512


@ti.kernel
def advance_serial(md: ModelArgs, n_worlds: ti.i32, dt: float, history_every: ti.i32, rec_rows: ti.i32,  # in:
                   pair_cap: ti.i32, implicit: ti.template(),
                   st: StateArgs, ct: ContactArgs, dg: DiagArgs):  # out:
    """Serial path: each active world runs counts[w, CT_TARGET] steps in one thread (step.py), one task per
    world (WORLD_SPREAD) spread over the CPU's threads: worlds stop at different steps. The number of worlds
    is a run-time argument, so a single run and a batch share one compiled kernel."""
    ti.loop_config(block_dim=WORLD_SPREAD)
    for g in range(n_worlds * WORLD_SPREAD):
        w = g // WORLD_SPREAD
        if g % WORLD_SPREAD == 0 and ct.counts[w, LY.CT_ACTIVE] == 1:
            serial_world_steps(md, w, dt, history_every, rec_rows, pair_cap, implicit, st, ct, dg)


# A GPU launch is sized from its loop's range. On the SPIR-V backends (Vulkan, Metal) a range known only at run
# time gets Taichi's grid-stride default of 131,072 threads: 1,024 blocks of 128, of which all but W idle; on
# Mesa's lavapipe each costs ~0.5 ms, which made every launch cost half a second. There the block path's range
# is a compile-time number of world slots: the next power of two ≥ W, at least MIN_WORLD_SLOTS (one compile
# per class: W ≤ 8, 16, 32, ...), and the blocks past W return at once. On CUDA and the CPU idle blocks cost
# nothing measurable and the range is the run-time W: one compiled kernel for every batch size.
MIN_WORLD_SLOTS = 8


def world_slots(n_worlds: int) -> int:
    """Blocks launched on the block path for W worlds on a SPIR-V backend (see MIN_WORLD_SLOTS)."""
    return max(MIN_WORLD_SLOTS, 1 << max(int(n_worlds) - 1, 0).bit_length())


def slot_class(n_worlds: int) -> int:
    """The block kernel's compile-time ``slots`` argument: world_slots(W) where the backend needs a fixed
    launch size (SPIR-V), else 0 (the launch is sized from W at run time)."""
    return world_slots(n_worlds) if runtime.has_loop_limit() else 0


@ti.kernel
def advance_blocks(md: ModelArgs, n_worlds: ti.i32, dt: float, history_every: ti.i32, rec_rows: ti.i32,  # in:
                   pair_cap: ti.i32, max_steps: ti.i32, implicit: ti.template(), bd: ti.template(), per: ti.template(),
                   order: ti.template(), budget: ti.template(), slots: ti.template(),
                   st: StateArgs, ct: ContactArgs, dg: DiagArgs):  # out:
    """Block path: one block of bd threads per world runs up to counts[w, CT_TARGET] ≤ max_steps steps
    (step_blocks.py), each thread `per` shares of its lists in turn (share_sums.py; order: SS.ORDERS' index);
    ``slots`` ≥ n_worlds blocks are launched (slot_class; 0: n_worlds blocks)."""
    ti.loop_config(block_dim=bd)
    for gid in range((slots if ti.static(slots > 0) else n_worlds) * bd):
        w = gid // bd
        lane = gid % bd
        # the block's shared memory: scan scratch and its copies of the world's counters (block_counts.py); the
        # step's contact and motion sums on their way to lane 0 (share_sums.reduce_contacts, sum_moves)
        scan = ti.simt.block.SharedArray((ti.static(BC.scan_size(bd)),), ti.i32) if ti.static(bd > 1) else 0
        fsum = ti.simt.block.SharedArray((SS.FSUM_SIZE,), SS.REAL) if ti.static(bd > 1) else 0
        if w < n_worlds:  # the same for every thread of a block
            block_world_steps(md, w, dt, history_every, rec_rows, pair_cap, max_steps, implicit, lane, bd, per, order,
                              budget, scan, st, ct, dg, fsum)


class Diagnostics:
    """Device arrays of the ledgers, the probe slots and the history buffer (``rows`` rows per world); ``shares``:
    the block path's shares a world (share_sums.py; 1: none, the serial path)."""

    def __init__(self, dm: DeviceModel, rows: int, shares: int = 1):
        real = runtime.real()
        self.layouts = [HistoryRowLayout(m.clump_count, m.wall_count, m.slot_count) for m in dm.models]
        self.width = max(lay.width for lay in self.layouts)
        self.rows = int(rows)
        # the ledger's columns, then (damping_mass "shared") the step's interface stiffness sums, then (block path,
        # several shares) each world's partials (share_sums.py)
        shared = dm.world_param_np[:, LY.WP_SHARED_MASS] > 0.5
        width = max([L.LEDGER_SIZE + dm.kface_width] + [
            SS.world_columns(m.clump_count, m.wall_count, m.slot_count, bool(shared[w]), shares)
            for w, m in enumerate(dm.models)])
        self.ledger = ti.ndarray(real, (dm.world_count, width))
        # a checkpoint keeps the ledger, the interface sums and the clumps' sleep columns; the shares' partials past
        # them are zero between steps, or stored afresh each step before they are read (the motion sums with several
        # threads a block; share_sums.py), and come back as zeros (dem.device.host_copy)
        self.checkpoint_columns = {"ledger": min(width, max(
            SS.world_columns(m.clump_count, m.wall_count, m.slot_count, bool(shared[w]), 1) + m.clump_count
            for w, m in enumerate(dm.models)))}
        self.slots = ti.ndarray(ti.types.vector(SLOT_WIDTH, real), max(dm.slot_count, 1))
        self.rec = ti.ndarray(real, (dm.world_count * self.rows, self.width))
        self.reset()

    @property
    def capacity(self) -> int:
        return self.rows

    def reset(self):
        self.ledger.fill(0.0)
        self.slots.fill(0.0)


def _as_models(model) -> tuple[list[Model], bool]:
    if isinstance(model, Model):
        return [model], False
    if isinstance(model, Sequence) and model and all(isinstance(m, Model) for m in model):
        return list(model), True
    raise TypeError("Simulation needs a finalized dem.Model or a non-empty list of them (one per world)")


@renamed_keyword("record_every", "history_every")
class Simulation:
    """Models, their state and contacts, and the stepping loop.

    Args:
        model: a finalized :class:`dem.Model`, or a list of them: one independent world each (a batch).
        dt: time step [s], the same for every world.
        history_every: steps between history rows (≥ 1); ``record_every`` before, still taken (and ``sim.record_every``
            still read) with a DeprecationWarning.
        skin: Verlet skin of the wall candidate list [m] (default: SKIN_RADII × each world's smallest hull
            radius).
        pair_skin: skin of the body-pair list [m], fixed (default: on the serial path one that adapts to how often
            the bodies call for a search, PAIR_SKIN_RANGE_RADII × each world's smallest hull radius; on the block
            path PAIR_SKIN_RADII × it).
        parallel: use the block path (default: serial on CPU, block path elsewhere).
        capacity: rows per world of the device history buffer (default: as many as fit in
            batch_memory.HISTORY_BUFFER_BYTES, 16 to 2,048; rows are fetched to the host when a world's are full).
        implicit_damping: apply the dashpots implicitly at mid-step (default; integrator.py) or explicitly
            with the velocities at t − Δt/2 as 004 does.
        sleep: let bodies at rest sleep (integrator.py); ``sleep_speed`` [m/s] and ``sleep_steps`` tune it.
        block_dim: threads per world on the block path (default: 128 on GPUs, 1 on the CPU): a power of two up to
            the backend's limit (dem.device.backends.BLOCK_DIM_LIMITS: 1 on the CPU, 1,024 on CUDA, 256 on Vulkan
            and Metal).

    A batch whose device arrays would not fit in the backend's free memory is refused before any is allocated
    (dem.physics.batch_memory.BatchTooLarge, a ValueError naming how many worlds fit).
    """

    def __init__(self, model, *, dt: float, history_every: int = 1, skin: float | None = None,
                 pair_skin: float | None = None, parallel: bool | None = None, capacity: int | None = None,
                 implicit_damping: bool = True, sleep: bool = True, sleep_speed: float = 1e-8,
                 sleep_steps: int = 1000, block_dim: int | None = None):
        models, self.batch = _as_models(model)
        if not (np.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be > 0 [s], got {dt}")
        if int(history_every) < 1:
            raise ValueError(f"history_every must be >= 1, got {history_every}")
        self.models = models
        self.world_count = len(models)
        self.dt = float(dt)
        self.history_every = int(history_every)
        min_r = np.array([m.min_radius for m in models])
        self.skins = np.full(self.world_count, float(skin)) if skin is not None else SKIN_RADII * min_r
        if not np.all(self.skins > 0):
            raise ValueError(f"skin must be > 0 [m], got {skin}")
        self.parallel = (not runtime.is_serial_backend()) if parallel is None else bool(parallel)
        self.adaptive_pair_skin = pair_skin is None and not self.parallel
        lo, hi = PAIR_SKIN_RANGE_RADII
        self._pair_skin_range = (lo * min_r, hi * min_r)
        pair = np.full(self.world_count, float(pair_skin)) if pair_skin is not None else \
            (lo if self.adaptive_pair_skin else PAIR_SKIN_RADII) * min_r
        if not np.all(pair > 0):
            raise ValueError(f"pair_skin must be > 0 [m], got {pair_skin}")
        pair_skins = np.where([m.clump_count > 1 for m in models], pair, 0.0)
        self.implicit_damping = bool(implicit_damping)
        self.sleep_speed = float(sleep_speed) if sleep else 0.0
        self.sleep_steps = int(sleep_steps)
        if block_dim is not None:  # before anything is allocated
            check_block_dim(block_dim, "cpu" if runtime.is_serial_backend() else runtime.device_name())
        self.block_dim = int(block_dim) if block_dim is not None else (1 if runtime.is_serial_backend() else 128)
        # the block path's shares (share_sums.py: test knobs, read here and compiled in)
        self.shares_per_lane = int(SS.SHARES_PER_LANE) if self.parallel else 1
        self.share_order = SS.order_code(SS.SHARE_ORDER) if self.parallel else 0
        if self.shares_per_lane < 1:
            raise ValueError(f"share_sums.SHARES_PER_LANE must be >= 1, got {SS.SHARES_PER_LANE}")
        self.shares = shares = SS.world_shares(self.parallel, self.block_dim)  # partials a world (share_sums.py)
        width = max(HistoryRowLayout(m.clump_count, m.wall_count, m.slot_count).width for m in models)
        rows = history_rows(width, self.world_count, capacity)
        if int(rows) < 1:
            raise ValueError(f"capacity must be >= 1 history rows, got {capacity}")
        check_batch_memory(models, capacity=capacity, shares=shares)  # before any device array: one line
        check_ledger_index(models, shares)  # the ledger array's 32-bit indices, before it too
        self.device_model = DeviceModel(models, skins=self.skins, pair_skins=pair_skins,
                                        sleep_speed=self.sleep_speed, sleep_steps=self.sleep_steps)
        self.state = State(self.device_model)
        self.contacts = ContactArrays(self.device_model)
        self.diag = Diagnostics(self.device_model, rows, shares)
        self.layouts = self.diag.layouts
        self._pack_cache = None
        self.halted = np.zeros(self.world_count, bool)  # worlds that take no more steps (halt)
        self.pair_search_s = 0.0  # host wall time [s] of the body-pair searches so far (rebuild_pairs), all worlds
        self.pair_searched_bodies = 0  # bodies whose pairs those searches looked at, summed over the searches
        self.reset()

    # ------------------------------------------------------------------ single-world conveniences
    @property
    def model(self) -> Model:
        """The model (of world 0 in a batch)."""
        return self.models[0]

    @property
    def layout(self) -> HistoryRowLayout:
        """The history-row layout (of world 0 in a batch)."""
        return self.layouts[0]

    @property
    def pair_skins(self) -> np.ndarray:
        """Each world's body-pair skin now [m] (0: a world of one body), shape (W,)."""
        return self.contacts.pair_skin_now

    @property
    def pair_rebuilds(self) -> int:
        """Body-pair searches so far, host and device (summed over the worlds)."""
        return int(self.contacts.counters()[:, LY.CT_PAIR_SEARCHES].sum())

    def world_view(self, w: int) -> "WorldView":
        """What the host needs to read world w's history rows: its model, history-row layout and the run's Δt."""
        return WorldView(self.models[w], self.layouts[w], self.dt, self.implicit_damping, self.history_every)

    def halt(self, w: int) -> None:
        """World w takes no more steps (its run stopped: an instability or a stopping event); the other
        worlds go on. advance() returns no rows for it from now on."""
        self.halted[int(w)] = True

    @property
    def uses_pairs(self) -> bool:
        return any(m.clump_count > 1 for m in self.models)

    @property
    def time(self) -> float:
        return self.state.time

    # ------------------------------------------------------------------ set-up
    def reset(self):
        self.state.reset()
        self.contacts.reset()
        self.device_model.set_world_params(LY.WP_PAIR_SKIN, self.contacts.pair_skin_now)
        self.invalidate_neighbours()
        self.diag.reset()
        self.rebuild_pairs(np.arange(self.world_count))

    def invalidate_neighbours(self):
        """Ask for a candidate rebuild at the next step in every world (call after editing poses by hand)."""
        # whole-array copy: on the Vulkan backend a single-element write is not ordered after a pending
        # device-side fill and can be lost
        counts = self.contacts.counters()
        counts[:, LY.CT_FORCE_REBUILD] = 1
        self.contacts.counts.from_numpy(counts)

    def rebuild_pairs(self, worlds=None, at=None) -> None:
        """Host broad phase between bodies (pair_search.py) for the given worlds (default: all): new candidate
        pairs with their carried-over shear history, motion bounds reset, stepping resumed. `at`: each world's
        step now (the stepping loop's searches: the adaptive pair skin follows how often they come)."""
        worlds = range(self.world_count) if worlds is None else np.atleast_1d(worlds)
        worlds = [int(w) for w in worlds if self.models[int(w)].clump_count > 1]
        if not worlds:
            return
        t0 = time.perf_counter()
        skins = self.pair_skins.copy()
        if at is not None and self.adaptive_pair_skin:
            self._adapt_pair_skins(worlds, np.atleast_1d(at))
        # the step loop's searches at an unchanged skin on the serial path: only the pairs of the bodies that moved
        partial = at is not None and not self.parallel
        self._rebuild_pairs(worlds, [partial and skins[w] == self.pair_skins[w] for w in worlds])
        self.pair_search_s += time.perf_counter() - t0

    def _adapt_pair_skins(self, worlds: list[int], at: np.ndarray) -> None:
        """The adaptive pair skin (PAIR_SKIN_RANGE_RADII): doubled for a world whose search comes fewer than
        PAIR_SEARCH_GROW steps after its last, halved after more than PAIR_SEARCH_SHRINK, within its range."""
        c = self.contacts
        lo, hi = self._pair_skin_range
        before = c.pair_skin_now.copy()
        for w in worlds:
            since = int(at[w]) - int(c.pair_search_step[w])
            if since < PAIR_SEARCH_GROW:
                c.pair_skin_now[w] = min(2.0 * c.pair_skin_now[w], hi[w])
            elif since > PAIR_SEARCH_SHRINK:
                c.pair_skin_now[w] = max(0.5 * c.pair_skin_now[w], lo[w])
            c.pair_search_step[w] = int(at[w])
        if not np.array_equal(before, c.pair_skin_now):
            self.device_model.set_world_params(LY.WP_PAIR_SKIN, c.pair_skin_now)

    def _rebuild_pairs(self, worlds: list[int], partial: list[bool]) -> None:
        """:meth:`rebuild_pairs` of the given worlds (each has two bodies or more); where `partial`, only the pairs
        of the bodies that moved (PAIR_PARTIAL_MOTION) are searched again.

        Why the kept entries stay right: a body's motion bound restarts only at a search of all its pairs, so every
        pair was last searched no earlier than either of its bodies' bounds restarted, and the two bounds' sum
        still bounds how far the pair has moved since; the step stops when any two reach the skin."""
        c, dm = self.contacts, self.device_model
        pos, rot = self.state.pos.to_numpy().astype(float), self.state.rot.to_numpy().astype(float)
        counts = c.counters()
        pairs_all = c.pairs.to_numpy()
        mon = self.state.monitor.to_numpy()
        found, moved = {}, {}
        for w, part in zip(worlds, partial):
            m = self.models[w]
            c0 = int(dm.clump_start[w])
            region = c.pair_region(w, int(counts[w, LY.CT_PAIR_HALF]))
            old = pairs_all[region][: int(counts[w, LY.CT_N_PAIRS])][:, [LY.PAIR_P, LY.PAIR_Q, LY.PAIR_HINT]]
            old = old.astype(np.int64)  # the current list, made world-local
            old[:, :2] = np.where(old[:, :2] >= 0, old[:, :2] - int(dm.hull_start[w]), old[:, :2] + c0)
            motion = mon[c0: c0 + m.clump_count, LY.MON_PAIR_MOTION]
            moved[w] = motion >= PAIR_PARTIAL_MOTION * self.pair_skins[w] if part else np.ones(m.clump_count, bool)
            every = moved[w].all()
            pairs = find_pairs(m, pos[c0: c0 + m.clump_count], rot[c0: c0 + m.clump_count], self.pair_skins[w],
                               bodies=None if every else moved[w])
            if not every:  # with the kept entries of the pairs of two bodies that did not move
                a, b = entry_bodies(m, old)
                pairs = sort_entries(m, np.concatenate([old[~(moved[w][a] | moved[w][b])], pairs]))
            found[w] = (pairs, old)
        need = max(len(p) for p, _ in found.values())
        if self.parallel:  # room for the device search to grow the list before the host is needed again
            need = int(1.5 * need) + 64
        if c.ensure_pair_capacity(need):
            self._pack_cache = None
            pairs_all = c.pairs.to_numpy()
        hist_all = c.pair_hist.to_numpy()
        for w, (pairs, old) in found.items():
            m = self.models[w]
            region = c.pair_region(w, int(counts[w, LY.CT_PAIR_HALF]))
            n_old = int(counts[w, LY.CT_N_PAIRS])
            h0, c0 = int(dm.hull_start[w]), int(dm.clump_start[w])
            old_hist = hist_all[region][:n_old].astype(float)
            clusters = entry_clusters(m, pairs)
            if self.parallel:  # the device search's order: (cluster of p, cluster of q, p, q)
                order = np.lexsort((pairs[:, 1], pairs[:, 0], clusters[:, 1], clusters[:, 0]))
                pairs, clusters = pairs[order], clusters[order]
            hist = carry_history(entry_keys(m, old[:, :2]), old_hist, entry_keys(m, pairs))
            new = c.pair_region(w, 0)
            block = np.zeros((c.pair_capacity, LY.PAIR_WIDTH), np.int32)
            block[: len(pairs), LY.PAIR_P: LY.PAIR_Q + 1] = np.where(pairs[:, :2] >= 0, pairs[:, :2] + h0,
                                                                     pairs[:, :2] - c0)
            block[: len(pairs), LY.PAIR_G: LY.PAIR_H + 1] = clusters + int(dm.cluster_start[w])
            block[: len(pairs), LY.PAIR_HINT] = pairs[:, 2]
            pairs_all[new] = block
            hist_block = np.zeros((c.pair_capacity, LY.HIST_WIDTH), hist_all.dtype)
            hist_block[: len(pairs)] = hist
            hist_all[new] = hist_block
            counts[w, LY.CT_N_PAIRS] = len(pairs)
            counts[w, LY.CT_PAIR_HALF] = 0
            counts[w, LY.CT_PAIR_STOP] = 0
            counts[w, LY.CT_OVERFLOW] = 0
            mon[c0: c0 + m.clump_count, LY.MON_PAIR_MOTION][moved[w]] = 0.0
            counts[w, LY.CT_PAIR_SEARCHES] += 1
            self.pair_searched_bodies += int(np.count_nonzero(moved[w]))
        c.pairs.from_numpy(pairs_all)
        c.pair_hist.from_numpy(hist_all)
        c.counts.from_numpy(counts)
        self.state.monitor.from_numpy(mon)

    def _packs(self):
        """Argument packs of the device arrays (built once: the arrays never change identity, except the
        pair arrays when they grow, which clears this cache)."""
        if self._pack_cache is None:
            dm, s, c, d = self.device_model, self.state, self.contacts, self.diag
            md = ModelArgs(sph_body=dm.sph_body, sph_info=dm.sph_info, cluster_body=dm.cluster_body,
                           cluster_range=dm.cluster_range, clump_param=dm.clump_param, wall_geom=dm.wall_geom,
                           wall_vel=dm.wall_vel, mat_pair=dm.mat_pair, iface_map=dm.iface_map,
                           world_info=dm.world_info, world_param=dm.world_param, solid=dm.solid)
            st = StateArgs(pos=s.pos, quat=s.quat, rot=s.rot, vel=s.vel, omega=s.omega, wrench=s.wrench,
                           damp=s.damp, damp_other=s.damp_other, monitor=s.monitor, wall_state=s.wall_state)
            ct = ContactArgs(cand=c.cand, hist=c.hist, counts=c.counts, pairs=c.pairs, pair_hist=c.pair_hist)
            dg = DiagArgs(ledger=d.ledger, slots=d.slots, rec=d.rec)
            self._pack_cache = (md, st, ct, dg)
        return self._pack_cache

    def _rows_in(self, n0: int, n: int) -> int:
        """Observed steps among steps n0 .. n0+n−1."""
        r = self.history_every
        return (n0 + n - 1) // r - (n0 - 1) // r if n > 0 else 0

    def compile(self) -> None:
        """Compile (or load from Taichi's cache) the step kernel without taking a step."""
        counts = self.contacts.counters()
        counts[:, LY.CT_TARGET] = 0
        counts[:, LY.CT_ACTIVE] = 0
        self.contacts.counts.from_numpy(counts)
        self._kernel()

    def kernel_variant(self) -> str:
        """Which compiled step kernel this Simulation launches: backend, precision, launch path and the kernel's
        compile-time arguments (the number of worlds is a run-time argument, except for the block path's
        class of W on SPIR-V backends). Two Simulations with the same variant share one compiled kernel."""
        head = f"{runtime.device_name()}-{runtime.precision()}"
        damping = "implicit" if self.implicit_damping else "explicit"
        if not self.parallel:
            return f"{head}-serial-{damping}"
        budget = "-budget" if runtime.has_loop_limit() else ""
        slots = slot_class(self.world_count)
        shares = "" if (self.shares_per_lane, self.share_order) == (1, 0) else \
            f"-shares{self.shares_per_lane}{SS.ORDERS[self.share_order]}"
        return f"{head}-blocks-{damping}-bd{self.block_dim}{shares}{budget}" + (f"-slots{slots}" if slots else "")

    def _kernel(self, max_steps: int = 0):
        md, st, ct, dg = self._packs()
        if self.parallel:
            advance_blocks(md, self.world_count, self.dt, self.history_every, self.diag.rows,
                           self.contacts.pair_capacity, int(max_steps), self.implicit_damping, self.block_dim,
                           self.shares_per_lane, self.share_order, runtime.has_loop_limit(),
                           slot_class(self.world_count), st, ct, dg)
        else:
            advance_serial(md, self.world_count, self.dt, self.history_every, self.diag.rows,
                           self.contacts.pair_capacity, self.implicit_damping, st, ct, dg)

    # ------------------------------------------------------------------ stepping
    def _launch(self, targets: np.ndarray) -> np.ndarray:
        """One launch: world w runs up to targets[w] steps from the batch's step counter plus what it has
        done in this call (its counts' CT_STEP). Returns the steps each world ran."""
        counts = self.contacts.counters()
        counts[:, LY.CT_TARGET] = targets
        counts[:, LY.CT_ACTIVE] = (targets > 0).astype(np.int32)
        counts[:, LY.CT_REC_FIRST] = -(-counts[:, LY.CT_STEP] // self.history_every)
        self.contacts.counts.from_numpy(counts)
        self._kernel(int(targets.max()))
        return self.contacts.counters()

    def quiescent(self, world: int = 0) -> bool:
        """True when every body of the world sleeps and none of its walls moves from now on: every later
        step is then the same as the last (sleeping bodies do not move, their contacts give the same
        forces), see :meth:`fast_forward`."""
        return bool(self.quiescent_worlds()[world])

    def quiescent_worlds(self) -> np.ndarray:
        """:meth:`quiescent` of every world, shape (W,)."""
        out = np.zeros(self.world_count, bool)
        if not self.sleep_speed > 0:
            return out
        asleep = self.state.monitor.to_numpy()[:, LY.MON_ASLEEP] > 0.5
        t = self.state.time
        dm = self.device_model
        for w, m in enumerate(self.models):
            c0 = int(dm.clump_start[w])
            if not np.all(asleep[c0: c0 + m.clump_count]):
                continue
            out[w] = not any(_moves_after(wall, t) for wall in m.walls)
        return out

    def fast_forward(self, n_steps: int, last_row: np.ndarray) -> np.ndarray:
        """Skip n_steps of a quiescent single world (:meth:`quiescent`): the history rows it would write are
        `last_row` with their own times. Exact, not an approximation: nothing changes while all sleep."""
        if self.batch:
            raise ValueError("fast_forward skips every world; a batch runs advance(n, last_rows=...) instead")
        rows = self._repeat_rows(self.state.step, n_steps, last_row)
        self._set_step(self.state.step + n_steps)
        return rows

    def _repeat_rows(self, n0: int, n_steps: int, last_row: np.ndarray) -> np.ndarray:
        first = -(-n0 // self.history_every)
        last = (n0 + n_steps - 1) // self.history_every
        rows = np.repeat(np.asarray(last_row, float)[None, :], max(last - first + 1, 0), axis=0)
        rows[:, 0] = np.arange(first, last + 1) * self.history_every * self.dt
        return rows

    def _set_step(self, step: int) -> None:
        self.state.step = int(step)
        self.state.time = self.state.step * self.dt
        counts = self.contacts.counters()
        counts[:, LY.CT_STEP] = self.state.step
        self.contacts.counts.from_numpy(counts)

    def advance(self, n_steps: int, *, last_rows: list | None = None):
        """Take n_steps steps in every world; return the history rows written meanwhile: an array of shape
        (rows, layout.width) for a single model, a list of such arrays (one per world) for a batch.

        In a batch, a world that is quiescent (:meth:`quiescent`) and whose last history row is given in
        ``last_rows`` is not stepped: its rows are that row repeated with their own times (exact, as in
        :meth:`fast_forward`)."""
        n_steps = int(n_steps)
        if n_steps < 0:
            raise ValueError(f"n_steps must be >= 0, got {n_steps}")
        W = self.world_count
        out: list[list[np.ndarray]] = [[] for _ in range(W)]
        n0 = self.state.step
        skip = np.zeros(W, bool)
        if last_rows is not None and n_steps:
            skip = self.quiescent_worlds() & np.array([r is not None for r in last_rows]) & ~self.halted
        remaining = np.where(skip | self.halted, 0, n_steps).astype(np.int64)
        done_total = np.zeros(W, np.int64)
        while np.any(remaining > 0):
            step_w = n0 + done_total
            first_row = -(-step_w // self.history_every)
            room = (first_row + self.diag.rows) * self.history_every - step_w  # steps whose rows fit
            targets = np.minimum(remaining, room)
            counts = self._launch(targets)
            done = counts[:, LY.CT_STEPS_DONE].astype(np.int64)
            done = np.where(targets > 0, done, 0)
            rows = [self._rows_in(int(step_w[w]), int(done[w])) for w in range(W)]
            if any(rows):  # the rows written only (record_copy.py)
                got = written_rows(self.diag.rec, self.diag.rows, rows, [lay.width for lay in self.layouts])
                for w in range(W):
                    if rows[w]:
                        out[w].append(got[w])
            done_total += done
            remaining -= done
            # serial path: worlds stopped for a host pair search; block path: pair lists that overflowed
            stopped = np.flatnonzero((counts[:, LY.CT_PAIR_STOP] != 0) | (counts[:, LY.CT_OVERFLOW] != 0))
            if len(stopped):
                self.rebuild_pairs(stopped, at=n0 + done_total)
        for w in np.flatnonzero(skip):
            out[w].append(self._repeat_rows(n0, n_steps, last_rows[w]))
        self._set_step(n0 + n_steps)
        result = [np.concatenate(o) if o else np.zeros((0, self.layouts[w].width)) for w, o in enumerate(out)]
        return result if self.batch else result[0]


    # checkpoints (dem/run/checkpoint.py writes them): generic over the attributes of state, contacts and diag
    def checkpoint_arrays(self) -> dict:
        """Host copies of every device array and plain value of the state, contacts and diagnostics, and
        the Simulation's own counters (dem.device.host_copy.gather)."""
        return gather(self)

    def restore_arrays(self, saved: dict) -> None:
        """Put back what :meth:`checkpoint_arrays` returned; arrays that had grown are re-created."""
        scatter(self, saved)
        self.device_model.set_world_params(LY.WP_PAIR_SKIN, self.contacts.pair_skin_now)
        self._pack_cache = None


@renamed_keyword("record_every", "history_every")
class WorldView:
    """One world of a Simulation as the host reads its history rows: ``model``, ``layout`` (HistoryRowLayout),
    ``dt`` [s], ``implicit_damping``, ``history_every`` (``record_every`` before: still read, with a
    DeprecationWarning)."""

    def __init__(self, model, layout, dt, implicit_damping, history_every):
        self.model, self.layout, self.dt = model, layout, dt
        self.implicit_damping, self.history_every = implicit_damping, history_every


def _moves_after(wall, t: float) -> bool:
    """Whether a wall's prescribed velocity is nonzero at any time from t on."""
    if wall.motion is None:
        return False
    v = wall.motion.velocity
    k = max(int(math.floor(t / wall.motion.dt)) - 1, 0)
    return bool(np.any(v[k:] != 0.0))
