"""The body pairs' geometry pass: the narrow phase of every pair-list entry once a step, before the force pass.

For each entry the force pass will evaluate, the pass finds its geometry and its share of the stiffness
(pair_entry.pair_geometry, pair_entry.entry_share) and keeps them for the force pass (pair_contact.pair_contacts)
in the entry's row of the spare half of ``pair_hist`` (layout.PG_*; device/contacts.py); under damping_mass
"shared" it also adds each touching entry's k_n to its interface's sum K_I (interface_stiffness.py, Eq. D5), which
the force pass needs before its first contact. So the narrow phase runs once a step and the kernel holds one copy
of it (the force pass rebuilds the contact point from the kept normal and overlap, the same bits).

Which entries: those of a pair with a moving body, and on a step that records, every one (the same rule as the
force pass's, decided here once from the bodies' sleep at the start of the contact stages: a body the force pass
wakes meets its sleeping neighbours' entries from the next step on, on every launch path alike). The others get
PG_SKIPPED and the force pass leaves them out. The block path gives each thread the same contiguous share of the
list in both passes, so a thread reads back only rows it wrote itself.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..model.materials import PAIR_SHARED
from . import contact_geometry as CG
from .contact_geometry import load_body
from .contact_law import normal_stiffness, share_stiffness
from .interface_stiffness import add_in_run, add_to_sum
from .pair_entry import entry_bodies, entry_share, pair_geometry


@ti.func
def pair_geometry_pass(k0, k1, base, spare, md: ti.template(), st: ti.template(),  # in:
                       ct: ti.template(), karr: ti.template(), row, col0,  # out:
                       wd, observed, every: ti.template(), sums, shared: ti.template(), sk):  # in:
    """The geometry of world wd's pair entries base + k0 ≤ k < base + k1 into rows spare + k − base of pair_hist
    (module docstring), and with `sums` (damping_mass "shared") their k_n into the interface sums. ``every``: the
    entries of sleeping bodies too (exports). Returns a bound on the loop iterations run (layout.LOOP_BUDGET).

    In/out — in md: sph_info, sph_body, clump_param, solid, mat_pair; in st: pos, rot, monitor; out ct: pair_hist's
    spare half (reads pairs); out karr, row, col0: the sums: karr[row, col0 + ...] +=; in observed: an observed step:
    the entries of sleeping bodies count too.
    """
    cur = -1
    acc = 0.0
    cost = 0
    cur_a = -1
    cur_b = -1
    ba = CG.Body()
    bb = CG.Body()
    for k in range(base + k0, base + k1):
        cost += 1 + LY.ATOMIC_RETRIES
        pair = ct.pairs[k]
        a, b = entry_bodies(md, pair)
        if a != cur_a or b != cur_b:  # the list is grouped by the pair of bodies: load them once a run
            cur_a = a
            cur_b = b
            ba = load_body(md, st, a)
            bb = load_body(md, st, b)
        found = ti.Vector([0.0, 0.0, 0.0, 0.0, LY.PG_SKIPPED])
        active = 1
        if ti.static(not every):
            if ba.asleep == 1 and bb.asleep == 1 and not observed:
                active = 0
        if active == 1:
            g = pair_geometry(md, pair, ba, bb)
            share = 0.0
            if g.touching == 1:
                share = entry_share(md, pair, g, ba, bb)
            found = ti.Vector([g.normal[0], g.normal[1], g.normal[2], g.overlap, share])
            if sums and share > 0.0:
                mat = LY.body_material_pair(md, wd, a, b)
                if mat[PAIR_SHARED] > 0.5:
                    cur, acc = add_in_run(karr, row, cur, acc, col0 + LY.kface_column(wd, a, wd.n_wall + b - wd.clump0),
                                          normal_stiffness(share_stiffness(mat, share), g.r_eff, g.overlap), shared,
                                          sk)
        ct.pair_hist[spare + k - base] = found
    add_to_sum(karr, row, cur, acc, shared, sk)
    return cost
