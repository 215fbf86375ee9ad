"""Ball–wall stage of a step: the near-wall candidate list and the contact forces.

Ball positions are not stored: a hull sphere's centre is x_G + R(q)·r_p, computed only for the spheres
that are candidates, so a step costs in proportion to the hull spheres near walls, not to the spheres
of the model. The candidate list is rebuilt cluster by cluster (see ``model.CLUSTER_CELL_RADII``), so it
comes in cluster order, hence in clump order, in both launch paths.

Per contact, the body's pose and velocities, the wall's geometry and velocities and the material pair
form a *context*. A contact loop (:func:`wall_contacts`) runs over a contiguous range of a world's
candidates — all of them on the serial path, one thread's share on the block path — keeping the context in
registers while consecutive candidates share a clump and a wall, and the sums in registers while they
share a clump; each clump's sums are added to it once per run.
"""

from ..device import layout as LY
from ..device import runtime
from ..device.damping_layout import DAMP_FORCE, DAMP_SCALAR, DAMP_WIDTH, damp_index
from ..device.kernel_lang import ti
from . import ledger as L
from . import recording as R
from .contact_law import normal_force, shear_force
from .small_linalg import mat_vec

# The impact laws of seed 003 divide by δ̇⁻, the approach speed when a contact forms. A contact that
# forms while resting (δ̇⁻ ≈ 0) would get an unbounded dashpot, so δ̇⁻ is floored at 1 mm/s; those laws
# are meant for impacts faster than that.
IMPACT_SPEED_FLOOR = 1e-3

WallHit = None  # struct type of one contact's result, defined at init (runtime.define_types)


def _define_types(real):
    global WallHit
    v3 = ti.types.vector(3, real)
    WallHit = ti.types.struct(
        touching=ti.i32,
        force=v3,  # on the clump [N] (dashpots left out when they are implicit)
        torque=v3,  # about the clump's centre of mass [N·m]
        e_damping=real, e_friction=real, e_boundary=real, e_strain=real,  # [J] (strain: at t_n)
        e_stiffness=real,  # work of the shear stiffness change in the step [J] (contact_law.shear_force)
        ratio=real,  # overlap ÷ sphere radius
        blk=ti.types.vector(DAMP_WIDTH, real),  # implicit dashpots' damping block (damping_layout.py)
        hist=ti.types.vector(LY.HIST_WIDTH, real),  # new contact history (layout.HIST_*)
        point=v3,  # contact point [m]
        normal=v3,  # unit normal from the wall towards the sphere
        overlap=real,  # [m]
        f_rec=v3,  # force with the dashpots at t − Δt/2, for the probes and the frames [N]
        fn_rec=real,  # normal force with the normal dashpot [N]
        fn_elastic=real, fn_dashpot=real,  # the normal dashpot's part of fn_rec [N]
        shear=v3, shear_dashpot=v3,  # elastic (Mindlin) shear force and the shear dashpot's [N]
        kn=real, cn=real,  # tangent normal stiffness [N/m], normal dashpot coefficient [N·s/m]
        lever2_a=real,  # |arm × n|² [m²]
    )


runtime.define_types(_define_types)


@ti.func
def _vec3(g, k: ti.template()):
    return ti.Vector([g[k], g[k + 1], g[k + 2]])


@ti.func
def wall_velocity(md: ti.template(), w, t):  # in:
    """Prescribed wall velocity at time t [s]: linear interpolation of the sampled table.

    In/out — in md: wall_geom[w], wall_vel[w].
    """
    dtab = md.wall_geom[w][LY.WG_TABLE_DT]
    n = md.wall_vel.shape[1]
    s = ti.max(t / dtab, 0.0)
    i = ti.min(ti.cast(s, ti.i32), n - 1)
    j = ti.min(i + 1, n - 1)
    f = ti.min(s - i, 1.0)
    return md.wall_vel[w, i] * (1.0 - f) + md.wall_vel[w, j] * f


@ti.func
def wall_frame(md: ti.template(), st: ti.template(), w):  # in:
    """Wall w now: origin [m], normal, u, v (unit), half lengths along u and v [m] (0: infinite).

    In/out — in md: wall_geom[w]; in st: wall_state[w].
    """
    g = md.wall_geom[w]
    ws = st.wall_state[w]
    o = _vec3(g, LY.WG_ORIGIN) + _vec3(ws, LY.WS_DISP)
    return o, _vec3(g, LY.WG_NORMAL), _vec3(g, LY.WG_U), _vec3(g, LY.WG_V), g[LY.WG_HALF_U], g[LY.WG_HALF_V]


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
def cluster_wall_candidates(md: ti.template(), st: ti.template(), wd, g, skin, k0, write: ti.template(),  # in:
                            ct: ti.template()):  # out:
    """Hull spheres of cluster g within `skin` [m] of a wall of world wd (walls in reach of the cluster's
    bounding sphere only). With ``write`` they are stored in the world's candidate list from local position
    k0 on; returns how many there are.

    In/out — in md: cluster_body, cluster_range, sph_body, wall_geom; in st: pos, rot, wall_state; out ct: cand[wd.cand0
    + k0 ...] (with ``write``).
    """
    cl = md.cluster_body[g]
    rng = md.cluster_range[g]
    c = rng[2]
    xg = st.pos[c]
    rot = st.rot[c]
    xcl = xg + mat_vec(rot, ti.Vector([cl[0], cl[1], cl[2]]))
    k = k0
    for w in range(wd.wall0, wd.wall0 + wd.n_wall):
        o, n, u, v, hu, hv = wall_frame(md, st, w)
        dist_g, _ng, valid_g = plane_distance(xcl, o, n, u, v, hu, hv)
        if valid_g == 1 and dist_g - cl[3] < skin and dist_g > -cl[3] - skin:
            for i in range(rng[0], rng[0] + rng[1]):
                b = md.sph_body[i]
                x = xg + mat_vec(rot, ti.Vector([b[0], b[1], b[2]]))
                dist, _n, valid = plane_distance(x, o, n, u, v, hu, hv)
                if valid == 1 and dist - b[3] < skin and dist > -b[3]:
                    if ti.static(write):
                        ct.cand[wd.cand0 + k] = ti.Vector([i, w])
                    k += 1
    return k - k0


@ti.func
def damping_block(c_n, c_s, n, r, v_w):
    """One contact's share of a clump's damping block (``damping_layout.py`` layout).

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
def wall_contact(b, hs, dt, xg, rot, vg, wg, m_c, k_sum, o, n, u, v, hu, hv, vw, vw_now, mat, implicit: ti.template()):
    """Force between one hull sphere and a wall at t [s] (a pure function: returns a ``WallHit``).

    Sphere: b = (centre relative to the centre of mass, body frame [m]; radius [m]); contact history hs
    (layout.HIST_*: elastic shear force [N], approach speed δ̇⁻ when the contact formed [m/s], 0 when open, k_s
    of the last step [N/m]).
    Context: clump pose xg [m], rot, velocities vg [m/s], wg [rad/s] at t − Δt/2, contact mass m_c [kg]
    (the body's mass: a wall does not move in response), the interface's stiffness sum k_sum [N/m]
    (damping_mass "shared": contact_law.dashpot_mass; 0 otherwise); wall frame o, n, u, v, half lengths hu, hv [m],
    velocity vw at t − Δt/2 and vw_now at t [m/s]; material-pair parameters mat.
    Relative velocities are the latest available, at t − Δt/2, so that Δu_s = v_s Δt is the shear
    displacement since the last step (004 §2.3 centred scheme). With ``implicit`` the force leaves out the
    dashpots, whose 6×6 damping matrix about the centre of mass (and wall terms) come back as the damping
    block for the law of motion to solve implicitly (integrator.py); otherwise the dashpot forces use the
    velocities at t − Δt/2 (004 §2.1). A contact that has opened returns a cleared history.
    """
    r = b[3]
    x = xg + mat_vec(rot, ti.Vector([b[0], b[1], b[2]]))
    dist, normal, valid = plane_distance(x, o, n, u, v, hu, hv)
    overlap = r - dist
    hit = WallHit(touching=0, hist=hs)
    if valid == 1 and overlap > 0.0 and dist > -r:
        hit.touching = 1
        xc = x - normal * (r - 0.5 * overlap)  # contact point: middle of the overlap
        arm = xc - xg
        v_rel = vg + wg.cross(arm) - vw
        vn = v_rel.dot(normal)  # < 0 while approaching
        v_t = v_rel - vn * normal
        v_imp = hs[3]
        if v_imp <= 0.0:
            v_imp = ti.max(-vn, IMPACT_SPEED_FLOOR)
        fe, fd, kn, ks, en, cs, cn = normal_force(mat, r, m_c, overlap, -vn, v_imp, k_sum)  # R̄ = R_ball (spec §2)
        fs, fsd, slip, es, cs_eff, wk = shear_force(mat, ti.Vector([hs[0], hs[1], hs[2]]), hs[LY.HIST_KS], normal,
                                                    v_t, ks, fe, cs, dt)
        f_el = fe * normal + fs
        f_dp = fd * normal + fsd  # dashpots at t − Δt/2
        hit.hist = ti.Vector([fs[0], fs[1], fs[2], v_imp, ks])
        f = f_el
        if ti.static(implicit):
            if fd == -fe and fe > 0.0:
                # no-tension clip (normal_force): the whole normal force is zero, as in the explicit form;
                # the spring's work goes to the dashpot's account
                f = fs
                hit.e_damping = fe * vn * dt
            hit.blk = damping_block(cn, cs_eff, normal, arm, vw_now)
        else:
            f = f_el + f_dp
            hit.e_damping = (fd * (-vn) - fsd.dot(v_t)) * dt
        hit.force = f
        hit.torque = arm.cross(f)
        hit.e_friction = slip
        hit.e_stiffness = wk
        hit.e_boundary = f.dot(vw_now) * dt
        hit.e_strain = en + es
        hit.ratio = overlap / r
        hit.point = xc
        hit.normal = normal
        hit.overlap = overlap
        hit.f_rec = f_el + f_dp
        hit.fn_rec = fe + fd
        hit.fn_elastic = fe
        hit.fn_dashpot = fd
        hit.shear = fs
        hit.shear_dashpot = fsd
        hit.kn = kn
        hit.cn = cn
        lever = arm.cross(normal)
        hit.lever2_a = lever.dot(lever)
    elif hs[3] != 0.0:
        hit.hist = ti.Vector([0.0] * LY.HIST_WIDTH)  # the contact opened: its history goes
    return hit


@ti.func
def _clump_context(md: ti.template(), st: ti.template(), c):  # in:
    """What every wall contact of clump c shares: its pose and velocities at t − Δt/2, its mass [kg] (the
    contact mass: a wall does not move in response), and whether it sleeps.

    In/out — in md: clump_param; in st: pos, rot, vel, omega, monitor of c.
    """
    return st.pos[c], st.rot[c], st.vel[c], st.omega[c], LY.clump_mass(md, c), 1 if LY.asleep(st, c) else 0


@ti.func
def _wall_context(md: ti.template(), st: ti.template(), dg: ti.template(), wd, i, c, w, shared_mass):  # in:
    """What every contact of clump c (sphere i) with wall w shares: the wall's frame, its velocities at t − Δt/2
    and t, the material pair, and the interface's stiffness sum k_sum [N/m] (0 unless damping_mass is
    "shared").

    In/out — in md: wall_geom, sph_info, mat_pair; in st: wall_state[w]; in dg: ledger: the interface's stiffness sum
    (damping_mass "shared").
    """
    o, n, u, v, hu, hv = wall_frame(md, st, w)
    vw, vw_now = LY.wall_velocities(st, w)
    mat = LY.material_pair(md, wd, md.sph_info[i][1], ti.cast(md.wall_geom[w][LY.WG_MATERIAL], ti.i32))
    k_sum = 0.0
    if shared_mass:
        k_sum = dg.ledger[wd.index, L.LEDGER_SIZE + LY.kface_column(wd, c, w - wd.wall0)]
    return o, n, u, v, hu, hv, vw, vw_now, mat, k_sum


@ti.func
def wall_contacts(md: ti.template(), wd, dt, k0, k1, observed, implicit: ti.template(), shared: ti.template(),  # in:
                  st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Wall stage: candidates k0 ≤ k < k1 of world wd's wall list in order, with the context cached while clump
    and wall repeat and the sums kept in registers while the clump repeats (each clump's force is written once
    per run: candidates come in clump order). A sleeping body's contacts are evaluated on observed steps only;
    there each touching contact goes to the record stage (recording.wall_contact_record). Returns the contacts'
    ``recording.ContactSums`` for the ledger (recording.add_contact_energy).

    In/out — in md: sph_info, sph_body, clump_param, wall_geom, mat_pair, iface_map, world_param; in k0, k1: the
    candidates k0 ≤ k < k1 of the world's list; in observed: a record step: the contacts of sleeping bodies too, and
    each touching one to the record stage; out st: force, torque, damp += (reads pos, rot, vel, omega, monitor,
    wall_state); monitor: the stiffness sums on observed steps; out ct: hist (reads cand); out dg: slots on observed
    steps (reads the ledger's interface stiffness sums).
    """
    cur_c = -1
    cur_w = -1
    xg = ti.Vector([0.0, 0.0, 0.0])
    rot = ti.Matrix.identity(float, 3)
    vg = ti.Vector([0.0, 0.0, 0.0])
    wg = ti.Vector([0.0, 0.0, 0.0])
    m_c = 0.0
    k_sum = 0.0
    shared_mass = LY.uses_shared_mass(md, wd.index)
    o = ti.Vector([0.0, 0.0, 0.0])
    n = ti.Vector([0.0, 0.0, 1.0])
    u = ti.Vector([1.0, 0.0, 0.0])
    v = ti.Vector([0.0, 1.0, 0.0])
    hu = 0.0
    hv = 0.0
    vw = ti.Vector([0.0, 0.0, 0.0])
    vw_now = ti.Vector([0.0, 0.0, 0.0])
    mat = md.mat_pair[wd.mat0]
    f_sum = ti.Vector([0.0, 0.0, 0.0])
    t_sum = ti.Vector([0.0, 0.0, 0.0])
    b_sum = ti.Vector([0.0] * DAMP_WIDTH)
    sums = R.ContactSums()
    sleeping = 0
    for k in range(k0, k1):
        # (no `continue` in this loop: Taichi's SPIR-V code generator mishandles it next to atomics)
        pair = ct.cand[wd.cand0 + k]
        i = pair[0]
        w = pair[1]
        c = md.sph_info[i][0]
        if c != cur_c:
            if cur_c >= 0:
                _flush(cur_c, f_sum, t_sum, b_sum, implicit, shared, st)
                sums.runs += 1
            f_sum = ti.Vector([0.0, 0.0, 0.0])
            t_sum = ti.Vector([0.0, 0.0, 0.0])
            b_sum = ti.Vector([0.0] * DAMP_WIDTH)
            cur_c = c
            cur_w = -1  # the material pair depends on the clump too
            xg, rot, vg, wg, m_c, sleeping = _clump_context(md, st, c)
        if sleeping == 0 or observed:
            if w != cur_w:
                cur_w = w
                o, n, u, v, hu, hv, vw, vw_now, mat, k_sum = _wall_context(md, st, dg, wd, i, c, w, shared_mass)
            h = LY.wall_history_index(wd, i, w)
            hs = ct.hist[h]
            hit = wall_contact(md.sph_body[i], hs, dt, xg, rot, vg, wg, m_c, k_sum, o, n, u, v, hu, hv, vw, vw_now, mat,
                               implicit)
            if hit.touching == 1 or hs[3] != 0.0:
                ct.hist[h] = hit.hist
            if hit.touching == 1:
                f_sum += hit.force
                t_sum += hit.torque
                if ti.static(implicit):
                    b_sum += hit.blk
                sums.e_damping += hit.e_damping
                sums.e_friction += hit.e_friction
                sums.e_boundary += hit.e_boundary
                sums.e_strain += hit.e_strain
                sums.e_stiffness += hit.e_stiffness
                sums.worst = ti.max(sums.worst, hit.ratio)
                sums.count += 1
                if observed:  # the record stage
                    R.wall_contact_record(md, wd, i, c, w, hit, shared, st, dg)
    if cur_c >= 0:
        _flush(cur_c, f_sum, t_sum, b_sum, implicit, shared, st)
        sums.runs += 1
    return sums


# scalar atomic adds of one clump's flush, and of a record step's diagnostics of one contact (3 probe slots of
# 8 entries and the monitor's 8): the block path's loop-iteration bound (layout.LOOP_BUDGET)
FLUSH_SCALARS = 3 + 3 + DAMP_WIDTH
RECORD_SCALARS = 4 * 8


@ti.func
def _flush(c, f, tq, blk, implicit: ti.template(), shared: ti.template(),  # in:
           st: ti.template()):  # out:
    """In/out — out st: force[c], torque[c], damp[c] +=."""
    LY.accumulate(st.force, c, f, shared)
    LY.accumulate(st.torque, c, tq, shared)
    if ti.static(implicit):
        LY.accumulate(st.damp, c, blk, shared)
