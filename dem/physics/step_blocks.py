"""The block launch path: one thread block per world loops over the steps inside one launch (simulation.py
says why). The step is step.py's; here each stage spreads its items over the block's bd threads and the
stages are separated by block-level barriers:

    lane 0      begin the step (skin test, sums reset)                                    | barrier
    all         rebuild the wall-candidate list if flagged: clusters in contiguous shares,
                count, block-wide scan, write (no atomics: the list stays in cluster order) | barriers
    all         ("shared" dashpot mass) clear and sum the body pairs' interface stiffness | barriers
    all         body-pair contacts, each thread a contiguous share of the pair list      | barrier
    all         ("shared") sum the wall interfaces' stiffness                             | barrier
    all         wall contacts, each thread a contiguous share of the candidate list      | barrier
    all         law of motion, clumps and walls strided over the threads                 | barrier
    lane 0      close the ledger, write the record row, test the pair skin               | barrier
    all         search body pairs on the device if the skin is exceeded                  | barriers

A thread keeps its contacts' sums in registers while they belong to the same clump (the lists are
grouped by clump) and adds them to the clump with atomics once per run, so a clump resting on thousands
of contacts takes ~bd atomic adds per step, not thousands. Counters are written by lane 0 with plain
stores (integer atomics inside loops are miscompiled by Taichi's Vulkan code generator).

Every thread of a block runs the same number of loop iterations and reaches the same barriers: the
loop runs ``max_steps`` times and a world that is done (its target reached, or its pair list overflowed)
idles through the rest. With one thread per block (bd = 1, the CPU backend) the barriers compile away and
this is a plain per-world loop, which lets the CPU test the block path's logic.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import ledger as L
from . import recording as R
from .integrator import integrate_clump, move_wall
from .interface_stiffness import clear_sums, pair_stiffness, wall_stiffness
from .pair_contact import pair_contacts
from .pair_search_device import block_max, block_pair_search, block_sync, chunk, exclusive_scan
from .recording import CLUMP_WIDTH, WALL_WIDTH
from .step import begin_step, pair_motion_exceeds_skin, record_columns
from .wall_contact import cluster_wall_candidates, wall_contacts


@ti.func
def _rebuild_wall_candidates(lane, scan: ti.template(), md: ti.template(), st: ti.template(), ct: ti.template(),
                             wd, skin, bd: ti.template()):
    """Rebuild world wd's wall-candidate list with the block's threads, each a contiguous share of the
    clusters; returns a bound on this thread's loop iterations (layout.LOOP_BUDGET)."""
    g0, g1 = chunk(wd.n_cluster, lane, bd)
    mine = 0
    for g in range(wd.cluster0 + g0, wd.cluster0 + g1):
        mine += cluster_wall_candidates(g, md, st, ct, wd, skin, 0, False)
    offset, total = exclusive_scan(scan, lane, mine, bd)
    k = offset
    for g in range(wd.cluster0 + g0, wd.cluster0 + g1):
        k += cluster_wall_candidates(g, md, st, ct, wd, skin, k, True)
    if lane == 0:
        ct.counts[wd.index, LY.CT_N_CAND] = total
    spheres = 0
    if g1 > g0:
        last = md.cluster_range[wd.cluster0 + g1 - 1]
        spheres = last[0] + last[1] - md.cluster_range[wd.cluster0 + g0][0]
    return 2 * ((g1 - g0) + wd.n_wall * ((g1 - g0) + spheres)) + bd


@ti.func
def _search_bound(md: ti.template(), wd, bd: ti.template()):
    """Loop iterations a thread may run in a wall-candidate rebuild and a pair search: its share of the
    clusters and of the cluster pairs, with every sphere tested (a bound for the budget, layout.LOOP_BUDGET)."""
    per_cluster = md.world_info[wd.index, LY.WI_NHULL] // ti.max(wd.n_cluster, 1) + 1
    pairs = md.world_info[wd.index, LY.WI_NCLUSTER_PAIRS]
    return 2 * (wd.n_cluster // bd + 1) * (1 + wd.n_wall * per_cluster) + 2 * (pairs // bd + 1) + 4 * bd


@ti.func
def block_world_steps(w, lane, scan: ti.template(), md: ti.template(), st: ti.template(), ct: ti.template(),
                      dg: ti.template(), dt, record_every, rec_rows, pair_cap, max_steps, implicit: ti.template(),
                      bd: ti.template(), budget: ti.template()):
    """Up to counts[w, CT_TARGET] steps of world w by thread `lane` of the world's block (module docstring).
    With ``budget`` (SPIR-V backends) the launch also ends, at a step boundary, before any thread may have
    run layout.LOOP_BUDGET loop iterations."""
    shared = ti.static(bd > 1)
    wd = LY.load_world(md, w)
    grav = LY.gravity(md, w)
    skin = md.world_param[w, LY.WP_SKIN]
    pair_skin = md.world_param[w, LY.WP_PAIR_SKIN]
    sleep_speed = md.world_param[w, LY.WP_SLEEP_SPEED]
    sleep_steps = md.world_param[w, LY.WP_SLEEP_STEPS]
    clump_col, wall_col, slot_col = record_columns(wd)
    shared_mass = LY.uses_shared_mass(md, w)
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
            cost = 16 + 2 * (wd.n_clump + wd.n_wall) + wd.n_slot
            n = n0 + s
            t = ti.cast(n, float) * dt
            record = n % record_every == 0
            row = row0 + n // record_every
            if lane == 0:
                begin_step(st, ct, dg, wd, skin, record)
            block_sync(bd)
            if ct.counts[w, LY.CT_REBUILD_FLAG] == 1:
                cost += _rebuild_wall_candidates(lane, scan, md, st, ct, wd, skin, bd)
                block_sync(bd)
            base = (2 * w + ct.counts[w, LY.CT_PAIR_HALF]) * pair_cap
            k0, k1 = chunk(ct.counts[w, LY.CT_N_PAIRS], lane, bd)
            if shared_mass:  # damping_mass "shared": the interfaces' stiffness sums first (D5)
                clear_sums(dg.ledger, w, L.LEDGER_SIZE, wd, lane, bd)
                cost += wd.n_clump * (wd.n_wall + wd.n_clump) // bd + 1
                block_sync(bd)
                cost += pair_stiffness(k0, k1, base, md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, record, False,
                                       shared)
                block_sync(bd)
            cost += pair_contacts(k0, k1, base, md, st, ct, dg, wd, dt, record, implicit, shared)  # may wake bodies
            block_sync(bd)
            k0, k1 = chunk(ct.counts[w, LY.CT_N_CAND], lane, bd)
            if shared_mass:
                cost += wall_stiffness(k0, k1, md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, record, False, shared)
                block_sync(bd)
            cost += wall_contacts(k0, k1, md, st, ct, dg, wd, dt, record, implicit, shared)
            block_sync(bd)
            cost += (wd.n_clump // bd + 1) * (1 + LY.ATOMIC_RETRIES * R.CLUMP_SCALARS) + wd.n_wall // bd + 1
            walls_moving = ct.counts[w, LY.CT_WALLS_MOVING]
            for k in range((wd.n_clump - lane + bd - 1) // bd):
                c = wd.clump0 + lane + k * bd
                mv = integrate_clump(c, md, st, dt, grav, record, sleep_speed, sleep_steps, walls_moving)
                R.clump_record(st, dg, w, row, c, clump_col + CLUMP_WIDTH * (c - wd.clump0), mv, record, shared)
            for k in range((wd.n_wall - lane + bd - 1) // bd):
                j = wd.wall0 + lane + k * bd
                ws0 = move_wall(j, md, st, t, dt)
                if record:
                    R.wall_record(dg, row, wall_col + WALL_WIDTH * (j - wd.wall0), ws0)
            block_sync(bd)
            if lane == 0:
                R.close_step(ct, dg, wd, t, record, row, slot_col)
                ct.counts[w, LY.CT_STEPS_DONE] = s + 1
                ct.counts[w, LY.CT_STEP] = n + 1
                ct.counts[w, LY.CT_PAIR_STOP] = pair_motion_exceeds_skin(st, wd, pair_skin)
            block_sync(bd)
            if ct.counts[w, LY.CT_PAIR_STOP] == 1:
                cost += block_pair_search(lane, scan, md, st, ct, wd, pair_skin, pair_cap, bd)
                if lane == 0:
                    ct.counts[w, LY.CT_PAIR_STOP] = 0
            if ti.static(budget):
                # a step like this one, or one with a rebuild and a pair search, must still fit
                step_max = block_max(scan, lane, cost, bd)
                used += step_max
                if used + 2 * step_max + _search_bound(md, wd, bd) > LY.LOOP_BUDGET:
                    break
