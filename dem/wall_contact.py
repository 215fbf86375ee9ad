"""Ball–wall stage of a step: the near-wall candidate list and the contact forces.

Ball positions are not stored: a hull sphere's centre is x_G + R(q)·r_p, computed only for the spheres
that are candidates, so a step costs in proportion to the hull spheres near walls, not to the spheres
of the model. The candidate list is rebuilt cluster by cluster (see ``model.CLUSTER_CELL_RADII``).

Per contact, the body's pose and velocities, the wall's geometry and velocities and the material pair
form a *context*. The serial (CPU) driver keeps the context in registers while consecutive candidates
share a clump and a wall, which cuts the per-contact loads several-fold; the parallel driver loads it
for each candidate. Both evaluate the same :func:`wall_contact`.
"""

import taichi as ti

from . import ledger as L
from .contact_law import normal_force, shear_force
from .contacts import N_CAND
from .damping import DAMP_FORCE, DAMP_SCALAR, DAMP_WIDTH, damp_index

# The impact laws of seed 003 divide by δ̇⁻, the approach speed when a contact forms. A contact that
# forms while resting (δ̇⁻ ≈ 0) would get an unbounded dashpot, so δ̇⁻ is floored at 1 mm/s; those laws
# are meant for impacts faster than that.
IMPACT_SPEED_FLOOR = 1e-3


@ti.func
def row3(m, i):
    return ti.Vector([m[i, 0], m[i, 1], m[i, 2]])


@ti.func
def wall_velocity(md: ti.template(), w, t):
    """Prescribed wall velocity at time t [m/s]: linear interpolation of the sampled table."""
    dtab = md.wall_info[w][3]
    n = md.wall_vel.shape[1]
    s = ti.max(t / dtab, 0.0)
    i = ti.min(ti.cast(s, ti.i32), n - 1)
    j = ti.min(i + 1, n - 1)
    f = ti.min(s - i, 1.0)
    return md.wall_vel[w, i] * (1.0 - f) + md.wall_vel[w, j] * f


@ti.func
def wall_frame(md: ti.template(), st: ti.template(), w):
    """Wall w now: origin [m], normal, u, v (unit), half lengths along u and v [m] (0: infinite)."""
    f = md.wall_frame[w]
    ws = st.wall_state[w]
    info = md.wall_info[w]
    o = row3(f, 0) + ti.Vector([ws[0], ws[1], ws[2]])
    return o, row3(f, 1), row3(f, 2), row3(f, 3), info[0], info[1]


@ti.func
def plane_distance(x, o, n, u, v, hu, hv):
    """Distance [m] from a point x to a wall, the unit normal from the wall towards x, and whether the
    wall can touch x at all (beside a facet's edge and behind its plane it cannot)."""
    rel = x - o
    d = rel.dot(n)
    dist = d
    normal = n
    valid = 1
    if hu > 0.0:  # finite facet
        a = rel.dot(u)
        b = rel.dot(v)
        ac = ti.min(ti.max(a, -hu), hu)
        bc = ti.min(ti.max(b, -hv), hv)
        if a != ac or b != bc:
            if d < 0.0:
                valid = 0
            else:  # nearest point is on the facet's rim
                dv = rel - ac * u - bc * v
                dist = dv.norm()
                if dist > 0.0:
                    normal = dv / dist
    return dist, normal, valid


@ti.func
def rebuild_wall_candidates(g, md: ti.template(), st: ti.template(), ct: ti.template(), n_walls, skin):
    """Test cluster g of hull spheres against every wall; for a wall within reach of the cluster's
    bounding sphere, append each of its spheres within `skin` [m] of the wall to the candidate list."""
    cl = md.cluster_body[g]
    rng = md.cluster_range[g]
    c = rng[2]
    xg = st.pos[c]
    rot = st.rot[c]
    xcl = xg + rot @ ti.Vector([cl[0], cl[1], cl[2]])
    for w in range(n_walls):
        o, n, u, v, hu, hv = wall_frame(md, st, w)
        dist_g, _ng, valid_g = plane_distance(xcl, o, n, u, v, hu, hv)
        if valid_g == 1 and dist_g - cl[3] < skin and dist_g > -cl[3] - skin:
            for i in range(rng[0], rng[0] + rng[1]):
                b = md.sph_body[i]
                x = xg + rot @ ti.Vector([b[0], b[1], b[2]])
                dist, _n, valid = plane_distance(x, o, n, u, v, hu, hv)
                if valid == 1 and dist - b[3] < skin and dist > -b[3]:
                    k = ti.atomic_add(ct.counts[N_CAND], 1)
                    ct.cand[k] = ti.Vector([i, w])


@ti.func
def rebuild_wall_candidate_pair(idx, md: ti.template(), st: ti.template(), ct: ti.template(), n_walls, skin):
    """Parallel rebuild: one (hull sphere, wall) pair per thread, idx = i · n_walls + w, no cluster culling.

    Used by the per-step parallel launch. Taichi 1.7's Vulkan code generator miscompiles an atomic inside
    a dynamic inner loop of a parallel loop (the loop's other stores are lost), which the cluster
    version needs; a flat loop has none, and a GPU does not need the culling.
    """
    i = idx // n_walls
    w = idx - i * n_walls
    c = md.sph_info[i][0]
    b = md.sph_body[i]
    x = st.pos[c] + st.rot[c] @ ti.Vector([b[0], b[1], b[2]])
    o, n, u, v, hu, hv = wall_frame(md, st, w)
    dist, _n, valid = plane_distance(x, o, n, u, v, hu, hv)
    if valid == 1 and dist - b[3] < skin and dist > -b[3]:
        k = ti.atomic_add(ct.counts[N_CAND], 1)
        ct.cand[k] = ti.Vector([i, w])


@ti.func
def damping_block(c_n, c_s, n, r, v_w):
    """One contact's share of a clump's damping block (``integrator.DAMP_*`` layout).

    The dashpot acts on the contact point's velocity J u = v + ω × r (u = [v; ω], r from the centre of
    mass) relative to the wall, with point tensor D = c_s 𝟙 + (c_n − c_s) n nᵀ. Its generalised damping
    matrix is JᵀDJ = c_s JᵀJ + (c_n − c_s) g gᵀ, g = [n; r × n], JᵀJ = [[𝟙, −[r]×], [[r]×, |r|²𝟙 − r rᵀ]];
    the wall's velocity v_w adds the force Jᵀ D v_w and the scalar v_wᵀ D v_w (for the ledger).
    """
    g = ti.Vector([n[0], n[1], n[2], 0.0, 0.0, 0.0])
    rn = r.cross(n)
    g[3] = rn[0]
    g[4] = rn[1]
    g[5] = rn[2]
    dc = c_n - c_s
    r2 = r.dot(r)
    blk = ti.Vector([0.0] * DAMP_WIDTH)
    for i in ti.static(range(6)):
        for j in ti.static(range(i, 6)):
            jj = 0.0
            if ti.static(i < 3 and j < 3):
                jj = 1.0 if ti.static(i == j) else 0.0
            elif ti.static(i < 3):  # (−[r]×)[i, j−3]
                jj = _neg_skew(r, i, j - 3)
            else:
                jj = (r2 if ti.static(i == j) else 0.0) - r[i - 3] * r[j - 3]
            blk[ti.static(damp_index(i, j))] = dc * g[i] * g[j] + c_s * jj
    y = c_s * v_w + dc * n.dot(v_w) * n
    ry = r.cross(y)
    for i in ti.static(range(3)):
        blk[DAMP_FORCE + i] = y[i]
        blk[DAMP_FORCE + 3 + i] = ry[i]
    blk[DAMP_SCALAR] = v_w.dot(y)
    return blk


@ti.func
def _neg_skew(r, i: ti.template(), j: ti.template()):
    """Entry (i, j) of −[r]×, where [r]× x = r × x."""
    val = 0.0
    if ti.static(i == 0 and j == 1):
        val = r[2]
    elif ti.static(i == 0 and j == 2):
        val = -r[1]
    elif ti.static(i == 1 and j == 0):
        val = -r[2]
    elif ti.static(i == 1 and j == 2):
        val = r[0]
    elif ti.static(i == 2 and j == 0):
        val = r[1]
    elif ti.static(i == 2 and j == 1):
        val = -r[0]
    return val


@ti.func
def add_slot(dg: ti.template(), s, force, point, fn):
    m = point.cross(force)
    dg.slots[s] += ti.Vector([force[0], force[1], force[2], m[0], m[1], m[2], 1.0, fn])


@ti.func
def wall_contact(i, w, c, md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt, n_walls,
                 n_clumps, record, xg, rot, vg, wg, m_c, o, n, u, v, hu, hv, vw, vw_now, mat, implicit: ti.template()):
    """Force between hull sphere i (of clump c) and wall w at t [s].

    Context: clump pose xg [m], rot, velocities vg [m/s], wg [rad/s] at t − Δt/2, contact mass m_c [kg]
    (the body's mass: a wall does not move in response); wall frame o, n, u, v, half lengths hu, hv [m],
    velocity vw at t − Δt/2 and vw_now at t [m/s]; material-pair parameters mat.
    Relative velocities are the latest available, at t − Δt/2, so that Δu_s = v_s Δt is the shear
    displacement since the last step (004 §2.3 centred scheme). Updates the pair's shear history and,
    on record steps, the probe slots and the stiffness monitor. Returns (force on the clump [N], moment
    about its centre of mass [N·m], (damping, friction, boundary, strain) [J], overlap ÷ radius, touching,
    damping block). With ``implicit`` the force leaves out the dashpots, whose 6×6 damping matrix about
    the centre of mass (and wall terms) come back as the damping block for the law of motion to solve
    implicitly (integrator.py); otherwise the dashpot forces use the velocities at t − Δt/2 (004 §2.1).
    """
    b = md.sph_body[i]
    r = b[3]
    x = xg + rot @ ti.Vector([b[0], b[1], b[2]])
    dist, normal, valid = plane_distance(x, o, n, u, v, hu, hv)
    h = i * n_walls + w
    overlap = r - dist
    f = ti.Vector([0.0, 0.0, 0.0])
    tq = ti.Vector([0.0, 0.0, 0.0])
    e = ti.Vector([0.0, 0.0, 0.0, 0.0])  # damping, friction, boundary, strain
    ratio = 0.0
    touching = 0
    blk = ti.Vector([0.0] * DAMP_WIDTH)
    hs = ct.hist[h]
    if valid == 1 and overlap > 0.0 and dist > -r:
        touching = 1
        xc = x - normal * (r - 0.5 * overlap)  # contact point: middle of the overlap
        arm = xc - xg
        v_rel = vg + wg.cross(arm) - vw
        vn = v_rel.dot(normal)  # < 0 while approaching
        v_t = v_rel - vn * normal
        v_imp = hs[3]
        if v_imp <= 0.0:
            v_imp = ti.max(-vn, IMPACT_SPEED_FLOOR)
        fe, fd, kn, ks, en, cs, cn = normal_force(mat, r, m_c, overlap, -vn, v_imp)  # R̄ = R_ball (spec §2)
        fs, fsd, slip, es, cs_eff = shear_force(mat, ti.Vector([hs[0], hs[1], hs[2]]), normal, v_t, ks, fe, cs, dt)
        f_el = fe * normal + fs
        f_dp = fd * normal + fsd  # dashpots at t − Δt/2
        ct.hist[h] = ti.Vector([fs[0], fs[1], fs[2], v_imp])
        if ti.static(implicit):
            if fd == -fe and fe > 0.0:
                # no-tension clip (normal_force): the whole normal force is zero, as in the explicit form;
                # the spring's work goes to the dashpot's account
                f = fs
                e = ti.Vector([fe * vn * dt, slip, fs.dot(vw_now) * dt, en + es])
            else:
                f = f_el
                e = ti.Vector([0.0, slip, f_el.dot(vw_now) * dt, en + es])
            blk = damping_block(cn, cs_eff, normal, arm, vw_now)
        else:
            f = f_el + f_dp
            e = ti.Vector([(fd * (-vn) - fsd.dot(v_t)) * dt, slip, f.dot(vw_now) * dt, en + es])
        tq = arm.cross(f)
        ratio = overlap / r
        if record:
            f_rec = f_el + f_dp
            info = md.sph_info[i]
            s = md.iface_map[c * (n_walls + n_clumps) + w]
            if s >= 0:
                add_slot(dg, s, f_rec, xc, fe + fd)
            if info[2] >= 0:
                add_slot(dg, info[2], f_rec, xc, fe + fd)
            if info[3] >= 0:
                add_slot(dg, info[3], f_rec, xc, fe + fd)
            lever = arm.cross(normal)
            st.monitor[c] += ti.Vector([0.0, kn, kn * lever.dot(lever), cn, 0.0, 0.0, 0.0, 0.0])
    elif hs[3] != 0.0:
        ct.hist[h] = ti.Vector([0.0, 0.0, 0.0, 0.0])  # the contact opened: its history goes
    return f, tq, e, ratio, touching, blk


@ti.func
def _wall_vel(st: ti.template(), w):
    ws = st.wall_state[w]
    return ti.Vector([ws[4], ws[5], ws[6]]), ti.Vector([ws[7], ws[8], ws[9]])


@ti.func
def _pair(md: ti.template(), i, w):
    return md.mat_pair[md.sph_info[i][1], ti.cast(md.wall_info[w][2], ti.i32)]


@ti.func
def wall_contacts_serial(md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt, n_walls,
                         n_clumps, record, implicit: ti.template()):
    """All wall candidates in order, with the context cached while clump and wall repeat, and sums kept
    in registers (each clump's force written once: candidates come in clump order)."""
    cur_c = -1
    cur_w = -1
    xg = ti.Vector([0.0, 0.0, 0.0])
    rot = ti.Matrix.identity(float, 3)
    vg = ti.Vector([0.0, 0.0, 0.0])
    wg = ti.Vector([0.0, 0.0, 0.0])
    m_c = 0.0
    o = ti.Vector([0.0, 0.0, 0.0])
    n = ti.Vector([0.0, 0.0, 1.0])
    u = ti.Vector([1.0, 0.0, 0.0])
    v = ti.Vector([0.0, 1.0, 0.0])
    hu = 0.0
    hv = 0.0
    vw = ti.Vector([0.0, 0.0, 0.0])
    vw_now = ti.Vector([0.0, 0.0, 0.0])
    mat = md.mat_pair[0, 0]
    f_sum = ti.Vector([0.0, 0.0, 0.0])
    t_sum = ti.Vector([0.0, 0.0, 0.0])
    b_sum = ti.Vector([0.0] * DAMP_WIDTH)
    e_sum = ti.Vector([0.0, 0.0, 0.0, 0.0])
    worst = 0.0
    count = 0
    asleep = 0
    for k in range(ct.counts[N_CAND]):
        pair = ct.cand[k]
        i = pair[0]
        w = pair[1]
        c = md.sph_info[i][0]
        if asleep == 1 and c == cur_c and not record:
            continue  # a sleeping body's contacts are evaluated on record steps only
        if c != cur_c:
            if cur_c >= 0:
                _flush(st, cur_c, f_sum, t_sum, b_sum, implicit)
            f_sum = ti.Vector([0.0, 0.0, 0.0])
            t_sum = ti.Vector([0.0, 0.0, 0.0])
            b_sum = ti.Vector([0.0] * DAMP_WIDTH)
            cur_c = c
            cur_w = -1  # the material pair depends on the clump too
            xg = st.pos[c]
            rot = st.rot[c]
            vg = st.vel[c]
            wg = st.omega[c]
            m_c = md.clump_param[c][0]
            asleep = 1 if st.monitor[c][5] > 0.5 else 0
            if asleep == 1 and not record:
                continue
        if w != cur_w:
            cur_w = w
            o, n, u, v, hu, hv = wall_frame(md, st, w)
            vw, vw_now = _wall_vel(st, w)
            mat = _pair(md, i, w)
        f, tq, e, ratio, touching, blk = wall_contact(i, w, c, md, st, ct, dg, dt, n_walls, n_clumps, record, xg, rot,
                                                      vg, wg, m_c, o, n, u, v, hu, hv, vw, vw_now, mat, implicit)
        if touching == 1:
            f_sum += f
            t_sum += tq
            if ti.static(implicit):
                b_sum += blk
            e_sum += e
            worst = ti.max(worst, ratio)
            count += 1
    if cur_c >= 0:
        _flush(st, cur_c, f_sum, t_sum, b_sum, implicit)
    _add_ledger(dg, e_sum, count)
    dg.ledger[L.MAX_OVERLAP] = ti.max(dg.ledger[L.MAX_OVERLAP], worst)


@ti.func
def wall_contact_parallel(k, md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt,
                          n_walls, n_clumps, record, implicit: ti.template()):
    """One candidate with its context loaded, and atomic sums (parallel loops)."""
    pair = ct.cand[k]
    i = pair[0]
    w = pair[1]
    c = md.sph_info[i][0]
    if record or st.monitor[c][5] < 0.5:
        _one_wall_contact(i, w, c, md, st, ct, dg, dt, n_walls, n_clumps, record, implicit)


@ti.func
def _one_wall_contact(i, w, c, md: ti.template(), st: ti.template(), ct: ti.template(), dg: ti.template(), dt,
                      n_walls, n_clumps, record, implicit: ti.template()):
    o, n, u, v, hu, hv = wall_frame(md, st, w)
    vw, vw_now = _wall_vel(st, w)
    f, tq, e, ratio, touching, blk = wall_contact(i, w, c, md, st, ct, dg, dt, n_walls, n_clumps, record, st.pos[c],
                                                  st.rot[c], st.vel[c], st.omega[c], md.clump_param[c][0], o, n, u,
                                                  v, hu, hv, vw, vw_now, _pair(md, i, w), implicit)
    if touching == 1:
        _flush(st, c, f, tq, blk, implicit)
        _add_ledger(dg, e, 1)
        ti.atomic_max(dg.ledger[L.MAX_OVERLAP], ratio)


@ti.func
def _flush(st: ti.template(), c, f, tq, blk, implicit: ti.template()):
    st.force[c] += f
    st.torque[c] += tq
    if ti.static(implicit):
        st.damp[c] += blk


@ti.func
def _add_ledger(dg: ti.template(), e, count):
    dg.ledger[L.STEP + L.DAMPING] += e[0]
    dg.ledger[L.STEP + L.FRICTION] += e[1]
    dg.ledger[L.STEP + L.BOUNDARY] += e[2]
    dg.ledger[L.STRAIN] += e[3]
    dg.ledger[L.CONTACTS] += count
