"""ModelBuilder.place_on under joints "spheres" (sphere on sphere; under the default joints "solid" register does
not matter, tests/physics/test_joints.py): a body put on another with the sphere lattices in register rests on as
many contacts as a stack aligned by hand, sphere right over sphere; and what a body rests on is checked before a run
(too few sphere contacts: a note; two bodies overlapping: an error, as for walls).

The blocks: a lower block with a top zone of 10 mm spheres and an upper block with a base zone of 10 mm
spheres, both on a 15 mm lattice, 0.29 m and 0.245 m wide (18 and 15 spacings: centred on each other, the
lattices are half a spacing off). The upper block is added at an arbitrary horizontal offset, as a user
would, which puts its lattice off by (−3.4, +1.2) mm from register.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

R_SMALL, SPACING = 0.01, 0.015  # [m]
LOWER_W, UPPER_W, HEIGHT = 0.29, 0.245, 0.1  # [m]
OFFSET = (0.0041, -0.0063)  # [m]: where the user adds the upper block
ALIGNED = (0.0075, 0.0075)  # [m]: half a spacing, which puts the lattices in register (module docstring)


def _material(dem, mu=0.5):
    return dem.Material.hertz(shear_modulus=1e9, poisson=0.25, friction=mu, damping_normal=0.3, damping_shear=0.3,
                              density=2500.0)


def _stack(dem, mode: str, *, mu=0.5):
    """A builder with the two blocks: 'hand' (in register by construction), 'place' (place_on from OFFSET)
    or 'lower' (OFFSET, only lowered until it touches). Returns (builder, lower, upper, placement)."""
    from dem.model.placement import resting_height, world_hull

    mat = _material(dem, mu)
    # edges="rounded": the lattices of the module docstring (18 and 15 spacings between outer rows tangent to
    # the faces); with edge-true blocks the same widths give other spacings, and this test is about place_on
    lower_t = dem.box_clump(LOWER_W, HEIGHT, LOWER_W, r_core=0.02, r_top=R_SMALL, top_zone=0.03, edges="rounded")
    upper_t = dem.box_clump(UPPER_W, HEIGHT, UPPER_W, r_core=0.02, r_base=R_SMALL, base_zone=0.03, edges="rounded")
    b = dem.ModelBuilder(joints="spheres")  # sphere on sphere: where register matters
    lo = b.add_clump(lower_t, material=mat, position=(0, 0, HEIGHT / 2), name="lower")
    xy = ALIGNED if mode == "hand" else OFFSET
    up = b.add_clump(upper_t, material=mat, position=(xy[0], xy[1], 0.4), name="upper")
    placement = None
    if mode == "place":
        placement = b.place_on(up, lo)
    else:
        xl, rl = world_hull(b.clumps[lo])
        xu, ru = world_hull(b.clumps[up])
        b.clumps[up].position = b.clumps[up].position + [0.0, 0.0, resting_height(xl, rl, xu, ru)]
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    return b, lo, up, placement


def _pairs(b, lo, up):
    """Touching pairs (gap ≤ 1 % r) and the largest tilt of their centre lines from the vertical [rad]."""
    from dem.model.placement import SUPPORT_GAP, touching_pairs, world_hull

    xl, rl = world_hull(b.clumps[lo])
    xu, ru = world_hull(b.clumps[up])
    d = xu[:, None, :] - xl[None, :, :]
    dist = np.linalg.norm(d, axis=2)
    touch = dist - ru[:, None] - rl[None, :] <= SUPPORT_GAP * np.minimum(ru[:, None], rl[None, :])
    tilt = np.arccos(np.clip(d[touch][:, 2] / dist[touch], -1, 1))
    assert touching_pairs(xl, rl, xu, ru) == int(touch.sum())
    return int(touch.sum()), float(tilt.max())


def test_place_on_puts_the_lattices_in_register(ti_cpu):
    dem = ti_cpu
    n_hand, tilt_hand = _pairs(*_stack(dem, "hand")[:3])
    b, lo, up, placement = _stack(dem, "place")
    n_place, tilt_place = _pairs(b, lo, up)
    assert n_hand == 16 * 16  # every column of the upper block's bottom layer on a lower sphere
    assert n_place >= 0.9 * n_hand and placement.contact_count == n_place
    assert tilt_hand < 1e-9 and tilt_place < 1e-9  # sphere right over sphere: vertical contact normals
    # the horizontal move is less than one spacing in each direction, and lands on the lattice
    s = placement.shift
    assert np.all(np.abs(s[:2]) < SPACING)
    assert np.allclose((np.array(OFFSET) + s[:2] - np.array(ALIGNED)) / SPACING,
                       np.round((np.array(OFFSET) + s[:2] - np.array(ALIGNED)) / SPACING), atol=1e-9)
    # only lowered, the upper block touches as many pairs but on inclined normals: a face that pushes sideways
    n_low, tilt_low = _pairs(*_stack(dem, "lower")[:3])
    assert tilt_low > math.radians(5)


def _settle(dem, mode, mu, t_end=0.04):
    from dem.run.driver import run_scene
    from dem.run.probes import BodyMotion, Interface
    from dem.scenes.scene import Scene

    b, lo, up, _ = _stack(dem, mode, mu=mu)
    slot = b.add_interface("top", up, other=lo)
    model = b.finalize()
    weight = float(model.mass[up] * 9.81)
    probes = [Interface("top", slot, up, (0.0, 0.0, -HEIGHT / 2), UPPER_W, weight), BodyMotion("upper", up)]
    res = run_scene(Scene("stack", model, probes, 2e-5, t_end, 1e-3, {}), progress=False, plots=False)
    return res.history


def test_placed_stack_settles_like_the_aligned_one(ti_cpu):
    """After 40 ms under gravity (μ = 0.1): the placed stack carries the upper block on ≥ 90 % of the aligned
    stack's sphere contacts and stays put; the merely lowered one, whose normals lean by ≈ 10° (more than
    atan μ = 5.7°), slides off register."""
    dem = ti_cpu
    hand = _settle(dem, "hand", 0.1)
    placed = _settle(dem, "place", 0.1)
    lowered = _settle(dem, "lower", 0.1)
    assert hand["top_contacts"][-1] >= 200  # resting, not bouncing
    assert placed["top_contacts"][-1] >= 0.9 * hand["top_contacts"][-1]
    # static: the upper block's weight on the interface, to the dashpots' decay (V ratio within 2 %)
    assert placed["top_V_ratio"][-1] == pytest.approx(1.0, abs=0.02)
    assert abs(placed["upper_ux"][-1]) < 1e-5  # [m]: settling only (10 µm)
    assert abs(lowered["upper_ux"][-1]) > 1e-4  # [m]: 10× that, sliding down the inclined contacts


def test_support_note_and_body_overlap_error(ti_cpu, tmp_path):
    """A block balanced on its corner rests on one sphere: a note in summary.json (and a warning); a body
    started inside another is refused before anything runs, naming both."""
    import json

    from dem.model.body_contacts import support_notes
    from dem.model.initial_overlaps import check_initial_body_overlaps
    from dem.model.model import rotation_matrix
    from dem.run.driver import run_scene
    from dem.scenes.scene import Scene

    dem = ti_cpu
    mat = _material(dem)
    tpl = dem.box_clump(0.1, 0.1, 0.1, r_core=0.01)
    rot = rotation_matrix(np.array([0.3, 0.2, 0.0]))
    low = float(np.min((tpl.centers @ rot.T)[:, 2] - tpl.radii))
    b = dem.ModelBuilder(joints="spheres")  # sphere on sphere: where register matters
    b.add_clump(tpl, material=mat, orientation=rot, position=(0, 0, -low), name="corner")
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat)
    model = b.finalize()
    notes = support_notes(model)
    assert len(notes) == 1 and "body 'corner' rests on only 1 contact(s)" in notes[0]
    with pytest.warns(UserWarning, match="rests on only 1 contact"):
        run_scene(Scene("corner", model, [], 1e-5, 3e-5, 1e-5, {}), out_dir=tmp_path, progress=False, plots=False)
    assert json.loads((tmp_path / "summary.json").read_text())["notes"] == notes
    # an aligned stack is not flagged
    hand, _, _, _ = _stack(dem, "hand")
    assert support_notes(hand.finalize()) == []

    b2, lo, up, _ = _stack(dem, "hand")
    b2.clumps[up].position = b2.clumps[up].position - [0.0, 0.0, 0.003]  # 3 mm into the lower block
    with pytest.raises(ValueError, match="clump 'upper' starts inside clump 'lower'"):
        check_initial_body_overlaps(b2.finalize())
    check_initial_body_overlaps(hand.finalize())  # touching is fine
