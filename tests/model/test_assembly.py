"""Assemblies (issue 22, item 2): stack and column put their blocks one on another in register, name each
body, and record each joint as an interface with the weight it carries (references: sums of the solids'
masses, the drums' own face layers)."""

import numpy as np
import pytest

from dem.model.assembly import Capital, Piece, column, face, in_register, stack
from dem.model.body_contacts import support_notes
from dem.model.box_clump import box_clump
from dem.model.drum_clump import drum_clump
from dem.model.materials import Material
from dem.model.model import ModelBuilder
from dem.model.placement import touching_pairs, world_hull

G = 9.81
MARBLE = Material.hertz(young=50e9, poisson=0.25, friction=0.7, damping_normal=0.15, damping_shear=0.15,
                        density=2700.0, damping_mass="shared")
COARSE = dict(r_core=0.04, r_joint=0.02, zone=0.06)  # zone > r_core: the core spheres stay off the faces


def _column(**kw):
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0.1), (0, 0, 1), material=MARBLE, name="table")
    args = dict(drums=4, height=1.2, radius=0.2, top_radius=0.16, material=MARBLE, base=table) | COARSE | kw
    return b, column(b, **args)


def _face_pairs(b, lower, upper):
    """Touching sphere pairs between the top layer of `lower` and the bottom layer of `upper` (world)."""
    xl, rl = world_hull(b.clumps[lower])
    xu, ru = world_hull(b.clumps[upper])
    top = xl[:, 2] + rl > (xl[:, 2] + rl).max() - 1e-9
    bottom = xu[:, 2] - ru < (xu[:, 2] - ru).min() + 1e-9
    return touching_pairs(xl[top], rl[top], xu[bottom], ru[bottom], gap=1e-9), int(bottom.sum())


def test_column_names_bodies_and_records_every_joint():
    cap = Capital(echinus_height=0.1, echinus_radius=0.2, abacus_width=0.45, abacus_height=0.1)
    b, col = _column(capital=cap, name="c1")
    assert col.body_names == ("c1_drum1", "c1_drum2", "c1_drum3", "c1_drum4", "c1_capital")
    assert [b.clumps[c].name for c in col.bodies] == list(col.body_names)
    assert [j.name for j in col.joints] == [f"c1_joint{k}" for k in range(5)]
    # joint k carries blocks k and above: the sum of the solids' masses (mass from the solid) times g
    masses = np.array([b.clumps[c].mass_props.mass for c in col.bodies])
    assert np.allclose([j.load for j in col.joints], G * np.cumsum(masses[::-1])[::-1], rtol=1e-12)
    drum1 = drum_clump(0.2, 0.3, top_radius=0.19, **COARSE)
    assert masses[0] == pytest.approx(2700.0 * drum1.solid.volume, rel=1e-12)
    # joints stand at the drum heights above the table; each face is the narrower of the two (the taper)
    assert [j.height for j in col.joints] == pytest.approx([0.1, 0.4, 0.7, 1.0, 1.3], abs=1e-9)
    assert [j.width for j in col.joints] == pytest.approx([0.4, 0.38, 0.36, 0.34, 0.32], abs=1e-9)
    assert col.top_height == pytest.approx(1.5, abs=1e-9)
    # the joint's centre is the middle of the upper block's bottom face, in its body frame
    for j in col.joints[:4]:
        spec = b.clumps[j.upper]
        assert spec.position[2] + j.center_body[2] == pytest.approx(j.height, abs=1e-9)
        assert np.allclose(j.center_body[:2], 0.0, atol=1e-12)
    # every interface is the model's
    assert {j.name for j in col.joints} <= {n for n, *_ in b.interfaces}


def test_drums_meet_sphere_on_sphere():
    """Drums of one face radius carry one layer on that face: every sphere of the upper drum's bottom layer
    rests on one of the lower drum's top layer, just touching (no overlap, no gap), and no body rests on
    fewer than five contacts (dem.model.body_contacts.support_notes)."""
    b, col = _column(capital=Capital(0.1, 0.2, 0.45, 0.1))
    for lo, up in zip(col.bodies[:-1], col.bodies[1:]):
        assert in_register(b.clumps[lo].template, b.clumps[up].template)
        pairs, n = _face_pairs(b, lo, up)
        assert pairs == n > 100
    assert not support_notes(b.finalize())


def test_stack_of_unequal_blocks_is_put_in_register():
    """Boxes of different widths (their lattices differ: 18 and 11 columns) go through place_on: the upper
    one is moved sideways within place_on's search radius, 1.5 × the two radii, to where the lattices agree
    best, and rests on many sphere contacts."""
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=MARBLE, name="table")
    pieces = [Piece(box_clump(0.5, 0.3, 0.5, r_core=0.04, r_top=0.02, top_zone=0.04), "plinth"),
              Piece(box_clump(0.3, 0.6, 0.3, r_core=0.04, r_base=0.02, base_zone=0.04), "block", mass=120.0)]
    st = stack(b, pieces, material=MARBLE, base=table, position=(1.0, 2.0))
    assert not in_register(pieces[0].template, pieces[1].template)
    assert b.clumps[st.bodies[1]].mass_props.mass == 120.0
    shift = b.clumps[st.bodies[1]].position[:2] - np.array([1.0, 2.0])
    assert np.all(np.abs(shift) <= 1.5 * (0.02 + 0.02) + 1e-12)
    model = b.finalize()
    assert not support_notes(model)
    assert st.joints[1].width == pytest.approx(0.3, abs=1e-9)


def test_monolithic_column_is_one_body_with_the_drums_solid():
    b, col = _column(monolithic=True)
    assert col.body_names == ("shaft",) and len(col.joints) == 1
    parts = [drum_clump(r0, 0.3, top_radius=r1, **COARSE) for r0, r1 in ((0.2, 0.19), (0.19, 0.18), (0.18, 0.17),
                                                                     (0.17, 0.16))]
    spec = b.clumps[col.bodies[0]]
    assert spec.mass_props.mass == pytest.approx(2700.0 * sum(p.solid.volume for p in parts), rel=1e-12)
    assert spec.template.sphere_count == sum(p.sphere_count for p in parts)
    # its centre of mass is the volume-weighted mean of the drums' (each 0.3 m above the one below)
    zc = sum(p.solid.volume * (p.mass_from_solid(density=1.0).center[2] + 0.15 + 0.3 * k)
             for k, p in enumerate(parts)) / sum(p.solid.volume for p in parts)
    assert spec.mass_props.center[2] == pytest.approx(zc, abs=1e-12)
    assert face(spec.template, top=False)[0] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("call, words", [
    (lambda b, t: column(b, drums=0, height=1.0, radius=0.2, material=MARBLE, base=t, **COARSE),
     "drums must be an integer >= 1"),
    (lambda b, t: column(b, drums=2, height=-1.0, radius=0.2, material=MARBLE, base=t, **COARSE),
     "height must be a finite number > 0"),
    (lambda b, t: column(b, drums=2, height=1.0, radius=0.2, material=MARBLE, base=t + 1, **COARSE),
     r"base must be a wall index in \[0, 1\)"),
    (lambda b, t: stack(b, [], material=MARBLE), "at least one piece"),
    (lambda b, t: stack(b, [Piece(drum_clump(0.2, 0.3, r_core=0.04), "a")] * 2, material=MARBLE),
     "names must be distinct"),
    (lambda b, t: column(b, drums=2, height=1.0, radius=0.2, material=MARBLE, capital=Capital(0.1, 0.2, 0.1, 0.1),
                         **COARSE), "abacus_width must be >="),
])
def test_bad_assemblies_are_refused(call, words):
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=MARBLE, name="table")
    with pytest.raises(ValueError, match=words):
        call(b, table)


def test_column_settles_carrying_its_weight(ti_cpu):
    """Three coarse drums and a capital settle on the table: each joint's vertical resultant is the weight
    above it, the eccentricities are zero and no drum tilts. Shared dashpot mass (docs/damping.md): with
    "body" dashpots a stack of drums needs Δt ≲ 1/(β√N ω) (the dashpots coupling two bodies are explicit in
    the other's velocity); the first axial mode of the stack rings with ζ = β ω₁/ω_I < β and has decayed to
    < 1 % by 0.4 s (measured below), hence the 2 % bound."""
    from dem.run.assembly_probes import assembly_probes
    from dem.run.driver import run_scene
    from dem.scenes.scene import Scene

    b, col = _column(drums=3, height=0.9, capital=Capital(0.1, 0.2, 0.45, 0.1))
    model = b.finalize()
    res = run_scene(Scene("column", model, assembly_probes(col), 5e-5, 0.4, 0.01, {}), progress=False,
                    plots=False)
    h = res.history
    for j in col.joints:
        assert h[f"{j.name}_V_ratio"][-1] == pytest.approx(1.0, abs=0.02), j.name
        assert abs(h[f"{j.name}_ecc"][-1]) < 1e-6
    for name in col.body_names:
        assert np.max(np.abs(h[f"{name}_theta_deg"])) < 1e-9
    assert res.summary["max_energy_error"] < 1e-2
