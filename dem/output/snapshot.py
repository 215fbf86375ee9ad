"""Snapshots of a simulation for visualisation and post-processing: world sphere positions and velocities,
walls, and the contact network (every touching hull-sphere–wall and hull-sphere–hull-sphere pair).

Each contact is evaluated by the step's own contact functions (wall_contact.contact_on_wall,
pair_contact.contact_between) with the inputs the next step will give them — positions at t, velocities at
t − Δt/2, the stored shear force plus this step's increment — without changing any state. Its force is
the elastic part plus the dashpot part c·(relative velocity at t − Δt/2): what the probe slots record, so
summing a frame's contacts over an interface gives that interface's probe columns at the frame's time to
round-off (tests/output/test_contact_export.py).
With implicit dashpots (the default) the force the step *applies* uses the
mid-step velocity instead (integrator.py); the two differ by O(Δt) of the dashpot part.
"""

from dataclasses import dataclass

import numpy as np

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..physics.contact_geometry import load_body, load_plane
from ..physics.interface_stiffness import clear_sums, wall_stiffness
from ..physics.pair_contact import contact_between
from ..physics.pair_entry import entry_bodies
from ..physics.pair_geometry_pass import pair_geometry_pass
from ..physics.simulation import ContactArgs, ModelArgs, StateArgs
from ..physics.wall_contact import contact_on_wall


@dataclass
class Frame:
    """One snapshot; every array is world frame, SI units.

    Attributes:
        t: time [s].
        centers, radii, clump_id: spheres (hull spheres only unless asked for all) [m], [m], body index.
        velocity: sphere-centre velocities v + ω × r [m/s], shape (n, 3).
        angular_velocity: the sphere's clump's ω [rad/s], shape (n, 3).
        contact_force: sum of the contact forces (elastic + dashpot) on each sphere [N], shape (n, 3).
        wall_corners: (n_w, 4, 3) corners of each facet (infinite planes: a square of side ``plane_size``).
        wall_velocity: (n_w, 3) [m/s].
        Per contact (n_c rows; sphere a is ``contact_sphere``, the force is the one sphere a receives, the
        other side — a wall or sphere b — receives its opposite):
        contact_point: (n_c, 3) middle of the overlap [m].
        contact_normal: (n_c, 3) unit normal from the wall or sphere b towards sphere a.
        contact_sphere, contact_other: (n_c,) sphere a's and sphere b's index in this frame's sphere arrays
            (contact_other −1 for a wall contact and for a sphere against another body's solid).
        contact_body, contact_other_body: (n_c,) body (clump) index of sphere a and of the other body (sphere b's
            or the solid's; −1: wall).
        contact_wall: (n_c,) wall index (−1 for a contact between two bodies).
        contact_overlap: (n_c,) overlap δ [m].
        contact_fn: (n_c,) normal force along contact_normal, elastic + dashpot [N] (≥ 0 under no-tension).
        contact_fn_dashpot: (n_c,) its dashpot part [N].
        contact_shear: (n_c, 3) shear force, elastic (Mindlin, Coulomb-limited) + dashpot [N].
        contact_shear_dashpot: (n_c, 3) its dashpot part [N].
        contact_shear_stiffness: (n_c,) Mindlin shear stiffness k_s [N/m] (stored in the contact's history).
        contact_slip_work, contact_stiffness_work: (n_c,) the slip dissipation D and the shear stiffness work W_k
            [J] of the step this frame evaluates (contact_law.shear_force, docs/shear_unloading.md): summed over
            the contacts, the ledger's increments of E_friction and E_shear_stiffness in that step.
        clump_position, clump_quaternion, clump_velocity, clump_omega: per clump [m], (w, x, y, z), [m/s],
            [rad/s].
    """

    t: float
    centers: np.ndarray
    radii: np.ndarray
    clump_id: np.ndarray
    velocity: np.ndarray
    angular_velocity: np.ndarray
    contact_force: np.ndarray
    wall_corners: np.ndarray
    wall_velocity: np.ndarray
    contact_point: np.ndarray
    contact_normal: np.ndarray
    contact_sphere: np.ndarray
    contact_wall: np.ndarray
    contact_fn: np.ndarray
    contact_shear: np.ndarray
    clump_position: np.ndarray
    clump_quaternion: np.ndarray
    clump_velocity: np.ndarray
    clump_omega: np.ndarray
    contact_other: np.ndarray
    contact_body: np.ndarray
    contact_other_body: np.ndarray
    contact_overlap: np.ndarray
    contact_fn_dashpot: np.ndarray
    contact_shear_dashpot: np.ndarray
    contact_shear_stiffness: np.ndarray | None = None
    contact_slip_work: np.ndarray | None = None
    contact_stiffness_work: np.ndarray | None = None

    @property
    def contact_count(self) -> int:
        return len(self.contact_fn)

    @property
    def contact_normal_force(self) -> np.ndarray:
        """Normal force vectors (elastic + dashpot) on sphere a [N], shape (n_c, 3)."""
        return self.contact_fn[:, None] * self.contact_normal

    @property
    def contact_total_force(self) -> np.ndarray:
        """Normal + shear force on sphere a [N], shape (n_c, 3)."""
        return self.contact_normal_force + self.contact_shear

    @property
    def contact_fs(self) -> np.ndarray:
        """Shear force magnitudes [N], shape (n_c,)."""
        return np.linalg.norm(self.contact_shear, axis=1)


# Per-contact export row (out_f): contact point (3) [m], unit normal (3), overlap [m], elastic normal force
# [N], normal dashpot force [N] (signed, along the normal), elastic shear force (3) [N], shear dashpot
# force (3) [N], shear stiffness k_s [N/m], slip work D [J], stiffness work W_k [J]. out_i: the device hull
# sphere, and the wall (wall contacts) or the other hull sphere.
EXPORT_WIDTH = 18
_XC, _NRM, _OVL, _FE, _FD, _FS, _FSD, _KS, _SLIP, _WK = 0, 3, 6, 7, 8, 9, 12, 15, 16, 17


@ti.func
def _write_row(out_f: ti.template(), k, g, r, sign):
    """Row k of the export: a touching contact's geometry g and response r, seen from the other side when sign
    is −1 (normal and shear forces turned)."""
    for q in ti.static(range(3)):
        out_f[k, _XC + q] = g.point[q]
        out_f[k, _NRM + q] = sign * g.normal[q]
        out_f[k, _FS + q] = sign * r.shear[q]
        out_f[k, _FSD + q] = sign * r.shear_dashpot[q]
    out_f[k, _OVL] = g.overlap
    out_f[k, _FE] = r.fn_elastic
    out_f[k, _FD] = r.fn_dashpot
    out_f[k, _KS] = r.hist[LY.HIST_KS]
    out_f[k, _SLIP] = r.e_friction
    out_f[k, _WK] = r.e_stiffness


@ti.kernel
def _export_wall_contacts(md: ModelArgs, st: StateArgs, ct: ContactArgs, w: ti.i32, dt: float,
                          out_i: ti.types.ndarray(), out_f: ti.types.ndarray(), ksum: ti.types.ndarray()) -> ti.i32:
    """Every touching (hull sphere, wall) candidate of world w, as the next step evaluates it (under
    damping_mass "shared" with the interface sums of this state, in ``ksum``)."""
    wd = LY.load_world(md, w)
    n_out = 0
    shared_mass = LY.uses_shared_mass(md, w)
    ti.loop_config(serialize=True)
    for _ in range(1):
        if shared_mass:
            clear_sums(ksum, 0, 0, wd, 0, 1)
            wall_stiffness(0, ct.counts[w, LY.CT_N_CAND], md, st, ct, ksum, 0, 0, wd, True, True, False, 0)
    ti.loop_config(serialize=True)
    for k in range(ct.counts[w, LY.CT_N_CAND]):
        pair = ct.cand[wd.cand0 + k]
        i = pair[0]
        wall = pair[1]
        c = md.sph_info[i][0]
        vw, vw_now = LY.wall_velocities(st, wall)
        mat = LY.material_pair(md, wd, md.sph_info[i][1], ti.cast(md.wall_geom[wall][LY.WG_MATERIAL], ti.i32))
        k_sum = 0.0
        if shared_mass:
            k_sum = ksum[0, LY.kface_column(wd, c, wall - wd.wall0)]
        g, r = contact_on_wall(md.sph_body[i], load_body(md, st, c), load_plane(md, st, wall), vw, vw_now, mat,
                               ct.hist[LY.wall_history_index(wd, i, wall)], k_sum, dt, False)
        if g.touching == 1:
            out_i[n_out, 0] = i - wd.hull0
            out_i[n_out, 1] = wall - wd.wall0
            _write_row(out_f, n_out, g, r, 1.0)
            n_out += 1
    return n_out


@ti.kernel
def _export_pair_contacts(md: ModelArgs, st: StateArgs, ct: ContactArgs, w: ti.i32, base: ti.i32, spare: ti.i32,
                          dt: float, out_i: ti.types.ndarray(), out_f: ti.types.ndarray(),
                          ksum: ti.types.ndarray()) -> ti.i32:
    """Every touching entry of world w's pair list (physics/pair_entry.py), as the next step evaluates it, seen from
    its hull sphere: out_i (the sphere, the other body's hull sphere or −1 − the other body (world-local) for a
    sphere against that body's solid), the force on the sphere's body, the normal towards it."""
    wd = LY.load_world(md, w)
    n_out = 0
    shared_mass = LY.uses_shared_mass(md, w)
    ti.loop_config(serialize=True)
    for _ in range(1):
        if shared_mass:
            clear_sums(ksum, 0, 0, wd, 0, 1)
        pair_geometry_pass(0, ct.counts[w, LY.CT_N_PAIRS], base, spare, md, st, ct, ksum, 0, 0, wd, True, True,
                           shared_mass, False, 0)
    ti.loop_config(serialize=True)
    for k in range(ct.counts[w, LY.CT_N_PAIRS]):
        pair = ct.pairs[base + k]
        a, b = entry_bodies(md, pair)
        ba = load_body(md, st, a)
        bb = load_body(md, st, b)
        mat = LY.body_material_pair(md, wd, a, b)
        k_sum = 0.0
        if shared_mass:
            k_sum = ksum[0, LY.kface_column(wd, a, wd.n_wall + b - wd.clump0)]
        g, r = contact_between(md, pair, ba, bb, ba.mass * bb.mass / (ba.mass + bb.mass), mat, ct.pair_hist[base + k],
                               k_sum, dt, ct.pair_hist[spare + k], False)
        if g.touching == 1:
            sign = 1.0
            if pair[0] >= 0:
                out_i[n_out, 0] = pair[0] - wd.hull0
                out_i[n_out, 1] = pair[1] - wd.hull0 if pair[1] >= 0 else -1 - (b - wd.clump0)
            else:  # b's sphere against a's solid: seen from b
                sign = -1.0
                out_i[n_out, 0] = pair[1] - wd.hull0
                out_i[n_out, 1] = -1 - (a - wd.clump0)
            _write_row(out_f, n_out, g, r, sign)
            n_out += 1
    return n_out


def snapshot(sim, *, all_spheres: bool = False, plane_size: float | None = None, world: int = 0) -> Frame:
    """A :class:`Frame` of world `world` of `sim` now (hull spheres only unless ``all_spheres``)."""
    m = sim.models[world]
    st_ = sim.state
    dm = sim.device_model
    cs = slice(int(dm.clump_start[world]), int(dm.clump_start[world]) + m.clump_count)
    wsl = slice(int(dm.wall_start[world]), int(dm.wall_start[world]) + m.wall_count)
    pos, rot, vel, omg = (st_.pos.to_numpy()[cs], st_.rot.to_numpy()[cs], st_.vel.to_numpy()[cs],
                          st_.omega.to_numpy()[cs])
    quat, ws = st_.quat.to_numpy()[cs], st_.wall_state.to_numpy()[wsl]
    centers, radii, cid = m.world_spheres(pos, rot, hull_only=not all_spheres)
    arm = centers - pos[cid]
    velocity = vel[cid] + np.cross(omg[cid], arm)

    # contacts: wall contacts, then contacts between bodies
    real = np.float64 if st_._np() == np.float64 else np.float32
    bufs = getattr(sim, "_snapshot_buffers", None)
    if bufs is None:
        cap = max(sim.contacts.capacity, 1)
        bufs = sim._snapshot_buffers = (np.zeros((cap, 2), np.int32), np.zeros((cap, EXPORT_WIDTH), real))
    out_i, out_f = bufs
    md, st, ct, _dg = sim._packs()
    ksum = np.zeros((1, max(sim.device_model.kface_width, 1)), real)  # interface sums K_I ("shared")
    n = _export_wall_contacts(md, st, ct, world, sim.dt, out_i, out_f, ksum)
    dev_a, data = [out_i[:n, 0].astype(np.int64)], [out_f[:n].astype(float)]
    wall_of, dev_b = [out_i[:n, 1].astype(np.int64)], [np.full(n, -1, np.int64)]
    counts = sim.contacts.counters()[world]
    if m.clump_count > 1 and int(counts[LY.CT_N_PAIRS]):
        pi = np.zeros((sim.contacts.pair_capacity, 2), np.int32)
        pf = np.zeros((sim.contacts.pair_capacity, EXPORT_WIDTH), real)
        half = int(counts[LY.CT_PAIR_HALF])
        base, spare = sim.contacts.pair_region(world, half).start, sim.contacts.pair_region(world, 1 - half).start
        npair = _export_pair_contacts(md, st, ct, world, base, spare, sim.dt, pi, pf, ksum)
        dev_a.append(pi[:npair, 0].astype(np.int64))
        dev_b.append(pi[:npair, 1].astype(np.int64))
        wall_of.append(np.full(npair, -1, np.int64))
        data.append(pf[:npair].astype(float))
    dev_a, dev_b, wall_of, data = (np.concatenate(x) for x in (dev_a, dev_b, wall_of, data))
    to_frame = m.device_to_frame_index(hull_only=not all_spheres)
    body_of = m.sph_info_np[:, 0].astype(np.int64)
    on_wall = wall_of >= 0
    pair = ~on_wall & (dev_b >= 0)  # sphere on sphere; the rest of the body contacts: a sphere on a solid
    sphere, body = to_frame[dev_a], body_of[dev_a]
    other = np.where(pair, to_frame[np.maximum(dev_b, 0)], -1)
    other_body = np.where(pair, body_of[np.maximum(dev_b, 0)], np.where(on_wall, -1, -1 - dev_b))
    normal = data[:, _NRM:_NRM + 3]
    fn = data[:, _FE] + data[:, _FD]
    shear = data[:, _FS:_FS + 3] + data[:, _FSD:_FSD + 3]
    total = fn[:, None] * normal + shear
    force = np.zeros_like(centers)
    np.add.at(force, sphere, total)
    np.add.at(force, other[pair], -total[pair])

    corners, wvel = [], []
    span = plane_size or 2.0 * float(np.max(np.abs(pos)) + np.max(m.bound_radius))
    for w, wall in enumerate(m.walls):
        o = wall.origin + ws[w, 0:3]
        hu, hv = wall.half_extents if wall.half_extents is not None else (span / 2, span / 2)
        u, v = wall.u_axis, wall.v_axis
        corners.append([o - hu * u - hv * v, o + hu * u - hv * v, o + hu * u + hv * v, o - hu * u + hv * v])
        wvel.append(ws[w, LY.WS_VEL_NOW:LY.WS_VEL_NOW + 3])
    return Frame(
        t=st_.time, centers=centers, radii=radii, clump_id=cid, velocity=velocity, angular_velocity=omg[cid],
        contact_force=force, wall_corners=np.asarray(corners, float).reshape(-1, 4, 3),
        wall_velocity=np.asarray(wvel, float).reshape(-1, 3), contact_point=data[:, _XC:_XC + 3],
        contact_normal=normal, contact_sphere=sphere, contact_wall=np.where(on_wall, wall_of, -1), contact_fn=fn,
        contact_shear=shear, clump_position=pos, clump_quaternion=quat, clump_velocity=vel, clump_omega=omg,
        contact_other=other, contact_body=body, contact_other_body=other_body, contact_overlap=data[:, _OVL],
        contact_fn_dashpot=data[:, _FD].copy(), contact_shear_dashpot=data[:, _FSD:_FSD + 3].copy(),
        contact_shear_stiffness=data[:, _KS].copy(), contact_slip_work=data[:, _SLIP].copy(),
        contact_stiffness_work=data[:, _WK].copy())
