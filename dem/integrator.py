"""Law of motion of a clump (004 §2.3): centred finite differences for translation and the
four-iteration solve of Euler's equations (004 Eq. 24 and the procedure after it) for rotation.

v(t+Δt/2) = v(t−Δt/2) + (F(t)/m + g) Δt                                   004 Eq. 23
I ω̇ = M − ω × (I ω), solved with ω at mid-step: ω̄⁰ = ω(t−Δt/2);           004 Eq. 24
    for k = 1..4: α_k = I⁻¹(M − ω̄^{k−1} × I ω̄^{k−1}), ω̄^k = ω(t−Δt/2) + α_k Δt/2
    ω(t+Δt/2) = ω(t−Δt/2) + α_4 Δt
x(t+Δt) = x(t) + v(t+Δt/2) Δt;  q(t+Δt) = exp(ω(t+Δt/2) Δt) ⊗ q(t)           004 Eq. 27

The inertia tensor is the full body-frame tensor turned into the world frame at t (products of inertia
included). Fixed DOFs (world axes) replace their row of the system by "acceleration = 0", which is
the constrained solution of the same equations, so fixing rotations needs no separate method. Ball
positions are always x_G + R r_p: the drift that 004 Eq. 29–37 corrects cannot arise.
"""


import taichi as ti

from . import ledger as L
from .geometry import quat_from_rotvec, quat_mul, quat_to_mat
from .record import C_FORCE, C_KR, C_KT, C_CT, C_OMEGA, C_POS, C_QUAT, C_TORQUE, C_VEL, CLUMP_WIDTH
from .wall_contact import wall_velocity


@ti.func
def _constrained_solve(a, b, fixed, shift):
    """Solve a x = b with rows of fixed DOFs (bits shift..shift+2 of `fixed`) replaced by x_i = 0."""
    for i in ti.static(range(3)):
        if (fixed >> (shift + i)) & 1:
            for j in ti.static(range(3)):
                a[i, j] = 1.0 if i == j else 0.0
            b[i] = 0.0
    return a.inverse() @ b


@ti.func
def _sign(x):
    s = 0.0
    if x > 0.0:
        s = 1.0
    elif x < 0.0:
        s = -1.0
    return s


@ti.func
def integrate_clump(c, md: ti.template(), st: ti.template(), dg: ti.template(), dt, gravity, record, row, clump_base):
    """Advance clump c by one step; adds body, boundary (constraint) and local-damping work to the ledger
    and, on record steps, writes the clump's columns of record row `row`."""
    prm = md.clump_param[c]
    m = prm[0]
    fixed = md.clump_fixed[c]
    f_c = st.force[c]
    t_c = st.torque[c]
    v0 = st.vel[c]
    w0 = st.omega[c]
    rot = st.rot[c]
    iw = rot @ md.clump_inertia[c] @ rot.transpose()

    f_g = m * gravity
    f_tot = f_c + f_g
    t_tot = t_c
    f_loc = ti.Vector([0.0, 0.0, 0.0])
    t_loc = ti.Vector([0.0, 0.0, 0.0])
    if prm[2] > 0.0:  # PFC local damping: −α|F_i| sign(v_i), per component
        for i in ti.static(range(3)):
            f_loc[i] = -prm[2] * ti.abs(f_tot[i]) * _sign(v0[i])
            t_loc[i] = -prm[2] * ti.abs(t_tot[i]) * _sign(w0[i])
        f_tot += f_loc
        t_tot += t_loc

    acc = f_tot / m
    f_con = ti.Vector([0.0, 0.0, 0.0])  # force holding fixed DOFs
    for i in ti.static(range(3)):
        if (fixed >> i) & 1:
            f_con[i] = -f_tot[i]
            acc[i] = 0.0
    v1 = v0 + acc * dt

    wbar = w0
    alpha = ti.Vector([0.0, 0.0, 0.0])
    rhs = ti.Vector([0.0, 0.0, 0.0])
    for _k in ti.static(range(4)):
        rhs = t_tot - wbar.cross(iw @ wbar)
        alpha = _constrained_solve(iw, rhs, fixed, 3)
        wbar = w0 + 0.5 * dt * alpha
    w1 = w0 + dt * alpha
    t_con = iw @ alpha - rhs  # moment holding fixed rotations (zero when none are fixed)

    vbar = 0.5 * (v0 + v1)
    dg.ledger[L.STEP + L.BODY] += f_g.dot(vbar) * dt
    dg.ledger[L.STEP + L.BOUNDARY] += (f_con.dot(vbar) + t_con.dot(wbar)) * dt
    dg.ledger[L.STEP + L.DAMPING] -= (f_loc.dot(vbar) + t_loc.dot(wbar)) * dt

    x0 = st.pos[c]
    q0 = st.quat[c]
    q1 = quat_mul(quat_from_rotvec(w1 * dt), q0)
    st.pos[c] = x0 + v1 * dt
    st.quat[c] = q1
    st.rot[c] = quat_to_mat(q1)
    st.vel[c] = v1
    st.omega[c] = w1
    st.force[c] = ti.Vector([0.0, 0.0, 0.0])
    st.torque[c] = ti.Vector([0.0, 0.0, 0.0])
    mon = st.monitor[c]
    mon[0] += (v1.norm() + w1.norm() * prm[1]) * dt  # bound on any hull point's motion since rebuild

    if record:
        k0 = 0.5 * m * v0.dot(v0) + 0.5 * w0.dot(iw @ w0)
        k1 = 0.5 * m * v1.dot(v1) + 0.5 * w1.dot(iw @ w1)
        dg.ledger[L.KINETIC] += 0.5 * (k0 + k1)
        b = clump_base + CLUMP_WIDTH * c
        for i in ti.static(range(3)):
            dg.rec[row, b + C_POS + i] = x0[i]
            dg.rec[row, b + C_VEL + i] = vbar[i]
            dg.rec[row, b + C_OMEGA + i] = wbar[i]
            dg.rec[row, b + C_FORCE + i] = f_c[i]
            dg.rec[row, b + C_TORQUE + i] = t_c[i]
        for i in ti.static(range(4)):
            dg.rec[row, b + C_QUAT + i] = q0[i]
        dg.rec[row, b + C_KT] = mon[1]
        dg.rec[row, b + C_KR] = mon[2]
        dg.rec[row, b + C_CT] = mon[3]
        mon[1] = 0.0
        mon[2] = 0.0
        mon[3] = 0.0
    st.monitor[c] = mon


@ti.func
def move_wall(w, md: ti.template(), st: ti.template(), dg: ti.template(), t, dt, record, row, wall_base):
    """Translate wall w from t to t + Δt with its velocity at t + Δt/2; record its state at t; keep the
    velocities the next step's contacts need (at t + Δt/2 and t + Δt) in the wall state."""
    ws = st.wall_state[w]
    if record:
        b = wall_base + 6 * w
        for i in ti.static(range(3)):
            dg.rec[row, b + i] = ws[i]
            dg.rec[row, b + 3 + i] = ws[7 + i]
    vh = wall_velocity(md, w, t + 0.5 * dt)
    vn = wall_velocity(md, w, t + dt)
    for i in ti.static(range(3)):
        ws[i] += vh[i] * dt
        ws[4 + i] = vh[i]
        ws[7 + i] = vn[i]
    ws[3] += vh.norm() * dt
    st.wall_state[w] = ws
