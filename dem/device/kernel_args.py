"""The step kernels' argument packs: the engine's device arrays grouped as model, state, contacts, diagnostics.

A kernel takes the four packs (``md``, ``st``, ``ct``, ``dg``) and reaches an array as ``md.sph_body``. Each pack
is a Taichi argument pack or, on quadrants, a dataclass of ndarrays (toolchain.argpack); simulation.Simulation
builds them by keyword. The parameter names are part of the convention: on quadrants, a ``@ti.func`` parameter
with one of these names is typed with its pack (kernel_lang._typed_packs), as quadrants requires.

What reads and writes each array (every stage's signature says it in ``# in:`` / ``# out:`` groups, and its
docstring's "In/out" line names the arrays of each pack):
    md  ModelArgs    read only: built on the host (model_arrays.DeviceModel)
    st  StateArgs    pos, quat, rot, vel, omega: the law of motion (integrator.integrate_clump);
                     wrench (contact force [N] and moment about the centre of mass [N·m], one vec6: one array, so
                     that the model's ``solid`` fits in the kernels' bound on arrays, runtime.MAX_KERNEL_ARRAYS),
                     damp, damp_other: added by the contact stages, read and cleared by the law of motion; monitor:
                     the law of motion (motion bounds, quiet steps, sleep), the contact stages (wakes), the history
                     stage (stiffness sums, added and restarted), the skin tests and the pair search (motion
                     restarts); wall_state: integrator.move_wall and step.begin_step
    ct  ContactArgs  cand: the wall-candidate rebuild; hist: the wall stage; pairs: the pair search (host or
                     device); pair_hist: the pair stage and the pair search (carried over), its spare half the
                     pair geometry pass (pair_geometry_pass.py); counts: the step's
                     counters (layout.CT_*), and the host between launches
    dg  DiagArgs     ledger: the contact stages' sums (history_rows.add_contact_energy), the clumps' work
                     (history_rows.clump_ledger), the interface stiffness sums (interface_stiffness.py) and the close
                     of each step (history_rows.close_ledger); slots, rec: the history stage (history_rows.py) only
"""

from __future__ import annotations

from .toolchain import argpack, ti

_nd1 = ti.types.ndarray(ndim=1)
_nd2 = ti.types.ndarray(ndim=2)
ModelArgs = argpack("ModelArgs", sph_body=_nd1, sph_info=_nd1, cluster_body=_nd1, cluster_range=_nd1,
                    clump_param=_nd1, wall_geom=_nd1, wall_vel=_nd2, mat_pair=_nd1, iface_map=_nd1, world_info=_nd2,
                    world_param=_nd2, solid=_nd1)
StateArgs = argpack("StateArgs", pos=_nd1, quat=_nd1, rot=_nd1, vel=_nd1, omega=_nd1, wrench=_nd1, damp=_nd1,
                    damp_other=_nd1, monitor=_nd1, wall_state=_nd1)
ContactArgs = argpack("ContactArgs", cand=_nd1, hist=_nd1, counts=_nd2, pairs=_nd1, pair_hist=_nd1)
DiagArgs = argpack("DiagArgs", ledger=_nd2, slots=_nd1, rec=_nd2)
KERNEL_ARRAY_COUNT = 12 + 10 + 5 + 3

# Parameter name -> pack, for the functions that pass the packs down (see the module docstring).
PACKS_BY_PARAM = {"md": ModelArgs, "st": StateArgs, "ct": ContactArgs, "dg": DiagArgs}
