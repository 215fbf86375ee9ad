"""The block launch path: one thread block per world loops over the steps inside one launch (simulation.py
says why). The step is step.py's; here each stage spreads its items over the block's bd threads and the
stages are separated by block-level barriers:

    lane 0      begin the step (skin test, sums reset)                                    | barrier
    all         rebuild the wall-candidate list if flagged: clusters in contiguous shares,
                count, block-wide scan, write (no atomics: the list stays in cluster order) | barriers
    all         ("shared" dashpot mass) clear the interface stiffness sums                 | barrier
    all         body pairs' geometry ("shared": and their interface stiffness), each thread
                a contiguous share of the pair list                                       | barrier
    all         body-pair contacts, each thread the same share (it reads its own rows)   | barrier
    all         ("shared") sum the wall interfaces' stiffness                             | barrier
    all         wall contacts, each thread a contiguous share of the candidate list      | barrier
    all         law of motion, clumps and walls strided over the threads                 | barrier
    lane 0      close the ledger, write the history row, test the pair skin               | barrier
    all         search body pairs on the device if the skin is exceeded                  | barriers

A thread keeps its contacts' sums in registers while they belong to the same clump (the lists are
grouped by clump) and adds them to the clump with atomics once per run, so a clump resting on thousands
of contacts takes ~bd atomic adds per step, not thousands. Counters are written by lane 0 with plain
stores (integer atomics inside loops are miscompiled by Taichi's Vulkan code generator).

What orders what: a barrier (block_sync) orders every thread's memory accesses before it against every thread's
after it. On CUDA that holds for global memory too (``__syncthreads``), and so for the counters lane 0 writes
(rebuild flag, pair stop, pair half, overflow) and the state the other stages write. On the SPIR-V backends
Taichi 1.7.4 emits the barrier with workgroup-memory semantics only (OpControlBarrier, WorkgroupMemory |
AcquireRelease; ``ti.simt.block.mem_sync`` is the same scope, and Taichi has no storage-buffer fence there): the
Vulkan memory model does not promise those global stores visible across the barrier. Not fixed yet (issue 30,
item 4); lavapipe runs a workgroup's invocations on one CPU thread, so no test there can show a stale read.

Every thread of a block runs the same number of loop iterations and reaches the same barriers: the
loop runs ``max_steps`` times and a world that is done (its target reached, or its pair list overflowed)
idles through the rest. With one thread per block (bd = 1, the CPU backend) the barriers compile away and
this is a plain per-world loop, which lets the CPU test the block path's logic.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import history_rows as R
from .pair_search_device import after_pass, block_max, block_pair_search, block_sync, chunk, count_pass_skin
from .step import (
    begin_step,
    close_step,
    contact_stages,
    motion_stage,
    pair_motion_exceeds_skin,
    record_columns,
    step_params,
)
from .wall_contact import cluster_wall_candidates


@ti.func
def _rebuild_wall_candidates(md: ti.template(), st: ti.template(), wd, skin, lane, bd: ti.template(),  # in:
                             scan: ti.template(), ct: ti.template()):  # out:
    """Rebuild world wd's wall-candidate list with the block's threads, each a contiguous share of the
    clusters; returns a bound on this thread's loop iterations (layout.LOOP_BUDGET).

    Passes of one call site (pair_search_device.py, "Count and write"): 0 counts each thread's share; 1 writes it
    at the offset the block-wide scan gave, never past the slots its count pass counted; if any thread's write
    pass found another number than its count pass did, 2 writes the shares again at the offsets of what the
    write passes found; if even then a thread's two write passes differ, 3: lane 0 writes the whole list alone
    in one pass, as the serial path does. So the list holds what one pass wrote, each entry once, in cluster
    order, with no slot left over from before, and counts[w, CT_N_CAND] says how many.

    In/out — in md: cluster_body, cluster_range, sph_body, wall_geom; in st: pos, rot, wall_state; out scan: the block's
    scan scratch; out ct: cand of the world, counts[w]: candidates, recounts.
    """
    g0, g1 = chunk(wd.n_cluster, lane, bd)
    mine = 0
    offset = 0
    total = 0
    redo = 0
    cost = 0
    for phase in range(4):
        if phase < 2 or redo >= phase - 1:
            a, b, k0, limit = g0, g1, offset, offset + mine
            if phase == 3:
                a, b, k0, limit = 0, 0, 0, wd.n_hull * wd.n_wall
                if lane == 0:
                    b = wd.n_cluster
            k = k0
            for g in range(wd.cluster0 + a, wd.cluster0 + b):
                k += cluster_wall_candidates(md, st, wd, g, count_pass_skin(skin, phase), k, limit,
                                             1 if phase > 0 else 0, ct)
            cost += _rebuild_trips(md, wd, a, b) + bd
            found = k - k0
            if phase == 3:
                total = found
            else:
                mine, offset, total, redo = after_pass(phase, found, mine, offset, total, redo, lane, bd, scan)
    if lane == 0:
        ct.counts[wd.index, LY.CT_N_CAND] = total
        if redo > 0:
            ct.counts[wd.index, LY.CT_RECOUNTS] = ct.counts[wd.index, LY.CT_RECOUNTS] + 1
    return cost


@ti.func
def _rebuild_trips(md: ti.template(), wd, a, b):  # in:
    """A bound on the loop iterations of one rebuild pass over the world's clusters a ≤ g < b (local indices).

    In/out — in md: cluster_range.
    """
    spheres = 0
    if b > a:
        last = md.cluster_range[wd.cluster0 + b - 1]
        spheres = last[0] + last[1] - md.cluster_range[wd.cluster0 + a][0]
    return (b - a) + wd.n_wall * ((b - a) + spheres)


@ti.func
def _search_bound(md: ti.template(), wd, bd: ti.template()):  # in:
    """Loop iterations a thread may run in a wall-candidate rebuild and a pair search: its share of the
    clusters and of the cluster pairs, with every sphere tested (a bound for the budget, layout.LOOP_BUDGET).

    In/out — in md: world_info.
    """
    per_cluster = md.world_info[wd.index, LY.WI_NHULL] // ti.max(wd.n_cluster, 1) + 1
    pairs = md.world_info[wd.index, LY.WI_NCLUSTER_PAIRS]
    return 2 * (wd.n_cluster // bd + 1) * (1 + wd.n_wall * per_cluster) + 2 * (pairs // bd + 1) + 4 * bd


@ti.func
def _end_step(st: ti.template(), wd, s, n, pair_skin,  # in:
              ct: ti.template()):  # out:
    """Lane 0 after the step: count it, and test the pair skin.

    In/out — in st: monitor: pair motion; out ct: counts[w]: steps done, step, pair stop.
    """
    w = wd.index
    ct.counts[w, LY.CT_STEPS_DONE] = s + 1
    ct.counts[w, LY.CT_STEP] = n + 1
    ct.counts[w, LY.CT_PAIR_STOP] = pair_motion_exceeds_skin(st, wd, pair_skin)


@ti.func
def block_step(md: ti.template(), wd, s, n0, dt, history_every, row0, pair_cap, gravity, skin, pair_skin,  # in:
               sleep_speed, sleep_steps, implicit: ti.template(), lane, bd: ti.template(),
               scan: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Step n0 + s of world wd by thread `lane` of its block: the stages in order, separated by barriers (module
    docstring). Returns a bound on this thread's loop iterations (layout.LOOP_BUDGET).

    In/out — in s, n0: step n0 + s, the launch's s-th; in lane, bd: this thread of the world's block; out scan: the
    block's scan scratch.
    """
    w = wd.index
    n = n0 + s
    cost = 16 + 2 * (wd.n_clump + wd.n_wall) + wd.n_slot
    t = ti.cast(n, float) * dt
    observed = n % history_every == 0
    row = row0 + n // history_every
    clump_col, wall_col, slot_col = record_columns(wd)
    if lane == 0:
        begin_step(wd, skin, st, ct)
    block_sync(bd)
    if ct.counts[w, LY.CT_REBUILD_FLAG] == 1:
        cost += _rebuild_wall_candidates(md, st, wd, skin, lane, bd, scan, ct)
        block_sync(bd)
    half = ct.counts[w, LY.CT_PAIR_HALF]
    cost += contact_stages(md, wd, dt, (2 * w + half) * pair_cap, (2 * w + 1 - half) * pair_cap, observed, implicit,
                           lane, bd, st, ct, dg)
    block_sync(bd)
    cost += (wd.n_clump // bd + 1) * (1 + LY.ATOMIC_RETRIES * R.CLUMP_SCALARS) + wd.n_wall // bd + 1
    motion_stage(md, ct, wd, t, dt, gravity, sleep_speed, sleep_steps, observed, row, clump_col, wall_col, lane, bd,
                 st, dg)
    block_sync(bd)
    if lane == 0:
        close_step(ct, wd, t, observed, row, slot_col, dg)
        _end_step(st, wd, s, n, pair_skin, ct)
    block_sync(bd)
    if ct.counts[w, LY.CT_PAIR_STOP] == 1:
        cost += block_pair_search(md, wd, pair_skin, pair_cap, lane, bd, scan, st, ct)
        if lane == 0:
            ct.counts[w, LY.CT_PAIR_STOP] = 0
    return cost


@ti.func
def block_world_steps(md: ti.template(), w, dt, history_every, rec_rows, pair_cap, max_steps,  # in:
                      implicit: ti.template(), lane, bd: ti.template(), budget: ti.template(),
                      scan: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Up to counts[w, CT_TARGET] steps of world w by thread `lane` of the world's block (module docstring).
    With ``budget`` (SPIR-V backends) the launch also ends, at a step boundary, before any thread may have
    run layout.LOOP_BUDGET loop iterations."""
    wd = LY.load_world(md, w)
    gravity, skin, pair_skin, sleep_speed, sleep_steps = step_params(md, w)
    n0 = ct.counts[w, LY.CT_STEP]
    target = ct.counts[w, LY.CT_TARGET] * ct.counts[w, LY.CT_ACTIVE]
    row0 = w * rec_rows - ct.counts[w, LY.CT_REC_FIRST]
    block_sync(bd)  # every thread has read the counters before lane 0 changes them
    if lane == 0:
        ct.counts[w, LY.CT_STEPS_DONE] = 0
    used = 0  # loop iterations so far (an upper bound, the same in every thread)
    for s in range(max_steps):
        block_sync(bd)
        if s < target and ct.counts[w, LY.CT_OVERFLOW] == 0:  # the same for every thread of the block
            cost = block_step(md, wd, s, n0, dt, history_every, row0, pair_cap, gravity, skin, pair_skin, sleep_speed,
                              sleep_steps, implicit, lane, bd, scan, st, ct, dg)
            if ti.static(budget):
                # a step like this one, or one with a rebuild and a pair search, must still fit
                step_max = block_max(lane, cost, bd, scan)
                used += step_max
                if used + 2 * step_max + _search_bound(md, wd, bd) > LY.LOOP_BUDGET:
                    break
