"""Ball–ball stage of a step: contacts between hull spheres of different clumps (004 §2.1; spec §2).

Candidate pairs come from a broad phase (pair_search.py on the host for the serial path,
pair_search_device.py on the device for the block path), grouped by their two clumps a < b; the shear
history lives with each pair and is carried across rebuilds. Per pair:
    R̄ = 2R₁R₂/(R₁+R₂) (spec §2), contact mass m_c = m_a m_b/(m_a + m_b) of the two bodies,
    normal n from sphere j (body b) to sphere i (body a), contact point in the middle of the overlap,
    the force F acts on a, −F on b.
With implicit dashpots each body takes the pair's damping tensor implicitly in its own velocity, with the
other body's contact-point velocity, extrapolated from t − Δt/2 to t, as a known input (integrator.py,
damping_layout.py). Only a's damping block is formed per contact; b's terms follow from it once per run of
contacts between the same two bodies (:func:`_derive_pair_damping`).
"""

from ..device import layout as LY
from ..device.damping_layout import DAMP_WIDTH, OTHER_DV, OTHER_WIDTH, damp_index
from ..device.kernel_lang import ti
from . import contact_geometry as CG
from . import contact_response as CR
from . import contact_sums as CS
from . import history_rows as R
from . import ledger as L
from . import share_sums as SS
from .contact_geometry import load_body, motion_between
from .contact_law import share_stiffness
from .contact_response import respond
from .integrator import wake
from .pair_entry import entry_bodies, kept_geometry
from .small_linalg import mat_mat, mat_vec


@ti.func
def contact_between(md: ti.template(), pair, ba, bb, m_c, mat, hs, k_sum, dt, found, implicit: ti.template()):  # in:
    """A pair-list entry between bodies ba and bb (``contact_geometry.Body``) whose geometry pass found `found`
    (its layout.PG_* row: normal, overlap, share of the stiffness; pair_geometry_pass.py), with contact mass m_c [kg]
    (the two bodies' reduced mass), material pair mat (scaled by the share; an entry whose share is 0 does not
    touch), history hs and interface stiffness sum k_sum [N/m] (0 unless "shared"). Returns its
    ``ContactGeometry`` and ``ContactResponse`` (force on a, −force on b; a's damping block with implicit dashpots);
    the response of a pair that does not touch holds only its history (cleared if it opened).

    In/out — in md: sph_body.
    """
    g = CG.ContactGeometry(touching=0)
    r = CR.ContactResponse(hist=hs)
    share = found[LY.PG_SHARE]
    if share > 0.0:  # it touches, and its side carries a share of the joint
        g = motion_between(kept_geometry(md, pair, ba, bb, found), ba, bb)
        r = respond(g, share_stiffness(mat, share), hs, m_c, k_sum, dt, ti.Vector([0.0, 0.0, 0.0]), implicit)
    elif hs[LY.HIST_IMPACT] != 0.0:
        r.hist = ti.Vector([0.0] * LY.HIST_WIDTH)  # the contact opened: its history goes
    return g, r


@ti.func
def _derive_pair_damping(blk_a, d, ua, ub):
    """The damping terms of all contacts between bodies a and b from a's block alone.

    Every contact point seen from b is r_b = r_a + d with d = x_a − x_b, so J_b = J_a S with
    S = [[𝟙, −[d]×], [0, 𝟙]] (u = [v; ω]); hence C_b = Sᵀ C_a S, and the other-body forces
    Σ J_aᵀD v_b = C_a S u_b and Σ J_bᵀD v_a = Sᵀ C_a u_a (u at t − Δt/2). Returns (b's block, a's other-body
    force, b's other-body force).
    """
    ca = ti.Matrix.zero(float, 6, 6)
    for i in ti.static(range(6)):
        for j in ti.static(range(6)):
            ca[i, j] = blk_a[ti.static(damp_index(i, j))]
    sm = ti.Matrix.identity(float, 6)
    sm[0, 4] = d[2]  # −[d]× in the upper-right block: −[d]× = [[0, d_z, −d_y], [−d_z, 0, d_x], [d_y, −d_x, 0]]
    sm[0, 5] = -d[1]
    sm[1, 3] = -d[2]
    sm[1, 5] = d[0]
    sm[2, 3] = d[1]
    sm[2, 4] = -d[0]
    cb = mat_mat(mat_mat(sm.transpose(), ca), sm)
    blk_b = ti.Vector([0.0] * DAMP_WIDTH)
    for i in ti.static(range(6)):
        for j in ti.static(range(i, 6)):
            blk_b[ti.static(damp_index(i, j))] = cb[i, j]
    return blk_b, mat_vec(ca, mat_vec(sm, ub)), mat_vec(sm.transpose(), mat_vec(ca, ua))


@ti.func
def _u6(body):
    """[v; ω] of a ``contact_geometry.Body`` at t − Δt/2."""
    return ti.Vector([body.vel[0], body.vel[1], body.vel[2], body.omega[0], body.omega[1], body.omega[2]])


@ti.func
def _half_du(st: ti.template(), c):  # in:
    """Half the velocity change of clump c over its last step [m/s, rad/s]: u_{n−½} + this is its velocity
    extrapolated to t_n (damping_layout.py).

    In/out — in st: damp_other[c].
    """
    o = st.damp_other[c]
    return ti.Vector([0.5 * o[OTHER_DV + i] for i in ti.static(range(6))])


@ti.func
def _add(c, f, t, blk, oth, implicit: ti.template(), shared: ti.template(), sk,  # in:
         st: ti.template(), dg: ti.template()):  # out:
    """In/out — out st: wrench[c], damp[c], damp_other[c] +=; out dg: ``shared``: share sk's partial of c instead."""
    if ti.static(shared):
        SS.clump_add(sk, c, SS.P_WRENCH, LY.wrench_of(f, t), dg)
        if ti.static(implicit):
            SS.clump_add(sk, c, SS.P_DAMP, blk, dg)
            SS.clump_add(sk, c, SS.P_OTHER, oth, dg)
    else:
        LY.accumulate(st.wrench, c, LY.wrench_of(f, t), False)
        if ti.static(implicit):
            LY.accumulate(st.damp, c, blk, False)
            LY.accumulate(st.damp_other, c,
                          ti.Vector([oth[i] for i in ti.static(range(6))] + [0.0] * (OTHER_WIDTH - 6)), False)


@ti.func
def _flush_pair(a, b, run, ba, bb, implicit: ti.template(), shared: ti.template(), sk,  # in:
                st: ti.template(), dg: ti.template()):  # out:
    """Add one run of contacts between bodies a and b (a ``contact_sums.ContactRun``) to both: its force on a and
    −force on b [N], its moments; with implicit dashpots, a's damping block (about a's centre), b's derived from
    it (d = x_a − x_b [m]) and the other-body terms from the velocities of ba, bb (``Body``) at t − Δt/2
    extrapolated to t.

    In/out — out st: wrench, damp, damp_other of a and b += (reads damp_other); out dg: ``shared``: share sk's
    partials of a and b instead.
    """
    blk_b = ti.Vector([0.0] * DAMP_WIDTH)
    oa = ti.Vector([0.0] * 6)
    ob = ti.Vector([0.0] * 6)
    if ti.static(implicit):
        blk_b, oa, ob = _derive_pair_damping(run.blk, ba.pos - bb.pos, _u6(ba) + _half_du(st, a),
                                             _u6(bb) + _half_du(st, b))
    _add(a, run.force, run.torque_a, run.blk, oa, implicit, shared, sk, st, dg)
    _add(b, -run.force, run.torque_b, blk_b, ob, implicit, shared, sk, st, dg)


@ti.func
def pair_stiffness_sum(dg: ti.template(), wd, a, b, shared_mass):  # in:
    """The stiffness sum K_I [N/m] of body a's interface with body b (0 unless damping_mass is "shared").

    In/out — in dg: ledger: the interface's stiffness sum.
    """
    k_sum = 0.0
    if shared_mass:
        k_sum = dg.ledger[wd.index, L.LEDGER_SIZE + LY.kface_column(wd, a, wd.n_wall + b - wd.clump0)]
    return k_sum


@ti.func
def pair_contacts(md: ti.template(), wd, dt, k0, k1, base, spare, observed, implicit: ti.template(),  # in:
                  shared: ti.template(), sk,
                  st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Body-pair stage: pairs base + k0 ≤ k < base + k1 of world wd's pair list in order, with both bodies'
    context cached and the sums kept in registers while the pair of clumps repeats, each from the geometry its
    geometry pass kept in row spare + k − base of pair_hist (pair_geometry_pass.py: it leaves out what this stage
    leaves out, pairs of two sleeping bodies but on observed steps); a body touched by a moving one wakes (before
    the wall stage reads its state). On observed steps each touching pair goes to the history stage
    (history_rows.pair_contact_record). Returns the pairs' ``history_rows.ContactSums`` for the ledger
    (history_rows.add_contact_energy). ``shared`` (the block path's shares, share_sums.py): the forces and diagnostics
    go to share sk's partials, and whether two bodies both sleep is read from their sleep at the start of the contact
    stages (share_sums.snapshot_sleep), not from what other shares woke meanwhile.

    In/out — in md: sph_info, sph_body, clump_param, mat_pair, iface_map, world_param; in k0, k1, base: the pairs base +
    k0 ≤ k < base + k1 of the world's list; in observed: an observed step: the contacts of sleeping bodies too, and each
    touching one to the history stage; out st: wrench, damp, damp_other += (reads pos, rot, vel, omega, monitor);
    monitor: wakes, and the stiffness sums on observed steps; out ct: pair_hist (reads pairs, and the spare half's
    geometry); out dg: slots on observed steps (reads the ledger's interface stiffness sums); ``shared``: the share's
    partials in the ledger instead (reads the sleep snapshot).
    """
    cur_a = -1
    cur_b = -1
    ba = CG.Body()
    bb = CG.Body()
    m_c = 0.0
    k_sum = 0.0
    shared_mass = LY.uses_shared_mass(md, wd.index)
    mat = md.mat_pair[wd.mat0]
    both_asleep = 0
    run = CS.ContactRun()
    sums = CS.ContactSums()
    for k in range(base + k0, base + k1):
        pair = ct.pairs[k]
        a, b = entry_bodies(md, pair)
        if a != cur_a or b != cur_b:
            if cur_a >= 0:
                _flush_pair(cur_a, cur_b, run, ba, bb, implicit, shared, sk, st, dg)
                sums.runs += 1
            run = CS.ContactRun()
            cur_a = a
            cur_b = b
            ba = load_body(md, st, a)
            bb = load_body(md, st, b)
            m_c = ba.mass * bb.mass / (ba.mass + bb.mass)  # the two bodies' reduced mass
            mat = LY.body_material_pair(md, wd, a, b)
            both_asleep = 1 if ba.asleep == 1 and bb.asleep == 1 else 0
            if ti.static(shared):
                both_asleep = 1 if SS.slept(dg, sk, a) and SS.slept(dg, sk, b) else 0
            k_sum = pair_stiffness_sum(dg, wd, a, b, shared_mass)
        found = ct.pair_hist[spare + k - base]
        if found[LY.PG_SHARE] != LY.PG_SKIPPED:  # (no `continue`: see wall_contact.wall_contacts)
            hs = ct.pair_hist[k]
            g, r = contact_between(md, pair, ba, bb, m_c, mat, hs, k_sum, dt, found, implicit)
            if g.touching == 1 or hs[LY.HIST_IMPACT] != 0.0:
                ct.pair_hist[k] = r.hist
            if g.touching == 1:
                if both_asleep == 0:
                    if LY.asleep(st, a):
                        wake(a, st)
                    if LY.asleep(st, b):
                        wake(b, st)
                run, sums = CS.add_contact(run, sums, g, r, implicit)
                if observed:  # the history stage
                    R.pair_contact_record(md, wd, pair[0], pair[1], a, b, g, r, shared, sk, st, dg)
    if cur_a >= 0:
        _flush_pair(cur_a, cur_b, run, ba, bb, implicit, shared, sk, st, dg)
        sums.runs += 1
    return sums

