"""Snapshots of a simulation for visualisation: world sphere positions and velocities, walls, and the
contact network (one entry per touching hull-sphere–wall pair).

Contact forces in a snapshot are the elastic parts (normal Hertz/linear spring force and the stored
Mindlin shear force) at the snapshot's time; dashpot forces depend on the step's velocity update and are
left out.
"""

from dataclasses import dataclass

import numpy as np
import taichi as ti

from . import layout as LY
from .contact_law import normal_force
from .solver import ContactArgs, ModelArgs, StateArgs
from .wall_contact import plane_distance, wall_frame


@dataclass
class Frame:
    """One snapshot; every array is world frame, SI units.

    Attributes:
        t: time [s].
        centers, radii, clump_id: spheres (hull spheres only unless asked for all) [m], [m], index.
        velocity: sphere-centre velocities v + ω × r [m/s], shape (n, 3).
        angular_velocity: the sphere's clump's ω [rad/s], shape (n, 3).
        contact_force: sum of the elastic contact forces on each sphere [N], shape (n, 3).
        wall_corners: (n_w, 4, 3) corners of each facet (infinite planes: a square of side ``plane_size``).
        wall_velocity: (n_w, 3) [m/s].
        contact_point, contact_normal: (n_c, 3) contact points [m] and normals (wall → sphere).
        contact_sphere, contact_wall: (n_c,) sphere index (in this frame's sphere arrays) and wall index
            (−1 for a contact between two bodies' spheres).
        contact_other: (n_c,) for contacts between bodies, the other sphere's index (−1 for wall contacts);
            the forces are those on contact_sphere.
        contact_fn, contact_fs: (n_c,) normal and shear force magnitudes [N].
        clump_position, clump_quaternion, clump_velocity, clump_omega: per clump.
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
    contact_fs: np.ndarray
    clump_position: np.ndarray
    clump_quaternion: np.ndarray
    clump_velocity: np.ndarray
    clump_omega: np.ndarray
    contact_other: np.ndarray | None = None


@ti.kernel
def _export_wall_contacts(md: ModelArgs, st: StateArgs, ct: ContactArgs, w: ti.i32, out_i: ti.types.ndarray(),
                          out_f: ti.types.ndarray()) -> ti.i32:
    wd = LY.load_world(md, w)
    n_out = 0
    ti.loop_config(serialize=True)
    for k in range(ct.counts[w, LY.CT_N_CAND]):
        pair = ct.cand[wd.cand0 + k]
        i = pair[0]
        wall = pair[1]
        c = md.sph_info[i][0]
        b = md.sph_body[i]
        x = st.pos[c] + st.rot[c] @ ti.Vector([b[0], b[1], b[2]])
        o, n, u, v, hu, hv = wall_frame(md, st, wall)
        dist, normal, valid = plane_distance(x, o, n, u, v, hu, hv)
        overlap = b[3] - dist
        if valid == 1 and overlap > 0.0 and dist > -b[3]:
            mat = LY.material_pair(md, wd, md.sph_info[i][1], ti.cast(md.wall_geom[wall][LY.WG_MATERIAL], ti.i32))
            fe, _fd, _kn, _ks, _en, _cs, _cn = normal_force(mat, b[3], LY.clump_mass(md, c), overlap, 0.0, 1.0)
            hs = ct.hist[LY.wall_history_index(wd, i, wall)]
            fs = ti.Vector([hs[0], hs[1], hs[2]])
            xc = x - normal * (b[3] - 0.5 * overlap)
            out_i[n_out, 0] = i - wd.hull0
            out_i[n_out, 1] = wall - wd.wall0
            f = fe * normal + fs
            for j in ti.static(range(3)):
                out_f[n_out, j] = xc[j]
                out_f[n_out, 3 + j] = normal[j]
                out_f[n_out, 8 + j] = f[j]
            out_f[n_out, 6] = fe
            out_f[n_out, 7] = fs.norm()
            n_out += 1
    return n_out


@ti.kernel
def _export_pair_contacts(md: ModelArgs, st: StateArgs, ct: ContactArgs, w: ti.i32, base: ti.i32,
                          out_i: ti.types.ndarray(), out_f: ti.types.ndarray()) -> ti.i32:
    wd = LY.load_world(md, w)
    n_out = 0
    ti.loop_config(serialize=True)
    for k in range(ct.counts[w, LY.CT_N_PAIRS]):
        pair = ct.pairs[base + k]
        i = pair[0]
        j = pair[1]
        a = md.sph_info[i][0]
        b = md.sph_info[j][0]
        bi = md.sph_body[i]
        bj = md.sph_body[j]
        xi = st.pos[a] + st.rot[a] @ ti.Vector([bi[0], bi[1], bi[2]])
        xj = st.pos[b] + st.rot[b] @ ti.Vector([bj[0], bj[1], bj[2]])
        d = xi - xj
        dist = d.norm()
        overlap = bi[3] + bj[3] - dist
        if overlap > 0.0 and dist > 0.0:
            n = d / dist
            ma = LY.clump_mass(md, a)
            mb = LY.clump_mass(md, b)
            r_eff = 2.0 * bi[3] * bj[3] / (bi[3] + bj[3])
            mat = LY.material_pair(md, wd, md.sph_info[i][1], md.sph_info[j][1])
            fe, _fd, _kn, _ks, _en, _cs, _cn = normal_force(mat, r_eff, ma * mb / (ma + mb), overlap, 0.0, 1.0)
            hs = ct.pair_hist[base + k]
            fs = ti.Vector([hs[0], hs[1], hs[2]])
            xc = xj + n * (bj[3] - 0.5 * overlap)
            f = fe * n + fs
            out_i[n_out, 0] = i - wd.hull0
            out_i[n_out, 1] = j - wd.hull0
            for q in ti.static(range(3)):
                out_f[n_out, q] = xc[q]
                out_f[n_out, 3 + q] = n[q]
                out_f[n_out, 8 + q] = f[q]
            out_f[n_out, 6] = fe
            out_f[n_out, 7] = fs.norm()
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

    # contacts
    bufs = getattr(sim, "_snapshot_buffers", None)
    if bufs is None:
        cap = max(sim.contacts.capacity, 1)
        real = np.float64 if st_._np() == np.float64 else np.float32
        bufs = sim._snapshot_buffers = (np.zeros((cap, 2), np.int32), np.zeros((cap, 11), real))
    out_i, out_f = bufs
    md, st, ct, _dg = sim._packs()
    n = _export_wall_contacts(md, st, ct, world, out_i, out_f)
    pairs, data = out_i[:n].copy(), out_f[:n].astype(float)
    to_frame = m.device_to_frame_index(hull_only=not all_spheres)
    sphere = to_frame[pairs[:, 0]] if n else np.zeros(0, int)
    wall_of = pairs[:, 1].astype(int)
    other = np.full(n, -1)
    counts = sim.contacts.counters()[world]
    if m.clump_count > 1 and int(counts[LY.CT_N_PAIRS]):
        pi = np.zeros((sim.contacts.pair_capacity, 2), np.int32)
        pf = np.zeros((sim.contacts.pair_capacity, 11), out_f.dtype)
        base = sim.contacts.pair_region(world, int(counts[LY.CT_PAIR_HALF])).start
        npair = _export_pair_contacts(md, st, ct, world, base, pi, pf)
        sphere = np.concatenate([sphere, to_frame[pi[:npair, 0]]])
        other = np.concatenate([other, to_frame[pi[:npair, 1]]])
        wall_of = np.concatenate([wall_of, np.full(npair, -1)])
        data = np.concatenate([data, pf[:npair].astype(float)])
    force = np.zeros_like(centers)
    if len(sphere):
        np.add.at(force, sphere, data[:, 8:11])
        pair_rows = other >= 0
        np.add.at(force, other[pair_rows], -data[pair_rows, 8:11])

    corners, wvel = [], []
    span = plane_size or 2.0 * float(np.max(np.abs(pos)) + np.max(m.bound_radius))
    for w, wall in enumerate(m.walls):
        o = wall.origin + ws[w, 0:3]
        hu, hv = wall.half_extents if wall.half_extents is not None else (span / 2, span / 2)
        u, v = wall.u_axis, wall.v_axis
        corners.append([o - hu * u - hv * v, o + hu * u - hv * v, o + hu * u + hv * v, o - hu * u + hv * v])
        wvel.append(ws[w, 7:10])
    return Frame(
        t=st_.time, centers=centers, radii=radii, clump_id=cid, velocity=velocity, angular_velocity=omg[cid],
        contact_force=force, wall_corners=np.asarray(corners, float).reshape(-1, 4, 3),
        wall_velocity=np.asarray(wvel, float).reshape(-1, 3), contact_point=data[:, 0:3],
        contact_normal=data[:, 3:6], contact_sphere=sphere, contact_wall=wall_of,
        contact_fn=data[:, 6], contact_fs=data[:, 7], clump_position=pos, clump_quaternion=quat, clump_velocity=vel,
        clump_omega=omg, contact_other=other)
