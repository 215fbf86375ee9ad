"""Mass properties of a body from its mesh (issue 31, item 1): exact by the divergence theorem over the
triangles (dem.model.mesh_mass), against closed forms that do not use it — the box, the regular tetrahedron,
the prism on a regular n-gon (and the cylinder it tends to) — to round-off; and a body packed from a mesh
carries them (dem.model.mesh_clump: the template's solid is the mesh, not the spheres).
"""

import math

import numpy as np
import pytest

from dem.model.mesh_clump import mesh_clump
from dem.model.mesh_mass import MeshSolid
from dem.model.mesh_shapes import box_mesh, cylinder_mesh, prism_mesh, tetrahedron_mesh

ROUND_OFF = 1e-12
"""Relative agreement of sums of a few dozen to a few thousand products of metre-sized numbers (double
precision, 1.1e-16 each): far above the round-off, far below any error of the formula."""


def _rot(axis, angle):
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def test_box_anywhere_is_the_closed_form():
    """A 0.3 × 0.7 × 0.2 m box, turned by an arbitrary rotation and moved 1 km away: V = abc, G its centre,
    I = R diag(m(b² + c²)/12, …) Rᵀ."""
    w, h, t = 0.3, 0.7, 0.2
    box = box_mesh(w, h, t)
    rot = _rot((1.0, 2.0, -0.5), 0.7)
    shift = np.array([1000.0, -250.0, 30.0])
    solid = MeshSolid(box.vertices @ rot.T + shift, box.faces)
    assert solid.volume == pytest.approx(w * h * t, rel=ROUND_OFF)
    m = 42.0
    mp = solid.mass_properties(m)
    assert np.allclose(mp.center, shift, rtol=0, atol=ROUND_OFF * 1000.0)
    ref = rot @ np.diag([m * (t * t + h * h), m * (w * w + h * h), m * (w * w + t * t)]) / 12.0 @ rot.T
    assert np.allclose(mp.inertia, ref, rtol=0, atol=ROUND_OFF * np.abs(ref).max() * 1e3)  # 1 km: 3 digits lost
    # products of inertia included: the turned box's tensor is full
    assert abs(mp.inertia[0, 1]) > 0.1


def test_regular_tetrahedron():
    """Edge a: V = a³/(6√2), G the mean of the corners, I = m a²/20 about every axis through G."""
    a = 0.8
    corners = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], float) * a / (2 * math.sqrt(2))
    corners = corners @ _rot((0.3, -1.0, 0.2), 1.1).T + [0.5, 0.2, -0.3]
    solid = MeshSolid(*_arrays(tetrahedron_mesh(corners)))
    assert solid.volume == pytest.approx(a**3 / (6 * math.sqrt(2)), rel=ROUND_OFF)
    mp = solid.mass_properties(3.0)
    assert np.allclose(mp.center, corners.mean(axis=0), rtol=0, atol=ROUND_OFF)
    assert np.allclose(mp.inertia, 3.0 * a * a / 20 * np.eye(3), rtol=0, atol=ROUND_OFF)


def _arrays(mesh):
    return mesh.vertices, mesh.faces


@pytest.mark.parametrize("sides", [6, 1024])
def test_regular_prism_and_the_cylinder_it_tends_to(sides):
    """The prism on a regular n-gon of circumradius R, height H: A = (n/2) R² sin(2π/n), its polar moment
    A R² (2 + cos(2π/n))/6 (n triangles from the centre), so I_zz = m R² (2 + cos θ)/6 and I_xx = I_yy =
    m [R² (2 + cos θ)/12 + H²/12]; exact to round-off. With n = 1024 they are the cylinder's
    (π R² H, m R²/2, m (R²/4 + H²/12)) to the polygon's error 2π²/(3n²) = 6.3e-6."""
    r, h, m = 0.3, 1.1, 500.0
    solid = MeshSolid(*_arrays(cylinder_mesh(r, h, sides)))
    th = 2 * math.pi / sides
    assert solid.volume == pytest.approx(0.5 * sides * r * r * math.sin(th) * h, rel=ROUND_OFF)
    mp = solid.mass_properties(m)
    i_zz = m * r * r * (2 + math.cos(th)) / 6
    i_xx = m * (r * r * (2 + math.cos(th)) / 12 + h * h / 12)
    assert np.allclose(mp.inertia, np.diag([i_xx, i_xx, i_zz]), rtol=ROUND_OFF, atol=ROUND_OFF * i_zz)
    assert np.allclose(mp.center, 0.0, atol=ROUND_OFF)
    if sides == 1024:
        poly = 2 * math.pi**2 / (3 * sides**2)  # relative area deficit of the inscribed polygon, to leading order
        assert solid.volume == pytest.approx(math.pi * r * r * h, rel=1.01 * poly)
        assert mp.inertia[2, 2] == pytest.approx(0.5 * m * r * r, rel=2.01 * poly)
        assert mp.inertia[0, 0] == pytest.approx(m * (r * r / 4 + h * h / 12), rel=2.01 * poly)


def test_trapezoid_prism_is_the_polygon_formula():
    """A stele: the right prism on a trapezoid, against dem.model.solids.Prism (Green's theorem over the
    polygon, a different route to the same numbers)."""
    from dem.model.solids import Prism

    poly = [(-0.15, 0.0), (0.15, 0.0), (0.10, 1.0), (-0.10, 1.0)]
    ref = Prism(tuple(poly), 0.5).mass_properties(300.0)
    mp = MeshSolid(*_arrays(prism_mesh(poly, 0.5))).mass_properties(300.0)
    assert np.allclose(mp.center, ref.center, atol=ROUND_OFF)
    assert np.allclose(mp.inertia, ref.inertia, rtol=0, atol=ROUND_OFF * np.abs(ref.inertia).max())


def test_a_packed_body_carries_the_mesh_properties_not_the_spheres():
    """mesh_clump's template: mass_from_solid is the mesh's (a box: the closed form), whatever the spheres
    (two packings, one mass and inertia)."""
    w, h, t = 0.2, 0.4, 0.3
    tpl = mesh_clump(box_mesh(w, h, t), r_core=0.03, r_surface=0.015)
    mp = tpl.mass_from_solid(density=2500.0)
    m = 2500.0 * w * h * t
    assert mp.mass == pytest.approx(m, rel=ROUND_OFF)
    assert np.allclose(mp.inertia, m / 12 * np.diag([t * t + h * h, w * w + h * h, w * w + t * t]), rtol=ROUND_OFF,
                       atol=ROUND_OFF * m)
    other = mesh_clump(box_mesh(w, h, t), r_core=0.05, r_surface=0.02).mass_from_solid(density=2500.0)
    assert np.array_equal(other.inertia, mp.inertia) and other.mass == mp.mass
