"""The time step of one world, and the serial launch path (CPU).

A step (004 §2.3, the PFC cycle), in order:
  1. if any body or wall has moved more than the skin since the last rebuild, rebuild the world's
     near-wall candidate list;
  2. contact forces at t_n from the positions at t_n and the velocities at t_{n−½}: body pairs (their geometry
     pass first, pair_geometry_pass.py, with, under damping_mass "shared", their interfaces' stiffness sums),
     then walls (under "shared" preceded by their interfaces' stiffness sums, interface_stiffness.py);
  3. law of motion of every clump: velocities to t_{n+½}, poses to t_{n+1};
  4. walls to t_{n+1};
  5. every ``history_every`` steps (an *observed* step) write a history row, and close the energy ledger of
     the step.

Each stage is a function whose parameters say what it reads (``# in:``) and writes (``# out:``; its docstring's
"In/out" line names the arrays of a pack it writes, and those it also reads). The contact stages compute
forces; on observed steps they also evaluate the contacts of sleeping bodies and hand each touching contact to
the history stage (history_rows.py), and they return their energy sums, which the step adds to the ledger.

Serial path: one thread runs all the steps of one world in a loop (worlds in parallel over the CPU's
threads). Contacts are taken in list order with their sums in registers, so a world's run is bit-for-bit
the same whatever the other worlds do and however the steps are split into launches. A world stops early
when two of its bodies may have moved closer than the pair skin (counts[CT_PAIR_STOP]): the host then
searches its body pairs again (pair_search.py) and launches it on.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import history_rows as R
from . import ledger as L
from .history_rows import CLUMP_WIDTH, GLOBAL_COLUMNS, WALL_WIDTH
from .integrator import integrate_clump, move_wall, wake_if_unbalanced, wall_velocity
from .interface_stiffness import clear_sums, wall_stiffness
from .pair_contact import pair_contacts
from .pair_geometry_pass import pair_geometry_pass
from .pair_search_device import block_sync, chunk
from .wall_contact import cluster_wall_candidates, wall_contacts


@ti.func
def record_columns(wd):
    """First history-row column of the world's clumps, walls and probe slots (history_rows.HistoryRowLayout)."""
    clump_col = ti.static(len(GLOBAL_COLUMNS))
    wall_col = clump_col + CLUMP_WIDTH * wd.n_clump
    return clump_col, wall_col, wall_col + WALL_WIDTH * wd.n_wall


@ti.func
def step_params(md: ti.template(), w):  # in:
    """World w's stepping parameters: gravity [m/s²], the wall and pair skins [m], the sleep speed [m/s] and
    steps.

    In/out — in md: world_param[w], gravity.
    """
    return (LY.gravity(md, w), md.world_param[w, LY.WP_SKIN], md.world_param[w, LY.WP_PAIR_SKIN],
            md.world_param[w, LY.WP_SLEEP_SPEED], md.world_param[w, LY.WP_SLEEP_STEPS])


@ti.func
def pair_motion_exceeds_skin(st: ti.template(), wd, pair_skin):  # in:
    """Whether two bodies of world wd may have moved closer than the pair skin since the last body-pair
    search: the sum of the two largest motion bounds reaches the skin (0: the world has no pairs).

    In/out — in st: monitor: pair motion of the world's clumps.
    """
    exceeded = 0
    if pair_skin > 0.0:
        first = 0.0
        second = 0.0
        for c in range(wd.clump0, wd.clump0 + wd.n_clump):
            m = st.monitor[c][LY.MON_PAIR_MOTION]
            if m > first:
                second = first
                first = m
            elif m > second:
                second = m
        if first + second >= pair_skin:
            exceeded = 1
    return exceeded


@ti.func
def begin_step(wd, skin, restart: ti.template(),  # in:
               st: ti.template(), ct: ti.template()):  # out:
    """Stage 1: note whether any of world wd's walls moves, and decide whether its candidate list must be rebuilt
    (Verlet skin). (The step's sums start from zero: history_rows.close_ledger clears them at the end of each step.)
    ``restart``: the motion bounds restart here on a rebuild (one thread a world); else the threads that move the
    clumps and walls restart them (step_blocks.split_motion_stage).

    In/out — out st: monitor's wall motion and wall_state's motion restart on a rebuild (read first; ``restart``); out
    ct: counts[w]: rebuild flag, candidates (0 on a rebuild), rebuilds, walls moving.
    """
    w = wd.index
    moved = 0.0
    for c in range(wd.clump0, wd.clump0 + wd.n_clump):
        moved = ti.max(moved, st.monitor[c][LY.MON_WALL_MOTION])
    wall_moved = 0.0
    for k in range(wd.wall0, wd.wall0 + wd.n_wall):
        wall_moved = ti.max(wall_moved, st.wall_state[k][LY.WS_MOTION])
    flag = 0
    # a pair left out was farther apart than the skin; it cannot touch before the two have moved that far
    if moved + wall_moved >= skin or ct.counts[w, LY.CT_FORCE_REBUILD] == 1:
        flag = 1
        ct.counts[w, LY.CT_N_CAND] = 0
        ct.counts[w, LY.CT_REBUILDS] = ct.counts[w, LY.CT_REBUILDS] + 1
        ct.counts[w, LY.CT_FORCE_REBUILD] = 0
        if ti.static(restart):
            for c in range(wd.clump0, wd.clump0 + wd.n_clump):
                mon = st.monitor[c]
                mon[LY.MON_WALL_MOTION] = 0.0
                st.monitor[c] = mon
            for k in range(wd.wall0, wd.wall0 + wd.n_wall):
                ws = st.wall_state[k]
                ws[LY.WS_MOTION] = 0.0
                st.wall_state[k] = ws
    ct.counts[w, LY.CT_REBUILD_FLAG] = flag
    moving = 0
    for k in range(wd.wall0, wd.wall0 + wd.n_wall):
        ws = st.wall_state[k]
        for j in ti.static(range(LY.WS_VEL_HALF, LY.WS_VEL_NOW + 3)):
            if ws[j] != 0.0:
                moving = 1
    ct.counts[w, LY.CT_WALLS_MOVING] = moving


@ti.func
def contact_stages(md: ti.template(), wd, dt, base, spare, observed, implicit: ti.template(), lane,  # in:
                   bd: ti.template(),
                   st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Stage 2: the contact forces at t_n, in list order (one thread, one share of each list: the serial path, and
    the block path with bd = 1; with more shares step_blocks.split_contact_stages): the body pairs' geometry
    pass (pair_geometry_pass.py; under damping_mass "shared" with their interface stiffness sums, D5), the body
    pairs (they may wake bodies), then the walls' interface sums (after the wakes, as the wall stage sees them),
    the walls; then the contact sums into the ledger. Returns a bound on the loop iterations (LOOP_BUDGET).

    In/out — in md: the model (contact_law's parameters, spheres, walls); in base: the world's current pair list: pairs
    base ≤ k < base + counts[w, CT_N_PAIRS]; in spare: the first row of the other half of its pair region (the
    geometry pass's rows); in observed: an observed step; in lane, bd: this thread of the world's bd (1
    on the serial path); out st: wrench, damp, damp_other +=; monitor (wakes, stiffness sums on observed steps);
    out ct: hist, pair_hist (and the spare half's rows); out dg: ledger (the step's contact sums; the interfaces'
    stiffness sums), slots (observed steps).
    """
    ti.static_assert(bd == 1, "several threads a world take step_blocks.split_contact_stages")
    shared = ti.static(False)
    sk = 0  # (no shares: the stages' ``shared`` branches, which read it, are compiled out)
    w = wd.index
    shared_mass = LY.uses_shared_mass(md, w)
    cost = 0
    k0, k1 = chunk(ct.counts[w, LY.CT_N_PAIRS], lane, bd)
    if shared_mass:
        clear_sums(dg.ledger, w, L.LEDGER_SIZE, wd, lane, bd)
        cost += wd.n_clump * (wd.n_wall + wd.n_clump) // bd + 1
        block_sync(bd)
    cost += pair_geometry_pass(k0, k1, base, spare, md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, observed, False,
                               shared_mass, shared, sk)
    block_sync(bd)  # the sums complete, and every thread's sleep tests done before the force pass wakes bodies
    pairs = pair_contacts(md, wd, dt, k0, k1, base, spare, observed, implicit, shared, sk, st, ct, dg)
    block_sync(bd)
    j0, j1 = chunk(ct.counts[w, LY.CT_N_CAND], lane, bd)
    if shared_mass:
        cost += wall_stiffness(j0, j1, md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, observed, False, shared, sk)
        block_sync(bd)
    walls = wall_contacts(md, wd, dt, j0, j1, observed, implicit, shared, sk, st, ct, dg)
    R.add_contact_energy(w, pairs, shared, sk, dg)
    R.add_contact_energy(w, walls, shared, sk, dg)
    return cost + (k1 - k0) + (j1 - j0)


@ti.func
def motion_stage(md: ti.template(), ct: ti.template(), wd, t, dt, gravity, sleep_speed, sleep_steps, observed,  # in:
                 row, clump_col, wall_col, lane, bd: ti.template(),
                 st: ti.template(), dg: ti.template()):  # out:
    """Stages 3 and 4: the law of motion of every clump (a sleeping one first woken if a wall moves or, on an
    observed step, if its forces no longer balance), its ledger terms and, on observed steps, its history-row columns;
    then the walls to t_{n+1}.

    In/out — in md: clump_param, clump_inertia, wall_geom, wall_vel; in ct: counts[w, CT_WALLS_MOVING]; in observed,
    row, clump_col, wall_col: an observed step, its history row and the world's first clump and wall column; in lane,
    bd: this thread of the world's bd (1 on the serial path): clumps and walls strided; out st: clumps' pose,
    velocities, monitor; contact sums cleared; wall_state; out dg: ledger (the step's body, boundary, damping work;
    kinetic energy), rec (observed steps).
    """
    ti.static_assert(bd == 1, "several threads a world take step_blocks.split_motion_stage")
    shared = ti.static(False)
    w = wd.index
    walls_moving = ct.counts[w, LY.CT_WALLS_MOVING]
    frame_vel = ti.Vector([0.0, 0.0, 0.0])  # the body-pair motion's frame: the first wall's (a base that shakes)
    if walls_moving == 1 and wd.n_wall > 0:  # (then every body is awake)
        frame_vel = wall_velocity(md, wd.wall0, t + 0.5 * dt)
    for k in range((wd.n_clump - lane + bd - 1) // bd):
        c = wd.clump0 + lane + k * bd
        if walls_moving == 1 or observed:
            wake_if_unbalanced(md, c, gravity, walls_moving, st)
        mv = integrate_clump(md, c, dt, gravity, sleep_speed, sleep_steps, walls_moving, frame_vel, st)
        R.clump_ledger(w, mv, shared, dg)
        if observed:  # the history stage
            R.clump_record(w, row, c, clump_col + CLUMP_WIDTH * (c - wd.clump0), mv, shared, st, dg)
    for k in range((wd.n_wall - lane + bd - 1) // bd):
        j = wd.wall0 + lane + k * bd
        ws0 = move_wall(md, j, t, dt, st)
        if observed:  # the history stage
            R.wall_record(row, wall_col + WALL_WIDTH * (j - wd.wall0), ws0, dg)


@ti.func
def close_step(ct: ti.template(), wd, t, observed, row, slot_col, clear_slots: ti.template(),  # in:
               dg: ti.template()):  # out:
    """Stage 5: on observed steps the history row's global and probe-slot columns (the slots restart with
    ``clear_slots``: history_rows.record_row), then the ledger's close.

    In/out — in ct: counts[w]: rebuilds; out dg: rec[row] (observed steps), slots, ledger.
    """
    if observed:  # the history stage
        R.record_row(ct, wd, t, row, slot_col, clear_slots, dg)
    R.close_ledger(wd, dg)


@ti.func
def rebuild_wall_candidates(md: ti.template(), st: ti.template(), wd, skin,  # in:
                            ct: ti.template()):  # out:
    """Rebuild world wd's wall-candidate list, cluster by cluster (one thread: the serial path).

    In/out — in md: cluster_body, cluster_range, sph_body, wall_geom; in st: pos, rot, wall_state; out ct: cand of the
    world, counts[w, CT_N_CAND].
    """
    k = 0
    for g in range(wd.cluster0, wd.cluster0 + wd.n_cluster):  # one pass: what it counts is what it writes
        k += cluster_wall_candidates(md, st, wd, g, skin, k, wd.n_hull * wd.n_wall, 1, ct)
    ct.counts[wd.index, LY.CT_N_CAND] = k


@ti.func
def serial_step(md: ti.template(), wd, n, dt, history_every, row0, pair_base, pair_spare, gravity, skin,  # in:
                sleep_speed, sleep_steps, implicit: ti.template(),
                st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Step n of world wd on the serial path: the stages in order (module docstring)."""
    t = ti.cast(n, float) * dt  # n Δt: the same whatever the launches' lengths
    observed = n % history_every == 0
    row = row0 + n // history_every
    clump_col, wall_col, slot_col = record_columns(wd)
    begin_step(wd, skin, True, st, ct)  # 1. the skin test
    if ct.counts[wd.index, LY.CT_REBUILD_FLAG] == 1:
        rebuild_wall_candidates(md, st, wd, skin, ct)
    contact_stages(md, wd, dt, pair_base, pair_spare, observed, implicit, 0, 1, st, ct,
                   dg)  # 2. contact forces, their ledger sums
    motion_stage(md, ct, wd, t, dt, gravity, sleep_speed, sleep_steps, observed, row, clump_col, wall_col, 0, 1, st,
                 dg)  # 3, 4. clumps and walls to t_{n+1}
    close_step(ct, wd, t, observed, row, slot_col, True, dg)  # 5. the history row, the ledger's close


@ti.func
def serial_world_steps(md: ti.template(), w, dt, history_every, rec_rows, pair_cap, implicit: ti.template(),  # in:
                       st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Up to counts[w, CT_TARGET] steps of world w in one loop; counts[w, CT_STEPS_DONE] tells how many ran.
    History rows go to rows [w·rec_rows, (w+1)·rec_rows) of the history buffer; the world's pair list is the
    first half of its pair region (pair_cap pairs), the second half the rows of each step's geometry pass."""
    wd = LY.load_world(md, w)
    gravity, skin, pair_skin, sleep_speed, sleep_steps = step_params(md, w)
    n0 = ct.counts[w, LY.CT_STEP]
    row0 = w * rec_rows - ct.counts[w, LY.CT_REC_FIRST]
    done = 0
    for s in range(ct.counts[w, LY.CT_TARGET]):
        if ct.counts[w, LY.CT_PAIR_STOP] == 0:
            ct.counts[w, LY.CT_PAIR_STOP] = pair_motion_exceeds_skin(st, wd, pair_skin)
        if ct.counts[w, LY.CT_PAIR_STOP] == 0:  # otherwise the rest of the launch waits for the host's search
            serial_step(md, wd, n0 + s, dt, history_every, row0, w * 2 * pair_cap, (w * 2 + 1) * pair_cap, gravity,
                        skin, sleep_speed, sleep_steps, implicit, st, ct, dg)
            done += 1
    ct.counts[w, LY.CT_STEPS_DONE] = done
    ct.counts[w, LY.CT_STEP] = n0 + done
