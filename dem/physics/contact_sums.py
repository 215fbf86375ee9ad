"""What a contact loop adds up: a run's forces for its bodies, and the stage's sums for the energy ledger.

The contact lists come grouped by body (a wall's candidates by clump, body pairs by their two clumps), so a loop
keeps a ``ContactRun`` in registers while its bodies repeat and adds it to them once per run (wall_contact.py,
pair_contact.py), and one ``ContactSums`` for the whole stage, which the step adds to the ledger
(history_rows.add_contact_energy). Every touching contact goes through :func:`add_contact`, whatever its kind.
"""

from ..device import runtime
from ..device.damping_layout import DAMP_WIDTH
from ..device.kernel_lang import ti

ContactSums = None  # struct type of a contact stage's sums for the ledger, defined at init (runtime.define_types)
ContactRun = None  # struct type of one run of contacts between the same bodies, defined at init


def _define_types(real):
    global ContactSums, ContactRun
    v3 = ti.types.vector(3, real)
    ContactSums = ti.types.struct(
        e_damping=real, e_friction=real, e_stiffness=real, e_boundary=real,  # the step's work [J]
        e_strain=real,  # strain energy at t_n [J]
        count=ti.i32,  # touching contacts
        worst=real,  # the largest overlap ÷ radius
        runs=ti.i32,  # runs of contacts added to their bodies (the block path's loop budget, layout.LOOP_BUDGET)
    )
    ContactRun = ti.types.struct(
        force=v3,  # on body a [N] (−force on body b)
        torque_a=v3, torque_b=v3,  # about each body's centre of mass [N·m] (torque_b: 0 against a wall)
        blk=ti.types.vector(DAMP_WIDTH, real),  # a's damping block (implicit dashpots, damping_layout.py)
    )


runtime.define_types(_define_types)


@ti.func
def add_contact(run, sums, g, r, implicit: ti.template()):
    """run and sums with one touching contact added: its geometry g (a ``ContactGeometry`` with its motion) and
    response r (a ``ContactResponse``)."""
    run.force += r.force
    run.torque_a += r.torque_a
    run.torque_b += -g.arm_b.cross(r.force)
    if ti.static(implicit):
        run.blk += r.blk
    sums.e_damping += r.e_damping
    sums.e_friction += r.e_friction
    sums.e_boundary += r.e_boundary
    sums.e_strain += r.e_strain
    sums.e_stiffness += r.e_stiffness
    sums.worst = ti.max(sums.worst, g.ratio)
    sums.count += 1
    return run, sums
