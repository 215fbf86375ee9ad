"""Interface stiffness sums K_I for the shared dashpot mass (``damping_mass = "shared"``, docs/damping.md).

Under "shared" the contacts of one interface — the active contacts of a body with one wall, or with one
other body — share the interface's mass M_I in proportion to their tangent normal stiffness (Eq. D1):
m_i = M_I k_n,i / K_I with K_I = Σ_j k_n,j, so the interface's damping ratio is β whatever the number of
contacts. K_I needs every contact of the interface, so a step of a world that uses the option first sums k_n over its
body pairs (in their geometry pass, pair_geometry_pass.py) and over its wall candidates (here) (Eq. D5: exact,
the coefficients depend on the state at t_n only), then the force pass reads K_I (contact_law.normal_force takes
it as ``k_sum``).

Storage: the sums of world w live in row w of an array (the solver's ledger, after its ledger columns:
``col0 = ledger.LEDGER_SIZE``), one column per (body, wall) and per (body, body):
    col0 + (c − clump0) (n_wall + n_clump) + (w − wall0)          body c against wall w,
    col0 + (a − clump0) (n_wall + n_clump) + n_wall + (b − clump0) body a against body b (the pair list's order),
so n_clump (n_wall + n_clump) columns a world: they grow with the bodies, never with the spheres.

The pass skips what the force pass skips (a sleeping body's contacts on an unobserved step) and keeps its
sum in a register while the interface repeats (the lists are grouped by body), so the block path adds to
each column about once per thread.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..model.materials import PAIR_SHARED
from . import share_sums as SS
from .contact_geometry import load_plane, sphere_centre, sphere_plane
from .contact_law import normal_stiffness


@ti.func
def clear_sums(karr: ti.template(), row, col0,  # out:
               wd, lane, bd: ti.template()):  # in:
    """Zero world wd's sums (thread `lane` of bd takes every bd-th column).

    In/out — out karr, row, col0: the sums: karr[row, col0 + ...] = 0.
    """
    n = wd.n_clump * (wd.n_wall + wd.n_clump)
    for k in range((n - lane + bd - 1) // bd):
        karr[row, col0 + lane + k * bd] = 0.0


@ti.func
def add_to_sum(karr: ti.template(), row, col,  # out:
         value, shared: ti.template(), sk):  # in:
    """In/out — out karr, row, col: karr[row, col] += value (col ≥ 0); ``shared`` (the block path's shares,
    share_sums.py): to share sk's partial of it (karr the ledger)."""
    if col >= 0:
        if ti.static(shared):
            SS.kface_add(sk, row, col, value, karr)
        else:
            LY.accumulate2(karr, row, col, value, False)


@ti.func
def add_in_run(karr: ti.template(), row, cur, acc,  # out:
               col, k_n, shared: ti.template(), sk):  # in:
    """One more contact's k_n [N/m] for the interface whose column is `col`, the sum kept in a register (acc) while
    the column repeats (cur) and added to karr when it changes. Returns the new (cur, acc).

    In/out — out karr, row: the previous column's sum when the column changes: karr[row, cur] +=.
    """
    if col != cur:
        add_to_sum(karr, row, cur, acc, shared, sk)
        cur = col
        acc = 0.0
    return cur, acc + k_n


@ti.func
def wall_stiffness(k0, k1, md: ti.template(), st: ti.template(), ct: ti.template(),  # in:
                   karr: ti.template(), row, col0,  # out:
                   wd, observed, every: ti.template(), shared: ti.template(), sk):  # in:
    """Add k_n of the touching wall candidates k0 ≤ k < k1 of world wd to their interfaces' sums (only for
    material pairs under "shared"). ``every``: also the contacts of sleeping bodies (exports). Returns a
    bound on the loop iterations run (layout.LOOP_BUDGET).

    In/out — in md: sph_info, sph_body, wall_geom, mat_pair; in st: pos, rot, monitor, wall_state; in ct: cand; out
    karr, row, col0: the sums: karr[row, col0 + ...] +=; in observed: an observed step: the contacts of sleeping bodies
    count too.
    """
    cur = -1
    acc = 0.0
    cost = 0
    for k in range(k0, k1):
        cost += 1 + LY.ATOMIC_RETRIES
        pair = ct.cand[wd.cand0 + k]
        i = pair[0]
        w = pair[1]
        c = md.sph_info[i][0]
        active = 1
        if ti.static(not every):
            if LY.asleep(st, c) and not observed:
                active = 0
        if active == 1:
            b = md.sph_body[i]
            g = sphere_plane(sphere_centre(st.pos[c], st.rot[c], b), b[3], load_plane(md, st, w))
            if g.touching == 1:  # the force pass's geometry (wall_contact.contact_on_wall)
                mat = LY.material_pair(md, wd, md.sph_info[i][1], ti.cast(md.wall_geom[w][LY.WG_MATERIAL], ti.i32))
                if mat[PAIR_SHARED] > 0.5:
                    cur, acc = add_in_run(karr, row, cur, acc, col0 + LY.kface_column(wd, c, w - wd.wall0),
                                          normal_stiffness(mat, g.r_eff, g.overlap), shared, sk)
    add_to_sum(karr, row, cur, acc, shared, sk)
    return cost

