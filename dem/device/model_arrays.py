"""The models of W independent worlds, concatenated into one set of device arrays.

Each world is a :class:`dem.model.Model` (host arrays, world-local indices). Its clumps, hull spheres,
clusters, walls and probe slots are laid end to end after those of the worlds before it, with every index
stored on the device made global (clump of a sphere, first sphere of a cluster, probe slots); the few
per-world tables (material pairs, interface map, wall history) are addressed through the world's offsets in
``world_info`` (layout.WI_*). Worlds never share an item, so a kernel handles world w from its row of
``world_info`` alone — the MuJoCo Warp ``worldid`` / Newton ``world`` index, carried here as offsets.

Device arrays (n_h hull spheres, n_g clusters, n_c clumps, n_w walls over all worlds; W worlds):
    sph_body      (n_h,) vec4   sphere centre relative to its clump's centre of mass, body frame [m]; radius [m]
    sph_info      (n_h,) ivec4  clump (global), material (world-local), probe slot layer a, layer b (global, −1)
    cluster_body  (n_g,) vec4   cluster centre relative to the centre of mass, body frame [m]; bounding radius [m]
    cluster_range (n_g,) ivec4  first hull sphere (global), sphere count, clump (global), pairs of clusters of
                                different clumps (g', h), g' < h, that come before this cluster in its world
    clump_param   (n_c,) vec15  layout.CP_*: mass [kg], bounding radius [m], local damping [-], fixed-DOF mask,
                                inertia about the centre of mass, body frame [kg·m²], first row of its solid in
                                ``solid`` (global; −1: none), material (world-local)
    solid         (n_s,) vec4   the bodies' solids for contacts between bodies, body after body
                                (dem.model.contact_solid.device_rows; physics/contact_solid.py)
    wall_geom     (n_w,) vec16  layout.WG_*: origin [m], normal, u, v (unit), half lengths [m], material
                                (world-local), table Δt [s]
    wall_vel      (n_w, n_t) vec3 prescribed wall velocity samples [m/s] (short tables hold their last sample)
    mat_pair      (Σ n_m²,) vecP material-pair parameters, world by world (materials.PAIR_*)
    iface_map     (Σ n_c(n_w+n_c),) i32 interface probe slot of (clump, wall or clump), −1 if none
    world_info    (W, layout.WORLD_INFO_WIDTH) i32 offsets and counts of each world
    world_param   (W, layout.WORLD_PARAM_WIDTH) real gravity [m/s²], skins [m], sleep thresholds
"""

from __future__ import annotations

import numpy as np

from ..model.materials import PAIR_PARAM_COUNT, PAIR_SHARED
from ..model.model import Model
from . import layout as LY
from . import runtime
from .kernel_lang import ti


class DeviceModel:
    """Concatenated device copy of the models of W worlds (see the module docstring).

    Args:
        models: one finalized :class:`Model` per world.
        skins, pair_skins: Verlet skin of each world's wall-candidate list and body-pair list [m].
        sleep_speed, sleep_steps: sleep thresholds, per world (integrator.py) [m/s], [steps].
    """

    def __init__(self, models: list[Model], *, skins, pair_skins, sleep_speed, sleep_steps):
        if not models:
            raise ValueError("a world batch needs at least one model")
        self.models = list(models)
        self.world_count = len(models)
        counts = np.array([[m.clump_count, m.hull_count, m.cluster_count, m.wall_count, m.material_count,
                            m.slot_count] for m in models], np.int64)
        starts = np.zeros((self.world_count + 1, counts.shape[1]), np.int64)
        np.cumsum(counts, axis=0, out=starts[1:])
        self.clump_start, self.hull_start, self.cluster_start = starts[:, 0], starts[:, 1], starts[:, 2]
        self.wall_start, self.slot_start = starts[:, 3], starts[:, 5]
        # wall candidates and wall history: one slot per (hull sphere, wall) of the world
        cand = np.array([m.hull_count * max(m.wall_count, 1) for m in models], np.int64)
        self.cand_start = np.concatenate([[0], np.cumsum(cand)])
        iface = np.array([m.clump_count * (m.wall_count + m.clump_count) for m in models], np.int64)
        self.iface_start = np.concatenate([[0], np.cumsum(iface)])
        mats = np.array([m.material_count ** 2 for m in models], np.int64)
        self.mat_start = np.concatenate([[0], np.cumsum(mats)])
        self.clump_count = int(self.clump_start[-1])
        self.hull_count = int(self.hull_start[-1])
        self.wall_count = int(self.wall_start[-1])
        self.slot_count = int(self.slot_start[-1])
        self.cand_capacity = int(self.cand_start[-1])
        self.world_of_clump = np.repeat(np.arange(self.world_count), counts[:, 0])

        info = np.zeros((self.world_count, LY.WORLD_INFO_WIDTH), np.int64)
        info[:, LY.WI_CLUMP0], info[:, LY.WI_NCLUMP] = self.clump_start[:-1], counts[:, 0]
        info[:, LY.WI_HULL0], info[:, LY.WI_NHULL] = self.hull_start[:-1], counts[:, 1]
        info[:, LY.WI_CLUSTER0], info[:, LY.WI_NCLUSTER] = self.cluster_start[:-1], counts[:, 2]
        info[:, LY.WI_WALL0], info[:, LY.WI_NWALL] = self.wall_start[:-1], counts[:, 3]
        info[:, LY.WI_MAT0], info[:, LY.WI_NMAT] = self.mat_start[:-1], counts[:, 4]
        info[:, LY.WI_CAND0] = self.cand_start[:-1]
        info[:, LY.WI_IFACE0] = self.iface_start[:-1]
        info[:, LY.WI_SLOT0], info[:, LY.WI_NSLOT] = self.slot_start[:-1], counts[:, 5]
        info[:, LY.WI_NCLUSTER_PAIRS] = [cluster_pair_prefix(m)[-1] for m in models]
        self.world_info_np = info.astype(np.int32)
        param = np.zeros((self.world_count, LY.WORLD_PARAM_WIDTH))
        param[:, LY.WP_GX:LY.WP_GZ + 1] = np.stack([m.gravity for m in models])
        param[:, LY.WP_SKIN] = np.broadcast_to(np.asarray(skins, float), self.world_count)
        param[:, LY.WP_PAIR_SKIN] = np.broadcast_to(np.asarray(pair_skins, float), self.world_count)
        param[:, LY.WP_SLEEP_SPEED] = np.broadcast_to(np.asarray(sleep_speed, float), self.world_count)
        param[:, LY.WP_SLEEP_STEPS] = np.broadcast_to(np.asarray(sleep_steps, float), self.world_count)
        shared = np.array([uses_shared_mass(m) for m in models])
        param[:, LY.WP_SHARED_MASS] = shared
        self.world_param_np = param
        # interface stiffness sums of the worlds under damping_mass "shared", after the ledger's columns
        # (interface_stiffness.py): n_c (n_w + n_c) per world, the widest world's
        self.kface_width = int(max((iface[k] for k in range(self.world_count) if shared[k]), default=0))
        self._upload()

    # ------------------------------------------------------------------
    def _global_host_arrays(self) -> dict[str, np.ndarray]:
        """The models' host arrays with their indices made global, concatenated."""
        out: dict[str, list] = {k: [] for k in ("sph_body", "sph_info", "cluster_body", "cluster_range",
                                               "clump_param", "wall_geom", "mat_pair", "iface_map", "solid")}
        solid0 = 0
        for k, m in enumerate(self.models):
            c0, h0, s0 = int(self.clump_start[k]), int(self.hull_start[k]), int(self.slot_start[k])
            info = m.sph_info_np.astype(np.int64).copy()
            info[:, 0] += c0
            info[:, 2:4] = np.where(info[:, 2:4] >= 0, info[:, 2:4] + s0, -1)
            rng = m.cluster_range_np.astype(np.int64).copy()
            rng[:, 3] = cluster_pair_prefix(m)[:-1]
            rng[:, 0] += h0
            rng[:, 2] += c0
            out["sph_body"].append(m.sph_body_np)
            out["sph_info"].append(info)
            out["cluster_body"].append(m.cluster_body_np)
            out["cluster_range"].append(rng)
            row = m.clump_param_np[:, 4]
            out["clump_param"].append(np.column_stack([m.clump_param_np[:, :4], m.inertia.reshape(-1, 9),
                                                       np.where(row >= 0, row + solid0, -1.0),
                                                       m.clump_param_np[:, 5]]))
            out["solid"].append(m.solid_rows_np)
            solid0 += len(m.solid_rows_np)
            out["wall_geom"].append(np.column_stack([m.wall_frame_np[: m.wall_count].reshape(-1, 12),
                                                     m.wall_info_np[: m.wall_count]]))
            out["mat_pair"].append(m.pair_np.reshape(-1, PAIR_PARAM_COUNT))
            out["iface_map"].append(np.where(m.iface_map_np >= 0, m.iface_map_np + s0, -1))
        arrays = {k: np.concatenate(v) if v else np.zeros(0) for k, v in out.items()}
        n_t = max([1] + [m.wall_vel_np.shape[1] for m in self.models if m.wall_count])
        vel = np.zeros((max(self.wall_count, 1), n_t, 3))
        for k, m in enumerate(self.models):
            v = m.wall_vel_np[: m.wall_count]
            w0 = int(self.wall_start[k])
            vel[w0: w0 + m.wall_count, : v.shape[1]] = v
            vel[w0: w0 + m.wall_count, v.shape[1]:] = v[:, -1:]  # hold the last sample
        arrays["wall_vel"] = vel
        return arrays

    def _upload(self):
        real = runtime.real()
        vec = lambda n: ti.types.vector(n, real)  # noqa: E731
        a = self._global_host_arrays()
        self.sph_body = _nd(vec(4), a["sph_body"])
        self.sph_info = _nd(ti.types.vector(4, ti.i32), a["sph_info"])
        self.cluster_body = _nd(vec(4), a["cluster_body"])
        self.cluster_range = _nd(ti.types.vector(4, ti.i32), a["cluster_range"])
        self.clump_param = _nd(vec(LY.CLUMP_PARAM_WIDTH), a["clump_param"])
        self.wall_geom = _nd(vec(LY.WALL_GEOM_WIDTH), a["wall_geom"].reshape(-1, LY.WALL_GEOM_WIDTH))
        self.wall_vel = _nd(vec(3), a["wall_vel"])
        self.mat_pair = _nd(vec(PAIR_PARAM_COUNT), a["mat_pair"])
        self.iface_map = _nd(ti.i32, a["iface_map"] if a["iface_map"].size else np.full(1, -1))
        self.solid = _nd(vec(4), a["solid"].reshape(-1, 4))
        self.world_info = _nd(ti.i32, self.world_info_np)
        self.world_param = _nd(real, self.world_param_np)
        self.device_bytes = int(sum(x.size * x.itemsize for x in a.values())) + self.world_info_np.nbytes \
            + self.world_param_np.nbytes

    def set_world_params(self, column: int, values) -> None:
        """Change one world_param column (layout.WP_*) for every world (whole-array upload: see runtime)."""
        self.world_param_np[:, column] = np.broadcast_to(np.asarray(values, float), self.world_count)
        self.world_param.from_numpy(self.world_param_np.astype(_np_real()))


def cluster_pair_prefix(model: Model) -> np.ndarray:
    """For each cluster g of a model, the pairs (g', h) of clusters of different clumps with g' < h that come
    before g (g' < g), and the total last; shape (n_g + 1,). Clusters are numbered clump by clump, so
    cluster g pairs with every cluster after the last one of its clump."""
    clump = model.cluster_range_np[:, 2].astype(np.int64)
    n = len(clump)
    end_of_clump = np.searchsorted(clump, clump, side="right")  # first cluster of the next clump
    partners = n - end_of_clump
    out = np.zeros(n + 1, np.int64)
    np.cumsum(partners, out=out[1:])
    if out[-1] >= 2**31:
        raise ValueError(f"{out[-1]} cluster pairs in one world: more than the device pair search can number")
    return out


def _np_real():
    return np.float64 if runtime.precision() == "f64" else np.float32


def _nd(dtype, data: np.ndarray):
    """Device ndarray of `dtype` holding `data` (an empty table gets one zero row: Taichi needs one)."""
    data = np.asarray(data)
    shape = data.shape[: data.ndim - getattr(dtype, "ndim", 0)] or (1,)
    arr = ti.ndarray(dtype, tuple(max(n, 1) for n in shape))
    if data.size:
        prim = getattr(dtype, "dtype", dtype)
        np_type = np.int32 if prim == ti.i32 else (np.float32 if prim == ti.f32 else np.float64)
        arr.from_numpy(data.astype(np_type))
    else:
        arr.fill(0)
    return arr


def uses_shared_mass(model) -> bool:
    """Whether a material pair of the model shares its dashpot mass (damping_mass "shared")."""
    return bool(np.any(model.pair_np.reshape(-1, PAIR_PARAM_COUNT)[:, PAIR_SHARED] > 0.5))
