"""The masonry wall builder (dem.model.masonry_wall): the blocks laid where the bond puts them, named,
touching their neighbours without overlap and in register (sphere on sphere) at every bed and head joint,
edge-true out of plane, every joint recorded with its centre, width and load; bad input refused."""

import numpy as np
import pytest
from scipy.spatial import cKDTree

from dem.model.masonry_wall import BONDS, bed_radius, course_layout, masonry_wall, wall_block, wall_thresholds
from dem.model.materials import Material
from dem.model.model import ModelBuilder
from validation.stack import Box, stack_thresholds

G = 9.81
RHO = 2000.0
STONE = Material.hertz(young=50e9, poisson=0.25, friction=0.7, density=RHO)
WALL = dict(length=1.2, height=0.6, thickness=0.2, course_height=0.2, block_length=0.4)
GRADED = dict(r_core=0.03, r_joint=0.012, zone=0.03)
TOL = 1e-9
"""[m] geometry built from sums of floats: positions agree to rounding."""


def _wall(bond="running", **kw):
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=STONE, name="table")
    w = masonry_wall(b, **(WALL | GRADED | {"bond": bond} | kw), material=STONE, base=table)
    return b, w


def _spheres(b, bodies):
    """World centres, radii and body index of every sphere of `bodies` (blocks are laid unrotated)."""
    pts, rad, who = [], [], []
    for c in bodies:
        s = b.clumps[c]
        pts.append(s.template.centers + s.position - s.mass_props.center)
        rad.append(s.template.radii)
        who.append(np.full(len(s.template.radii), c))
    return np.concatenate(pts), np.concatenate(rad), np.concatenate(who)


@pytest.mark.parametrize("bond, per_course", [("stack", (3, 3, 3)), ("running", (3, 4, 3))])
def test_blocks_are_laid_and_named_by_the_bond(bond, per_course):
    b, w = _wall(bond)
    names = [f"c{k + 1}b{j + 1}" for k, n in enumerate(per_course) for j in range(n)]
    assert list(w.body_names) == names
    # the blocks fill the wall: their solids' volumes add up to L H T, and the mass is ρ L H T
    mass = sum(b.clumps[c].mass_props.mass for c in w.bodies)
    assert mass == pytest.approx(RHO * 1.2 * 0.6 * 0.2, rel=1e-12)
    # running bond: course 2 starts with a half block, its head joints over the middle of course 1's blocks
    ys = {n: b.clumps[c].position[1] for n, c in zip(w.body_names, w.bodies)}
    if bond == "running":
        assert ys["c2b1"] == pytest.approx(-0.5, abs=TOL) and ys["c2b2"] == pytest.approx(-0.2, abs=TOL)
    else:
        assert ys["c2b1"] == pytest.approx(ys["c1b1"], abs=TOL)
    assert w.top_height == pytest.approx(0.6, abs=TOL) and w.base_height == 0.0


def _span(spec):
    """A block's extent along y [m] (world)."""
    half = spec.template.solid.size[1] / 2
    return spec.position[1] - half, spec.position[1] + half


@pytest.mark.parametrize("bond", BONDS)
def test_neighbours_touch_in_register_without_overlap(bond):
    """Laid as built, no two blocks overlap (to rounding) and every joint's faces meet sphere on sphere:
    across a bed joint each sphere of the upper block's bottom layer over it touches one sphere below it
    (the lattices are in register, also across the head joint under a running-bond block), and across a
    head joint each sphere of the face layer touches one of the neighbour's."""
    b, w = _wall(bond)
    p, r, who = _spheres(b, w.bodies)
    pairs = cKDTree(p).query_pairs(2 * r.max() + TOL, output_type="ndarray")
    pairs = pairs[who[pairs[:, 0]] != who[pairs[:, 1]]]
    overlap = r[pairs[:, 0]] + r[pairs[:, 1]] - np.linalg.norm(p[pairs[:, 0]] - p[pairs[:, 1]], axis=1)
    assert overlap.max() < TOL
    touching = pairs[np.abs(overlap) < TOL]
    hull = np.concatenate([b.clumps[c].template.hull for c in w.bodies])
    assert hull[touching].all()  # the spheres that meet across a joint are hull spheres: their contacts are found
    for j in w.joints:
        if j.lower is None:
            continue
        up = b.clumps[j.upper]
        face = up.position + np.asarray(j.center_body)  # the joint's centre, world frame
        n = np.asarray(j.normal)
        mine = (who == j.upper) & np.isclose((p - face) @ n, r, atol=TOL)  # the layer tangent to the face
        if n[2] == 1:  # a bed joint: the part of the upper block's bottom layer over the lower block
            (a0, a1), (b0, b1) = _span(up), _span(b.clumps[j.lower])
            mine &= (p[:, 1] > max(a0, b0)) & (p[:, 1] < min(a1, b1))
        sel = touching[(who[touching[:, 0]] == j.lower) | (who[touching[:, 1]] == j.lower)]
        sel = sel[(who[sel[:, 0]] == j.upper) | (who[sel[:, 1]] == j.upper)]
        assert mine.sum() > 10 and len(sel) == mine.sum(), (j.name, mine.sum(), len(sel))


def test_blocks_are_edge_true_out_of_plane_and_rest_on_their_bed_faces():
    """A block's bottom layer is tangent to its bed face and its rows are centred on the faces x = ±T/2, so
    its edge sphere's lowest point is the solid's edge (T/2, −H/2): it uplifts at g b/h exactly
    (dem/model/box_clump.py's derivation); its rows along y are tangent to the head faces."""
    t = wall_block(0.4, 0.2, 0.2, r_core=0.03, r_joint=0.01, zone=0.03)
    c, r = t.centers, t.radii
    assert (c[:, 2] - r).min() == pytest.approx(-0.1, abs=1e-15)
    assert (c[:, 2] + r).max() == pytest.approx(0.1, abs=1e-15)
    assert np.abs(c[:, 0]).max() == pytest.approx(0.1, abs=1e-15)  # centred on the faces x = ±T/2
    assert (np.abs(c[:, 1]) + r).max() == pytest.approx(0.2, abs=1e-15)  # tangent to the head faces
    bottom = np.isclose(c[:, 2] - r, -0.1)
    ys = np.unique(np.round(c[bottom, 1], 12))
    assert np.allclose(np.diff(ys), 0.02)  # the bed layer's pitch along y: one diameter (module docstring)
    assert t.solid.size == (0.2, 0.4, 0.2)


def test_joints_carry_the_weight_above_them():
    """Bed joints: load = the weight of the wall above the joint over its length (ρ g T ℓ (H − z) in a
    uniform wall), centre in the middle of the shared face, width the thickness; the loads on the base add
    up to the wall's weight; head joints: one between each two blocks of a course."""
    for bond in BONDS:
        b, w = _wall(bond)
        beds = [j for j in w.joints if j.normal == (0.0, 0.0, 1.0)]
        heads = [j for j in w.joints if j.normal == (0.0, 1.0, 0.0)]
        assert len(heads) == len(w.bodies) - 3  # one fewer than the blocks in each of the 3 courses
        for j in beds:
            up = b.clumps[j.upper]
            length = up.template.solid.size[1] if j.lower is None or bond == "stack" else 0.2
            assert j.load == pytest.approx(RHO * G * 0.2 * length * (0.6 - j.height), rel=1e-9), j.name
            assert j.width == 0.2 and j.center_body[2] == pytest.approx(-0.1)
        base = [j for j in beds if j.lower is None]
        assert sum(j.load for j in base) == pytest.approx(RHO * G * 1.2 * 0.6 * 0.2, rel=1e-12)


def test_uplift_thresholds_are_the_statics_of_a_stack():
    """wall_thresholds (T/(H − z) per bed joint) against validation.stack's statics of one vertical strip of
    the wall (a stack of boxes, which does not use the engine)."""
    _b, w = _wall("running", course_height=[0.25, 0.2, 0.15])
    ref = stack_thresholds([Box(0.1, h, depth=0.4) for h in (0.25, 0.2, 0.15)])
    got = wall_thresholds(w, 0.6, 0.2)
    for j in w.joints:
        if j.normal == (0.0, 0.0, 1.0):
            k = [0.0, 0.25, 0.45].index(pytest.approx(j.height))
            assert got[j.name] == pytest.approx(ref.rocking[k], rel=1e-12)
    assert ref.first_joint == 0 and min(got.values()) == pytest.approx(0.2 / 0.6)


def test_bed_radius_fits_the_blocks():
    assert bed_radius(0.4, 0.012, "stack") == pytest.approx(0.4 / 34)  # 17 diameters
    assert bed_radius(0.4, 0.012, "running") == pytest.approx(0.4 / 36)  # 18: half a block is 9
    assert bed_radius(0.4, 0.01, "running") == pytest.approx(0.01)  # already fits
    assert np.allclose(course_layout(1.2, 0.4, 2, "running")[1], [(0.0, 0.2), (0.2, 0.6), (0.6, 1.0), (1.0, 1.2)])


@pytest.mark.parametrize("kw, words", [
    (dict(bond="english"), "bond must be one of stack, running, got 'english'"),
    (dict(bond="flemish"), "bond must be one of stack, running"),
    (dict(length=0.0), "length must be a finite number > 0"),
    (dict(height=-0.6), "height must be a finite number > 0"),
    (dict(thickness=float("nan")), "thickness must be a finite number > 0"),
    (dict(course_height=0.0), "course_height must be a finite number > 0"),
    (dict(course_height=0.25), r"height=0.6 m must be a whole number of courses of course_height=0.25 m"),
    (dict(course_height=[0.2, 0.3]), "the course heights must add up to height=0.6 m"),
    (dict(course_height=[0.3, -0.3, 0.6]), r"course_height\[1\] must be a finite number > 0"),
    (dict(block_length=0.5), "length=1.2 m must be a whole number of blocks of block_length=0.5 m"),
    (dict(block_length=1.2), "a running bond needs at least 2 blocks a course"),
    (dict(r_core=-0.01), "r_core must be a finite number > 0"),
    (dict(zone=0.11), "zone must be < half the course height"),
    (dict(zone=0.01), "zone=0.01 m must hold one sphere layer"),
    (dict(r_core=0.15), r"r_core=0.15 m must be <= half the block's smallest side"),
])
def test_bad_walls_are_refused_before_any_body_is_added(kw, words):
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=STONE, name="table")
    with pytest.raises(ValueError, match=words):
        masonry_wall(b, **(WALL | GRADED | kw), material=STONE, base=table)
    assert not b.clumps and not b.interfaces
