"""Assemblies of blocks: a stack (blocks one on another, in register) and a classical column (drums, an
optional capital), each body named and each joint an interface the probes record.

Frame: gravity along −z; the assembly stands on a horizontal base (a wall or a height) on the vertical
line through ``position`` (x, y) [m]; each block is added upright (its template axes along the world's),
centred on that line by the middle of its bottom face, and put on the block below: right on it (its bottom
face on the lower block's top face) when the two meet through a solid (joints "solid", the default:
dem.model.contact_solid; the lattices need not register), or face middle over face middle where the two faces
carry the same layer of spheres (:func:`in_register`: drums of one radius, blocks of one width), else by
:meth:`dem.model.model.ModelBuilder.place_on` (moved by less than a lattice spacing to the position with the most
touching sphere pairs, then lowered until they touch). Joint k is the face under block k: joint 0 on
the base, joint k ≥ 1 between blocks k − 1 and k. Each joint is an interface (ModelBuilder.add_interface:
the forces block k receives across it) with what the run's Interface probe needs: the centre of the face
in block k's body frame, the width of the contact face along x (the shaking direction) and the weight it
carries.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .box_clump import box_clump
from .clump import ClumpTemplate
from .compose import compose
from .contact_solid import contact_solid
from .drum_clump import drum_clump
from .lattice import check_positive

_FACE_TOL = 1e-9  # relative: spheres whose surface is this close to a face's extreme lie on the face


@dataclass(frozen=True)
class Piece:
    """A block of an assembly: its template, its name, and its mass [kg] or the density of its solid
    [kg/m³] (neither: the material's density)."""

    template: ClumpTemplate
    name: str
    mass: float | None = None
    density: float | None = None


@dataclass(frozen=True)
class Joint:
    """The face under block `upper` (a clump index): on the base (``lower`` None) or on block ``lower``.

    slot: its interface slot; center_body: the face's centre relative to `upper`'s centre of mass, body
    frame [m]; width: the contact face's width along x [m] (the narrower of the two faces that meet);
    load: the weight it carries [N] (block `upper` and all above it); height: its height at t = 0 [m];
    normal, tangent: unit vectors [-] of the face (world), normal into `upper`, tangent along its width (a
    stack's joints: z and x; an arch's: radial joints, dem.model.arch).
    """

    name: str
    upper: int
    lower: int | None
    slot: int
    center_body: tuple
    width: float
    load: float
    height: float
    normal: tuple = (0.0, 0.0, 1.0)
    tangent: tuple = (1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Assembly:
    """Blocks bottom to top (clump indices, names), their joints (joint k under block k), the base height
    and the height of the top face at t = 0 [m]."""

    name: str
    bodies: tuple
    body_names: tuple
    joints: tuple
    base_height: float
    top_height: float


def face(template: ClumpTemplate, *, top: bool) -> tuple[float, np.ndarray, np.ndarray]:
    """The bottom (or top) face of a template as its spheres make it: its height [m] (the spheres' lowest
    or highest point) and the x–y bounds [m] (lo (2,), hi (2,)) of the sphere centres on it."""
    c, r = template.centers, template.radii
    z = c[:, 2] + r if top else c[:, 2] - r
    edge = float(z.max() if top else z.min())
    tol = _FACE_TOL * max(float(np.ptp(c[:, 2])), float(r.max()))
    on = np.abs(z - edge) <= tol
    return edge, c[on, :2].min(axis=0), c[on, :2].max(axis=0)


def _face_layer(template: ClumpTemplate, *, top: bool) -> np.ndarray:
    """The layer of spheres on a face: rows (x, y, radius) [m] relative to the face's middle, sorted."""
    c, r = template.centers, template.radii
    z = c[:, 2] + r if top else c[:, 2] - r
    edge = z.max() if top else z.min()
    on = np.abs(z - edge) <= _FACE_TOL * max(float(np.ptp(c[:, 2])), float(r.max()))
    xy = c[on, :2] - 0.5 * (c[on, :2].min(axis=0) + c[on, :2].max(axis=0))
    rows = np.round(np.column_stack([xy, r[on]]), 12)
    return rows[np.lexsort(rows.T[::-1])]


def in_register(lower: ClumpTemplate, upper: ClumpTemplate) -> bool:
    """True when `upper`'s bottom layer is `lower`'s top layer, sphere for sphere (to 1e-12 m), centred on
    each other: two drums of one radius, two blocks of one width. Stood face middle over face middle they
    meet sphere on sphere, and place_on's search for register can be skipped."""
    a, b = _face_layer(lower, top=True), _face_layer(upper, top=False)
    return a.shape == b.shape and bool(np.array_equal(a, b))


def stack(builder, pieces: Sequence[Piece], *, material, base: int | None = None, base_height: float = 0.0,
          position=(0.0, 0.0), register: bool = True, name: str = "") -> Assembly:
    """Stand `pieces` one on another (module docstring) on wall `base` (a horizontal wall's index: its
    height) or at `base_height` [m]; ``register``: put each joint's lattices in register (place_on).
    Joints are named ``<name>_joint<k>`` (``joint<k>`` without a name). Returns the :class:`Assembly`."""
    pieces = list(pieces)
    if not pieces:
        raise ValueError("stack needs at least one piece")
    g = float(np.linalg.norm(builder.gravity))
    if not (g > 0 and np.allclose(builder.gravity[:2], 0.0)):
        raise ValueError(f"stack needs gravity along −z, got {builder.gravity.tolist()}")
    names = [p.name for p in pieces]
    taken = {c.name for c in builder.clumps}
    clash = [n for n in names if n in taken or names.count(n) > 1 or not n]
    if clash:
        raise ValueError(f"piece names must be distinct, non-empty and new to the model, got {clash[0]!r}")
    if base is not None:
        if not 0 <= base < len(builder.walls):
            raise ValueError(f"base must be a wall index in [0, {len(builder.walls)}), got {base}")
        wall = builder.walls[base]
        if not np.allclose(np.abs(wall.normal), [0.0, 0.0, 1.0]):
            raise ValueError(f"base wall '{wall.name}' must be horizontal (normal along z)")
        base_height = float(wall.origin[2])
    xy = np.asarray(position, float).reshape(2)
    bodies, joints = [], []
    z_top = float(base_height)
    lower_face = None  # (x-y lo, hi) of the face below, world frame
    for k, p in enumerate(pieces):
        z_bot, lo, hi = face(p.template, top=False)
        mid = 0.5 * (lo + hi)
        # faces in register: stand it face middle over face middle, just touching; else a radius above the
        # block below, for place_on to find register and lower it
        on_solid = k > 0 and builder.joints == "solid" and \
            (contact_solid(pieces[k - 1].template.solid) is not None or contact_solid(p.template.solid) is not None)
        exact = k == 0 or on_solid or in_register(pieces[k - 1].template, p.template)
        lift = 0.0 if exact else float(p.template.radii.max())
        over = xy if k == 0 or not exact or on_solid else 0.5 * (lower_face[0] + lower_face[1])
        origin = np.r_[over - mid, z_top - z_bot + lift]
        c = builder.add_clump(p.template, material=material, mass=p.mass, density=p.density, position=origin,
                              name=p.name)
        if not exact:
            builder.place_on(c, bodies[-1], register=register)
        spec = builder.clumps[c]
        template_origin = spec.position - spec.mass_props.center
        w_lo, w_hi = template_origin[:2] + lo, template_origin[:2] + hi
        if lower_face is not None:
            w_lo, w_hi = np.maximum(w_lo, lower_face[0]), np.minimum(w_hi, lower_face[1])
        center = np.r_[0.5 * (lo + hi), z_bot] - spec.mass_props.center
        jname = f"{name}_joint{k}" if name else f"joint{k}"
        slot = builder.add_interface(jname, c, wall=base) if k == 0 and base is not None else \
            builder.add_interface(jname, c, other=bodies[-1]) if k > 0 else None
        joints.append([jname, c, bodies[-1] if k else None, slot, tuple(center), float(w_hi[0] - w_lo[0]),
                       float(template_origin[2] + z_bot)])
        bodies.append(c)
        z_top_face, t_lo, t_hi = face(p.template, top=True)
        z_top = float(template_origin[2] + z_top_face)
        lower_face = (template_origin[:2] + t_lo, template_origin[:2] + t_hi)
    masses = np.array([builder.clumps[c].mass_props.mass for c in bodies])
    loads = g * np.cumsum(masses[::-1])[::-1]
    out = tuple(Joint(n, u, lw, s, cb, w, float(load), h)
                for (n, u, lw, s, cb, w, h), load in zip(joints, loads) if s is not None)
    return Assembly(name, tuple(bodies), tuple(names), out, float(base_height), z_top)


@dataclass(frozen=True)
class Capital:
    """A Doric capital carved in one block: an echinus (a drum flaring from the shaft's top radius to
    ``echinus_radius`` over ``echinus_height``) under a square abacus ``abacus_width`` wide and
    ``abacus_height`` high [m]."""

    echinus_height: float
    echinus_radius: float
    abacus_width: float
    abacus_height: float

    def template(self, shaft_radius: float, *, r_core: float, r_joint: float, zone: float,
                 spacing_ratio: float) -> ClumpTemplate:
        """The capital's spheres, its template origin at the middle of its bottom face: the echinus a
        drum_clump whose bottom face is the shaft's top face (in register with the top drum's), the abacus
        a box_clump (of r_joint spheres where the core spheres would not fit it twice over)."""
        check_positive(echinus_height=self.echinus_height, echinus_radius=self.echinus_radius,
                       abacus_width=self.abacus_width, abacus_height=self.abacus_height)
        if self.abacus_width < 2 * max(self.echinus_radius, shaft_radius) * math.sqrt(0.5):
            raise ValueError(f"abacus_width must be >= the echinus's inscribed square "
                             f"{2 * max(self.echinus_radius, shaft_radius) * math.sqrt(0.5):.4g} m, "
                             f"got {self.abacus_width}")
        he, ha = self.echinus_height, self.abacus_height
        echinus = drum_clump(shaft_radius, he, top_radius=self.echinus_radius, r_core=r_core, r_joint=r_joint,
                             zone=zone, top_zone=0.0, spacing_ratio=spacing_ratio)
        r_abacus = r_core if 4 * r_core <= ha else r_joint
        abacus = box_clump(self.abacus_width, ha, self.abacus_width, r_core=r_abacus, spacing_ratio=spacing_ratio)
        return compose([(echinus, (0.0, 0.0, he / 2)), (abacus, (0.0, 0.0, he + ha / 2))])


def column(builder, *, drums: int, height: float, radius: float, top_radius: float | None = None,
           capital: Capital | None = None, material, density: float | None = None, r_core: float,
           r_joint: float | None = None, zone: float = 0.0, spacing_ratio: float = 0.75, base: int | None = None,
           base_height: float = 0.0, position=(0.0, 0.0), monolithic: bool = False, name: str = "") -> Assembly:
    """A free-standing classical column: a shaft of `drums` drums of equal height, `height` [m] in all,
    its radius tapering linearly from `radius` at the foot to `top_radius` at the top [m] (each drum a
    frustum, so that neighbouring faces have one radius and meet in register), and an optional
    :class:`Capital` on top; ``monolithic`` glues the drums into one body (dem.model.compose), the rigid
    column. Bodies are named ``drum1`` … ``drumN`` (``shaft`` when monolithic) and ``capital``, prefixed by
    ``<name>_`` if a name is given; sphere sizes, zone and spacing as drum_clump's. Returns the
    :class:`Assembly` (:func:`stack`)."""
    if isinstance(drums, bool) or not isinstance(drums, (int, np.integer)) or drums < 1:
        raise ValueError(f"drums must be an integer >= 1, got {drums!r}")
    check_positive(height=height, radius=radius)
    top_radius = radius if top_radius is None else top_radius
    check_positive(top_radius=top_radius)
    r_joint = r_core if r_joint is None else r_joint
    check_positive(r_core=r_core, r_joint=r_joint)
    prefix = f"{name}_" if name else ""
    h = height / drums
    # checked here, in the column's own terms, before drum_clump checks each drum in its own
    r_big = max(r_core, r_joint)
    if min(radius, top_radius) < r_big:
        raise ValueError(f"radius and top_radius must be >= r_joint and r_core (>= {r_big} m: a drum at least one "
                         f"sphere wide), got {radius} m and {top_radius} m")
    if not (isinstance(zone, (int, float)) and math.isfinite(zone) and 0 <= zone < h / 2):
        raise ValueError(f"zone must be in [0, {h / 2:.6g}) m: less than half a drum's height, height ÷ drums = "
                         f"{h:.6g} m (a joint zone under each face and a core between), got {zone!r}")
    radii = radius + (top_radius - radius) * np.arange(drums + 1) / drums
    kw = dict(r_core=r_core, r_joint=r_joint, zone=zone, spacing_ratio=spacing_ratio)
    tpls = [drum_clump(float(radii[k]), h, top_radius=float(radii[k + 1]), **kw) for k in range(drums)]
    if monolithic:
        pieces = [Piece(compose([(t, (0.0, 0.0, (k + 0.5) * h)) for k, t in enumerate(tpls)]), f"{prefix}shaft",
                        density=density)]
    else:
        pieces = [Piece(t, f"{prefix}drum{k + 1}", density=density) for k, t in enumerate(tpls)]
    if capital is not None:
        pieces.append(Piece(capital.template(float(radii[-1]), **kw), f"{prefix}capital", density=density))
    return stack(builder, pieces, material=material, base=base, base_height=base_height, position=position,
                 name=name)
