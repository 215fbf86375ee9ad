"""Response of one contact: from its geometry (contact_geometry.py) to forces, damping and energy, whatever the
two sides are (a wall, another body's sphere).

:func:`respond` takes a ``ContactGeometry`` (with its lever arms and relative velocity), the material pair, the
contact's history (layout.HIST_*), the contact mass, the interface's stiffness sum and Δt, applies the normal and
shear laws (contact_law.py) and returns a ``ContactResponse``: the force on body a (−force on the other side), its
moment about a's centre of mass, the dashpots' damping block when they are implicit, the step's energy terms, the
new history, and what the history stage and the frames read.

Relative velocities are the latest available, at t − Δt/2, so that Δu_s = v_s Δt is the shear displacement since
the last step (004 §2.3 centred scheme). With ``implicit`` the force leaves out the dashpots, whose 6×6 damping
matrix about a's centre of mass (and the other side's velocity terms) come back as the damping block for the law
of motion to solve implicitly (integrator.py); otherwise the dashpot forces use the velocities at t − Δt/2 (004
§2.1). A contact that has opened returns a cleared history.
"""

from ..device import layout as LY
from ..device import runtime
from ..device.damping_layout import DAMP_FORCE, DAMP_SCALAR, DAMP_WIDTH, damp_index
from ..device.kernel_lang import ti
from .contact_law import normal_force, shear_force

# The impact laws of seed 003 divide by δ̇⁻, the approach speed when a contact forms. A contact that
# forms while resting (δ̇⁻ ≈ 0) would get an unbounded dashpot, so δ̇⁻ is floored at 1 mm/s; those laws
# are meant for impacts faster than that.
IMPACT_SPEED_FLOOR = 1e-3

ContactResponse = None  # struct type of :func:`respond`'s result, defined at init (runtime.define_types)


def _define_types(real):
    global ContactResponse
    v3 = ti.types.vector(3, real)
    ContactResponse = ti.types.struct(
        force=v3,  # on body a [N] (−force on the other side); dashpots left out when they are implicit
        torque_a=v3,  # force's moment about a's centre of mass [N·m]
        e_damping=real, e_friction=real, e_boundary=real,  # the step's work [J] (boundary: a moving wall's)
        e_strain=real,  # strain energy at t_n [J]
        e_stiffness=real,  # work of the shear stiffness change in the step [J] (contact_law.shear_force)
        blk=ti.types.vector(DAMP_WIDTH, real),  # a's damping block about its centre (implicit dashpots)
        hist=ti.types.vector(LY.HIST_WIDTH, real),  # new contact history (layout.HIST_*; shear force on a)
        f_rec=v3,  # force with the dashpots at t − Δt/2, for the probes and the frames [N]
        fn_rec=real,  # normal force with the normal dashpot [N]
        fn_elastic=real, fn_dashpot=real,  # the normal spring's and dashpot's parts of fn_rec [N]
        shear=v3, shear_dashpot=v3,  # elastic (Mindlin) shear force and the shear dashpot's [N]
        kn=real, cn=real,  # tangent normal stiffness [N/m], normal dashpot coefficient [N·s/m]
    )


runtime.define_types(_define_types)


@ti.func
def damping_block(c_n, c_s, n, r, v_w):
    """One contact's share of a clump's damping block (``damping_layout.py`` layout).

    The dashpot acts on the contact point's velocity J u = v + ω × r (u = [v; ω], r from the centre of
    mass) relative to the other side, with point tensor D = c_s 𝟙 + (c_n − c_s) n nᵀ. Its generalised damping
    matrix is JᵀDJ = c_s JᵀJ + (c_n − c_s) g gᵀ, g = [n; r × n], JᵀJ = [[𝟙, −[r]×], [[r]×, |r|²𝟙 − r rᵀ]];
    a wall's velocity v_w adds the force Jᵀ D v_w and the scalar v_wᵀ D v_w (for the ledger).
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
def respond(g, mat, hs, m_c, k_sum, dt, v_wall, implicit: ti.template()):
    """The ``ContactResponse`` of a touching contact of geometry g (a ``ContactGeometry`` with its motion).

    mat: the material pair's parameters (materials.PAIR_*); hs: the contact's history (layout.HIST_*: elastic shear
    force [N], approach speed δ̇⁻ when the contact formed [m/s], 0 when open, k_s of the last step [N/m]); m_c: the
    contact mass [kg] (a body's mass against a wall, which does not move in response; the two bodies' reduced mass
    between bodies); k_sum: the interface's stiffness sum [N/m] (damping_mass "shared": contact_law.dashpot_mass; 0
    otherwise); dt [s]; v_wall: the other side's velocity at t [m/s] when it is a moving wall (the dashpots' wall
    terms and the boundary work), 0 between bodies (their coupling is pair_contact.py's).
    """
    normal = g.normal
    vn = g.v_rel.dot(normal)  # < 0 while approaching
    v_t = g.v_rel - vn * normal
    v_imp = hs[LY.HIST_IMPACT]
    if v_imp <= 0.0:
        v_imp = ti.max(-vn, IMPACT_SPEED_FLOOR)
    nf = normal_force(mat, g.r_eff, m_c, g.overlap, -vn, v_imp, k_sum)
    sf = shear_force(mat, ti.Vector([hs[0], hs[1], hs[2]]), hs[LY.HIST_KS], normal, v_t, nf.k_s, nf.elastic, nf.c_s,
                     dt)
    f_el = nf.elastic * normal + sf.elastic
    f_dp = nf.dashpot * normal + sf.dashpot  # dashpots at t − Δt/2
    out = ContactResponse(hist=ti.Vector([sf.elastic[0], sf.elastic[1], sf.elastic[2], v_imp, nf.k_s]))
    f = f_el
    if ti.static(implicit):
        if nf.dashpot == -nf.elastic and nf.elastic > 0.0:
            # no-tension clip (normal_force): the whole normal force is zero, as in the explicit form;
            # the spring's work goes to the dashpot's account
            f = sf.elastic
            out.e_damping = nf.elastic * vn * dt
        out.blk = damping_block(nf.c_n, sf.c_s, normal, g.arm_a, v_wall)
    else:
        f = f_el + f_dp
        out.e_damping = (nf.dashpot * (-vn) - sf.dashpot.dot(v_t)) * dt
    out.force = f
    out.torque_a = g.arm_a.cross(f)
    out.e_friction = sf.slip
    out.e_stiffness = sf.stiffness_work
    out.e_boundary = f.dot(v_wall) * dt
    out.e_strain = nf.strain + sf.strain
    out.f_rec = f_el + f_dp
    out.fn_rec = nf.elastic + nf.dashpot
    out.fn_elastic = nf.elastic
    out.fn_dashpot = nf.dashpot
    out.shear = sf.elastic
    out.shear_dashpot = sf.dashpot
    out.kn = nf.k_n
    out.cn = nf.c_n
    return out
