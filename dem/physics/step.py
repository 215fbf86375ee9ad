"""The time step of one world, and the serial launch path (CPU).

A step (004 §2.3, the PFC cycle), in order:
  1. if any body or wall has moved more than the skin since the last rebuild, rebuild the world's
     near-wall candidate list;
  2. contact forces at t_n from the positions at t_n and the velocities at t_{n−½}: body pairs, then walls
     (under damping_mass "shared" each preceded by the interfaces' stiffness sums, interface_stiffness.py);
  3. law of motion of every clump: velocities to t_{n+½}, poses to t_{n+1};
  4. walls to t_{n+1};
  5. close the energy ledger of the step and, every ``record_every`` steps, write a record row.

Serial path: one thread runs all the steps of one world in a loop (worlds in parallel over the CPU's
threads). Contacts are taken in list order with their sums in registers, so a world's run is bit-for-bit
the same whatever the other worlds do and however the steps are split into launches. A world stops early
when two of its bodies may have moved closer than the pair skin (counts[CT_PAIR_STOP]): the host then
searches its body pairs again (pair_search.py) and launches it on.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import ledger as L
from . import recording as R
from .integrator import integrate_clump, move_wall
from .interface_stiffness import clear_sums, pair_stiffness, wall_stiffness
from .pair_contact import pair_contacts
from .recording import CLUMP_WIDTH, GLOBAL_COLUMNS, WALL_WIDTH
from .wall_contact import cluster_wall_candidates, wall_contacts


@ti.func
def record_columns(wd):
    """First record column of the world's clumps, walls and probe slots (recording.RecordLayout)."""
    clump_col = ti.static(len(GLOBAL_COLUMNS))
    wall_col = clump_col + CLUMP_WIDTH * wd.n_clump
    return clump_col, wall_col, wall_col + WALL_WIDTH * wd.n_wall


@ti.func
def pair_motion_exceeds_skin(st: ti.template(), wd, pair_skin):
    """Whether two bodies of world wd may have moved closer than the pair skin since the last body-pair
    search: the sum of the two largest motion bounds reaches the skin (0: the world has no pairs)."""
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
def begin_step(st: ti.template(), ct: ti.template(), dg: ti.template(), wd, skin, record):
    """Note whether any of world wd's walls moves, and decide whether its candidate list must be rebuilt
    (Verlet skin). (The step's sums start from zero: recording.close_step clears them at the end of each step.)"""
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
def serial_world_steps(w, md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt,
                       record_every, rec_rows, pair_cap, implicit: ti.template()):
    """Up to counts[w, CT_TARGET] steps of world w in one loop; counts[w, CT_STEPS_DONE] tells how many ran.
    Record rows go to rows [w·rec_rows, (w+1)·rec_rows) of the record buffer; the world's pair list is the
    first half of its pair region (pair_cap pairs)."""
    wd = LY.load_world(md, w)
    grav = LY.gravity(md, w)
    skin = md.world_param[w, LY.WP_SKIN]
    pair_skin = md.world_param[w, LY.WP_PAIR_SKIN]
    sleep_speed = md.world_param[w, LY.WP_SLEEP_SPEED]
    sleep_steps = md.world_param[w, LY.WP_SLEEP_STEPS]
    clump_col, wall_col, slot_col = record_columns(wd)
    n0 = ct.counts[w, LY.CT_STEP]
    row0 = w * rec_rows - ct.counts[w, LY.CT_REC_FIRST]
    pair_base = w * 2 * pair_cap
    shared_mass = LY.uses_shared_mass(md, w)
    done = 0
    for s in range(ct.counts[w, LY.CT_TARGET]):
        if ct.counts[w, LY.CT_PAIR_STOP] == 0:
            ct.counts[w, LY.CT_PAIR_STOP] = pair_motion_exceeds_skin(st, wd, pair_skin)
        if ct.counts[w, LY.CT_PAIR_STOP] == 0:  # otherwise the rest of the launch waits for the host's search
            n = n0 + s
            t = ti.cast(n, float) * dt  # n Δt: the same whatever the launches' lengths
            record = n % record_every == 0
            row = row0 + n // record_every
            begin_step(st, ct, dg, wd, skin, record)
            if ct.counts[w, LY.CT_REBUILD_FLAG] == 1:
                k = 0
                for g in range(wd.cluster0, wd.cluster0 + wd.n_cluster):
                    k += cluster_wall_candidates(g, md, st, ct, wd, skin, k, True)
                ct.counts[w, LY.CT_N_CAND] = k
            if shared_mass:  # damping_mass "shared": the interfaces' stiffness sums first (D5)
                clear_sums(dg.ledger, w, L.LEDGER_SIZE, wd, 0, 1)
                pair_stiffness(0, ct.counts[w, LY.CT_N_PAIRS], pair_base, md, st, ct, dg.ledger, w, L.LEDGER_SIZE,
                               wd, record, False, False)
            pair_contacts(0, ct.counts[w, LY.CT_N_PAIRS], pair_base, md, st, ct, dg, wd, dt, record, implicit,
                          False)  # may wake bodies
            if shared_mass:  # after the pairs have woken bodies, as the wall stage sees them
                wall_stiffness(0, ct.counts[w, LY.CT_N_CAND], md, st, ct, dg.ledger, w, L.LEDGER_SIZE, wd, record,
                               False, False)
            wall_contacts(0, ct.counts[w, LY.CT_N_CAND], md, st, ct, dg, wd, dt, record, implicit, False)
            walls_moving = ct.counts[w, LY.CT_WALLS_MOVING]
            for c in range(wd.clump0, wd.clump0 + wd.n_clump):
                mv = integrate_clump(c, md, st, dt, grav, record, sleep_speed, sleep_steps, walls_moving)
                R.clump_record(st, dg, w, row, c, clump_col + CLUMP_WIDTH * (c - wd.clump0), mv, record, False)
            for k in range(wd.wall0, wd.wall0 + wd.n_wall):
                ws0 = move_wall(k, md, st, t, dt)
                if record:
                    R.wall_record(dg, row, wall_col + WALL_WIDTH * (k - wd.wall0), ws0)
            R.close_step(ct, dg, wd, t, record, row, slot_col)
            done += 1
    ct.counts[w, LY.CT_STEPS_DONE] = done
    ct.counts[w, LY.CT_STEP] = n0 + done
