"""Ball–ball stage of a step: contacts between hull spheres of different clumps (004 §2.1; spec §2).

The candidate pairs come from the host's broad phase (pair_search.py), sorted by the two clumps; the
shear history lives with each pair and is carried across rebuilds by the host. Per pair:
    R̄ = 2R₁R₂/(R₁+R₂) (spec §2), contact mass m_c = m_a m_b/(m_a + m_b) of the two bodies,
    normal n from sphere j (body b) to sphere i (body a), contact point in the middle of the overlap,
    the force F acts on a, −F on b.
With implicit dashpots each body takes the pair's damping tensor implicitly in its own velocity, with the
other body's contact-point velocity, extrapolated from t − Δt/2 to t, as a known input (integrator.py,
damping.py).
"""

import taichi as ti

from . import ledger as L
from .contact_law import normal_force, shear_force
from .contacts import N_PAIRS
from .damping import DAMP_WIDTH, OTHER_DV, OTHER_WIDTH, damp_index
from .wall_contact import IMPACT_SPEED_FLOOR, add_slot, damping_block


@ti.func
def _other_block(c_n, c_s, n, arm, v_other):
    """A body's damping terms for a contact with another body: the block with JᵀDJ (its wall slots stay
    zero), and JᵀD v_other (the other body's contact-point velocity through the dashpots) [N, N·m]."""
    blk = damping_block(c_n, c_s, n, arm, ti.Vector([0.0, 0.0, 0.0]))
    y = c_s * v_other + (c_n - c_s) * n.dot(v_other) * n
    ry = arm.cross(y)
    return blk, ti.Vector([y[0], y[1], y[2], ry[0], ry[1], ry[2]])


@ti.func
def pair_contact(k, a, b, md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt,
                 n_walls, n_clumps, record, xa, ra, va, wa, xb, rb, vb, wb, m_c, mat, implicit: ti.template(),
                 both: ti.template()):
    """Force of candidate pair k (hull spheres i of clump a and j of clump b) at t.

    Context: poses (xa, ra), (xb, rb) [m], velocities at t − Δt/2 [m/s, rad/s], contact mass m_c [kg],
    material-pair parameters. Returns (force on a [N], moment on a about its centre [N·m], moment on b
    [N·m], (damping, friction, strain) [J], overlap ÷ smaller radius, touching, damping block and other-body
    damping force for a, the same for b). With ``both`` False only a's damping block is formed (JᵀDJ about
    a's centre): the serial loop derives the rest once per pair of bodies (:func:`_derive_pair_damping`).
    """
    pair = ct.pairs[k]
    i = pair[0]
    j = pair[1]
    bi = md.sph_body[i]
    bj = md.sph_body[j]
    xi = xa + ra @ ti.Vector([bi[0], bi[1], bi[2]])
    xj = xb + rb @ ti.Vector([bj[0], bj[1], bj[2]])
    d = xi - xj
    dist = d.norm()
    overlap = bi[3] + bj[3] - dist
    f = ti.Vector([0.0, 0.0, 0.0])
    ta = ti.Vector([0.0, 0.0, 0.0])
    tb = ti.Vector([0.0, 0.0, 0.0])
    e = ti.Vector([0.0, 0.0, 0.0])
    ratio = 0.0
    touching = 0
    blk_a = ti.Vector([0.0] * DAMP_WIDTH)
    blk_b = ti.Vector([0.0] * DAMP_WIDTH)
    oth_a = ti.Vector([0.0] * 6)
    oth_b = ti.Vector([0.0] * 6)
    hs = ct.pair_hist[k]
    if overlap > 0.0 and dist > 0.0:
        touching = 1
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
        fe, fd, kn, ks, en, cs, cn = normal_force(mat, r_eff, m_c, overlap, -vn, v_imp)
        fs, fsd, slip, es, cs_eff = shear_force(mat, ti.Vector([hs[0], hs[1], hs[2]]), n, v_t, ks, fe, cs, dt)
        f_el = fe * n + fs
        f_dp = fd * n + fsd
        ct.pair_hist[k] = ti.Vector([fs[0], fs[1], fs[2], v_imp])
        if ti.static(implicit):
            f = f_el
            e = ti.Vector([0.0, slip, en + es])
            if fd == -fe and fe > 0.0:  # no-tension clip: no normal force at all (see wall_contact.py)
                f = fs
                e = ti.Vector([fe * vn * dt, slip, en + es])
            if ti.static(both):
                blk_a, oth_a = _other_block(cn, cs_eff, n, arm_a, _point_velocity_at_t(st, b, vb, wb, arm_b))
                blk_b, oth_b = _other_block(cn, cs_eff, n, arm_b, _point_velocity_at_t(st, a, va, wa, arm_a))
            else:
                blk_a = damping_block(cn, cs_eff, n, arm_a, ti.Vector([0.0, 0.0, 0.0]))
        else:
            f = f_el + f_dp
            e = ti.Vector([(fd * (-vn) - fsd.dot(v_t)) * dt, slip, en + es])
        ta = arm_a.cross(f)
        tb = -arm_b.cross(f)
        ratio = overlap / ti.min(bi[3], bj[3])
        if record:
            f_rec = f_el + f_dp
            stride = n_walls + n_clumps
            sa = md.iface_map[a * stride + n_walls + b]
            if sa >= 0:
                add_slot(dg, sa, f_rec, xc, fe + fd)
            sb = md.iface_map[b * stride + n_walls + a]
            if sb >= 0:
                add_slot(dg, sb, -f_rec, xc, fe + fd)
            info_i = md.sph_info[i]
            info_j = md.sph_info[j]
            for layer in ti.static(range(2, 4)):
                if info_i[layer] >= 0:
                    add_slot(dg, info_i[layer], f_rec, xc, fe + fd)
                if info_j[layer] >= 0:
                    add_slot(dg, info_j[layer], -f_rec, xc, fe + fd)
            la = arm_a.cross(n)
            lb = arm_b.cross(n)
            st.monitor[a] += ti.Vector([0.0, kn, kn * la.dot(la), cn, 0.0, 0.0, 0.0, 0.0])
            st.monitor[b] += ti.Vector([0.0, kn, kn * lb.dot(lb), cn, 0.0, 0.0, 0.0, 0.0])
    elif hs[3] != 0.0:
        ct.pair_hist[k] = ti.Vector([0.0, 0.0, 0.0, 0.0])  # the contact opened: its history goes
    return f, ta, tb, e, ratio, touching, blk_a, blk_b, oth_a, oth_b


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
    cb = sm.transpose() @ ca @ sm
    blk_b = ti.Vector([0.0] * DAMP_WIDTH)
    for i in ti.static(range(6)):
        for j in ti.static(range(i, 6)):
            blk_b[ti.static(damp_index(i, j))] = cb[i, j]
    return blk_b, ca @ (sm @ ub), sm.transpose() @ (ca @ ua)


@ti.func
def _u6(v, w):
    return ti.Vector([v[0], v[1], v[2], w[0], w[1], w[2]])


@ti.func
def _half_du(st: ti.template(), c):
    """Half the velocity change of clump c over its last step [m/s, rad/s]: u_{n−½} + this is its velocity
    extrapolated to t_n (damping.py)."""
    o = st.damp_other[c]
    return ti.Vector([0.5 * o[OTHER_DV + i] for i in ti.static(range(6))])


@ti.func
def _point_velocity_at_t(st: ti.template(), c, v, w, arm):
    """Velocity [m/s] at t_n of the point at `arm` [m] from clump c's centre, extrapolated from its
    velocities v, w at t − Δt/2."""
    h = _half_du(st, c)
    return v + ti.Vector([h[0], h[1], h[2]]) + (w + ti.Vector([h[3], h[4], h[5]])).cross(arm)


@ti.func
def _wake(st: ti.template(), c):
    mon = st.monitor[c]
    mon[4] = 0.0
    mon[5] = 0.0
    st.monitor[c] = mon


@ti.func
def _add(st: ti.template(), c, f, t, blk, oth, implicit: ti.template()):
    st.force[c] += f
    st.torque[c] += t
    if ti.static(implicit):
        st.damp[c] += blk
        st.damp_other[c] += ti.Vector([oth[i] for i in ti.static(range(6))] + [0.0] * (OTHER_WIDTH - 6))


@ti.func
def _flush_pair(st: ti.template(), a, b, f, t_a, t_b, blk_a, d, ua, ub, implicit: ti.template()):
    """Add one pair of bodies' summed contacts to both: force f on a and −f on b [N], moments t_a, t_b
    [N·m]; with implicit dashpots, a's damping block blk_a (about a's centre), b's derived from it
    (d = x_a − x_b [m]) and the other-body terms from velocities ua, ub at t − Δt/2 extrapolated to t."""
    bb = ti.Vector([0.0] * DAMP_WIDTH)
    oa = ti.Vector([0.0] * 6)
    ob = ti.Vector([0.0] * 6)
    if ti.static(implicit):
        bb, oa, ob = _derive_pair_damping(blk_a, d, ua + _half_du(st, a), ub + _half_du(st, b))
    _add(st, a, f, t_a, blk_a, oa, implicit)
    _add(st, b, -f, t_b, bb, ob, implicit)


@ti.func
def pair_contacts_serial(md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt, n_walls,
                         n_clumps, record, implicit: ti.template()):
    """All candidate pairs in order (sorted by their two clumps), with both bodies' context cached and the
    sums kept in registers while the pair of clumps repeats."""
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
    mat = md.mat_pair[0, 0]
    both_asleep = 0
    fa = ti.Vector([0.0, 0.0, 0.0])
    ta_sum = ti.Vector([0.0, 0.0, 0.0])
    tb_sum = ti.Vector([0.0, 0.0, 0.0])
    ba = ti.Vector([0.0] * DAMP_WIDTH)
    e_sum = ti.Vector([0.0, 0.0, 0.0])
    worst = 0.0
    count = 0
    for k in range(ct.counts[N_PAIRS]):
        pair = ct.pairs[k]
        a = md.sph_info[pair[0]][0]
        b = md.sph_info[pair[1]][0]
        if a != cur_a or b != cur_b:
            if cur_a >= 0:
                _flush_pair(st, cur_a, cur_b, fa, ta_sum, tb_sum, ba, xa - xb, _u6(va, wa), _u6(vb, wb), implicit)
            fa = ti.Vector([0.0, 0.0, 0.0])
            ta_sum = ti.Vector([0.0, 0.0, 0.0])
            tb_sum = ti.Vector([0.0, 0.0, 0.0])
            ba = ti.Vector([0.0] * DAMP_WIDTH)
            cur_a = a
            cur_b = b
            xa = st.pos[a]
            ra = st.rot[a]
            va = st.vel[a]
            wa = st.omega[a]
            xb = st.pos[b]
            rb = st.rot[b]
            vb = st.vel[b]
            wb = st.omega[b]
            ma = md.clump_param[a][0]
            mb = md.clump_param[b][0]
            m_c = ma * mb / (ma + mb)  # the two bodies' reduced mass
            mat = md.mat_pair[md.sph_info[pair[0]][1], md.sph_info[pair[1]][1]]
            both_asleep = 1 if st.monitor[a][5] > 0.5 and st.monitor[b][5] > 0.5 else 0
        if both_asleep == 1 and not record:
            continue
        f, t_a, t_b, e, ratio, touching, blk_a, _blk_b, _oth_a, _oth_b = pair_contact(
            k, a, b, md, st, ct, dg, dt, n_walls, n_clumps, record, xa, ra, va, wa, xb, rb, vb, wb, m_c, mat, implicit,
            False)
        if touching == 1:
            if both_asleep == 0:
                # a body touched by a moving one is awake (before the wall stage reads its state)
                if st.monitor[a][5] > 0.5:
                    _wake(st, a)
                if st.monitor[b][5] > 0.5:
                    _wake(st, b)
            fa += f
            ta_sum += t_a
            tb_sum += t_b
            if ti.static(implicit):
                ba += blk_a
            e_sum += e
            worst = ti.max(worst, ratio)
            count += 1
    if cur_a >= 0:
        _flush_pair(st, cur_a, cur_b, fa, ta_sum, tb_sum, ba, xa - xb, _u6(va, wa), _u6(vb, wb), implicit)
    dg.ledger[L.STEP + L.DAMPING] += e_sum[0]
    dg.ledger[L.STEP + L.FRICTION] += e_sum[1]
    dg.ledger[L.STRAIN] += e_sum[2]
    dg.ledger[L.CONTACTS] += count
    dg.ledger[L.MAX_OVERLAP] = ti.max(dg.ledger[L.MAX_OVERLAP], worst)


@ti.func
def pair_contact_parallel(k, md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt, n_walls,
                          n_clumps, record, implicit: ti.template()):
    """One candidate pair with both bodies' context loaded, and atomic sums (parallel loops)."""
    pair = ct.pairs[k]
    a = md.sph_info[pair[0]][0]
    b = md.sph_info[pair[1]][0]
    asleep_a = st.monitor[a][5] > 0.5
    asleep_b = st.monitor[b][5] > 0.5
    if record or not (asleep_a and asleep_b):
        ma = md.clump_param[a][0]
        mb = md.clump_param[b][0]
        mat = md.mat_pair[md.sph_info[pair[0]][1], md.sph_info[pair[1]][1]]
        f, t_a, t_b, e, ratio, touching, blk_a, blk_b, oth_a, oth_b = pair_contact(
            k, a, b, md, st, ct, dg, dt, n_walls, n_clumps, record, st.pos[a], st.rot[a], st.vel[a], st.omega[a],
            st.pos[b], st.rot[b], st.vel[b], st.omega[b], ma * mb / (ma + mb), mat, implicit, True)
        if touching == 1:
            if asleep_a != asleep_b:  # a body touched by a moving one is awake (the wall stage runs after)
                _wake(st, a)
                _wake(st, b)
            _add(st, a, f, t_a, blk_a, oth_a, implicit)
            _add(st, b, -f, t_b, blk_b, oth_b, implicit)
            dg.ledger[L.STEP + L.DAMPING] += e[0]
            dg.ledger[L.STEP + L.FRICTION] += e[1]
            dg.ledger[L.STRAIN] += e[2]
            dg.ledger[L.CONTACTS] += 1.0
            ti.atomic_max(dg.ledger[L.MAX_OVERLAP], ratio)
