"""A masonry wall of rectangular blocks laid dry in courses, in a stack bond or a running bond, every block
named and every bed and head joint an interface the probes record (dem.model.assembly.Joint).

Frame: gravity along −z; the wall runs along y (its length), its thickness is along x, so that a wall
loaded out of plane is loaded along x, the direction dem.run.assembly_probes resolves by default (a joint's
width along x is the wall's thickness); its middle stands on the vertical line through ``position`` (x,
y) [m] on a horizontal base (a wall's height, or ``base_height``). Courses are numbered 1 … from the
bottom, blocks 1 … from −y; block j of course k is named ``c<k>b<j>``.

Bonds (:data:`BONDS`): ``"stack"``, every course the same blocks, head joints aligned from base to top
(each vertical line of blocks a stack of its own); ``"running"`` (stretcher bond), every second course
(2, 4, …) shifted by half a block, with a half block at each end, so that each head joint stands on the
middle of a block below. English and Flemish bonds lay headers across a wall two blocks thick (two
wythes); they are not built here.

Blocks (:func:`wall_block`). A block is a box L × H × T (length along y, height, thickness along x) of
spheres graded as dem.model.box_clump grades a box (Itiola & El Shamy 2024, §3): small spheres (r_joint)
in a zone ``zone`` deep under each bed face (the bottom and the top), large ones (r_core) in the core. It
is edge-true out of plane: along x its rows are centred on the faces x = ±T/2 (box_clump's true edges), so
the block rests on its own bed face and pivots on its own edge, and uplifts under a held horizontal
acceleration at g b/h exactly (dem/model/box_clump.py). Along y its rows are tangent to the head faces,
so two blocks of a course meet at their head joint sphere on sphere, touching without overlap (a row
centred on a head face would put a neighbour's spheres into it). In the bed zones the rows along y are
spaced one sphere diameter exactly: then the bed-face lattices of all the blocks of a course, head joint
included, are one lattice of pitch 2 r_joint, and a block laid across a head joint is in register with
both blocks under it (the running bond) when its offset, half a block, is a whole number of pitches. So
r_joint is rounded down to make the block's length a whole number of diameters (an even number with the
running bond); with ``zone`` 0 the block is all r_core, rounded so. Along x and z the lattices are
box_clump's (spacing ``spacing_ratio`` × the diameter), one for all blocks of a thickness and a course
height, so bed faces meet in register course on course and head faces within a course.

Joints. A bed joint is the face where a block stands on a block of the course below (or on the base): a
block of a running bond stands on two, and has two bed joints. Each is an interface on the upper block
(the forces it receives from the lower one), with its centre (the middle of the shared face), its width
along x (the thickness) and its load: the weight of the wall above it over its length (a uniform wall's
bed stress, ρ g T (height above the joint) × the joint's length, here summed block by block: the weight
of each block above the joint's bed, in proportion to the part of its length over the joint). A head
joint is the face between two blocks of a course: an interface on the block at +y (the forces it receives
from the block at −y), normal +y, width along x the thickness; it carries no weight, and its load is the
+y block's own weight (a scale for V_ratio).

Statics (validation.stack; Housner 1963). Under a held horizontal acceleration a out of plane every
vertical strip of the wall is loaded alike, whatever the bond, so a bed joint at height z opens when a/g >
(T/2) / ((H − z)/2) = T / (H − z): the joint on the base first, at a/g = T/H, the wall rocking as one
block about its base edge (tests/physics/test_masonry_wall.py).
"""

from __future__ import annotations

import math

import numpy as np

from ..version import warn_renamed
from .assembly import Assembly, Joint
from .clump import Box, ClumpTemplate
from .lattice import (
    ZONE_BASE,
    ZONE_CORE,
    ZONE_TOP,
    TemplateCache,
    axis_count,
    axis_points,
    check_positive,
    check_spacing_ratio,
    check_zone,
    layer_heights,
    on_hull,
    spacing,
)
from .sizing import check_sphere_count

BONDS = ("stack", "running")
"""The bonds :func:`masonry_wall` lays (module docstring)."""

_CACHE = TemplateCache(16)
_REL = 1e-9  # relative tolerance of "a whole number of" (courses in the height, blocks in the length)


def wall_block(length: float, height: float, thickness: float, *, r_core: float, r_joint: float | None = None,
               zone: float = 0.0, spacing_ratio: float = 0.75) -> ClumpTemplate:
    """Graded sphere packing of one wall block (module docstring): L × H × T [m] along y, z, x, the origin
    at its centre; bed zones ``zone`` [m] deep of r_joint spheres under the bottom and top faces, the core
    of r_core spheres [m]. The bed zones' rows along y are spaced 2 r_joint exactly, so `length` must be a
    whole number of 2 r_joint (of 2 r_core with ``zone`` 0); :func:`masonry_wall` rounds the radius to make it so.
    The same arguments give the same template object (its arrays read-only)."""
    key = (length, height, thickness, r_core, r_joint, zone, spacing_ratio)
    return _CACHE.get(key, lambda: _build(length, height, thickness, r_core=r_core, r_joint=r_joint, zone=zone,
                                          spacing_ratio=spacing_ratio))


def _lattice(thickness, length, z_lo, z_hi, r, ratio, step_y) -> np.ndarray:
    """Centres of a lattice of spheres of radius r filling x ∈ ±T/2 (rows centred on the faces: edge-true),
    y ∈ ±L/2 (rows tangent to the head faces; spaced exactly `step_y` [m] if given) and z_lo … z_hi (layers
    tangent to the slab's faces)."""
    s = spacing(r, ratio)
    xs = axis_points(thickness, r, s, centred=True)
    ys = axis_points(length, r, s, centred=False, step=step_y)
    zs = layer_heights(z_lo, z_hi, r, s)
    return np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), axis=-1).reshape(-1, 3)


def _build(length, height, thickness, *, r_core, r_joint, zone, spacing_ratio) -> ClumpTemplate:
    r_joint = r_core if r_joint is None else r_joint
    check_positive(length=length, height=height, thickness=thickness, r_core=r_core, r_joint=r_joint)
    check_spacing_ratio(spacing_ratio)
    check_zone(zone, r_joint)
    if 2 * zone >= height:
        raise ValueError(f"zone must be < half the course height {height / 2} m (a bed zone under each bed face "
                         f"and a core between), got {zone} m")
    for name, r in (("r_joint", r_joint), ("r_core", r_core)):
        if 2 * r > min(thickness, length, height):
            raise ValueError(f"{name}={r} m must be <= half the block's smallest side "
                             f"{min(thickness, length, height) / 2} m")
    r_bed = r_joint if zone > 0 else r_core
    pitches = length / (2 * r_bed)
    if abs(pitches - round(pitches)) > _REL * pitches:
        raise ValueError(f"length={length} m must be a whole number of bed-sphere diameters 2 × {r_bed} m")
    n = 2 * axis_count(zone, r_joint, spacing(r_joint, spacing_ratio), centred=False) * (
        axis_count(thickness, r_joint, spacing(r_joint, spacing_ratio), centred=True) * round(pitches)) \
        if zone > 0 else 0.0
    s_c = spacing(r_core, spacing_ratio)
    n += (axis_count(thickness, r_core, s_c, centred=True) * axis_count(length, r_core, s_c, centred=False)
          * axis_count(height, r_core, s_c, centred=False))
    check_sphere_count(n, f"a wall block ({length:g} × {height:g} × {thickness:g} m)")

    h2 = height / 2
    parts, radii, zones = [], [], []

    def add(p, r, label):
        parts.append(p)
        radii.append(np.full(len(p), r))
        zones.append(np.full(len(p), label))

    if zone > 0:
        step = 2 * r_joint
        add(_lattice(thickness, length, -h2, -h2 + zone, r_joint, spacing_ratio, step), r_joint, ZONE_BASE)
        add(_lattice(thickness, length, h2 - zone, h2, r_joint, spacing_ratio, step), r_joint, ZONE_TOP)
        # the core reaches r_core into the zones (as box_clump's), but not into their layers on the bed faces:
        # those hold r_joint spheres only, in register with the neighbours'
        lo, hi = max(-h2 + zone - r_core, -h2 + 2 * r_joint), min(h2 - zone + r_core, h2 - 2 * r_joint)
        if hi - lo >= 2 * r_core:
            add(_lattice(thickness, length, lo, hi, r_core, spacing_ratio, None), r_core, ZONE_CORE)
    else:
        add(_lattice(thickness, length, -h2, h2, r_core, spacing_ratio, 2 * r_core), r_core, ZONE_CORE)
    centers = np.concatenate(parts)
    r = np.concatenate(radii)
    # distance to the envelope: r outside the faces x = ±T/2 (rows centred on them), the head and bed faces
    half = np.array([thickness, length, height]) / 2
    gap = half - np.abs(centers)
    gap[:, 0] += r
    return ClumpTemplate(centers, r, on_hull(gap.min(axis=1), r, spacing_ratio), Box((thickness, length, height)),
                         np.concatenate(zones))


def bed_radius(block_length: float, radius: float, bond: str) -> float:
    """The largest radius ≤ `radius` [m] whose diameter divides `block_length` [m] a whole number of times
    (an even number with the running bond, so that half a block is whole diameters too)."""
    check_positive(block_length=block_length, r_joint=radius)
    per = 2 if bond == "running" else 1
    count = per * math.ceil(block_length / (2 * radius * per) - _REL)
    return block_length / (2 * count)


def course_heights(height: float, course_height) -> list[float]:
    """The courses' heights [m], bottom first: `course_height` a number (the courses alike: `height` must be
    a whole number of them) or a sequence summing to `height` [m]."""
    check_positive(height=height)
    if isinstance(course_height, (int, float, np.integer, np.floating)) and not isinstance(course_height, bool):
        check_positive(course_height=course_height)
        n = height / course_height
        if abs(n - round(n)) > _REL * max(n, 1.0) or round(n) < 1:
            raise ValueError(f"height={height} m must be a whole number of courses of course_height="
                             f"{course_height} m")
        return [float(course_height)] * round(n)
    try:
        hs = [float(h) for h in course_height]
    except (TypeError, ValueError):
        raise ValueError(f"course_height must be a number > 0 [m] or a sequence of them, got {course_height!r}") \
            from None
    if not hs:
        raise ValueError("course_height must name at least one course")
    for k, h in enumerate(hs):
        check_positive(**{f"course_height[{k}]": h})
    if abs(sum(hs) - height) > _REL * height:
        raise ValueError(f"the course heights must add up to height={height} m, got {sum(hs)} m")
    return hs


def course_layout(length: float, block_length: float, courses: int, bond: str) -> list[list[tuple[float, float]]]:
    """Per course (bottom first), its blocks' (y_start, y_end) [m] from the wall's −y end: `length` a whole
    number of blocks; the running bond's even courses (2, 4, …) a half block, whole blocks, a half block."""
    if bond not in BONDS:
        raise ValueError(f"bond must be one of {', '.join(BONDS)}, got {bond!r}")
    check_positive(length=length, block_length=block_length)
    n = length / block_length
    if abs(n - round(n)) > _REL * max(n, 1.0) or round(n) < 1:
        raise ValueError(f"length={length} m must be a whole number of blocks of block_length={block_length} m")
    n = round(n)
    if bond == "running" and n < 2 and courses > 1:
        raise ValueError("a running bond needs at least 2 blocks a course: block_length must be <= length / 2")
    whole = [(j * block_length, (j + 1) * block_length) for j in range(n)]
    shifted = [(0.0, block_length / 2)] + [(block_length / 2 + j * block_length, block_length / 2 + (j + 1)
                                            * block_length) for j in range(n - 1)] + [(length - block_length / 2,
                                                                                       length)]
    return [shifted if bond == "running" and k % 2 == 1 else whole for k in range(courses)]


def masonry_wall(builder, *, length: float, height: float, thickness: float, course_height, block_length: float,
                 bond: str = "running", material, density: float | None = None, r_core: float,
                 r_joint: float | None = None, zone: float = 0.0, spacing_ratio: float = 0.75, base: int | None = None,
                 base_height: float = 0.0, position=(0.0, 0.0), name: str = "") -> Assembly:
    """Lay a dry masonry wall (module docstring) on the horizontal plane boundary `base` (a ModelBuilder wall)
    or at `base_height` [m]. (``dem.wall`` before: "wall" alone is a plane boundary, ModelBuilder.add_wall.)

    Args:
        length, height, thickness: the wall's length (along y), height and thickness (along x) [m].
        course_height: the courses' height [m] (height a whole number of them), or their heights, bottom first.
        block_length: a whole block's length [m] (length a whole number of them; at least two with the
            running bond).
        bond: one of :data:`BONDS`.
        material: the contact material; density: the blocks' [kg/m³] (None: the material's).
        r_core, r_joint, zone, spacing_ratio: the blocks' packing (:func:`wall_block`); r_joint (r_core with
            ``zone`` 0) is rounded down by :func:`bed_radius`.
    Bodies ``c<k>b<j>`` (prefixed ``<name>_`` if named); joints ``bed_<upper>_<lower>`` (``<lower>`` ``base``
    on the base) and ``head_<left>_<right>``, course by course. Returns the :class:`Assembly` (joints: the
    bed joints and head joints of course 1, then course 2, …)."""
    if bond not in BONDS:
        raise ValueError(f"bond must be one of {', '.join(BONDS)}, got {bond!r}")
    check_positive(length=length, height=height, thickness=thickness, block_length=block_length, r_core=r_core)
    heights = course_heights(height, course_height)
    layout = course_layout(length, block_length, len(heights), bond)
    g = float(np.linalg.norm(builder.gravity))
    if not (g > 0 and np.allclose(builder.gravity[:2], 0.0)):
        raise ValueError(f"masonry_wall needs gravity along −z, got {builder.gravity.tolist()}")
    if base is not None:
        if not 0 <= base < len(builder.walls) or not np.allclose(np.abs(builder.walls[base].normal), [0, 0, 1]):
            raise ValueError(f"base must be the index of a horizontal wall in [0, {len(builder.walls)})")
        base_height = float(builder.walls[base].origin[2])
    r_bed = bed_radius(block_length, r_joint if zone > 0 and r_joint is not None else r_core, bond)
    kw = dict(r_core=r_bed if zone == 0 else r_core, r_joint=r_bed if zone > 0 else None, zone=zone,
              spacing_ratio=spacing_ratio)
    # every template first, so that a bad packing is refused before any body is added
    tpls = {(round(b - a, 12), h): wall_block(b - a, h, thickness, **kw) for course, h in zip(layout, heights)
            for a, b in course}
    prefix = f"{name}_" if name else ""
    x0, y0 = float(position[0]), float(position[1]) - length / 2
    z = base_height + np.concatenate([[0.0], np.cumsum(heights)])
    blocks = []  # per course: (clump, name, y_start, y_end)
    for k, (course, h) in enumerate(zip(layout, heights)):
        row = []
        for j, (a, b) in enumerate(course):
            bname = f"{prefix}c{k + 1}b{j + 1}"
            c = builder.add_clump(tpls[(round(b - a, 12), h)], material=material, density=density,
                                  position=(x0, y0 + (a + b) / 2, z[k] + h / 2), name=bname)
            row.append((c, bname, a, b))
        blocks.append(row)
    joints = _joints(builder, blocks, heights, z, thickness, g, base, prefix)
    bodies = tuple(c for row in blocks for c, *_ in row)
    names = tuple(n for row in blocks for _c, n, *_ in row)
    return Assembly(name, bodies, names, tuple(joints), float(base_height), float(z[-1]))


def __getattr__(name: str):
    """``wall``, the old name of :func:`masonry_wall`, with a DeprecationWarning."""
    if name == "wall":
        warn_renamed("dem.model.masonry_wall.wall", "dem.model.masonry_wall.masonry_wall")
        return masonry_wall
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _joints(builder, blocks, heights, z, thickness, g, base, prefix) -> list[Joint]:
    """The bed joints and head joints of each course (module docstring), their interfaces added."""
    mass = {c: builder.clumps[c].mass_props.mass for row in blocks for c, *_ in row}
    joints = []
    for k, row in enumerate(blocks):
        h = heights[k]
        for c, bname, a, b in row:
            under = [(None, "base", a, b)] if k == 0 else [(lc, ln, max(a, la), min(b, lb)) for lc, ln, la, lb
                                                           in blocks[k - 1] if min(b, lb) - max(a, la) > 1e-12]
            for lc, ln, lo, hi in under:
                if lc is None and base is None:
                    continue  # on a height, not a wall: no interface to record
                # the weight above the bed over [lo, hi]: each block above in proportion to its length there
                load = g * sum(mass[uc] * max(0.0, min(hi, ub) - max(lo, ua)) / (ub - ua)
                               for up in blocks[k:] for uc, _n, ua, ub in up)
                jname = f"{prefix}bed_{bname.removeprefix(prefix)}_{ln.removeprefix(prefix)}"
                slot = builder.add_interface(jname, c, wall=base) if lc is None else \
                    builder.add_interface(jname, c, other=lc)
                joints.append(Joint(jname, c, lc, slot, (0.0, (lo + hi) / 2 - (a + b) / 2, -h / 2), thickness,
                                    float(load), float(z[k])))
        for (lc, ln, _la, _lb), (c, bname, a, b) in zip(row[:-1], row[1:]):
            jname = f"{prefix}head_{ln.removeprefix(prefix)}_{bname.removeprefix(prefix)}"
            slot = builder.add_interface(jname, c, other=lc)
            joints.append(Joint(jname, c, lc, slot, (0.0, -(b - a) / 2, 0.0), thickness, g * mass[c],
                                float(z[k] + h / 2), normal=(0.0, 1.0, 0.0), tangent=(1.0, 0.0, 0.0)))
    return joints


def wall_thresholds(assembly: Assembly, height: float, thickness: float) -> dict[str, float]:
    """a/g [-] at which each bed joint opens under a held horizontal acceleration out of plane (along x):
    T / (H − z) for a joint at height z above the base (module docstring; the statics of a stack of boxes,
    validation.stack, for every vertical strip of the wall)."""
    return {j.name: thickness / (height - (j.height - assembly.base_height)) for j in assembly.joints
            if j.normal == (0.0, 0.0, 1.0)}

