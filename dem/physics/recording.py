"""Diagnostics of a step: the record row, the probe slots, the stiffness monitor and the energy ledger.

The physics functions (contact laws, law of motion) return what they computed; the step hands it to the
functions here, which are the only ones that write record rows, probe slots, the ledger and the monitor
sums. Each world has its own rows, slots and ledger.

A row holds everything at the record time t_n: the ledger, then per clump its pose at t_n, velocities at
t_n (mean of the half steps), the contact force and torque at t_n (dashpots included) and stiffness sums for
the critical-time-step monitor, then per wall its displacement and velocity, then per probe slot the summed
contact force, moment about the world origin, number of contacts and sum of normal forces.
"""


from dataclasses import dataclass

import numpy as np

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import ledger as L

GLOBAL_COLUMNS = ("t", "E_body", "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction",
                  "E_shear_stiffness", "contact_count", "max_overlap_ratio", "rebuilds")
G_T, G_EB, G_EW, G_EK, G_ES, G_ED, G_EF, G_EKS, G_NC, G_OVL, G_REB = range(len(GLOBAL_COLUMNS))

# per clump: pos(3) quat(4) vel(3) omega(3) force(3) torque(3) k_n sum, k_n·lever² sum, c_n sum
CLUMP_WIDTH = 22
C_POS, C_QUAT, C_VEL, C_OMEGA, C_FORCE, C_TORQUE, C_KT, C_KR, C_CT = 0, 3, 7, 10, 13, 16, 19, 20, 21
WALL_WIDTH = 6  # displacement(3), velocity(3)
SLOT_WIDTH = 8  # force(3), moment about origin(3), contact count, Σ normal force


@dataclass(frozen=True)
class RecordLayout:
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


# ---------------------------------------------------------------- device side
@ti.func
def add_slot(dg: ti.template(), s, force, point, fn, shared: ti.template()):
    """Add one contact's force [N] at `point` [m] (moment about the world origin) with normal force fn [N]
    to probe slot s."""
    m = point.cross(force)
    LY.accumulate(dg.slots, s, ti.Vector([force[0], force[1], force[2], m[0], m[1], m[2], 1.0, fn]), shared)


@ti.func
def add_monitor(st: ti.template(), c, kn, lever2, cn, shared: ti.template()):
    """Stiffness sums of clump c for the critical-time-step monitor (Σk_n, Σk_n|r×n|², Σc_n)."""
    LY.accumulate(st.monitor, c, ti.Vector([0.0, kn, kn * lever2, cn, 0.0, 0.0, 0.0, 0.0]), shared)


@ti.func
def wall_contact_record(md: ti.template(), st: ti.template(), dg: ti.template(), wd, i, c, w, hit,
                        shared: ti.template()):
    """Record-step diagnostics of a touching sphere–wall contact: the clump–wall interface slot, the
    sphere's probe groups, the clump's stiffness sums."""
    s = LY.wall_interface_slot(md, wd, c, w)
    if s >= 0:
        add_slot(dg, s, hit.f_rec, hit.point, hit.fn_rec, shared)
    info = md.sph_info[i]
    if info[2] >= 0:
        add_slot(dg, info[2], hit.f_rec, hit.point, hit.fn_rec, shared)
    if info[3] >= 0:
        add_slot(dg, info[3], hit.f_rec, hit.point, hit.fn_rec, shared)
    add_monitor(st, c, hit.kn, hit.lever2_a, hit.cn, shared)


@ti.func
def pair_contact_record(md: ti.template(), st: ti.template(), dg: ti.template(), wd, i, j, a, b, hit,
                        shared: ti.template()):
    """Record-step diagnostics of a touching pair (sphere i of clump a, sphere j of clump b): the force
    f_rec acts on a and −f_rec on b; interface slots of both, probe groups of both spheres, stiffness sums."""
    sa = LY.pair_interface_slot(md, wd, a, b)
    if sa >= 0:
        add_slot(dg, sa, hit.f_rec, hit.point, hit.fn_rec, shared)
    sb = LY.pair_interface_slot(md, wd, b, a)
    if sb >= 0:
        add_slot(dg, sb, -hit.f_rec, hit.point, hit.fn_rec, shared)
    info_i = md.sph_info[i]
    info_j = md.sph_info[j]
    for layer in ti.static(range(2, 4)):
        if info_i[layer] >= 0:
            add_slot(dg, info_i[layer], hit.f_rec, hit.point, hit.fn_rec, shared)
        if info_j[layer] >= 0:
            add_slot(dg, info_j[layer], -hit.f_rec, hit.point, hit.fn_rec, shared)
    add_monitor(st, a, hit.kn, hit.lever2_a, hit.cn, shared)
    add_monitor(st, b, hit.kn, hit.lever2_b, hit.cn, shared)


ENERGY_SCALARS = 7  # scalar adds of add_contact_energy
CLUMP_SCALARS = 4  # scalar adds of clump_record


@ti.func
def add_contact_energy(dg: ti.template(), w, e_damping, e_friction, e_stiffness, e_boundary, e_strain, count, worst,
                       shared: ti.template()):
    """A stage's contact sums into world w's ledger: the step's damping, friction (slip), shear-stiffness and
    boundary work [J], strain energy at t_n [J], contacts, and the largest overlap ÷ radius."""
    LY.accumulate2(dg.ledger, w, L.STEP + L.DAMPING, e_damping, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.FRICTION, e_friction, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.STIFFNESS, e_stiffness, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.BOUNDARY, e_boundary, shared)
    LY.accumulate2(dg.ledger, w, L.STRAIN, e_strain, shared)
    LY.accumulate2(dg.ledger, w, L.CONTACTS, count, shared)
    if ti.static(shared):
        ti.atomic_max(dg.ledger[w, L.MAX_OVERLAP], worst)
    else:
        dg.ledger[w, L.MAX_OVERLAP] = ti.max(dg.ledger[w, L.MAX_OVERLAP], worst)


@ti.func
def clump_record(st: ti.template(), dg: ti.template(), w, row, c, col, mv, record, shared: ti.template()):
    """Ledger terms of clump c's step (body, boundary, damping work), and on record steps its kinetic energy
    and its columns (starting at `col`) of record row `row`; the monitor's stiffness sums restart."""
    LY.accumulate2(dg.ledger, w, L.STEP + L.BODY, mv.e_body, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.BOUNDARY, mv.e_boundary, shared)
    LY.accumulate2(dg.ledger, w, L.STEP + L.DAMPING, mv.e_damping, shared)
    if record:
        LY.accumulate2(dg.ledger, w, L.KINETIC, mv.kinetic, shared)
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
def wall_record(dg: ti.template(), row, col, ws):
    """Wall columns (displacement [m], velocity at t_n [m/s]) of record row `row`, from its state at t_n."""
    for i in ti.static(range(3)):
        dg.rec[row, col + i] = ws[LY.WS_DISP + i]
        dg.rec[row, col + 3 + i] = ws[LY.WS_VEL_NOW + i]


@ti.func
def close_step(ct: ti.template(), dg: ti.template(), wd, t, record, row, slot_col):
    """Close world wd's ledger for the step; on record steps write the global and probe-slot columns and
    restart the slot sums. The work reported at t_n includes ledger.REPORTED_SHARE of step n's increment. The
    step's sums (strain, contacts, kinetic energy) are cleared here for the next step rather than at its
    start: on the block path other threads add to them right after the next step begins, and Mesa's
    lavapipe (Vulkan on the CPU) was seen to let such adds overtake a clear made just one barrier earlier."""
    w = wd.index
    if record:
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
            dg.slots[s] = ti.Vector([0.0] * SLOT_WIDTH)
    for j in ti.static(range(L.WORK_TERMS)):
        dg.ledger[w, j] = dg.ledger[w, j] + dg.ledger[w, L.STEP + j]
        dg.ledger[w, L.LAST + j] = dg.ledger[w, L.STEP + j]
        dg.ledger[w, L.STEP + j] = 0.0
    dg.ledger[w, L.STRAIN] = 0.0
    dg.ledger[w, L.CONTACTS] = 0.0
    dg.ledger[w, L.KINETIC] = 0.0
