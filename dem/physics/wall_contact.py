"""Ball–wall stage of a step: the near-wall candidate list and the contact forces.

Ball positions are not stored: a hull sphere's centre is x_G + R(q)·r_p, computed only for the spheres
that are candidates, so a step costs in proportion to the hull spheres near walls, not to the spheres
of the model. The candidate list is rebuilt cluster by cluster (see ``model.CLUSTER_CELL_RADII``), so it
comes in cluster order, hence in clump order, in both launch paths.

Per contact, the body's pose and velocities, the wall's geometry and velocities and the material pair
form a *context*. A contact loop (:func:`wall_contacts`) runs over a contiguous range of a world's
candidates — all of them on the serial path, one thread's share on the block path — keeping the context in
registers while consecutive candidates share a clump and a wall, and the sums in registers while they
share a clump; each clump's sums are added to it once per run.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from . import contact_geometry as CG
from . import contact_response as CR
from . import contact_sums as CS
from . import history_rows as R
from . import ledger as L
from . import share_sums as SS
from .contact_geometry import load_body, load_plane, motion_on_wall, plane_distance, sphere_centre, sphere_plane
from .contact_response import respond


@ti.func
def cluster_wall_candidates(md: ti.template(), st: ti.template(), wd, g, skin, k0, limit, write,  # in:
                            ct: ti.template()):  # out:
    """Hull spheres of cluster g within `skin` [m] of a wall of world wd (walls in reach of the cluster's
    bounding sphere only). With ``write`` (1) they are stored in the world's candidate list from local position
    k0 on, but never at `limit` or past it (the block path's write pass stops at the slots its count pass
    counted, step_blocks.py); returns how many there are, written or not.

    In/out — in md: cluster_body, cluster_range, sph_body, wall_geom; in st: pos, rot, wall_state; out ct: cand[wd.cand0
    + k0 ... wd.cand0 + limit) (with ``write``).
    """
    cl = md.cluster_body[g]
    rng = md.cluster_range[g]
    c = rng[2]
    xg = st.pos[c]
    rot = st.rot[c]
    xcl = sphere_centre(xg, rot, cl)
    k = k0
    for w in range(wd.wall0, wd.wall0 + wd.n_wall):
        pl = load_plane(md, st, w)
        dist_g, _ng, valid_g = plane_distance(xcl, pl)
        if valid_g == 1 and dist_g - cl[3] < skin and dist_g > -cl[3] - skin:
            for i in range(rng[0], rng[0] + rng[1]):
                b = md.sph_body[i]
                dist, _n, valid = plane_distance(sphere_centre(xg, rot, b), pl)
                if valid == 1 and dist - b[3] < skin and dist > -b[3]:
                    if write == 1 and k < limit:
                        ct.cand[wd.cand0 + k] = ti.Vector([i, w])
                    k += 1
    return k - k0


@ti.func
def contact_on_wall(b, body, pl, vw, vw_now, mat, hs, k_sum, dt, implicit: ti.template()):
    """One hull sphere b (centre relative to the centre of mass, body frame [m]; radius [m]) of `body` (a
    ``contact_geometry.Body``) against a wall: plane pl (a ``Plane``) moving at vw at t − Δt/2 and vw_now at t
    [m/s], material pair mat, contact history hs, interface stiffness sum k_sum [N/m] (0 unless "shared").
    Returns its ``ContactGeometry`` and ``ContactResponse`` (the contact mass is the body's: a wall does not move
    in response); the response of a contact that does not touch holds only its history (cleared if it opened)."""
    g = sphere_plane(sphere_centre(body.pos, body.rot, b), b[3], pl)
    r = CR.ContactResponse(hist=hs)
    if g.touching == 1:
        g = motion_on_wall(g, body, vw)
        r = respond(g, mat, hs, body.mass, k_sum, dt, vw_now, implicit)
    elif hs[LY.HIST_IMPACT] != 0.0:
        r.hist = ti.Vector([0.0] * LY.HIST_WIDTH)  # the contact opened: its history goes
    return g, r


@ti.func
def wall_stiffness_sum(md: ti.template(), dg: ti.template(), wd, c, w, shared_mass):  # in:
    """The stiffness sum K_I [N/m] of body c's interface with wall w (0 unless damping_mass is "shared").

    In/out — in dg: ledger: the interface's stiffness sum.
    """
    k_sum = 0.0
    if shared_mass:
        k_sum = dg.ledger[wd.index, L.LEDGER_SIZE + LY.kface_column(wd, c, w - wd.wall0)]
    return k_sum


@ti.func
def wall_contacts(md: ti.template(), wd, dt, k0, k1, observed, implicit: ti.template(),  # in:
                  shared: ti.template(), sk,
                  st: ti.template(), ct: ti.template(), dg: ti.template()):  # out:
    """Wall stage: candidates k0 ≤ k < k1 of world wd's wall list in order, with the context cached while clump
    and wall repeat and the sums kept in registers while the clump repeats (each clump's force is written once
    per run: candidates come in clump order). A sleeping body's contacts are evaluated on observed steps only;
    there each touching contact goes to the history stage (history_rows.wall_contact_record). Returns the contacts'
    ``history_rows.ContactSums`` for the ledger (history_rows.add_contact_energy). ``shared`` (the block path's
    shares, share_sums.py): the forces and diagnostics go to share sk's partials.

    In/out — in md: sph_info, sph_body, clump_param, wall_geom, mat_pair, iface_map, world_param; in k0, k1: the
    candidates k0 ≤ k < k1 of the world's list; in observed: an observed step: the contacts of sleeping bodies too, and
    each touching one to the history stage; out st: wrench, damp += (reads pos, rot, vel, omega, monitor,
    wall_state); monitor: the stiffness sums on observed steps; out ct: hist (reads cand); out dg: slots on observed
    steps (reads the ledger's interface stiffness sums); ``shared``: the share's partials in the ledger instead.
    """
    cur_c = -1
    cur_w = -1
    body = CG.Body()
    pl = CG.Plane(normal=ti.Vector([0.0, 0.0, 1.0]))
    vw = ti.Vector([0.0, 0.0, 0.0])
    vw_now = ti.Vector([0.0, 0.0, 0.0])
    mat = md.mat_pair[wd.mat0]
    k_sum = 0.0
    shared_mass = LY.uses_shared_mass(md, wd.index)
    run = CS.ContactRun()
    sums = CS.ContactSums()
    for k in range(k0, k1):
        # (no `continue` in this loop: Taichi's SPIR-V code generator mishandles it next to atomics)
        cand = ct.cand[wd.cand0 + k]
        i = cand[0]
        w = cand[1]
        c = md.sph_info[i][0]
        if c != cur_c:
            if cur_c >= 0:
                _flush(cur_c, run, implicit, shared, sk, st, dg)
                sums.runs += 1
            run = CS.ContactRun()
            cur_c = c
            cur_w = -1  # the material pair depends on the clump too
            body = load_body(md, st, c)
        if body.asleep == 0 or observed:
            if w != cur_w:
                cur_w = w
                pl = load_plane(md, st, w)
                vw, vw_now = LY.wall_velocities(st, w)
                mat = LY.material_pair(md, wd, md.sph_info[i][1], ti.cast(md.wall_geom[w][LY.WG_MATERIAL], ti.i32))
                k_sum = wall_stiffness_sum(md, dg, wd, c, w, shared_mass)
            h = LY.wall_history_index(wd, i, w)
            hs = ct.hist[h]
            g, r = contact_on_wall(md.sph_body[i], body, pl, vw, vw_now, mat, hs, k_sum, dt, implicit)
            if g.touching == 1 or hs[LY.HIST_IMPACT] != 0.0:
                ct.hist[h] = r.hist
            if g.touching == 1:
                run, sums = CS.add_contact(run, sums, g, r, implicit)
                if observed:  # the history stage
                    R.wall_contact_record(md, wd, i, c, w, g, r, shared, sk, st, dg)
    if cur_c >= 0:
        _flush(cur_c, run, implicit, shared, sk, st, dg)
        sums.runs += 1
    return sums



@ti.func
def _flush(c, run, implicit: ti.template(), shared: ti.template(), sk,  # in:
           st: ti.template(), dg: ti.template()):  # out:
    """Add a run of contacts (a ``contact_sums.ContactRun``) to clump c (``shared``: to share sk's partial of c).

    In/out — out st: wrench[c], damp[c] +=; out dg: or the share's partial in the ledger.
    """
    if ti.static(shared):
        SS.clump_add(sk, c, SS.P_WRENCH, LY.wrench_of(run.force, run.torque_a), dg)
        if ti.static(implicit):
            SS.clump_add(sk, c, SS.P_DAMP, run.blk, dg)
    else:
        LY.accumulate(st.wrench, c, LY.wrench_of(run.force, run.torque_a), False)
        if ti.static(implicit):
            LY.accumulate(st.damp, c, run.blk, False)
