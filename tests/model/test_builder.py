"""Clump templates, the graded box builder and mass properties (Itiola & El Shamy 2024, §2.2; Itiola & El Shamy 2024,
Eq. 13–16)."""

import math

import numpy as np
import pytest

from dem.model.box_clump import ZONE_BASE, box_clump
from dem.model.clump import spheres


def test_pena_packing_counts():
    # edges="rounded": this test is about that layout (every sphere inside the box, tangent to its faces);
    # tests/model/test_edges.py checks the default, edge-true one (146,320 balls, 3,570 in the bottom layer)
    t = box_clump(0.25, 1.0, 0.754, r_core=0.025, r_base=0.005, r_top=0.005, base_zone=0.15, top_zone=0.15,
                  edges="rounded")
    # Itiola & El Shamy 2024, Table 2 reports 132,231 balls for its packing; ours differs by < 3 %
    # (documented in box_clump.py)
    assert abs(t.sphere_count - 132_231) < 0.03 * 132_231
    bottom = (t.zone == ZONE_BASE) & np.isclose(t.centers[:, 2], t.centers[:, 2].min())
    assert bottom.sum() == 33 * 101
    # outer spheres are tangent to the faces; the bottom layer is hull
    assert np.isclose((t.centers[:, 0] + t.radii).max(), 0.125) and np.isclose((t.centers[:, 2] - t.radii).min(), -0.5)
    assert t.hull[bottom].all()
    # interior spheres are not hull: a sphere far from every face
    deep = np.all(np.abs(t.centers) < np.array([0.125, 0.377, 0.5]) - 0.05, axis=1)
    assert deep.any() and not t.hull[deep].any()


def test_mass_properties_from_spheres_match_004_eq13_16():
    # two spheres: closed-form mass, centre and inertia with the products of inertia
    t = spheres([[0, 0, 0], [0.1, 0.2, 0.0]], [0.05, 0.05])
    rho = 1000.0
    mp = t.mass_from_spheres(rho)
    m1 = rho * 4 / 3 * math.pi * 0.05**3
    assert mp.mass == pytest.approx(2 * m1)
    assert np.allclose(mp.center, [0.05, 0.1, 0.0])
    r = np.array([[-0.05, -0.1, 0.0], [0.05, 0.1, 0.0]])
    expected = sum(m1 * ((p @ p) * np.eye(3) - np.outer(p, p)) for p in r) + 2 * 0.4 * m1 * 0.05**2 * np.eye(3)
    assert np.allclose(mp.inertia, expected)
    assert mp.inertia[0, 1] != 0.0  # product of inertia kept


def test_solid_and_sphere_mass_properties_are_both_reported(ti_cpu):
    dem = ti_cpu
    t = box_clump(0.25, 1.0, 0.754, r_core=0.025, r_base=0.005, base_zone=0.15)
    b = dem.ModelBuilder()
    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5)
    b.add_clump(t, material=mat, mass=503.0, sphere_density=167.82)
    rep = b.clumps[0].report
    solid = np.array(rep["solid"]["inertia"])
    assert rep["solid"]["mass"] == 503.0 and solid[1, 1] == pytest.approx(503 / 12 * (0.25**2 + 1.0))
    assert rep["spheres"]["mass"] == pytest.approx(167.82 * t.sphere_volume())
    assert rep["used"] == "solid"
