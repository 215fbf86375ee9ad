"""The arch builder (issue 22, item 5): voussoirs as edge-true prisms on their quadrilaterals, in register
joint on joint, named, every joint recorded with its normal and tangent; bad arches refused."""

import math

import numpy as np
import pytest

from dem.model.arch import abutment_polygon, arch, voussoir_polygons
from dem.model.body_contacts import support_notes
from dem.model.materials import Material
from dem.model.model import ModelBuilder
from dem.model.placement import touching_pairs, world_hull
from dem.model.polygon import moments

STONE = Material.hertz(young=50e9, poisson=0.25, friction=0.8, damping_normal=0.15, damping_shear=0.15,
                       density=2200.0, damping_mass="shared")
KW = dict(radius=1.0, thickness=0.15, voussoirs=9, depth=0.3, material=STONE, r_core=0.025, r_joint=0.01,
          zone=0.035)


def _arch(**kw):
    b = ModelBuilder(gravity=(0.0, 0.0, -9.81))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=STONE, name="table")
    return b, arch(b, base=table, **(KW | kw))


def test_voussoirs_are_the_arch_s_quadrilaterals():
    b, ar = _arch()
    assert ar.body_names == tuple(f"voussoir{k}" for k in range(1, 10))
    assert [j.name for j in ar.joints] == [f"joint{k}" for k in range(10)]
    polys = voussoir_polygons(1.0, 0.15, 9)
    for c, poly in zip(ar.bodies, polys):
        spec = b.clumps[c]
        pm = moments(poly)
        assert spec.mass_props.mass == pytest.approx(2200.0 * 0.3 * pm.area, rel=1e-12)
        # the semicircle's springings on the table: its centre at table height
        assert spec.position[[0, 2]] == pytest.approx(pm.centroid, abs=1e-12)
    # a voussoir is lighter than its annular sector by sin Δ / Δ (module docstring)
    delta = math.pi / 9
    assert moments(polys[0]).area == pytest.approx(delta / 2 * (1.075**2 - 0.925**2) * math.sin(delta) / delta)


def test_joints_meet_sphere_on_sphere_and_carry_their_normals():
    b, ar = _arch()
    for j in ar.joints[1:-1]:
        xl, rl = world_hull(b.clumps[j.lower])
        xu, ru = world_hull(b.clumps[j.upper])
        n = np.asarray(j.normal)
        on_u = np.isclose((xu - (b.clumps[j.upper].position + j.center_body)) @ n - ru, 0.0, atol=1e-9)
        on_l = np.isclose((xl - (b.clumps[j.upper].position + j.center_body)) @ n + rl, 0.0, atol=1e-9)
        assert on_u.sum() == on_l.sum() > 50
        assert touching_pairs(xu[on_u], ru[on_u], xl[on_l], rl[on_l], gap=1e-9) == on_u.sum()
        # the normal points into the upper voussoir, the tangent along the joint, outwards
        assert (b.clumps[j.upper].position - b.clumps[j.lower].position) @ n > 0
        mid = b.clumps[j.upper].position + j.center_body
        assert np.asarray(j.tangent) @ np.array([mid[0], 0.0, mid[2]]) == pytest.approx(1.0, abs=1e-12)
    assert ar.joints[0].normal == pytest.approx((0.0, 0.0, 1.0)) and ar.joints[0].lower is None
    assert not support_notes(b.finalize())


def test_segmental_arch_stands_on_its_abutments():
    b, ar = _arch(embrace=math.radians(120), abutment_height=0.4)
    assert ar.body_names[-2:] == ("abutment_right", "abutment_left")
    names = [j.name for j in ar.joints]
    assert names[-2:] == ["abutment_right_base", "abutment_left_base"]
    right = abutment_polygon(1.0, 0.15, math.radians(120), 0.4, left=False)
    assert right[:, 1].min() == pytest.approx(0.925 * math.sin(math.radians(30)) - 0.4)
    # the abutments' feet on the table, the arch's springings on their inclined tops
    for c in ar.bodies[-2:]:
        tpl = b.clumps[c].template
        low = (b.clumps[c].position - b.clumps[c].mass_props.center)[2] + (tpl.centers[:, 2] - tpl.radii).min()
        assert low == pytest.approx(0.0, abs=1e-12)
    assert ar.joints[0].lower == ar.bodies[-2] and ar.joints[9].lower == ar.bodies[-1]
    assert not support_notes(b.finalize())


@pytest.mark.parametrize("kw, words", [
    (dict(voussoirs=0), "voussoirs must be an integer >= 1"),
    (dict(thickness=2.5), "thickness must be < 2 × radius"),
    (dict(embrace=math.radians(120)), "needs abutments"),
    (dict(embrace=4.0), r"embrace must be in \(0, π\]"),
    (dict(abutment_height=-1.0), "abutment_height must be >= 0"),
    (dict(depth=0.0), "depth must be a finite number > 0"),
])
def test_bad_arches_are_refused(kw, words):
    with pytest.raises(ValueError, match=words):
        _arch(**kw)
