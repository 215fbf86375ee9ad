"""Law of motion of a clump (004 §2.3): centred finite differences for translation and the
four-iteration solve of Euler's equations (004 Eq. 24 and the procedure after it) for rotation.

v(t+Δt/2) = v(t−Δt/2) + (F(t)/m + g) Δt                                   004 Eq. 23
I ω̇ = M − ω × (I ω), solved with ω at mid-step: ω̄⁰ = ω(t−Δt/2);           004 Eq. 24
    for k = 1..4: α_k = I⁻¹(M − ω̄^{k−1} × I ω̄^{k−1}), ω̄^k = ω(t−Δt/2) + α_k Δt/2
    ω(t+Δt/2) = ω(t−Δt/2) + α_4 Δt
x(t+Δt) = x(t) + v(t+Δt/2) Δt;  q(t+Δt) = exp(ω(t+Δt/2) Δt) ⊗ q(t)           004 Eq. 27

Dashpots. With u = [v; ω] and M = diag(m𝟙, I_w), the dashpots act as −C ū + b_w (damping.py). 004 applies
them explicitly with u(t−Δt/2); then a body resting on N contacts has modes with ζ ≈ β√N and the time
step must stay below ~1/(ζω) — for the Peña block on 3,333 contacts (ζ ≈ 15) that is 6e-6 s, under
004's own Δt = 1e-5 s. By default they are applied implicitly at mid-step, ū = (u⁻ + u⁺)/2:
    (M + Δt/2 C) u⁺ = (M − Δt/2 C) u⁻ + Δt (F + b_w − [0; ω̄ × I_w ω̄])
inside the same four iterations. This is unconditionally stable for the dashpots (Δt_crit = 2/ω), its
dissipation ūᵀCū − 2ūᵀb_w + v_wᵀDv_w ≥ 0 is exact in the ledger, and with C = 0 (explicit mode, or no
contacts) it is 004's scheme exactly.

The inertia tensor is the full body-frame tensor turned into the world frame at t (products of inertia
included). Fixed DOFs (world axes) keep their velocity: their rows become u_i⁺ = u_i⁻, which is the
constrained solution of the same equations, so fixing rotations needs no separate method. Ball
positions are always x_G + R r_p: the drift that 004 Eq. 29–37 corrects cannot arise.

Sleeping. A body whose speed (any hull point) stays below ``sleep_speed`` and whose acceleration stays
below SLEEP_ACCEL·g for ``sleep_steps`` steps in a row, while no wall moves, is put to sleep: its
velocities are set to zero and it is not integrated; its contacts are evaluated on record steps only
(so probes and the ledger's strain energy stay exact), and on those steps it wakes if its contact
forces no longer balance its weight within SLEEP_ACCEL·m·g (or the matching moment). Any moving wall
wakes every body. A sleeping body is in static equilibrium to those tolerances; nothing else changes.
"""

import taichi as ti

from . import ledger as L
from .damping import DAMP_FORCE, DAMP_SCALAR, DAMP_WIDTH, OTHER_FORCE, OTHER_WIDTH, damp_index
from .geometry import quat_from_rotvec, quat_mul, quat_to_mat
from .record import C_CT, C_FORCE, C_KR, C_KT, C_OMEGA, C_POS, C_QUAT, C_TORQUE, C_VEL, CLUMP_WIDTH
from .wall_contact import wall_velocity


@ti.func
def _sign(x):
    s = 0.0
    if x > 0.0:
        s = 1.0
    elif x < 0.0:
        s = -1.0
    return s


@ti.func
def spd_solve6(a, b):
    """Solve a x = b for a symmetric positive definite 6×6 a (Cholesky, unrolled)."""
    lo = ti.Matrix.zero(float, 6, 6)
    for j in ti.static(range(6)):
        d = a[j, j]
        for k in ti.static(range(j)):
            d -= lo[j, k] * lo[j, k]
        ljj = ti.sqrt(d)
        lo[j, j] = ljj
        for i in ti.static(range(j + 1, 6)):
            s = a[i, j]
            for k in ti.static(range(j)):
                s -= lo[i, k] * lo[j, k]
            lo[i, j] = s / ljj
    y = ti.Vector([0.0] * 6)
    for i in ti.static(range(6)):
        s = b[i]
        for k in ti.static(range(i)):
            s -= lo[i, k] * y[k]
        y[i] = s / lo[i, i]
    x = ti.Vector([0.0] * 6)
    for i in ti.static(range(5, -1, -1)):
        s = y[i]
        for k in ti.static(range(i + 1, 6)):
            s -= lo[k, i] * x[k]
        x[i] = s / lo[i, i]
    return x


SLEEP_ACCEL = 1e-6  # ÷ g


@ti.func
def integrate_clump(c, md: ti.template(), st: ti.template(), dg: ti.template(), dt, gravity, record, row,
                    clump_base, sleep_speed, sleep_steps, walls_moving):
    """Advance clump c by one step; add body, boundary (constraints, moving walls through dashpots),
    damping (dashpots, local damping) work to the ledger; on record steps write the clump's columns of
    record row `row` (its contact force and moment there include the dashpots)."""
    prm = md.clump_param[c]
    m = prm[0]
    mon = st.monitor[c]
    if mon[5] > 0.5:  # asleep: on record steps the contacts were evaluated; do they still balance?
        g_mag = gravity.norm()
        if walls_moving == 1:
            mon[5] = 0.0
            mon[4] = 0.0
        elif record:
            f_res = (st.force[c] + m * gravity).norm()
            t_res = st.torque[c].norm()
            if f_res > SLEEP_ACCEL * m * g_mag or t_res > SLEEP_ACCEL * m * g_mag * prm[1]:
                mon[5] = 0.0
                mon[4] = 0.0
        st.monitor[c] = mon
    if mon[5] > 0.5:
        _sleeping_step(c, st, dg, record, row, clump_base)
    else:
        _awake_step(c, md, st, dg, dt, gravity, record, row, clump_base, sleep_speed, sleep_steps, walls_moving)


@ti.func
def _sleeping_step(c, st: ti.template(), dg: ti.template(), record, row, clump_base):
    """A sleeping body: no motion; on record steps its pose and contact forces go to the record."""
    if record:
        b = clump_base + CLUMP_WIDTH * c
        x0 = st.pos[c]
        q0 = st.quat[c]
        f_c = st.force[c]
        t_c = st.torque[c]
        for i in ti.static(range(3)):
            dg.rec[row, b + C_POS + i] = x0[i]
            dg.rec[row, b + C_VEL + i] = 0.0
            dg.rec[row, b + C_OMEGA + i] = 0.0
            dg.rec[row, b + C_FORCE + i] = f_c[i]
            dg.rec[row, b + C_TORQUE + i] = t_c[i]
        for i in ti.static(range(4)):
            dg.rec[row, b + C_QUAT + i] = q0[i]
        mon = st.monitor[c]
        dg.rec[row, b + C_KT] = mon[1]
        dg.rec[row, b + C_KR] = mon[2]
        dg.rec[row, b + C_CT] = mon[3]
        mon[1] = 0.0
        mon[2] = 0.0
        mon[3] = 0.0
        st.monitor[c] = mon
    st.force[c] = ti.Vector([0.0, 0.0, 0.0])
    st.torque[c] = ti.Vector([0.0, 0.0, 0.0])
    st.damp[c] = ti.Vector([0.0] * DAMP_WIDTH)
    st.damp_other[c] = ti.Vector([0.0] * OTHER_WIDTH)  # at rest: no velocity change either


@ti.func
def _awake_step(c, md: ti.template(), st: ti.template(), dg: ti.template(), dt, gravity, record, row, clump_base,
                sleep_speed, sleep_steps, walls_moving):
    prm = md.clump_param[c]
    m = prm[0]
    fixed = ti.cast(prm[3], ti.i32)
    f_c = st.force[c]
    t_c = st.torque[c]
    v0 = st.vel[c]
    w0 = st.omega[c]
    rot = st.rot[c]
    iw = rot @ md.clump_inertia[c] @ rot.transpose()
    blk = st.damp[c]
    oth_all = st.damp_other[c]
    oth = ti.Vector([oth_all[OTHER_FORCE + i] for i in ti.static(range(6))])

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

    # generalised mass, damping and force, u = [v; ω]
    mass6 = ti.Matrix.zero(float, 6, 6)
    damp6 = ti.Matrix.zero(float, 6, 6)
    for i in ti.static(range(3)):
        mass6[i, i] = m
        for j in ti.static(range(3)):
            mass6[3 + i, 3 + j] = iw[i, j]
    for i in ti.static(range(6)):
        for j in ti.static(range(6)):
            damp6[i, j] = blk[ti.static(damp_index(i, j))]
    u0 = ti.Vector([v0[0], v0[1], v0[2], w0[0], w0[1], w0[2]])
    force6 = ti.Vector([f_tot[0], f_tot[1], f_tot[2], t_tot[0], t_tot[1], t_tot[2]])
    for i in ti.static(range(6)):
        force6[i] += blk[DAMP_FORCE + i] + oth[i]
    lhs = mass6 + 0.5 * dt * damp6
    base = (mass6 - 0.5 * dt * damp6) @ u0
    # fixed DOFs: u_i⁺ = u_i⁻; move their columns to the right-hand side, keep the matrix SPD
    free = ti.Vector([1.0] * 6)
    for i in ti.static(range(6)):
        if (fixed >> i) & 1:
            free[i] = 0.0
    a = lhs
    for i in ti.static(range(6)):
        for j in ti.static(range(6)):
            if free[i] == 0.0 or free[j] == 0.0:
                a[i, j] = 1.0 if ti.static(i == j) else 0.0

    # four iterations of 004's procedure: the gyroscopic term at the mid-step ω̄ of the previous pass
    w_mid = w0
    u1 = ti.Vector([0.0] * 6)
    rhs = ti.Vector([0.0] * 6)
    for _k in ti.static(range(4)):
        gyro = w_mid.cross(iw @ w_mid)
        rhs = base + dt * force6
        for i in ti.static(range(3)):
            rhs[3 + i] -= dt * gyro[i]
        b = ti.Vector([0.0] * 6)
        for i in ti.static(range(6)):
            b[i] = rhs[i]
            if free[i] == 0.0:
                b[i] = u0[i]
            else:
                for j in ti.static(range(6)):
                    if free[j] == 0.0:
                        b[i] -= lhs[i, j] * u0[j]
        u1 = spd_solve6(a, b)
        w_mid = ti.Vector([0.5 * (w0[0] + u1[3]), 0.5 * (w0[1] + u1[4]), 0.5 * (w0[2] + u1[5])])

    ubar = 0.5 * (u0 + u1)
    f_con = (lhs @ u1 - rhs) / dt  # generalised force holding fixed DOFs (zero on free ones)
    f_damp = -(damp6 @ ubar)  # dashpot force at mid-step
    wall_dot = 0.0
    other_dot = 0.0
    for i in ti.static(range(6)):
        f_damp[i] += blk[DAMP_FORCE + i] + oth[i]
        wall_dot += ubar[i] * blk[DAMP_FORCE + i]
        other_dot += ubar[i] * oth[i]
    # dissipation: against walls (ū − v_w)ᵀD(ū − v_w) exactly; between bodies, minus the work the
    # dashpots do on this body (the two bodies' shares add up to the pair's dissipation)
    dissip = ubar.dot(damp6 @ ubar) - 2.0 * wall_dot + blk[DAMP_SCALAR] - other_dot
    vbar = ti.Vector([ubar[0], ubar[1], ubar[2]])
    wbar = ti.Vector([ubar[3], ubar[4], ubar[5]])
    dg.ledger[L.STEP + L.BODY] += f_g.dot(vbar) * dt
    dg.ledger[L.STEP + L.BOUNDARY] += (f_con.dot(ubar) - wall_dot + blk[DAMP_SCALAR]) * dt
    dg.ledger[L.STEP + L.DAMPING] += (dissip - f_loc.dot(vbar) - t_loc.dot(wbar)) * dt

    v1 = ti.Vector([u1[0], u1[1], u1[2]])
    w1 = ti.Vector([u1[3], u1[4], u1[5]])
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
    st.damp[c] = ti.Vector([0.0] * DAMP_WIDTH)
    du = u1 - u0  # kept for the other bodies' dashpots at the next step (damping.py)
    st.damp_other[c] = ti.Vector([0.0] * 6 + [du[i] for i in ti.static(range(6))])
    mon = st.monitor[c]
    moved = (v1.norm() + w1.norm() * prm[1]) * dt  # bound on any hull point's motion this step
    mon[0] += moved  # since the last wall-candidate rebuild
    mon[6] += moved  # since the last body-pair rebuild
    if sleep_speed > 0.0:
        g_mag = gravity.norm()
        speed = v1.norm() + w1.norm() * prm[1]
        accel = ((v1 - v0).norm() + (w1 - w0).norm() * prm[1]) / dt
        if speed < sleep_speed and accel < SLEEP_ACCEL * g_mag and walls_moving == 0:
            mon[4] += 1.0
        else:
            mon[4] = 0.0

    if record:
        k0 = 0.5 * u0.dot(mass6 @ u0)
        k1 = 0.5 * u1.dot(mass6 @ u1)
        dg.ledger[L.KINETIC] += 0.5 * (k0 + k1)
        b = clump_base + CLUMP_WIDTH * c
        for i in ti.static(range(3)):
            dg.rec[row, b + C_POS + i] = x0[i]
            dg.rec[row, b + C_VEL + i] = vbar[i]
            dg.rec[row, b + C_OMEGA + i] = wbar[i]
            dg.rec[row, b + C_FORCE + i] = f_c[i] + f_damp[i]
            dg.rec[row, b + C_TORQUE + i] = t_c[i] + f_damp[3 + i]
        for i in ti.static(range(4)):
            dg.rec[row, b + C_QUAT + i] = q0[i]
        dg.rec[row, b + C_KT] = mon[1]
        dg.rec[row, b + C_KR] = mon[2]
        dg.rec[row, b + C_CT] = mon[3]
        mon[1] = 0.0
        mon[2] = 0.0
        mon[3] = 0.0
    if sleep_speed > 0.0 and mon[4] >= sleep_steps:
        mon[5] = 1.0  # fall asleep from the next step on
        st.vel[c] = ti.Vector([0.0, 0.0, 0.0])
        st.omega[c] = ti.Vector([0.0, 0.0, 0.0])
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
