"""Law of motion of a clump (004 §2.3): centred finite differences for translation and the
four-iteration solve of Euler's equations (004 Eq. 24 and the procedure after it) for rotation.

v(t+Δt/2) = v(t−Δt/2) + (F(t)/m + g) Δt                                   004 Eq. 23
I ω̇ = M − ω × (I ω), solved with ω at mid-step: ω̄⁰ = ω(t−Δt/2);           004 Eq. 24
    for k = 1..4: α_k = I⁻¹(M − ω̄^{k−1} × I ω̄^{k−1}), ω̄^k = ω(t−Δt/2) + α_k Δt/2
    ω(t+Δt/2) = ω(t−Δt/2) + α_4 Δt
    (a pass that ends on the bits of the ω̄ it began with ends the passes: every later one would repeat it;
    gyroscopic_passes)
x(t+Δt) = x(t) + v(t+Δt/2) Δt;  q(t+Δt) = exp(ω(t+Δt/2) Δt) ⊗ q(t)           004 Eq. 27

Dashpots. With u = [v; ω] and M = diag(m𝟙, I_w), the dashpots act as −C ū + b_w (damping_layout.py). 004 applies
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
velocities are set to zero and it is not integrated; its contacts are evaluated on observed steps only
(so probes and the ledger's strain energy stay exact), and on those steps it wakes if its contact
forces no longer balance its weight within SLEEP_ACCEL·m·g (or the matching moment). Any moving wall
wakes every body. A sleeping body is in static equilibrium to those tolerances; nothing else changes.
"""

from ..device import layout as LY
from ..device import runtime
from ..device.damping_layout import DAMP_FORCE, DAMP_SCALAR, DAMP_WIDTH, OTHER_FORCE, OTHER_WIDTH, damp_index
from ..device.kernel_lang import ti
from .rotation import quat_from_rotvec, quat_mul, quat_to_mat
from .small_linalg import mat_mat, mat_vec

ClumpMove = None  # struct type of one clump's step, defined at init (runtime.define_types)
_BITS = None  # the integer type of a real's width, set at init (_same_bits)


def _define_types(real):
    global ClumpMove, _BITS
    _BITS = ti.i64 if real == ti.f64 else ti.i32
    v3 = ti.types.vector(3, real)
    ClumpMove = ti.types.struct(
        x0=v3, q0=ti.types.vector(4, real),  # pose at t_n [m]
        v_mid=v3, w_mid=v3,  # velocities at t_n, the mean of the half steps [m/s, rad/s]
        force=v3, torque=v3,  # contact force and moment at t_n, dashpots included [N, N·m]
        kinetic=real,  # kinetic energy at t_n, the mean of K(t_{n−½}) and K(t_{n+½}) [J]
        e_body=real, e_boundary=real, e_damping=real,  # the step's work terms [J] (energy ledger)
    )


runtime.define_types(_define_types)


@ti.func
def _sign(x):
    s = 0.0
    if x > 0.0:
        s = 1.0
    elif x < 0.0:
        s = -1.0
    return s


@ti.func
def cholesky6(a):
    """Lower Cholesky factor of a symmetric positive definite 6×6 a (unrolled)."""
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
    return lo


@ti.func
def cholesky_solve6(lo, b):
    """Solve a x = b given a's Cholesky factor lo (:func:`cholesky6`)."""
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


@ti.func
def _rhs_row(rhs, lhs, u0, fixed, i: ti.template()):
    """Row i of the right-hand side with the fixed DOFs' columns moved to it (u_i⁺ = u_i⁻ on a fixed row)."""
    b = rhs[i]
    if (fixed >> i) & 1:
        b = u0[i]
    else:
        for j in ti.static(range(6)):
            if (fixed >> j) & 1:
                b -= lhs[i, j] * u0[j]
    return b


GYRO_PASSES = 4  # 004's iterations of the gyroscopic term


@ti.func
def gyroscopic_passes(lo, lhs, base, force6, u0, w0, iw, fixed, dt, stop: ti.template()):
    """The four iterations of 004's procedure (module docstring): the gyroscopic term at the mid-step ω̄ of the
    previous pass, ω̄⁰ = ω(t−Δt/2) = w0; returns (u⁺, the right-hand side of the last pass) and the passes run.

    The matrix is the same in every pass: `lo` is its Cholesky factor (4 unrolled factorisations were 4,000 IR
    statements of the step kernel for Taichi's CSE to merge again), and the translational rows of b, which do not
    depend on ω̄, are formed once (issue 19). A pass is a function of the ω̄ it starts from alone, so once a pass
    ends on the very bits it started from (compared as integers: −0 is not +0), every later pass would repeat it
    bit for bit, and the passes stop there (issue 30, item 2) with the result of all four. The change of ω̄ shrinks
    by about Δt|ω̄| a pass, so a rocking body needs all four (the Peña block: 3.97 passes a step on average), a
    body nearly at rest fewer (the drums of a column under a pulse: 2.55; the blocks of a masonry wall: 2.71).

    In: lo, lhs (6 × 6), base, force6, u0 (6) [SI], w0 (3) [rad/s], iw (3 × 3) [kg·m²], fixed (DOF bits), dt [s];
    stop: whether to stop at a repeat (the step: True; False runs all GYRO_PASSES, for a test).
    """
    w_mid = w0
    u1 = ti.Vector([0.0] * 6)
    rhs = base + dt * force6
    b = ti.Vector([0.0] * 6)
    for i in ti.static(range(3)):
        b[i] = _rhs_row(rhs, lhs, u0, fixed, i)
    passes = 0
    done = False
    for _k in ti.static(range(GYRO_PASSES)):  # unrolled: the passes share the solve's reciprocals
        if not done:
            gyro = w_mid.cross(mat_vec(iw, w_mid))
            rhs = base + dt * force6
            for i in ti.static(range(3)):
                rhs[3 + i] -= dt * gyro[i]
            for i in ti.static(range(3, 6)):
                b[i] = _rhs_row(rhs, lhs, u0, fixed, i)
            u1 = cholesky_solve6(lo, b)
            w_next = ti.Vector([0.5 * (w0[0] + u1[3]), 0.5 * (w0[1] + u1[4]), 0.5 * (w0[2] + u1[5])])
            passes += 1
            if ti.static(stop):
                done = _same_bits(w_next, w_mid)
            w_mid = w_next
    return u1, rhs, passes


@ti.func
def _same_bits(a, b):
    """True where the 3-vectors a and b hold the same bits (their reals compared as integers)."""
    same = True
    for i in ti.static(range(3)):
        if ti.bit_cast(a[i], _BITS) != ti.bit_cast(b[i], _BITS):
            same = False
    return same


SLEEP_ACCEL = 1e-6  # ÷ g


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
def wake(c,  # in:
         st: ti.template()):  # out:
    """Wake clump c: the contact stages call it when a moving body touches it (the sleep slots are written here
    and by the law of motion only).

    In/out — out st: monitor[c]: quiet steps and asleep.
    """
    # element stores: on the block path other threads may be adding to this body's monitor sums
    st.monitor[c][LY.MON_QUIET] = 0.0
    st.monitor[c][LY.MON_ASLEEP] = 0.0


@ti.func
def wake_if_unbalanced(md: ti.template(), c, gravity, walls_moving,  # in:
                       st: ti.template()):  # out:
    """Wake sleeping clump c if a wall moves, or if its contact forces no longer balance its weight within
    SLEEP_ACCEL·m·g (or the matching moment). The step calls it when a wall moves or on observed steps, the
    steps on which a sleeping body's contacts are evaluated.

    In/out — in md: clump_param[c]; in walls_moving: 1: a wall moves this step (every body wakes); 0: the contacts of
    sleeping bodies were evaluated this step (an observed step); out st: monitor[c]: asleep, quiet steps (reads
    wrench[c]).
    """
    prm = md.clump_param[c]
    m = prm[LY.CP_MASS]
    mon = st.monitor[c]
    if mon[LY.MON_ASLEEP] > 0.5:
        g_mag = gravity.norm()
        if walls_moving == 1:
            mon[LY.MON_ASLEEP] = 0.0
            mon[LY.MON_QUIET] = 0.0
        else:
            f_res = (LY.force_of(st, c) + m * gravity).norm()
            t_res = LY.torque_of(st, c).norm()
            if f_res > SLEEP_ACCEL * m * g_mag or t_res > SLEEP_ACCEL * m * g_mag * prm[LY.CP_RADIUS]:
                mon[LY.MON_ASLEEP] = 0.0
                mon[LY.MON_QUIET] = 0.0
        st.monitor[c] = mon


@ti.func
def integrate_clump(md: ti.template(), c, dt, gravity, sleep_speed, sleep_steps, walls_moving, frame_vel,  # in:
                    st: ti.template()):  # out:
    """Advance clump c by one step, or let it sleep (after :func:`wake_if_unbalanced`); returns a ``ClumpMove``
    with what the history row and the energy ledger need (work terms: body, boundary — constraints and moving walls
    through dashpots —, and damping — dashpots, local damping).

    In/out — in md: clump_param[c], clump_inertia; out st: pos, quat, rot, vel, omega, monitor of c; wrench,
    damp, damp_other of c cleared (read first).
    """
    mv = ClumpMove()
    if LY.asleep(st, c):
        mv = _sleeping_step(c, st)
    else:
        mv = _awake_step(md, c, dt, gravity, sleep_speed, sleep_steps, walls_moving, frame_vel, st)
    return mv


@ti.func
def _sleeping_step(c,  # in:
                   st: ti.template()):  # out:
    """A sleeping body: no motion; its pose and contact forces (evaluated on observed steps) are reported.

    In/out — out st: wrench, damp, damp_other of c cleared (read first).
    """
    mv = ClumpMove(x0=st.pos[c], q0=st.quat[c], force=LY.force_of(st, c), torque=LY.torque_of(st, c))
    st.wrench[c] = ti.Vector([0.0] * LY.WRENCH_WIDTH)
    st.damp[c] = ti.Vector([0.0] * DAMP_WIDTH)
    st.damp_other[c] = ti.Vector([0.0] * OTHER_WIDTH)  # at rest: no velocity change either
    return mv


@ti.func
def _local_damping(alpha, f_tot, t_tot, v0, w0):
    """PFC local damping, −α|F_i| sign(v_i) per component of the force and the moment (α = 0: none): returns
    the force and moment with it, and its force and moment."""
    f_loc = ti.Vector([0.0, 0.0, 0.0])
    t_loc = ti.Vector([0.0, 0.0, 0.0])
    f_out = f_tot
    t_out = t_tot
    if alpha > 0.0:
        for i in ti.static(range(3)):
            f_loc[i] = -alpha * ti.abs(f_tot[i]) * _sign(v0[i])
            t_loc[i] = -alpha * ti.abs(t_tot[i]) * _sign(w0[i])
        f_out += f_loc
        t_out += t_loc
    return f_out, t_out, f_loc, t_loc


@ti.func
def _quiet_steps(mon, v0, w0, v1, w1, radius, gravity, dt, sleep_speed, walls_moving):
    """The monitor's count of quiet steps (speed below sleep_speed, acceleration below SLEEP_ACCEL·g, no
    moving wall) after this one."""
    if sleep_speed > 0.0:
        g_mag = gravity.norm()
        speed = v1.norm() + w1.norm() * radius
        accel = ((v1 - v0).norm() + (w1 - w0).norm() * radius) / dt
        if speed < sleep_speed and accel < SLEEP_ACCEL * g_mag and walls_moving == 0:
            mon[LY.MON_QUIET] += 1.0
        else:
            mon[LY.MON_QUIET] = 0.0
    return mon


@ti.func
def _awake_step(md: ti.template(), c, dt, gravity, sleep_speed, sleep_steps, walls_moving, frame_vel,  # in:
                st: ti.template()):  # out:
    """Clump c awake: one step of the law of motion (module docstring); returns its ``ClumpMove``. The solve and
    the work terms stay in this one function: split into functions of their own they moved the pier-deck
    history by 1e-27 of a column (LLVM's fast-math fusion of the step kernel), while this split is bit for bit
    the same as the whole (issue 20).

    In/out — in md: clump_param[c], clump_inertia; out st: pos, quat, rot, vel, omega, monitor of c; wrench,
    damp, damp_other of c cleared.
    """
    prm = md.clump_param[c]
    m = prm[LY.CP_MASS]
    fixed = ti.cast(prm[LY.CP_FIXED], ti.i32)
    f_c = LY.force_of(st, c)
    t_c = LY.torque_of(st, c)
    v0 = st.vel[c]
    w0 = st.omega[c]
    rot = st.rot[c]
    iw = mat_mat(mat_mat(rot, LY.clump_inertia(md, c)), rot.transpose())
    blk = st.damp[c]
    oth_all = st.damp_other[c]
    oth = ti.Vector([oth_all[OTHER_FORCE + i] for i in ti.static(range(6))])

    f_g = m * gravity
    f_tot, t_tot, f_loc, t_loc = _local_damping(prm[LY.CP_LOCAL_DAMPING], f_c + f_g, t_c, v0, w0)

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
    base = mat_vec(mass6 - 0.5 * dt * damp6, u0)
    # fixed DOFs: u_i⁺ = u_i⁻; move their columns to the right-hand side, keep the matrix SPD
    # (bit tests of `fixed`, not `a or b` on floats: the short-circuit `or` of 36 unrolled tests was 2,300 IR
    # statements of the step kernel; issue 19)
    a = lhs
    for i in ti.static(range(6)):
        for j in ti.static(range(6)):
            if fixed & ti.static((1 << i) | (1 << j)):
                a[i, j] = 1.0 if ti.static(i == j) else 0.0

    lo = cholesky6(a)
    u1, rhs, _passes = gyroscopic_passes(lo, lhs, base, force6, u0, w0, iw, fixed, dt, True)

    ubar = 0.5 * (u0 + u1)
    f_con = (mat_vec(lhs, u1) - rhs) / dt  # generalised force holding fixed DOFs (zero on free ones)
    f_damp = -mat_vec(damp6, ubar)  # dashpot force at mid-step
    wall_dot = 0.0
    other_dot = 0.0
    for i in ti.static(range(6)):
        f_damp[i] += blk[DAMP_FORCE + i] + oth[i]
        wall_dot += ubar[i] * blk[DAMP_FORCE + i]
        other_dot += ubar[i] * oth[i]
    # dissipation: against walls (ū − v_w)ᵀD(ū − v_w) exactly; between bodies, minus the work the
    # dashpots do on this body (the two bodies' shares add up to the pair's dissipation)
    dissip = ubar.dot(mat_vec(damp6, ubar)) - 2.0 * wall_dot + blk[DAMP_SCALAR] - other_dot
    vbar = ti.Vector([ubar[0], ubar[1], ubar[2]])
    wbar = ti.Vector([ubar[3], ubar[4], ubar[5]])
    mv = ClumpMove(v_mid=vbar, w_mid=wbar)
    mv.e_body = f_g.dot(vbar) * dt
    mv.e_boundary = (f_con.dot(ubar) - wall_dot + blk[DAMP_SCALAR]) * dt
    mv.e_damping = (dissip - f_loc.dot(vbar) - t_loc.dot(wbar)) * dt

    v1 = ti.Vector([u1[0], u1[1], u1[2]])
    w1 = ti.Vector([u1[3], u1[4], u1[5]])
    x0 = st.pos[c]
    q0 = st.quat[c]
    mv.x0 = x0
    mv.q0 = q0
    q1 = quat_mul(quat_from_rotvec(w1 * dt), q0)
    st.pos[c] = x0 + v1 * dt
    st.quat[c] = q1
    st.rot[c] = quat_to_mat(q1)
    st.vel[c] = v1
    st.omega[c] = w1
    st.wrench[c] = ti.Vector([0.0] * LY.WRENCH_WIDTH)
    st.damp[c] = ti.Vector([0.0] * DAMP_WIDTH)
    du = u1 - u0  # kept for the other bodies' dashpots at the next step (damping_layout.py)
    st.damp_other[c] = ti.Vector([0.0] * 6 + [du[i] for i in ti.static(range(6))])
    mon = st.monitor[c]
    turned = w1.norm() * prm[LY.CP_RADIUS]
    mon[LY.MON_WALL_MOTION] += (v1.norm() + turned) * dt  # bound on any hull point's motion since the last rebuild
    # the same in a frame that translates at frame_vel, the same for every body of the world (since the last
    # body-pair search): how far two bodies come closer is frame-free
    mon[LY.MON_PAIR_MOTION] += ((v1 - frame_vel).norm() + turned) * dt
    mon = _quiet_steps(mon, v0, w0, v1, w1, prm[LY.CP_RADIUS], gravity, dt, sleep_speed, walls_moving)
    # kinetic energy at t_n and the contact force with the dashpots (the history row's; cheap beside the solve)
    k0 = 0.5 * u0.dot(mat_vec(mass6, u0))
    k1 = 0.5 * u1.dot(mat_vec(mass6, u1))
    mv.kinetic = 0.5 * (k0 + k1)
    mv.force = f_c + ti.Vector([f_damp[0], f_damp[1], f_damp[2]])
    mv.torque = t_c + ti.Vector([f_damp[3], f_damp[4], f_damp[5]])
    if sleep_speed > 0.0 and mon[LY.MON_QUIET] >= sleep_steps:
        mon[LY.MON_ASLEEP] = 1.0  # fall asleep from the next step on
        st.vel[c] = ti.Vector([0.0, 0.0, 0.0])
        st.omega[c] = ti.Vector([0.0, 0.0, 0.0])
    st.monitor[c] = mon
    return mv


@ti.func
def move_wall(md: ti.template(), w, t, dt,  # in:
              st: ti.template()):  # out:
    """Translate wall w from t to t + Δt with its velocity at t + Δt/2; keep the velocities the next
    step's contacts need (at t + Δt/2 and t + Δt) in the wall state. Returns its state at t (for the history row).

    In/out — in md: wall_geom[w], wall_vel[w]; out st: wall_state[w] (read first).
    """
    ws = st.wall_state[w]
    ws0 = ws
    vh = wall_velocity(md, w, t + 0.5 * dt)
    vn = wall_velocity(md, w, t + dt)
    for i in ti.static(range(3)):
        ws[LY.WS_DISP + i] += vh[i] * dt
        ws[LY.WS_VEL_HALF + i] = vh[i]
        ws[LY.WS_VEL_NOW + i] = vn[i]
    ws[LY.WS_MOTION] += vh.norm() * dt
    st.wall_state[w] = ws
    return ws0
