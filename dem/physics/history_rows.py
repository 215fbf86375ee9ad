"""Diagnostics of a step: the history row, the probe slots, the stiffness monitor and the energy ledger (the history
stage of the step).

The physics functions (contact laws, law of motion) return what they computed; the step hands it to the
functions here, which are the only ones that write history rows, probe slots, the ledger and the monitor
sums. Each world has its own rows, slots and ledger.

A row holds everything at the row's time t_n: the ledger, then per clump its pose at t_n, velocities at
t_n (mean of the half steps), the contact force and torque at t_n (dashpots included) and stiffness sums for
the critical-time-step monitor, then per wall its displacement and velocity, then per probe slot the summed
contact force, moment about the world origin, number of contacts and sum of normal forces.

This module was ``dem.physics.recording`` and its layout ``RecordLayout`` (a "record" is a ground motion, README
"Names"): both old spellings still work for a release, with a DeprecationWarning.
"""


from dataclasses import dataclass

import numpy as np

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..version import warn_renamed
from . import ledger as L
from . import share_sums as SS

GLOBAL_COLUMNS = ("t", "E_body", "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction",
                  "E_shear_stiffness", "contact_count", "max_overlap_ratio", "rebuilds")
G_T, G_EB, G_EW, G_EK, G_ES, G_ED, G_EF, G_EKS, G_NC, G_OVL, G_REB = range(len(GLOBAL_COLUMNS))

# per clump: pos(3) quat(4) vel(3) omega(3) force(3) torque(3) k_n sum, k_n·lever² sum, c_n sum
CLUMP_WIDTH = 22
C_POS, C_QUAT, C_VEL, C_OMEGA, C_FORCE, C_TORQUE, C_KT, C_KR, C_CT = 0, 3, 7, 10, 13, 16, 19, 20, 21
WALL_WIDTH = 6  # displacement(3), velocity(3)
SLOT_WIDTH = 8  # force(3), moment about origin(3), contact count, Σ normal force


@dataclass(frozen=True)
class HistoryRowLayout:
    """Where a world's columns lie in its history rows: the global columns (GLOBAL_COLUMNS), then CLUMP_WIDTH per
    clump, WALL_WIDTH per wall, SLOT_WIDTH per probe slot."""

    clump_count: int
    wall_count: int
    slot_count: int

    @property
    def clump_base(self) -> int:
        return len(GLOBAL_COLUMNS)

    @property
    def wall_base(self) -> int:
        return self.clump_base + CLUMP_WIDTH * self.clump_count

    @property
    def slot_base(self) -> int:
        return self.wall_base + WALL_WIDTH * self.wall_count

    @property
    def width(self) -> int:
        return self.slot_base + SLOT_WIDTH * self.slot_count

    def clump(self, rows: np.ndarray, c: int, field: int, n: int = 3) -> np.ndarray:
        b = self.clump_base + CLUMP_WIDTH * c + field
        return rows[:, b: b + n]

    def wall(self, rows: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
        b = self.wall_base + WALL_WIDTH * w
        return rows[:, b: b + 3], rows[:, b + 3: b + 6]

    def slot(self, rows: np.ndarray, s: int) -> np.ndarray:
        b = self.slot_base + SLOT_WIDTH * s
        return rows[:, b: b + SLOT_WIDTH]


def __getattr__(name: str):
    """``RecordLayout``, the old name of :class:`HistoryRowLayout`, with a DeprecationWarning."""
    if name == "RecordLayout":
        warn_renamed("dem.physics.history_rows.RecordLayout", "dem.physics.history_rows.HistoryRowLayout")
        return HistoryRowLayout
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------- device side
@ti.func
def add_slot(s, force, point, fn, shared: ti.template(), sk,  # in:
             dg: ti.template()):  # out:
    """Add one contact's force [N] at `point` [m] (moment about the world origin) with normal force fn [N]
    to probe slot s; ``shared`` (the block path's shares, share_sums.py): to share sk's partial of it.

    In/out — out dg: slots[s], or the share's partial in the ledger.
    """
    m = point.cross(force)
    value = ti.Vector([force[0], force[1], force[2], m[0], m[1], m[2], 1.0, fn])
    if ti.static(shared):
        SS.slot_add(sk, s, value, dg)
    else:
        LY.accumulate(dg.slots, s, value, False)


@ti.func
def add_monitor(c, kn, lever2, cn, shared: ti.template(), sk,  # in:
                st: ti.template(), dg: ti.template()):  # out:
    """Stiffness sums of clump c for the critical-time-step monitor (Σk_n, Σk_n|r×n|², Σc_n); ``shared``: to share
    sk's partial of c.

    In/out — out st: monitor[c]: Σk_n, Σk_n|r×n|², Σc_n; out dg: or the share's partial in the ledger.
    """
    if ti.static(shared):
        SS.clump_add(sk, c, SS.P_MONITOR, ti.Vector([kn, kn * lever2, cn]), dg)
    else:
        LY.accumulate(st.monitor, c, ti.Vector([0.0, kn, kn * lever2, cn, 0.0, 0.0, 0.0, 0.0]), False)


@ti.func
def _lever2(arm, normal):
    """|arm × n|² [m²]: a contact's rotational stiffness lever about a body's centre of mass."""
    lever = arm.cross(normal)
    return lever.dot(lever)


@ti.func
def wall_contact_record(md: ti.template(), wd, i, c, w, g, r, shared: ti.template(), sk,  # in:
                        st: ti.template(), dg: ti.template()):  # out:
    """History stage of a touching sphere–wall contact (sphere i of clump c, wall w; g, r: its
    ``contact_geometry.ContactGeometry`` and ``contact_response.ContactResponse``): the clump–wall interface slot,
    the sphere's probe groups, the clump's stiffness sums.

    In/out — in md: sph_info, iface_map; out st: monitor[c]'s stiffness sums; out dg: slots (or, ``shared``, share
    sk's partials).
    """
    s = LY.wall_interface_slot(md, wd, c, w)
    if s >= 0:
        add_slot(s, r.f_rec, g.point, r.fn_rec, shared, sk, dg)
    info = md.sph_info[i]
    if info[2] >= 0:
        add_slot(info[2], r.f_rec, g.point, r.fn_rec, shared, sk, dg)
    if info[3] >= 0:
        add_slot(info[3], r.f_rec, g.point, r.fn_rec, shared, sk, dg)
    add_monitor(c, r.kn, _lever2(g.arm_a, g.normal), r.cn, shared, sk, st, dg)


@ti.func
def pair_contact_record(md: ti.template(), wd, i, j, a, b, g, r, shared: ti.template(), sk,  # in:
                        st: ti.template(), dg: ti.template()):  # out:
    """History stage of a touching entry of the pair list between clumps a and b (sides i, j: a hull sphere, or < 0
    a body's solid, pair_entry.py; g, r: its geometry and response): the force f_rec acts on a and −f_rec on b;
    interface slots of both, probe groups of the spheres, stiffness sums.

    In/out — in md: sph_info, iface_map; out st: monitor[a], monitor[b]: stiffness sums; out dg: slots (or, ``shared``,
    share sk's partials).
    """
    sa = LY.pair_interface_slot(md, wd, a, b)
    if sa >= 0:
        add_slot(sa, r.f_rec, g.point, r.fn_rec, shared, sk, dg)
    sb = LY.pair_interface_slot(md, wd, b, a)
    if sb >= 0:
        add_slot(sb, -r.f_rec, g.point, r.fn_rec, shared, sk, dg)
    info_i = md.sph_info[ti.max(i, 0)]
    info_j = md.sph_info[ti.max(j, 0)]
    for layer in ti.static(range(2, 4)):
        if i >= 0 and info_i[layer] >= 0:
            add_slot(info_i[layer], r.f_rec, g.point, r.fn_rec, shared, sk, dg)
        if j >= 0 and info_j[layer] >= 0:
            add_slot(info_j[layer], -r.f_rec, g.point, r.fn_rec, shared, sk, dg)
    add_monitor(a, r.kn, _lever2(g.arm_a, g.normal), r.cn, shared, sk, st, dg)
    add_monitor(b, r.kn, _lever2(g.arm_b, g.normal), r.cn, shared, sk, st, dg)



@ti.func
def add_contact_energy(w, sums, shared: ti.template(), sk,  # in:
                       dg: ti.template()):  # out:
    """A contact stage's sums (a ``contact_sums.ContactSums``) into world w's ledger: the step's damping, friction
    (slip), shear-stiffness and boundary work [J], strain energy at t_n [J], contacts, and the largest overlap ÷ radius;
    ``shared`` (the block path's shares): into share sk's sums, which share_sums.reduce_contacts adds up.

    In/out — out dg: ledger[w]: the step's damping, friction, stiffness and boundary work, strain, contacts, the largest
    overlap (or the share's sums).
    """
    if ti.static(shared):
        SS.add_sums(sk, sums, dg)
    else:
        LY.accumulate2(dg.ledger, w, L.STEP + L.DAMPING, sums.e_damping, False)
        LY.accumulate2(dg.ledger, w, L.STEP + L.FRICTION, sums.e_friction, False)
        LY.accumulate2(dg.ledger, w, L.STEP + L.STIFFNESS, sums.e_stiffness, False)
        LY.accumulate2(dg.ledger, w, L.STEP + L.BOUNDARY, sums.e_boundary, False)
        LY.accumulate2(dg.ledger, w, L.STRAIN, sums.e_strain, False)
        LY.accumulate2(dg.ledger, w, L.CONTACTS, sums.count, False)
        dg.ledger[w, L.MAX_OVERLAP] = ti.max(dg.ledger[w, L.MAX_OVERLAP], sums.worst)


@ti.func
def clump_ledger(w, mv, shared: ti.template(),  # in:
                 dg: ti.template()):  # out:
    """Ledger terms of a clump's step (mv: its ``integrator.ClumpMove``): body, boundary, damping work [J].

    In/out — out dg: ledger[w]: the step's body, boundary and damping work.
    """
    LY.accumulate2(dg.ledger, w, L.STEP + L.BODY, mv.e_body, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.BOUNDARY, mv.e_boundary, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.DAMPING, mv.e_damping, shared)


@ti.func
def clump_record(w, row, c, col, mv, shared: ti.template(),  # in:
                 st: ti.template(), dg: ti.template()):  # out:
    """Observed step: clump c's kinetic energy into the ledger (``shared``: the block path's motion stage sums it
    per share instead, share_sums.store_moves), and its columns (from `col`) of history row `row` from mv (its
    ``integrator.ClumpMove``) and the monitor's stiffness sums, which then restart.

    In/out — out st: monitor[c]: the stiffness sums restart (read first); out dg: rec[row, col:col + CLUMP_WIDTH],
    ledger[w]'s kinetic energy.
    """
    if ti.static(not shared):
        LY.accumulate2(dg.ledger, w, L.KINETIC, mv.kinetic, False)
    for i in ti.static(range(3)):
        dg.rec[row, col + C_POS + i] = mv.x0[i]
        dg.rec[row, col + C_VEL + i] = mv.v_mid[i]
        dg.rec[row, col + C_OMEGA + i] = mv.w_mid[i]
        dg.rec[row, col + C_FORCE + i] = mv.force[i]
        dg.rec[row, col + C_TORQUE + i] = mv.torque[i]
    for i in ti.static(range(4)):
        dg.rec[row, col + C_QUAT + i] = mv.q0[i]
    mon = st.monitor[c]
    dg.rec[row, col + C_KT] = mon[LY.MON_KN]
    dg.rec[row, col + C_KR] = mon[LY.MON_KN_LEVER2]
    dg.rec[row, col + C_CT] = mon[LY.MON_CN]
    mon[LY.MON_KN] = 0.0
    mon[LY.MON_KN_LEVER2] = 0.0
    mon[LY.MON_CN] = 0.0
    st.monitor[c] = mon


@ti.func
def wall_record(row, col, ws,  # in:
                dg: ti.template()):  # out:
    """Wall columns (displacement [m], velocity at t_n [m/s]) of history row `row`, from its state ws at t_n.

    In/out — out dg: rec[row, col:col + WALL_WIDTH].
    """
    for i in ti.static(range(3)):
        dg.rec[row, col + i] = ws[LY.WS_DISP + i]
        dg.rec[row, col + 3 + i] = ws[LY.WS_VEL_NOW + i]


@ti.func
def record_row(ct: ti.template(), wd, t, row, slot_col, clear_slots: ti.template(),  # in:
               dg: ti.template()):  # out:
    """Observed step: the global columns of history row `row` (the ledger at t_n; the work reported at t_n includes
    ledger.REPORTED_SHARE of step n's increment) and the probe-slot columns; the largest overlap restarts, and with
    ``clear_slots`` the slot sums (else the block path's reduction stores them afresh: share_sums.reduce_contacts).
    Before :func:`close_ledger`.

    In/out — in ct: counts[w]: rebuilds; out dg: rec[row]: the global and probe-slot columns; slots of the world
    (``clear_slots``) and the ledger's largest overlap restart (read first).
    """
    w = wd.index
    dg.rec[row, G_T] = t
    for j, col in ti.static(zip((L.BODY, L.BOUNDARY, L.DAMPING, L.FRICTION, L.STIFFNESS),
                                (G_EB, G_EW, G_ED, G_EF, G_EKS))):
        dg.rec[row, col] = dg.ledger[w, j] + L.REPORTED_SHARE[j] * dg.ledger[w, L.STEP + j]
    dg.rec[row, G_EK] = dg.ledger[w, L.KINETIC]
    dg.rec[row, G_ES] = dg.ledger[w, L.STRAIN]
    dg.rec[row, G_NC] = dg.ledger[w, L.CONTACTS]
    dg.rec[row, G_OVL] = dg.ledger[w, L.MAX_OVERLAP]
    dg.rec[row, G_REB] = ct.counts[w, LY.CT_REBUILDS]
    dg.ledger[w, L.MAX_OVERLAP] = 0.0
    for k in range(wd.n_slot):
        s = wd.slot0 + k
        v = dg.slots[s]
        for j in ti.static(range(SLOT_WIDTH)):
            dg.rec[row, slot_col + SLOT_WIDTH * k + j] = v[j]
        if ti.static(clear_slots):
            dg.slots[s] = ti.Vector([0.0] * SLOT_WIDTH)


@ti.func
def close_ledger(wd,  # in:
                 dg: ti.template()):  # out:
    """Close world wd's ledger for the step: its work increments go to the totals and to the last step's; the
    step's sums (work, strain, contacts, kinetic energy) are cleared for the next step here rather than at its
    start: on the block path other threads add to them right after the next step begins, and Mesa's lavapipe
    (Vulkan on the CPU) was seen to let such adds overtake a clear made just one barrier earlier.

    In/out — out dg: ledger[w]: the step's increments into the totals; the step's sums cleared.
    """
    w = wd.index
    for j in ti.static(range(L.WORK_TERMS)):
        dg.ledger[w, j] = dg.ledger[w, j] + dg.ledger[w, L.STEP + j]
        dg.ledger[w, L.LAST + j] = dg.ledger[w, L.STEP + j]
        dg.ledger[w, L.STEP + j] = 0.0
    dg.ledger[w, L.STRAIN] = 0.0
    dg.ledger[w, L.CONTACTS] = 0.0
    dg.ledger[w, L.KINETIC] = 0.0
