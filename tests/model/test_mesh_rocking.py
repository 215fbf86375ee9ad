"""The rocking geometry of a body from its mesh (issue 31, item 5; dem.model.mesh_rocking): the pivot edge it
tips over, its b, h, R, α, I_O, p, the uplift threshold g s/h and the restitution at an impact, against closed
forms (a box: Housner 1963) and validation.rocking's own formulas (which do not import dem)."""

import math

import numpy as np
import pytest

from dem.model.mesh_mass import MeshSolid
from dem.model.mesh_rocking import pivot_edge, support_polygon, uplift_ratio
from dem.model.mesh_shapes import box_mesh, prism_mesh, stone_mesh
from validation.rocking import RockingBlock, body_restitution, pivot_restitution

ROUND_OFF = 1e-12
"""Sums of a few products of metre-sized numbers."""


def _pivots(mesh, mass=100.0):
    s = MeshSolid(mesh.vertices, mesh.faces)
    mp = s.mass_properties(mass)
    return [pivot_edge(mesh.vertices, mp.center, mp.inertia, mp.mass, towards=d) for d in ((1, 0, 0), (-1, 0, 0))]


def test_a_box_is_housners_block():
    """W × H: b = W/2, h = H/2, I_O = m (W² + H²)/3, p² = 3g/(4R), e = 1 − 1.5 sin²α, uplift at W/H; the
    body is the rectangle of validation.rocking."""
    w, h, t, m = 0.25, 1.0, 0.754, 503.0
    plus, minus = _pivots(_box_on_floor(w, h, t), m)
    for e in (plus, minus):
        assert (e.b, e.h) == pytest.approx((w / 2, h / 2), rel=ROUND_OFF)
        assert e.inertia_o == pytest.approx(m * (w * w + h * h) / 3, rel=ROUND_OFF)
        assert e.uplift_ratio == pytest.approx(w / h, rel=ROUND_OFF)
        ref = RockingBlock.rectangle(w, h)
        assert e.p() == pytest.approx(ref.p, rel=ROUND_OFF) and e.alpha == pytest.approx(ref.alpha, rel=ROUND_OFF)
        assert e.housner_restitution() == pytest.approx(ref.restitution, rel=ROUND_OFF)
        assert e.restitution_onto(minus if e is plus else plus) == pytest.approx(ref.restitution, rel=ROUND_OFF)
    assert np.allclose(plus.axis, [0, 1, 0]) and np.allclose(minus.axis, [0, -1, 0])


def _box_on_floor(w, h, t):
    b = box_mesh(w, h, t)
    return type(b)(b.vertices + [0.0, 0.0, h / 2], b.faces, b.source)


def test_an_asymmetric_stone():
    """A stone's two pivots differ; from_body with each one's (m, R, α, I_O) is Housner's equation for it,
    and the impact that moves the pivot from one to the other conserves angular momentum about the new one
    (validation.rocking.pivot_restitution) — which for a symmetric body is body_restitution."""
    stone = stone_mesh(8)
    plus, minus = _pivots(stone, 83.0)
    assert abs(plus.b - minus.b) > 0.02  # not symmetric
    assert np.allclose(plus.axis, [0, 1, 0], atol=1e-12)  # the stone is turned so: its +x pivot along y
    block = RockingBlock.from_body(plus.mass, plus.radius, plus.alpha, plus.inertia_o)
    assert block.p == pytest.approx(plus.p(), rel=ROUND_OFF) and block.alpha == pytest.approx(plus.alpha)
    ref = pivot_restitution(plus.mass, plus.inertia_axis, (plus.b, plus.h), (-minus.b, minus.h))
    assert plus.restitution_onto(minus) == pytest.approx(ref, rel=ROUND_OFF)
    sym = pivot_restitution(plus.mass, plus.inertia_axis, (plus.b, plus.h), (-plus.b, plus.h))
    assert sym == pytest.approx(body_restitution(plus.mass, plus.radius, plus.alpha, plus.inertia_o), rel=1e-12)


def test_uplift_along_a_direction_not_normal_to_the_edge():
    """The ray from G's foot along d leaves the footprint at s; uplift at g s/h (moments about the edge),
    which for a square footprint pushed along its diagonal is g (W/2)√2 / h."""
    w, h = 0.4, 1.2
    poly, z0 = support_polygon(_box_on_floor(w, h, w).vertices)
    diag = uplift_ratio((0.0, 0.0, h / 2), h / 2, poly, (1.0, 1.0, 0.0))
    assert diag == pytest.approx(w / 2 * math.sqrt(2) / (h / 2), rel=ROUND_OFF)
    e = pivot_edge(_box_on_floor(w, h, w).vertices, (0.0, 0.0, h / 2), np.eye(3), 1.0, towards=(1.0, 1.0, 0.0))
    assert e.reach == pytest.approx(w / 2 * math.sqrt(2), rel=1e-9) and e.b == pytest.approx(w / 2, rel=1e-9)


def test_trapezoid_stele_pivots():
    """The stele: b = 0.15 m either way, h its centroid's height H (B + 2T)/(3 (B + T)) = 0.4667 m."""
    plus, minus = _pivots(prism_mesh([(-0.15, 0.0), (0.15, 0.0), (0.10, 1.0), (-0.10, 1.0)], 0.5))
    assert plus.b == pytest.approx(0.15) and plus.h == pytest.approx(1.0 * (0.3 + 0.4) / (3 * 0.5))


def test_a_body_not_over_its_base_is_refused():
    v = _box_on_floor(0.2, 1.0, 0.2).vertices
    with pytest.raises(ValueError, match="does not stand over the support polygon"):
        pivot_edge(v, (0.5, 0.0, 0.5), np.eye(3), 1.0)
    with pytest.raises(ValueError, match="inertia_o must be >= m R"):
        RockingBlock.from_body(1.0, 1.0, 0.3, 0.5)
