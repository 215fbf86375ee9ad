"""The block launch path: one thread block per world loops over the steps inside one launch (simulation.py
says why). The step is step.py's; here each stage spreads its items over the block's bd threads and the
stages are separated by block-level barriers:

    lane 0      begin the step (skin test, sums reset)                                    | barrier
    all         rebuild the wall-candidate list if flagged: clusters in contiguous shares,
                count, block-wide scan, write (no atomics: the list stays in cluster order) | barriers
    all         the clumps' sleep, kept for the wakes (share_sums.snapshot_sleep); the body pairs' geometry
                ("shared": and their interface stiffness partials), each share a contiguous part of the
                pair list                                                                 | barrier
    all         ("shared") reduce the body interfaces' stiffness partials                 | barrier
    all         body-pair contacts, each share the same part (it reads its own rows)      | barrier
    all         ("shared") the wall interfaces' stiffness partials | barrier | their reduction | barrier
    all         wall contacts, each share a contiguous part of the candidate list         | barrier
    all         reduce the partials: clumps' forces, moments, damping blocks, monitor sums; the ledger's contact
                sums; the probe slots (share_sums.reduce_contacts)                         | barrier
    all         law of motion, clumps strided over the shares (each share's ledger terms to its sums, the flags
                cleared), walls over the threads                                          | barrier
    lanes 0-3   the shares' four ledger terms summed in share order, a lane each, into shared memory
                (share_sums.sum_moves)                                                    | barrier
    lane 0      the contact and motion sums from shared memory into the ledger, close the ledger, write the
                history row, test the pair skin                                           | barrier
    all         search body pairs on the device if the skin is exceeded                  | barriers

Sums (issue 30, item 3: the same bits every run). The lists are split into S = bd · share_sums.SHARES_PER_LANE
contiguous shares; a share keeps its contacts' sums in registers while they belong to the same clump (the lists are
grouped by clump) and adds each run to partials of its own, which a reduction adds up in share order after a barrier
(share_sums.py). No float atomic is left inside a step: two runs of the same batch give the same bits, and a world in
a batch the bits it has alone, whatever order the threads run in (for one block size: another S splits the sums
elsewhere). The float atomics the step had before, all reached from advance_blocks by several lanes of one block on
one address, and where each sum goes now:

    ledger[w, STEP + damping, friction, stiffness, boundary], [STRAIN], [CONTACTS]: each thread's two contact stages
        (history_rows.add_contact_energy, 6 atomic adds each)          -> the share's sums (share_sums.add_sums)
    ledger[w, MAX_OVERLAP]: ti.atomic_max, a compare-and-swap retry loop -> the share's SUM_WORST, their largest
    ledger[w, STEP + body, boundary, damping], [KINETIC]: each clump's terms (history_rows.clump_ledger, clump_record)
                                                                        -> the share's MOVE_* sums, lane 0 adds them
    ledger[w, LEDGER_SIZE + ...]: the interface stiffness sums K_I under "shared" (interface_stiffness.add_to_sum,
        from pair_geometry_pass and wall_stiffness, once a run)        -> per-share partials, share_sums.reduce_kface
    st.wrench[c], st.damp[c]: each run of wall contacts (wall_contact._flush); wrench, damp, damp_other[0:6] of both
        bodies: each run of body pairs (pair_contact._add)             -> per-(share, clump) partials
    st.monitor[c] (Σk_n, Σk_n|r×n|², Σc_n): each touching contact on observed steps (history_rows.add_monitor)
                                                                        -> per-(share, clump) partials
    dg.slots[s]: each touching contact's probe slots on observed steps (history_rows.add_slot)
                                                                        -> per-(share, slot) partials
Not a sum but order-dependent as well: whether a body-pair contact wakes its bodies depended on the wakes other
threads had made meanwhile; it reads the sleep at the start of the contact stages now (share_sums.snapshot_sleep).
Counters are written by lane 0 with plain stores (integer atomics inside loops are miscompiled by Taichi's Vulkan
code generator), the other threads read the block's copies of them (below), and the lists are built without atomics
(count, scan, write).

What orders what: a barrier (block_sync) orders every thread's memory accesses before it against every thread's
after it. On CUDA that holds for global memory too (``__syncthreads``). On the SPIR-V backends Taichi 1.7.4 and
quadrants emit the barrier with workgroup-memory semantics only (OpControlBarrier, WorkgroupMemory | AcquireRelease;
``ti.simt.block.mem_sync`` is the same scope; Taichi has no storage-buffer barrier or fence there, quadrants has
one: "Not fixed" below): the Vulkan memory model does not promise a thread's global stores visible to the block's
other threads across the barrier; shared memory it does order. So what one thread stores and another reads is handed
over in shared memory where it can be (issue 30, item 4). The stores of lane 0 that another thread accessed in the
same launch, and where each went (the inventory; lane 0's other stores are its own or the host's: steps done, step,
rebuilds, recounts, searches, the forced rebuild, the history row's global and slot columns):

    counts[w, CT_REBUILD_FLAG], [CT_WALLS_MOVING]: begin_step; every thread tests them (a rebuild's barriers; the
        motion stage's wakes and frame)                    -> the block's copies (block_counts.py): lane 0 stores
                                                              the global copy and a slot of the shared scan array,
                                                              every thread reads the slot after the barrier
    counts[w, CT_N_CAND]: the rebuild's end; each thread's share of the candidates  -> the block's copy
    counts[w, CT_PAIR_HALF], [CT_N_PAIRS]: the device search's end; the next steps' pair list (its base, each
        thread's share) and the next search's old list     -> the block's copies
    counts[w, CT_PAIR_STOP]: _end_step, and cleared after the search; every thread tests it  -> the block's copy
    counts[w, CT_OVERFLOW]: the device search; every thread tests it at each step's start  -> the block's copy
    ledger[w]'s step sums, [MAX_OVERLAP]: cleared by the ledger's close (record_row restarts the largest overlap),
        added to by the threads of share_sums.reduce_contacts at the next step, read back by lane 0's close
                                                           -> the reduction hands its sums to lane 0 in shared
                                                              memory (fsum, share_sums.add_contact_sums): the
                                                              ledger's columns are lane 0's alone
    ledger[w]'s shares' motion sums (MOVE_*): zeroed by share_sums.add_moves, stored by each share the next step
                                                           -> not zeroed (each share stores all of them each step),
                                                              summed by four lanes into shared memory for lane 0
                                                              (share_sums.sum_moves)
    st.monitor[c][MON_WALL_MOTION], st.wall_state[k] (its motion bound; the whole vector was stored): restarted by
        begin_step on a rebuild, added to by the thread that moves c, k
                                                           -> restarted by that thread (split_motion_stage)
    st.monitor[c][MON_PAIR_MOTION]: restarted by the device search, added to by the thread that moves c
                                                           -> restarted by that thread (pair_search_device)
    dg.slots: cleared by record_row, added to by the reduction's threads at the next observed step
                                                           -> stored by the reduction, not cleared
With one thread a block (bd = 1, the CPU) all of it compiles as before (ti.static branches). A test makes a read of
the global copies visible on lavapipe (tests/physics/test_block_counts.py, block_counts.POISON): with the copies
the histories keep their bits when lane 0 poisons the global ones; with every thread reading the global ones they
do not.

Not fixed (left): what one thread stores to global memory and another reads after a barrier, as the step's data
flows: the poses and velocities (the law of motion, then the next step's contact stages and searches), the lists
and their shear histories (each thread's share of a rebuild or a search, lane 0's whole list in the rare pass 3; the
contact stages), the shares' partials and flags (the contact stages, the reductions, the law of motion's clears),
the clumps' wrench, damping blocks, other-body forces and monitor sums (the reduction, the law of motion), the sleep
and its snapshot, the interface stiffness sums, the wall states, and lane 0's reads of the other threads' stores
(the motion bounds it tests, the shares' motion sums, the probe slots it records). A world's state does not fit in
shared memory; on SPIR-V these rely on the barrier ordering storage-buffer accesses as well, which the Vulkan memory
model does not promise and lavapipe does. With quadrants it is closed: its qd.simt.grid.mem_fence is a device-scope
memory barrier with UniformMemory semantics, and block_sync puts one on each side of every stage barrier there
(pair_search_device.STORAGE_FENCE; tests/physics/test_block_fence.py reads the SPIR-V). With Taichi 1.7.4 it stays
open: its grid.memfence emits nothing on SPIR-V, and no other call gives a storage-buffer barrier.

Every thread of a block runs the same number of loop iterations and reaches the same barriers: the
loop runs ``max_steps`` times and a world that is done (its target reached, or its pair list overflowed)
idles through the rest. With one thread per block (bd = 1, the CPU backend) the barriers compile away and
this is a plain per-world loop, which lets the CPU test the block path's logic; with share_sums.SHARES_PER_LANE > 1
that thread also takes several shares in turn, with the partials and reductions of a GPU's block
(tests/physics/test_share_order.py).
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import block_counts as BC
from . import history_rows as R
from . import ledger as L
from . import share_sums as SS
from .history_rows import CLUMP_WIDTH, WALL_WIDTH
from .integrator import integrate_clump, move_wall, wake_if_unbalanced, wall_velocity
from .interface_stiffness import wall_stiffness
from .pair_contact import pair_contacts
from .pair_geometry_pass import pair_geometry_pass
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
from .wall_contact import cluster_wall_candidates, wall_contacts


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
    scan scratch, its copy of the candidates' count (block_counts.py); out ct: cand of the world, counts[w]: candidates,
    recounts.
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
        BC.publish(ct, wd.index, BC.N_CAND, total, bd, scan)
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
def split_contact_stages(md: ti.template(), wd, dt, base, spare, observed, implicit: ti.template(), lane,  # in:
                         bd: ti.template(), per: ti.template(), order: ti.template(), scan: ti.template(),
                         st: ti.template(), ct: ti.template(), dg: ti.template(), fsum: ti.template()):  # out:
    """Stage 2 (step.contact_stages) over S = bd · per shares (share_sums.py): each thread takes its shares of each
    list in turn (share_sums.share_of), and every sum goes to the share's partials; under "shared" each stiffness
    pass is followed by the reduction of its interface sums; then the partials are reduced into the clumps, the
    ledger and the probe slots (share_sums.reduce_contacts). Returns a bound on this thread's loop iterations.

    In/out — as step.contact_stages (in per, order: the shares' turns, share_sums; in scan: the block's copies of the
    list counts, block_counts.py); out dg: also the partials and the sleep snapshot in the ledger; out fsum: the
    step's contact sums (bd > 1, share_sums.reduce_contacts).
    """
    shares = ti.static(bd * per)
    w = wd.index
    shared_mass = LY.uses_shared_mass(md, w)
    n_pairs = BC.count(ct, w, BC.N_PAIRS, bd, scan)
    cost = (wd.n_clump // bd + 1) * (per + 1)
    SS.snapshot_sleep(st, wd, SS.sink(md, wd, 0, shares), lane, bd, dg)
    for v in range(per):
        sk = SS.sink(md, wd, SS.share_of(lane, v, bd, per, order), shares)
        k0, k1 = chunk(n_pairs, sk.share, shares)
        cost += pair_geometry_pass(k0, k1, base, spare, md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, observed, False,
                                   shared_mass, True, sk)
    block_sync(bd)  # the partials complete, the snapshot taken, every sleep test done before the force pass wakes
    if shared_mass:
        cost += SS.reduce_kface(md, wd, 0, lane, bd, shares, dg)
        block_sync(bd)
    for v in range(per):
        sk = SS.sink(md, wd, SS.share_of(lane, v, bd, per, order), shares)
        k0, k1 = chunk(n_pairs, sk.share, shares)
        SS.add_sums(sk, pair_contacts(md, wd, dt, k0, k1, base, spare, observed, implicit, True, sk, st, ct, dg), dg)
        cost += k1 - k0
    block_sync(bd)
    n_cand = BC.count(ct, w, BC.N_CAND, bd, scan)
    if shared_mass:
        for v in range(per):
            sk = SS.sink(md, wd, SS.share_of(lane, v, bd, per, order), shares)
            j0, j1 = chunk(n_cand, sk.share, shares)
            cost += wall_stiffness(j0, j1, md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, observed, False, True, sk)
        block_sync(bd)
        cost += SS.reduce_kface(md, wd, 1, lane, bd, shares, dg)
        block_sync(bd)
    for v in range(per):
        sk = SS.sink(md, wd, SS.share_of(lane, v, bd, per, order), shares)
        j0, j1 = chunk(n_cand, sk.share, shares)
        SS.add_sums(sk, wall_contacts(md, wd, dt, j0, j1, observed, implicit, True, sk, st, ct, dg), dg)
        cost += j1 - j0
    block_sync(bd)
    cost += SS.reduce_contacts(md, wd, observed, implicit, lane, bd, shares, st, dg, fsum)
    return cost


@ti.func
def split_motion_stage(md: ti.template(), ct: ti.template(), wd, t, dt, gravity, sleep_speed, sleep_steps,  # in:
                       observed, row, clump_col, wall_col, lane, bd: ti.template(), per: ti.template(),
                       order: ti.template(), scan: ti.template(), st: ti.template(), dg: ti.template()):  # out:
    """Stages 3 and 4 (step.motion_stage) over S = bd · per shares: share s moves the clumps c − clump0 ≡ s (mod S)
    in order, clears their flags and keeps their ledger terms in registers, then stores them as its sums
    (share_sums.store_moves; lane 0 adds them up before the ledger's close); then the slot and interface flags are
    cleared, and the walls moved, strided over the threads. With several threads a block, the thread that moves a
    clump or a wall restarts its wall-motion bound on a rebuild step (not lane 0 in step.begin_step:
    block_counts.py). Returns a bound on this thread's loop iterations (with the sums of share_sums.sum_moves after it).

    In/out — as step.motion_stage (in per, order: the shares' turns; in scan: the block's copies of the rebuild and
    walls-moving flags); out dg: also the shares' sums and flags; out st: also the motion bounds' restarts.
    """
    shares = ti.static(bd * per)
    cost = per * (wd.n_clump // shares + 1) * (shares + 1) + (wd.n_slot + wd.n_clump * (wd.n_wall + wd.n_clump)) * \
        shares // bd + wd.n_wall // bd + 4 * shares + 4
    w = wd.index
    walls_moving = BC.count(ct, w, BC.WALLS_MOVING, bd, scan)
    rebuilt = 0
    if ti.static(bd > 1):
        rebuilt = BC.count(ct, w, BC.REBUILD, bd, scan)
    frame_vel = ti.Vector([0.0, 0.0, 0.0])  # as step.motion_stage
    if walls_moving == 1 and wd.n_wall > 0:
        frame_vel = wall_velocity(md, wd.wall0, t + 0.5 * dt)
    for v in range(per):
        sk = SS.sink(md, wd, SS.share_of(lane, v, bd, per, order), shares)
        moves = ti.Vector([0.0, 0.0, 0.0, 0.0])
        for k in range((wd.n_clump - sk.share + shares - 1) // shares):
            c = wd.clump0 + sk.share + k * shares
            if ti.static(bd > 1):  # (with one thread step.begin_step restarts it)
                if rebuilt == 1:
                    st.monitor[c][LY.MON_WALL_MOTION] = 0.0
            SS.clear_flags(md, wd, c, observed, lane, bd, shares, dg)
            if walls_moving == 1 or observed:
                wake_if_unbalanced(md, c, gravity, walls_moving, st)
            mv = integrate_clump(md, c, dt, gravity, sleep_speed, sleep_steps, walls_moving, frame_vel, st)
            moves += ti.Vector([mv.e_body, mv.e_boundary, mv.e_damping, mv.kinetic if observed else 0.0])
            if observed:  # the history stage
                R.clump_record(w, row, c, clump_col + CLUMP_WIDTH * (c - wd.clump0), mv, True, st, dg)
        SS.store_moves(sk, moves, dg)
    SS.clear_flags(md, wd, -1, observed, lane, bd, shares, dg)
    for k in range((wd.n_wall - lane + bd - 1) // bd):
        j = wd.wall0 + lane + k * bd
        if ti.static(bd > 1):
            if rebuilt == 1:
                st.wall_state[j][LY.WS_MOTION] = 0.0
        ws0 = move_wall(md, j, t, dt, st)
        if observed:  # the history stage
            R.wall_record(row, wall_col + WALL_WIDTH * (j - wd.wall0), ws0, dg)
    return cost


@ti.func
def _end_step(st: ti.template(), wd, s, n, pair_skin, bd: ti.template(),  # in:
              ct: ti.template(), scan: ti.template()):  # out:
    """Lane 0 after the step: count it, and test the pair skin.

    In/out — in st: monitor: pair motion; out ct: counts[w]: steps done, step, pair stop; out scan: the block's copy
    of the pair stop.
    """
    w = wd.index
    ct.counts[w, LY.CT_STEPS_DONE] = s + 1
    ct.counts[w, LY.CT_STEP] = n + 1
    stop = pair_motion_exceeds_skin(st, wd, pair_skin)
    ct.counts[w, LY.CT_PAIR_STOP] = stop
    BC.publish(ct, w, BC.PAIR_STOP, stop, bd, scan)


@ti.func
def block_step(md: ti.template(), wd, s, n0, dt, history_every, row0, pair_cap, implicit: ti.template(),  # in:
               lane, bd: ti.template(), per: ti.template(), order: ti.template(),
               scan: ti.template(), st: ti.template(), ct: ti.template(),  # out:
               dg: ti.template(), fsum: ti.template()):
    """Step n0 + s of world wd by thread `lane` of its block: the stages in order, separated by barriers (module
    docstring). Returns a bound on this thread's loop iterations (layout.LOOP_BUDGET).

    In/out — in s, n0: step n0 + s, the launch's s-th; in lane, bd: this thread of the world's block; out scan: the
    block's scan scratch and its copies of the world's counters (block_counts.py); out fsum: the block's contact sums.
    """
    w = wd.index
    gravity, skin, pair_skin, sleep_speed, sleep_steps = step_params(md, w)
    n = n0 + s
    cost = 16 + 2 * (wd.n_clump + wd.n_wall) + wd.n_slot
    t = ti.cast(n, float) * dt
    observed = n % history_every == 0
    row = row0 + n // history_every
    clump_col, wall_col, slot_col = record_columns(wd)
    if lane == 0:
        begin_step(wd, skin, bd == 1, st, ct)
        if ti.static(bd > 1):  # (lane 0 reads its own stores)
            BC.publish(ct, w, BC.REBUILD, ct.counts[w, LY.CT_REBUILD_FLAG], bd, scan)
            BC.publish(ct, w, BC.WALLS_MOVING, ct.counts[w, LY.CT_WALLS_MOVING], bd, scan)
    block_sync(bd)
    if BC.count(ct, w, BC.REBUILD, bd, scan) == 1:
        cost += _rebuild_wall_candidates(md, st, wd, skin, lane, bd, scan, ct)
        block_sync(bd)
    half = BC.count(ct, w, BC.PAIR_HALF, bd, scan)
    base = (2 * w + half) * pair_cap
    spare = (2 * w + 1 - half) * pair_cap
    split = ti.static(bd * per > 1)
    if ti.static(split):
        cost += split_contact_stages(md, wd, dt, base, spare, observed, implicit, lane, bd, per, order, scan, st, ct,
                                     dg, fsum)
    else:
        cost += contact_stages(md, wd, dt, base, spare, observed, implicit, lane, bd, st, ct, dg)
    block_sync(bd)
    if ti.static(split):
        cost += split_motion_stage(md, ct, wd, t, dt, gravity, sleep_speed, sleep_steps, observed, row, clump_col,
                                   wall_col, lane, bd, per, order, scan, st, dg)
    else:
        cost += wd.n_clump + wd.n_wall + 2
        motion_stage(md, ct, wd, t, dt, gravity, sleep_speed, sleep_steps, observed, row, clump_col, wall_col, lane, bd,
                     st, dg)
    block_sync(bd)
    if ti.static(split and bd > 1):  # the shares' motion sums, a lane each, to lane 0 in shared memory
        cost += SS.sum_moves(md, wd, bd * per, lane, bd, dg, fsum)
        block_sync(bd)
    if lane == 0:
        if ti.static(bd > 1):
            SS.add_contact_sums(w, fsum, dg)
            if ti.static(split):
                SS.add_summed_moves(w, fsum, dg)
        elif ti.static(split):
            SS.add_moves(md, wd, bd * per, dg)
        close_step(ct, wd, t, observed, row, slot_col, bd == 1, dg)
        _end_step(st, wd, s, n, pair_skin, bd, ct, scan)
    block_sync(bd)
    if BC.count(ct, w, BC.PAIR_STOP, bd, scan) == 1:
        cost += block_pair_search(md, wd, pair_skin, pair_cap, lane, bd, per, order, scan, st, ct)
        if lane == 0:
            ct.counts[w, LY.CT_PAIR_STOP] = 0
            BC.publish(ct, w, BC.PAIR_STOP, 0, bd, scan)
    BC.restore(w, lane, bd, scan, ct)
    return cost


@ti.func
def block_world_steps(md: ti.template(), w, dt, history_every, rec_rows, pair_cap, max_steps,  # in:
                      implicit: ti.template(), lane, bd: ti.template(), per: ti.template(), order: ti.template(),
                      budget: ti.template(), scan: ti.template(), st: ti.template(), ct: ti.template(),
                      dg: ti.template(), fsum: ti.template()):  # out:
    """Up to counts[w, CT_TARGET] steps of world w by thread `lane` of the world's block (module docstring).
    With ``budget`` (SPIR-V backends) the launch also ends, at a step boundary, before any thread may have
    run layout.LOOP_BUDGET loop iterations. ``per``, ``order``: the shares' turns (share_sums.py); ``scan``: the
    block's scratch and its copies of the world's counters (block_counts.py); ``fsum``: its contact sums."""
    wd = LY.load_world(md, w)
    n0 = ct.counts[w, LY.CT_STEP]
    target = ct.counts[w, LY.CT_TARGET] * ct.counts[w, LY.CT_ACTIVE]
    row0 = w * rec_rows - ct.counts[w, LY.CT_REC_FIRST]
    BC.load(ct, w, lane, bd, scan)
    block_sync(bd)  # every thread has read the counters before lane 0 changes them; the block's copies loaded
    if lane == 0:
        ct.counts[w, LY.CT_STEPS_DONE] = 0
    used = 0  # loop iterations so far (an upper bound, the same in every thread)
    for s in range(max_steps):
        block_sync(bd)
        if s < target and BC.count(ct, w, BC.OVERFLOW, bd, scan) == 0:  # the same for every thread of the block
            cost = block_step(md, wd, s, n0, dt, history_every, row0, pair_cap, implicit, lane, bd, per, order, scan,
                              st, ct, dg, fsum)
            if ti.static(budget):
                # a step like this one, or one with a rebuild and a pair search, must still fit
                step_max = block_max(lane, cost, bd, scan)
                used += step_max
                if used + 2 * step_max + _search_bound(md, wd, bd) > LY.LOOP_BUDGET:
                    break
