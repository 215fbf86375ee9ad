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
from ..device import runtime
from ..device.damping_layout import DAMP_WIDTH, OTHER_DV, OTHER_WIDTH, damp_index
from ..device.kernel_lang import ti
from . import ledger as L
from . import recording as R
from .contact_law import normal_force, shear_force
from .small_linalg import mat_mat, mat_vec
from .wall_contact import IMPACT_SPEED_FLOOR, damping_block

PairHit = None  # struct type of one pair's result, defined at init (runtime.define_types)


def _define_types(real):
    global PairHit
    v3 = ti.types.vector(3, real)
    PairHit = ti.types.struct(
        touching=ti.i32,
        force=v3,  # on body a [N] (−force on b); dashpots left out when they are implicit
        torque_a=v3, torque_b=v3,  # about each body's centre of mass [N·m]
        e_damping=real, e_friction=real, e_strain=real,  # [J]
        e_stiffness=real,  # work of the shear stiffness change in the step [J] (contact_law.shear_force)
        ratio=real,  # overlap ÷ the smaller radius
        blk_a=ti.types.vector(DAMP_WIDTH, real),  # a's damping block about its centre (implicit dashpots)
        hist=ti.types.vector(LY.HIST_WIDTH, real),  # new contact history (layout.HIST_*; shear force on a)
        point=v3, f_rec=v3, fn_rec=real, kn=real, cn=real, lever2_a=real, lever2_b=real,  # for the record
        # for the frames (snapshot.py): as in wall_contact.WallHit
        normal=v3, overlap=real, fn_elastic=real, fn_dashpot=real, shear=v3, shear_dashpot=v3,
    )


runtime.define_types(_define_types)


@ti.func
def pair_contact(bi, bj, hs, dt, xa, ra, va, wa, xb, rb, vb, wb, m_c, k_sum, mat, implicit: ti.template()):
    """Force between sphere i of clump a and sphere j of clump b at t (a pure function: returns a ``PairHit``).

    Spheres bi, bj: (centre relative to the clump's centre of mass, body frame [m]; radius [m]); shear
    history hs. Context: poses (xa, ra), (xb, rb) [m], velocities at t − Δt/2 [m/s, rad/s], contact mass
    m_c [kg] (the reduced mass), the interface's stiffness sum k_sum [N/m] (damping_mass "shared":
    contact_law.dashpot_mass; 0 otherwise), material-pair parameters mat. With ``implicit`` the dashpots
    come back as a's damping block (JᵀDJ about a's centre) instead of forces.
    """
    xi = xa + mat_vec(ra, ti.Vector([bi[0], bi[1], bi[2]]))
    xj = xb + mat_vec(rb, ti.Vector([bj[0], bj[1], bj[2]]))
    d = xi - xj
    dist = d.norm()
    overlap = bi[3] + bj[3] - dist
    hit = PairHit(touching=0, hist=hs)
    if overlap > 0.0 and dist > 0.0:
        hit.touching = 1
        n = d / dist
        xc = xj + n * (bj[3] - 0.5 * overlap)
        arm_a = xc - xa
        arm_b = xc - xb
        vpa = va + wa.cross(arm_a)
        vpb = vb + wb.cross(arm_b)
        v_rel = vpa - vpb
        vn = v_rel.dot(n)
        v_t = v_rel - vn * n
        v_imp = hs[3]
        if v_imp <= 0.0:
            v_imp = ti.max(-vn, IMPACT_SPEED_FLOOR)
        r_eff = 2.0 * bi[3] * bj[3] / (bi[3] + bj[3])  # R̄ (spec §2)
        fe, fd, kn, ks, en, cs, cn = normal_force(mat, r_eff, m_c, overlap, -vn, v_imp, k_sum)
        fs, fsd, slip, es, cs_eff, wk = shear_force(mat, ti.Vector([hs[0], hs[1], hs[2]]), hs[LY.HIST_KS], n, v_t,
                                                    ks, fe, cs, dt)
        f_el = fe * n + fs
        f_dp = fd * n + fsd
        hit.hist = ti.Vector([fs[0], fs[1], fs[2], v_imp, ks])
        f = f_el
        if ti.static(implicit):
            if fd == -fe and fe > 0.0:  # no-tension clip: no normal force at all (see wall_contact.py)
                f = fs
                hit.e_damping = fe * vn * dt
            hit.blk_a = damping_block(cn, cs_eff, n, arm_a, ti.Vector([0.0, 0.0, 0.0]))
        else:
            f = f_el + f_dp
            hit.e_damping = (fd * (-vn) - fsd.dot(v_t)) * dt
        hit.force = f
        hit.torque_a = arm_a.cross(f)
        hit.torque_b = -arm_b.cross(f)
        hit.e_friction = slip
        hit.e_stiffness = wk
        hit.e_strain = en + es
        hit.ratio = overlap / ti.min(bi[3], bj[3])
        hit.point = xc
        hit.normal = n
        hit.overlap = overlap
        hit.f_rec = f_el + f_dp
        hit.fn_rec = fe + fd
        hit.fn_elastic = fe
        hit.fn_dashpot = fd
        hit.shear = fs
        hit.shear_dashpot = fsd
        hit.kn = kn
        hit.cn = cn
        la = arm_a.cross(n)
        lb = arm_b.cross(n)
        hit.lever2_a = la.dot(la)
        hit.lever2_b = lb.dot(lb)
    elif hs[3] != 0.0:
        hit.hist = ti.Vector([0.0] * LY.HIST_WIDTH)  # the contact opened: its history goes
    return hit


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
def _u6(v, w):
    return ti.Vector([v[0], v[1], v[2], w[0], w[1], w[2]])


@ti.func
def _half_du(st: ti.template(), c):  # in:
    """Half the velocity change of clump c over its last step [m/s, rad/s]: u_{n−½} + this is its velocity
    extrapolated to t_n (damping_layout.py).

    In/out — in st: damp_other[c].
    """
    o = st.damp_other[c]
    return ti.Vector([0.5 * o[OTHER_DV + i] for i in ti.static(range(6))])


@ti.func
def _wake(c,  # in:
          st: ti.template()):  # out: monitor[c]: quiet steps and asleep
    # element stores: on the block path other threads may be adding to this body's monitor sums
    st.monitor[c][LY.MON_QUIET] = 0.0
    st.monitor[c][LY.MON_ASLEEP] = 0.0


@ti.func
def _add(c, f, t, blk, oth, implicit: ti.template(), shared: ti.template(),  # in:
         st: ti.template()):  # out:
    """In/out — out st: force[c], torque[c], damp[c], damp_other[c] +=."""
    LY.accumulate(st.force, c, f, shared)
    LY.accumulate(st.torque, c, t, shared)
    if ti.static(implicit):
        LY.accumulate(st.damp, c, blk, shared)
        LY.accumulate(st.damp_other, c, ti.Vector([oth[i] for i in ti.static(range(6))] + [0.0] * (OTHER_WIDTH - 6)),
                      shared)


@ti.func
def _flush_pair(a, b, f, t_a, t_b, blk_a, d, ua, ub, implicit: ti.template(), shared: ti.template(),  # in:
                st: ti.template()):  # out:
    """Add one run of contacts between bodies a and b to both: force f on a and −f on b [N], moments t_a,
    t_b [N·m]; with implicit dashpots, a's damping block blk_a (about a's centre), b's derived from it
    (d = x_a − x_b [m]) and the other-body terms from velocities ua, ub at t − Δt/2 extrapolated to t.

    In/out — out st: force, torque, damp, damp_other of a and b += (reads damp_other).
    """
    bb = ti.Vector([0.0] * DAMP_WIDTH)
    oa = ti.Vector([0.0] * 6)
    ob = ti.Vector([0.0] * 6)
    if ti.static(implicit):
        bb, oa, ob = _derive_pair_damping(blk_a, d, ua + _half_du(st, a), ub + _half_du(st, b))
    _add(a, f, t_a, blk_a, oa, implicit, shared, st)
    _add(b, -f, t_b, bb, ob, implicit, shared, st)


@ti.func
def _pair_context(md: ti.template(), st: ti.template(), dg: ti.template(), wd, i, j, a, b, shared_mass):  # in:
    """What every contact between bodies a and b (spheres i of a, j of b) shares: both poses and velocities at
    t − Δt/2, their reduced mass [kg], the material pair, whether both sleep, and the interface's stiffness sum
    k_sum [N/m] (0 unless damping_mass is "shared").

    In/out — in md: sph_info, clump_param, mat_pair, world_param; in st: pos, rot, vel, omega, monitor of a and b; in
    dg: ledger: the interface's stiffness sum (damping_mass "shared").
    """
    ma = LY.clump_mass(md, a)
    mb = LY.clump_mass(md, b)
    m_c = ma * mb / (ma + mb)  # the two bodies' reduced mass
    mat = LY.material_pair(md, wd, md.sph_info[i][1], md.sph_info[j][1])
    both_asleep = 1 if LY.asleep(st, a) and LY.asleep(st, b) else 0
    k_sum = 0.0
    if shared_mass:
        k_sum = dg.ledger[wd.index, L.LEDGER_SIZE + LY.kface_column(wd, a, wd.n_wall + b - wd.clump0)]
    return st.pos[a], st.rot[a], st.vel[a], st.omega[a], st.pos[b], st.rot[b], st.vel[b], st.omega[b], m_c, mat, \
        both_asleep, k_sum


@ti.func
def pair_contacts(md: ti.template(), wd, dt, k0, k1, base, observed, implicit: ti.template(),  # in:
                  shared: ti.template(),
                  st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Body-pair stage: pairs base + k0 ≤ k < base + k1 of world wd's pair list in order, with both bodies'
    context cached and the sums kept in registers while the pair of clumps repeats. Pairs of two sleeping bodies
    are evaluated on observed steps only; a body touched by a moving one wakes (before the wall stage reads its
    state). On observed steps each touching pair goes to the record stage (recording.pair_contact_record).
    Returns the pairs' ``recording.ContactSums`` for the ledger (recording.add_contact_energy).

    In/out — in md: sph_info, sph_body, clump_param, mat_pair, iface_map, world_param; in k0, k1, base: the pairs base +
    k0 ≤ k < base + k1 of the world's list; in observed: a record step: the contacts of sleeping bodies too, and each
    touching one to the record stage; out st: force, torque, damp, damp_other += (reads pos, rot, vel, omega, monitor);
    monitor: wakes, and the stiffness sums on observed steps; out ct: pair_hist (reads pairs); out dg: slots on observed
    steps (reads the ledger's interface stiffness sums).
    """
    cur_a = -1
    cur_b = -1
    xa = ti.Vector([0.0, 0.0, 0.0])
    ra = ti.Matrix.identity(float, 3)
    va = ti.Vector([0.0, 0.0, 0.0])
    wa = ti.Vector([0.0, 0.0, 0.0])
    xb = ti.Vector([0.0, 0.0, 0.0])
    rb = ti.Matrix.identity(float, 3)
    vb = ti.Vector([0.0, 0.0, 0.0])
    wb = ti.Vector([0.0, 0.0, 0.0])
    m_c = 0.0
    k_sum = 0.0
    shared_mass = LY.uses_shared_mass(md, wd.index)
    mat = md.mat_pair[wd.mat0]
    both_asleep = 0
    fa = ti.Vector([0.0, 0.0, 0.0])
    ta_sum = ti.Vector([0.0, 0.0, 0.0])
    tb_sum = ti.Vector([0.0, 0.0, 0.0])
    ba = ti.Vector([0.0] * DAMP_WIDTH)
    sums = R.ContactSums()
    for k in range(base + k0, base + k1):
        pair = ct.pairs[k]
        a = md.sph_info[pair[0]][0]
        b = md.sph_info[pair[1]][0]
        if a != cur_a or b != cur_b:
            if cur_a >= 0:
                _flush_pair(cur_a, cur_b, fa, ta_sum, tb_sum, ba, xa - xb, _u6(va, wa), _u6(vb, wb), implicit,
                            shared, st)
                sums.runs += 1
            fa = ti.Vector([0.0, 0.0, 0.0])
            ta_sum = ti.Vector([0.0, 0.0, 0.0])
            tb_sum = ti.Vector([0.0, 0.0, 0.0])
            ba = ti.Vector([0.0] * DAMP_WIDTH)
            cur_a = a
            cur_b = b
            xa, ra, va, wa, xb, rb, vb, wb, m_c, mat, both_asleep, k_sum = _pair_context(md, st, dg, wd, pair[0],
                                                                                         pair[1], a, b, shared_mass)
        if both_asleep == 0 or observed:  # (no `continue`: see wall_contact.wall_contacts)
            hs = ct.pair_hist[k]
            hit = pair_contact(md.sph_body[pair[0]], md.sph_body[pair[1]], hs, dt, xa, ra, va, wa, xb, rb, vb, wb,
                               m_c, k_sum, mat, implicit)
            if hit.touching == 1 or hs[3] != 0.0:
                ct.pair_hist[k] = hit.hist
            if hit.touching == 1:
                if both_asleep == 0:
                    if LY.asleep(st, a):
                        _wake(a, st)
                    if LY.asleep(st, b):
                        _wake(b, st)
                fa += hit.force
                ta_sum += hit.torque_a
                tb_sum += hit.torque_b
                if ti.static(implicit):
                    ba += hit.blk_a
                sums.e_damping += hit.e_damping
                sums.e_friction += hit.e_friction
                sums.e_strain += hit.e_strain
                sums.e_stiffness += hit.e_stiffness
                sums.worst = ti.max(sums.worst, hit.ratio)
                sums.count += 1
                if observed:  # the record stage
                    R.pair_contact_record(md, wd, pair[0], pair[1], a, b, hit, shared, st, dg)
    if cur_a >= 0:
        _flush_pair(cur_a, cur_b, fa, ta_sum, tb_sum, ba, xa - xb, _u6(va, wa), _u6(vb, wb), implicit, shared, st)
        sums.runs += 1
    return sums


# scalar atomic adds of one run's flush (both bodies), and of a record step's diagnostics of one pair (6 probe
# slots of 8 entries and two monitors of 8): the block path's loop-iteration bound (layout.LOOP_BUDGET)
FLUSH_SCALARS = 2 * (3 + 3 + DAMP_WIDTH + OTHER_WIDTH)
RECORD_SCALARS = 8 * 8
