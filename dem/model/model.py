"""Static description of a simulation: clumps (sphere templates, mass properties), walls, materials,
and the sphere groups and interfaces that probes watch. Built once by :class:`ModelBuilder`, then
:meth:`ModelBuilder.finalize` copies it to the device.

Frames: the world has gravity along −z by default. Each clump's body frame is its template frame
moved to the centre of mass; poses are (centre of mass [m], unit quaternion body→world).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .clump import ClumpTemplate, MassProperties
from .contact_solid import contact_solid, device_rows
from .materials import PAIR_PARAM_COUNT, Material, mix, pair_vector
from .walls import Wall, WallMotion, make_wall

FIX_X, FIX_Y, FIX_Z, FIX_RX, FIX_RY, FIX_RZ = (1 << i for i in range(6))
# Hull spheres are grouped in body-frame cells of this many smallest radii; a neighbour rebuild tests a
# cluster's bounding sphere before its spheres, so it costs in proportion to what is near a wall.
CLUSTER_CELL_RADII = 8.0
JOINTS = ("solid", "spheres")  # how two bodies meet (ModelBuilder)
# A hull sphere of a body must reach the solid it stands for (edge-true packings centre their outer rows on the
# side faces, dem/model/box_clump.py, so spheres may stick out of it, never lie apart from it): its gap to the solid
# may be this fraction of the template's size (round-off) [-]
SOLID_TOLERANCE = 1e-6
_FIX_NAMES = {"x": FIX_X, "y": FIX_Y, "z": FIX_Z, "rx": FIX_RX, "ry": FIX_RY, "rz": FIX_RZ}


def rotation_matrix(orientation) -> np.ndarray:
    """3×3 rotation from a quaternion (w, x, y, z), a rotation vector (3,) [rad] or a matrix."""
    o = np.asarray(orientation, float)
    if o.shape == (3, 3):
        return o
    if o.shape == (4,):
        return quat_to_matrix(o / np.linalg.norm(o))
    if o.shape == (3,):
        return quat_to_matrix(quat_from_rotvec(o))
    raise ValueError(f"orientation must be a quaternion (4,), rotation vector (3,) or matrix (3, 3), got {o.shape}")


def quat_from_rotvec(phi) -> np.ndarray:
    phi = np.asarray(phi, float)
    ang = np.linalg.norm(phi)
    if ang == 0:
        return np.array([1.0, 0.0, 0.0, 0.0])
    ax = phi / ang
    return np.concatenate([[np.cos(ang / 2)], np.sin(ang / 2) * ax])


def quat_to_matrix(q) -> np.ndarray:
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def matrix_to_quat(m) -> np.ndarray:
    m = np.asarray(m, float)
    tr = np.trace(m)
    if tr > 0:
        s = np.sqrt(tr + 1.0) * 2
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif m[1, 1] > m[2, 2]:
        s = np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    q = np.array(q)
    return q / np.linalg.norm(q)


@dataclass
class ClumpSpec:
    """One rigid body as the builder holds it (host side)."""

    name: str
    template: ClumpTemplate
    material: int
    mass_props: MassProperties  # used by the dynamics
    mass_from: str
    position: np.ndarray  # centre of mass [m]
    rotation: np.ndarray  # body → world
    velocity: np.ndarray
    angular_velocity: np.ndarray
    fixed: int
    local_damping: float
    report: dict = field(default_factory=dict)

    @property
    def offsets(self) -> np.ndarray:
        """Sphere centres relative to the centre of mass, body frame [m]."""
        return self.template.centers - self.mass_props.center


@dataclass
class SphereGroup:
    """Spheres of one clump whose contact forces a probe sums (slot range [slot, slot + bins))."""

    name: str
    clump: int
    slot: int
    bins: int
    layer: int


class ModelBuilder:
    """Collects materials, clumps and walls, then :meth:`finalize` makes a :class:`Model`.

    Args:
        gravity: acceleration of gravity [m/s²], default (0, 0, −9.81).
        joints: how two bodies meet (docs/joints.md): ``"solid"`` (default) — the hull spheres of each meet the
            other's solid (its box, prism or drum; dem.model.contact_solid) as they meet a wall, one contact per
            sphere: when both bodies have a solid, the smaller flat face's spheres (of two of one size, the first
            body's; edges and corners half from each side), when one has, the other's spheres; ``"spheres"`` —
            hull sphere against hull sphere (the joint then depends on how the two packings register), the
            engine's joint before issue 29, kept to compare. Bodies without a solid (composed of a template with
            none) meet sphere to sphere either way.
    """

    def __init__(self, *, gravity=(0.0, 0.0, -9.81), joints: str = "solid"):
        if joints not in JOINTS:
            raise ValueError(f"joints must be one of {', '.join(JOINTS)}, got {joints!r}")
        self.joints = joints
        self.gravity = np.asarray(gravity, float).reshape(3)
        self.materials: list[Material] = []
        self.pairs: dict[tuple[int, int], Material] = {}
        self.clumps: list[ClumpSpec] = []
        self.walls: list[Wall] = []
        self.groups: list[SphereGroup] = []
        self._group_tags: dict[int, list[np.ndarray]] = {}  # clump -> [tag layer a, tag layer b]
        self.interfaces: list[tuple[str, int, str, int]] = []  # (name, clump, "wall"|"clump", index)
        self.slot_count = 0

    # ------------------------------------------------------------------ materials
    def material_index(self, material: Material) -> int:
        for i, m in enumerate(self.materials):
            if m == material:
                return i
        self.materials.append(material.validated())
        return len(self.materials) - 1

    def set_pair(self, a: Material, b: Material, contact: Material) -> None:
        """Use `contact`'s parameters for every contact between materials a and b."""
        ia, ib = self.material_index(a), self.material_index(b)
        self.pairs[(ia, ib)] = self.pairs[(ib, ia)] = contact.validated()

    # ------------------------------------------------------------------ bodies
    def add_clump(self, template: ClumpTemplate, *, material: Material, position=(0.0, 0.0, 0.0),
                  orientation=(1.0, 0.0, 0.0, 0.0), velocity=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0),
                  mass: float | None = None, density: float | None = None, mass_from: str = "solid",
                  sphere_density: float | None = None, fixed: str | int = 0, local_damping: float = 0.0,
                  name: str = "", position_is_template_origin: bool = True) -> int:
        """Add a rigid body; returns its index.

        Args:
            template: the clump's spheres.
            material: contact material of its surface.
            position: where the template origin goes [m] (or the centre of mass if
                ``position_is_template_origin`` is False).
            orientation: quaternion (w, x, y, z), rotation vector [rad] or matrix, body → world.
            velocity, angular_velocity: initial v [m/s] and ω [rad/s] (world frame), taken as the
                values at t = −Δt/2 of the centred scheme.
            mass_from: ``"solid"`` (mass or density of the solid shape, the real body) or ``"spheres"``
                (004 Eq. 13–16 with ``sphere_density``, the paper's fictitious-density approach).
            mass, density: of the solid [kg], [kg/m³] (density defaults to the material's).
            sphere_density: density of the spheres for the sphere-based properties [kg/m³]; both sets
                of properties are computed when possible and kept in the model's report.
            fixed: DOFs held at their initial velocity: a string such as ``"x,z,ry"`` or a bitmask.
            local_damping: PFC local (non-viscous) damping coefficient in [0, 1), default 0 (off).
        """
        if mass_from not in ("solid", "spheres"):
            raise ValueError(f"mass_from must be 'solid' or 'spheres', got {mass_from!r}")
        if mass is not None and not (np.isfinite(mass) and mass > 0):
            raise ValueError(f"mass must be > 0 [kg], got {mass}")
        if not 0.0 <= local_damping < 1.0:
            raise ValueError(f"local_damping must be in [0, 1), got {local_damping}")
        imat = self.material_index(material)
        report: dict = {"sphere_count": template.sphere_count, "hull_sphere_count": template.hull_count,
                        "sphere_volume_m3": template.sphere_volume()}
        solid_props = sphere_props = None
        if template.solid is not None and (mass is not None or (density or material.density) > 0):
            solid_props = template.mass_from_solid(mass=mass, density=density or material.density)
            report["solid"] = solid_props.as_dict() | {"volume_m3": template.solid.volume}
        sd = sphere_density if sphere_density is not None else (density or material.density)
        if sd and sd > 0:
            sphere_props = template.mass_from_spheres(sd)
            report["spheres"] = sphere_props.as_dict() | {"density": sd}
        props = solid_props if mass_from == "solid" else sphere_props
        if props is None and mass_from == "spheres" and mass is not None:
            # spheres' distribution scaled to a given mass
            unit = template.mass_from_spheres(1.0)
            props = MassProperties(mass, unit.center, unit.inertia * (mass / unit.mass))
            report["spheres"] = props.as_dict()
        if props is None:
            need = "mass or density (and a template with a solid shape)" if mass_from == "solid" else \
                "sphere_density (or density) > 0"
            raise ValueError(f"clump {name or len(self.clumps)}: mass_from={mass_from!r} needs {need}")
        report["used"] = mass_from
        rot = rotation_matrix(orientation)
        pos = np.asarray(position, float).reshape(3)
        if position_is_template_origin:
            pos = pos + rot @ props.center
        self.clumps.append(ClumpSpec(
            name=name or f"clump{len(self.clumps)}", template=template, material=imat, mass_props=props,
            mass_from=mass_from, position=pos, rotation=rot, velocity=np.asarray(velocity, float).reshape(3),
            angular_velocity=np.asarray(angular_velocity, float).reshape(3), fixed=_parse_fixed(fixed),
            local_damping=float(local_damping), report=report))
        self._group_tags[len(self.clumps) - 1] = [np.full(template.sphere_count, -1, np.int32),
                                                  np.full(template.sphere_count, -1, np.int32)]
        return len(self.clumps) - 1

    def place_on(self, upper: int, lower: int, *, register: bool = True, gap: float = 0.0):
        """Put clump `upper` on clump `lower` (both already added): shift it horizontally by less than one
        sphere spacing so that its bottom lattice is in register with `lower`'s top lattice (the most
        touching sphere pairs), then move it along −gravity until the two just touch, plus `gap` [m].

        Add the upper body roughly where it should stand (any height, horizontally over the lower one);
        this finishes the job. Returns a :class:`dem.model.placement.Placement` (the shift [m] and the number of
        touching sphere pairs). Out of register, a body rests on its few best-aligned pairs: see
        dem.model.placement. Under joints "solid" (the default) a body with a solid meets the other's face whatever
        the lattices: it is only lowered until it touches (dem.model.body_contacts.seat), its contacts counted as
        the step will see them.
        """
        from .body_contacts import between, seat, solid_of
        from .placement import SUPPORT_GAP, Placement, place

        self._check_clump(upper)
        self._check_clump(lower)
        if upper == lower:
            raise ValueError(f"place_on needs two different clumps, got upper = lower = {upper}")
        if not (np.isfinite(gap) and gap >= 0):
            raise ValueError(f"gap must be >= 0 [m], got {gap}")
        if not np.linalg.norm(self.gravity) > 0:
            raise ValueError("place_on needs gravity to tell up from down (ModelBuilder(gravity=...))")
        lo, up = self.clumps[lower], self.clumps[upper]
        solid_lo, solid_up = solid_of(lo, self.joints), solid_of(up, self.joints)
        if solid_lo is not None or solid_up is not None:
            shift = seat(lo, up, -self.gravity, solid_lo, solid_up, gap=gap)
            return Placement(shift, len(between(lo, up, solid_lo, solid_up, gap=SUPPORT_GAP)), 1)
        return place(lo, up, -self.gravity, register=register, gap=gap)

    def add_wall(self, origin, normal, *, material: Material, u_axis=None, size=None,
                 motion: WallMotion | None = None, name: str = "") -> int:
        """Add a plane (or a facet of ``size`` = (along u, along v) [m]); returns its index."""
        self.material_index(material)
        self.walls.append(make_wall(origin, normal, material=material, u_axis=u_axis, size=size, motion=motion,
                                    name=name or f"wall{len(self.walls)}"))
        return len(self.walls) - 1

    # ------------------------------------------------------------------ probes
    def add_sphere_group(self, name: str, clump: int, mask, *, bins=None, bin_count: int | None = None) -> int:
        """Sum contact forces over the spheres of `clump` selected by `mask` (template order).

        With ``bins`` (an int array, template order, −1 = none) the group has ``bin_count`` slots and each
        sphere's force goes to its bin (a force profile). Returns the first slot index.
        """
        self._check_clump(clump)
        mask = np.asarray(mask, bool)
        tags = self._group_tags[clump]
        layer = next((k for k in range(2) if np.all(tags[k][mask] < 0)), None)
        if layer is None:
            raise ValueError(f"sphere group {name!r}: spheres already belong to two groups")
        n = 1 if bins is None else int(bin_count)
        slot = self.slot_count
        if bins is None:
            tags[layer][mask] = slot
        else:
            b = np.asarray(bins, np.int32)
            sel = mask & (b >= 0)
            if np.any(b[sel] >= n):
                raise ValueError(f"sphere group {name!r}: bins must be < bin_count={n}")
            tags[layer][sel] = slot + b[sel]
        self.slot_count += n
        self.groups.append(SphereGroup(name, clump, slot, n, layer))
        return slot

    def add_interface(self, name: str, clump: int, *, wall: int | None = None, other: int | None = None) -> int:
        """Sum the contact forces that `clump` receives from a wall or another clump; returns its slot."""
        self._check_clump(clump)
        if (wall is None) == (other is None):
            raise ValueError("add_interface needs exactly one of wall= or other=")
        if wall is not None and not 0 <= wall < len(self.walls):
            raise ValueError(f"wall index must be in [0, {len(self.walls)}), got {wall}")
        if other is not None:
            self._check_clump(other)
        self.interfaces.append((name, clump, "wall" if wall is not None else "clump",
                                wall if wall is not None else other))
        self.slot_count += 1
        return self.slot_count - 1

    def _check_clump(self, c: int):
        if not 0 <= c < len(self.clumps):
            raise ValueError(f"clump index must be in [0, {len(self.clumps)}), got {c}")

    def finalize(self) -> Model:
        if not self.clumps:
            raise ValueError("a model needs at least one clump")
        return Model(self)


def _parse_fixed(fixed) -> int:
    if isinstance(fixed, int):
        if not 0 <= fixed < 64:
            raise ValueError(f"fixed bitmask must be in [0, 63], got {fixed}")
        return fixed
    mask = 0
    for tok in str(fixed).replace(" ", "").split(","):
        if not tok:
            continue
        if tok not in _FIX_NAMES:
            raise ValueError(f"fixed DOF must be among {sorted(_FIX_NAMES)}, got {tok!r}")
        mask |= _FIX_NAMES[tok]
    return mask


class Model:
    """Finalized model of one world: host arrays (NumPy), indices local to the world. The device copy is
    made by :class:`dem.device.model_arrays.DeviceModel`, which lays the models of many worlds end to end.

    Host arrays (n_h hull spheres, n_g clusters, n_c clumps, n_w walls, n_m materials):
        sph_body_np   (n_h, 4) sphere centre relative to the centre of mass, body frame [m]; radius [m]
        sph_info_np   (n_h, 4) clump index, material index, group slot (layer a), group slot (layer b) (−1: none)
        cluster_body_np (n_g, 4) cluster centre relative to the centre of mass, body frame [m]; bounding radius [m]
        cluster_range_np (n_g, 4) first hull sphere, sphere count, clump index, unused
        clump_param_np (n_c, 6) mass [kg], bounding radius [m], local damping [-], fixed-DOF bitmask
                                (x, y, z, rx, ry, rz), first row of its solid in solid_rows_np (−1: none), material
        solid_rows_np (n_s, 4) the bodies' solids for contacts between bodies (dem.model.contact_solid.device_rows)
        inertia       (n_c, 3, 3) inertia about the centre of mass, body frame [kg·m²]
        wall_frame_np (n_w, 4, 3) rows origin [m], normal, u, v (unit)
        wall_info_np  (n_w, 4) half length along u, along v [m] (0: infinite), material, table Δt [s]
        wall_vel_np   (n_w, n_t, 3) prescribed wall velocity samples [m/s]
        pair_np       (n_m, n_m, P) material-pair parameters (materials.PAIR_*)
        iface_map_np  (n_c·(n_w+n_c),) interface slot of (clump, wall or clump), −1 if none
    """

    def __init__(self, b: ModelBuilder):
        self.gravity = b.gravity.copy()
        self.materials = list(b.materials)
        self.clumps = list(b.clumps)
        self.walls = list(b.walls)
        self.groups = list(b.groups)
        self.interfaces = list(b.interfaces)
        self.slot_count = b.slot_count
        self.clump_count = len(self.clumps)
        self.wall_count = len(self.walls)
        self.material_count = len(self.materials)

        # hull spheres, sorted by clump and, within a clump, by cluster (a body-frame cell)
        body, info, self.hull_index = [], [], []
        cl_body, cl_range = [], []
        self.hull_start = np.zeros(self.clump_count + 1, np.int64)
        for c, cs in enumerate(self.clumps):
            h, off, rad, clusters = _hull_layout(cs.template, cs.mass_props.center)
            base = int(self.hull_start[c])
            for center_radius, a, n in clusters:
                cl_body.append(center_radius)
                cl_range.append([base + a, n, c, 0])
            body.append(np.column_stack([off, rad]))
            tags = b._group_tags[c]
            info.append(np.column_stack([np.full(len(h), c), np.full(len(h), cs.material), tags[0][h], tags[1][h]]))
            self.hull_index.append(h)
            self.hull_start[c + 1] = self.hull_start[c] + len(h)
        self.sph_body_np = np.concatenate(body)
        self.sph_info_np = np.concatenate(info).astype(np.int32)
        self.cluster_body_np = np.asarray(cl_body, float)
        self.cluster_range_np = np.asarray(cl_range, np.int32)
        self.cluster_count = len(cl_body)
        self.hull_count = int(self.sph_body_np.shape[0])
        self.ball_count = int(sum(cs.template.sphere_count for cs in self.clumps))

        self.mass = np.array([cs.mass_props.mass for cs in self.clumps])
        self.inertia = np.stack([cs.mass_props.inertia for cs in self.clumps])
        self.bound_radius = np.array([cs.template.bounding_radius(cs.mass_props.center) for cs in self.clumps])
        self.fixed = np.array([cs.fixed for cs in self.clumps], np.int32)
        self.min_radius = float(self.sph_body_np[:, 3].min())

        # material pairs
        nm = self.material_count
        pairs = np.zeros((nm, nm, PAIR_PARAM_COUNT))
        for i in range(nm):
            for j in range(nm):
                m = b.pairs.get((i, j)) or mix(self.materials[i], self.materials[j])
                pairs[i, j] = pair_vector(m)
        self.pair_np = pairs

        # walls
        nw = max(self.wall_count, 1)
        frame = np.zeros((nw, 4, 3))
        winfo = np.zeros((nw, 4))
        n_t = max([1] + [w.motion.velocity.shape[0] for w in self.walls if w.motion is not None])
        wvel = np.zeros((nw, n_t, 3))
        for k, w in enumerate(self.walls):
            frame[k] = w.frame()
            if w.half_extents is not None:
                winfo[k, 0:2] = w.half_extents
            winfo[k, 2] = self.materials.index(w.material)
            winfo[k, 3] = 1.0
            if w.motion is not None:
                v = w.motion.velocity
                wvel[k, : len(v)] = v
                wvel[k, len(v):] = v[-1]  # hold the last sample
                winfo[k, 3] = w.motion.dt
        self.wall_frame_np, self.wall_info_np, self.wall_vel_np = frame, winfo, wvel

        # interfaces
        n_other = self.wall_count + self.clump_count
        imap = np.full(self.clump_count * n_other, -1, np.int32)
        slot_of_iface = {}
        slot = self.slot_count - len(self.interfaces)
        for name, c, kind, idx in self.interfaces:
            col = idx if kind == "wall" else self.wall_count + idx
            imap[c * n_other + col] = slot
            slot_of_iface[name] = slot
            slot += 1
        self.iface_map_np = imap
        self.interface_slot = slot_of_iface

        # the solids other bodies' spheres meet (joints "solid"; none in a world of one body)
        self.joints = b.joints
        self.contact_solids = [None] * self.clump_count
        if self.joints == "solid" and self.clump_count > 1:
            self.contact_solids = [_checked_solid(cs) for cs in self.clumps]
        rows, self.solid_row = [np.zeros((0, 4))], np.full(self.clump_count, -1, np.int64)
        n_rows = 0
        for c, (cs, solid) in enumerate(zip(self.clumps, self.contact_solids)):
            if solid is not None:
                block = device_rows(solid, cs.mass_props.center)
                self.solid_row[c] = n_rows
                rows.append(block)
                n_rows += len(block)
        self.solid_rows_np = np.concatenate(rows)
        self.clump_param_np = np.column_stack([self.mass, self.bound_radius, [c.local_damping for c in self.clumps],
                                               self.fixed.astype(float), self.solid_row.astype(float),
                                               [float(c.material) for c in self.clumps]])

    def wall_velocity(self, w: int, t) -> np.ndarray:
        wall = self.walls[w]
        return np.zeros(np.shape(t) + (3,)) if wall.motion is None else wall.motion.at(t)

    def clump_report(self) -> list[dict]:
        return [{"name": c.name} | c.report for c in self.clumps]

    def _sphere_sets(self, hull_only: bool):
        """Per clump: body-frame offsets from the centre of mass and radii of its spheres (cached)."""
        key = "_sets_hull" if hull_only else "_sets_all"
        if getattr(self, key, None) is None:
            sets = []
            for cs in self.clumps:
                sel = cs.template.hull if hull_only else slice(None)
                sets.append((np.ascontiguousarray(cs.offsets[sel]), cs.template.radii[sel]))
            radii = np.concatenate([r for _o, r in sets])
            cid = np.concatenate([np.full(len(r), c) for c, (_o, r) in enumerate(sets)])
            setattr(self, key, (sets, radii, cid))
        return getattr(self, key)

    def world_spheres(self, pos: np.ndarray, rot: np.ndarray, *, hull_only: bool = False):
        """All sphere centres [m] and radii [m] in the world for clump poses (pos (n_c,3), rot (n_c,3,3)),
        in template order, clump after clump; with ``hull_only`` only the hull spheres."""
        sets, radii, cid = self._sphere_sets(hull_only)
        xs = [pos[c] + off @ rot[c].T for c, (off, _r) in enumerate(sets)]
        return np.concatenate(xs), radii, cid

    def device_to_frame_index(self, *, hull_only: bool) -> np.ndarray:
        """Map from device hull-sphere index to the sphere's index in :meth:`world_spheres` (cached)."""
        key = "_d2f_hull" if hull_only else "_d2f_all"
        if getattr(self, key, None) is None:
            out = np.empty(self.hull_count, np.int64)
            offset = 0
            for c, cs in enumerate(self.clumps):
                h = self.hull_index[c]  # template indices of the hull spheres, in device order
                seg = slice(self.hull_start[c], self.hull_start[c + 1])
                if hull_only:
                    # world_spheres lists hull spheres in template order
                    out[seg] = offset + np.searchsorted(np.flatnonzero(cs.template.hull), h)
                    offset += cs.template.hull_count
                else:
                    out[seg] = offset + h
                    offset += cs.template.sphere_count
            setattr(self, key, out)
        return getattr(self, key)


def _checked_solid(cs: ClumpSpec):
    """Body cs's ContactSolid (None without one), refused when its hull spheres are not inside it."""
    try:
        solid = contact_solid(cs.template.solid)
    except ValueError as e:
        raise ValueError(f"body {cs.name}: {e}") from None
    if solid is None:
        return None
    tpl = cs.template
    d, _n = solid.signed_distance(tpl.centers[tpl.hull])
    gap = d - tpl.radii[tpl.hull]
    size = float(np.max(np.abs(tpl.centers))) + float(tpl.radii.max())
    tol = SOLID_TOLERANCE * size
    if np.max(gap) > tol:
        k = int(np.argmax(gap))
        x = tpl.centers[tpl.hull][k]
        raise ValueError(f"body {cs.name}: its solid does not bound its spheres: the sphere at ({x[0]:.4g}, "
                         f"{x[1]:.4g}, {x[2]:.4g}) m (template frame) lies {gap[k]:.3g} m outside it (allowed: "
                         f"{tol:.2g} m); give the template the solid its spheres stand for, or joints='spheres'")
    return solid


_LAYOUTS: dict = {}  # (id(template), centre of mass) -> (template, layout): a batch of worlds shares templates


def _hull_layout(template: ClumpTemplate, center: np.ndarray):
    """A template's hull spheres in cluster order (body-frame cells of CLUSTER_CELL_RADII smallest radii) for
    a centre of mass `center` [m]: (template indices, offsets from the centre [m], radii [m], clusters as
    ([centre x, y, z, bounding radius] [m], first sphere, sphere count)). Cached per template and centre."""
    key = (id(template), np.asarray(center, float).tobytes())
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is template:
        return hit[1]
    h = np.flatnonzero(template.hull)
    off = template.centers[h] - center
    rad = template.radii[h]
    cell = CLUSTER_CELL_RADII * rad.min()
    cells = np.floor(off / cell).astype(np.int64)
    order = np.lexsort((cells[:, 2], cells[:, 1], cells[:, 0]))
    h, off, rad, cells = h[order], off[order], rad[order], cells[order]
    starts = np.flatnonzero(np.r_[True, np.any(cells[1:] != cells[:-1], axis=1)])
    ends = np.r_[starts[1:], len(h)]
    clusters = []
    for a, e in zip(starts, ends):
        mid = 0.5 * (off[a:e].min(0) + off[a:e].max(0))
        radius = float(np.max(np.linalg.norm(off[a:e] - mid, axis=1) + rad[a:e]))
        clusters.append(([*mid, radius], int(a), int(e - a)))
    layout = (h, off, rad, clusters)
    if len(_LAYOUTS) >= 64:
        _LAYOUTS.pop(next(iter(_LAYOUTS)))
    _LAYOUTS[key] = (template, layout)
    return layout
