"""Prisms on convex polygons and drums (issue 22, item 1): graded and edge-true as box_clump's boxes, mass
and inertia from the solid, joint faces in register, bad input refused before anything is allocated.

References that do not use the builders: closed forms of the solids' volumes and inertias, a direct
quadrature over the polygon, validation.stack (the drum's centroid), and box_clump itself (a rectangle).
"""

import hashlib
import math

import numpy as np
import pytest

from dem.model.box_clump import box_clump
from dem.model.drum_clump import drum_clump
from dem.model.lattice import ZONE_BASE, ZONE_TOP
from dem.model.prism_clump import prism_clump
from dem.model.sizing import ModelTooLarge
from validation.stack import Drum

TOL = 1e-12
"""Geometry is built from the same few operations as the reference: agreement to round-off."""

TRAPEZOID = [(-0.3, 0.0), (0.3, 0.0), (0.2, 1.0), (-0.2, 1.0)]  # a tapered pier, 0.6 m wide at its base


def _sorted(t):
    a = np.column_stack([np.round(t.centers, 12), t.radii, t.hull, t.zone])
    return a[np.lexsort(a.T[::-1])]


# sha256 of box_clump's centers, radii, hull, zone (and of the solid's inertia) recorded before the lattice
# helpers moved out of box_clump.py into dem/model/lattice.py (commit 0e17323): the box's spheres must stay
# byte-identical
BOX_HASHES = [
    (dict(width=0.25, height=1.0, thickness=0.754, r_core=0.025, r_base=0.005, r_top=0.005, base_zone=0.15,
          top_zone=0.15), 146320, "c9daa804ae9655f2468df2135fb57e2fff242363a1de0c920265d3cda748700c"),
    (dict(width=0.25, height=1.0, thickness=0.754, r_core=0.025, r_base=0.005, base_zone=0.15, edges="rounded"),
     69880, "46092e4249ae28425cd2729a8ff2680270c00c215f7926af93ecec3902464329"),
    (dict(width=1.6, height=9.6, thickness=5.0, r_core=0.2, r_base=0.08, r_top=0.08, base_zone=0.4, top_zone=0.4),
     7776, "e490e0b444d161d05ebef267c3e346cb436b06526bc643c858cb5fd26e0f7c3c"),
    (dict(width=232 * 1.6 / 14, height=2.0, thickness=5.0, r_core=0.2, r_base=0.08, base_zone=0.4,
          zone_step=(1.6 / 14, None)), 39777, "654c86e23f853522875a837751d58073ec813983148781b4e597e9c4b1198fd0"),
    (dict(width=0.3, height=0.5, thickness=0.2, r_core=0.03, r_top=0.01, top_zone=0.05, spacing_ratio=1.0),
     768, "19320f6681efa25d0f48e282afaaf303c983a3de2d882166cf74ce0a43f1da9b"),
]


@pytest.mark.parametrize("kw, count, digest", BOX_HASHES)
def test_box_clump_is_byte_identical_after_the_refactor(kw, count, digest):
    t = box_clump(**kw)
    h = hashlib.sha256()
    for a in (t.centers, t.radii, t.hull, t.zone):
        h.update(a.tobytes())
    m = t.mass_from_solid(mass=100.0)
    h.update(m.inertia.tobytes())
    h.update(m.center.tobytes())
    assert (t.sphere_count, h.hexdigest()) == (count, digest)


@pytest.mark.parametrize("kw", [dict(r_core=0.025, r_joint=0.005, zone=0.15), dict(r_core=0.03),
                                dict(r_core=0.025, r_joint=0.01, zone=0.05)])
def test_rectangular_prism_is_the_box(kw):
    """The rectangle ±W/2 × ±H/2 with joint zones on its horizontal edges packs as box_clump's box: the same
    spheres, hull flags and zones, and the same mass properties."""
    w, h, t = 0.25, 1.0, 0.754
    prism = prism_clump([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)], t, **kw)
    box_kw = dict(r_core=kw["r_core"])
    if "zone" in kw:
        box_kw |= dict(r_base=kw["r_joint"], r_top=kw["r_joint"], base_zone=kw["zone"], top_zone=kw["zone"])
    box = box_clump(w, h, t, **box_kw)
    assert np.array_equal(_sorted(prism), _sorted(box))
    a, b = prism.mass_from_solid(mass=503.0), box.mass_from_solid(mass=503.0)
    assert np.allclose(a.inertia, b.inertia, rtol=TOL, atol=TOL) and np.allclose(a.center, b.center, atol=TOL)


def _polygon_quadrature(vertices, n=1200):
    """Area, centroid and second moments of a convex polygon by the midpoint rule on an n × n grid."""
    v = np.asarray(vertices, float)
    lo, hi = v.min(0), v.max(0)
    xs = lo[0] + (np.arange(n) + 0.5) * (hi[0] - lo[0]) / n
    zs = lo[1] + (np.arange(n) + 0.5) * (hi[1] - lo[1]) / n
    x, z = np.meshgrid(xs, zs, indexing="ij")
    inside = np.ones_like(x, bool)
    for k in range(len(v)):
        a, b = v[k], v[(k + 1) % len(v)]
        inside &= (b[0] - a[0]) * (z - a[1]) - (b[1] - a[1]) * (x - a[0]) >= 0
    da = (hi[0] - lo[0]) * (hi[1] - lo[1]) / n**2
    x, z = x[inside], z[inside]
    area = inside.sum() * da
    xc, zc = x.mean(), z.mean()
    return area, xc, zc, ((x - xc) ** 2).sum() * da, ((z - zc) ** 2).sum() * da, ((x - xc) * (z - zc)).sum() * da


def test_prism_mass_properties_are_the_solid_s():
    """A skewed quadrilateral (so that I_xz ≠ 0): the prism's mass, centroid and inertia against a direct
    quadrature of the polygon (midpoint rule, 1200²: ~1e-3 relative from the cells the edges cut)."""
    quad = [(0.0, 0.0), (0.5, 0.1), (0.7, 0.6), (0.1, 0.8)]
    t = 0.3
    tpl = prism_clump(quad, t, r_core=0.02)
    area, xc, zc, jxx, jzz, jxz = _polygon_quadrature(quad)
    m = 1000.0
    mp = tpl.mass_from_solid(mass=m)
    assert tpl.solid.volume == pytest.approx(area * t, rel=2e-3)
    assert mp.center == pytest.approx([xc, 0.0, zc], abs=2e-3)
    per_area = m / area
    expected = np.array([[m * t * t / 12 + per_area * jzz, 0, -per_area * jxz], [0, per_area * (jxx + jzz), 0],
                         [-per_area * jxz, 0, m * t * t / 12 + per_area * jxx]])
    assert np.allclose(mp.inertia, expected, rtol=5e-3, atol=5e-3 * np.abs(expected).max())
    assert abs(mp.inertia[0, 2]) > 0.05 * mp.inertia[0, 0]


def test_drum_mass_properties_are_the_solid_s():
    """Cylinder: m = ρπR²H, I_zz = mR²/2, I_xx = m(3R² + H²)/12 about the centre; frustum: volume
    πH(R₁² + R₁R₂ + R₂²)/3 and centroid height (validation.stack.Drum, independent of dem)."""
    r, h, rho = 0.3, 0.27, 2700.0
    cyl = drum_clump(r, h, r_core=0.045, r_joint=0.015, zone=0.05).mass_from_solid(density=rho)
    m = rho * math.pi * r * r * h
    assert cyl.mass == pytest.approx(m, rel=TOL)
    assert np.allclose(cyl.inertia, np.diag([m * (3 * r * r + h * h) / 12] * 2 + [m * r * r / 2]), rtol=TOL)
    frustum = drum_clump(r, h, top_radius=0.24, r_core=0.045, r_joint=0.015, zone=0.05)
    ref = Drum(r, h, top_radius=0.24)
    assert frustum.solid.volume == pytest.approx(ref.volume, rel=TOL)
    assert frustum.mass_from_solid(density=rho).center[2] + h / 2 == pytest.approx(ref.centroid_height, rel=TOL)


def test_drum_is_edge_true():
    """The layer on each face is tangent to it and its ring stands on the face's rim: the lowest points are
    the bottom face, a sphere sits at (±R, 0) and (0, ±R); the top layer's ring has the top radius. A held
    horizontal acceleration a lifts the drum about the sphere at x = R when a/g > b'/(h' + r) with b' = R,
    h' = h − r (its centre r above the base, right over the rim): g R/h exactly."""
    r, h, rt, rj = 0.3, 0.27, 0.27, 0.015
    tpl = drum_clump(r, h, top_radius=rt, r_core=0.045, r_joint=rj, zone=0.05)
    c, rad = tpl.centers, tpl.radii
    bottom = np.isclose(c[:, 2] - rad, -h / 2, atol=TOL)
    top = np.isclose(c[:, 2] + rad, h / 2, atol=TOL)
    assert np.isclose((c[:, 2] - rad).min(), -h / 2) and np.isclose((c[:, 2] + rad).max(), h / 2)
    assert np.all(tpl.zone[bottom] == ZONE_BASE) and np.all(tpl.zone[top] == ZONE_TOP) and tpl.hull[bottom].all()
    rho_b = np.hypot(c[bottom, 0], c[bottom, 1])
    assert np.isclose(rho_b.max(), r) and np.isclose(np.hypot(c[top, 0], c[top, 1]).max(), rt)
    for x, y in ((r, 0), (-r, 0), (0, r), (0, -r)):
        assert np.any(np.isclose(c[bottom, 0], x, atol=TOL) & np.isclose(c[bottom, 1], y, atol=TOL))
    # every bottom sphere lies within the rim: the pivot about y is the sphere at x = R
    assert c[bottom, 0].max() == pytest.approx(r, abs=TOL)
    zg = tpl.mass_from_solid(density=2700.0).center[2]
    h_g = zg + h / 2  # height of the centre of mass above the base
    b_pivot, h_pivot = r, h_g - rj
    assert b_pivot / (h_pivot + rj) == pytest.approx(r / h_g, rel=TOL)
    # interior spheres are not hull
    deep = (np.abs(c[:, 2]) < h / 2 - 0.06) & (np.hypot(c[:, 0], c[:, 1]) < 0.2)
    assert deep.any() and not tpl.hull[deep].any()


def test_prism_is_edge_true_on_inclined_sides():
    """A trapezoid narrowing upwards and a wedge: the layer on the base face runs from vertex to vertex
    (its end spheres right over the vertices, their lowest points the vertices themselves), so the block
    uplifts about its own edge at a/g = b/h of the solid."""
    for poly in (TRAPEZOID, [(-0.3, 0.0), (0.3, 0.0), (0.0, 0.8)]):
        tpl = prism_clump(poly, 0.3, r_core=0.03, r_joint=0.01, zone=0.04)
        c, rad = tpl.centers, tpl.radii
        bottom = np.isclose(c[:, 2] - rad, 0.0, atol=TOL)
        assert np.isclose((c[:, 2] - rad).min(), 0.0)
        assert c[bottom, 0].min() == pytest.approx(-0.3, abs=TOL) and c[bottom, 0].max() == pytest.approx(0.3, abs=TOL)
        assert tpl.hull[bottom].all() and np.all(tpl.zone[bottom] == ZONE_BASE)
        mp = tpl.mass_from_solid(density=2500.0)
        # the pivot sphere's centre (0.3, ·, r): b' = 0.3 − x_G, h' = z_G − r, threshold b'/(h' + r)
        b_p, h_p = 0.3 - mp.center[0], mp.center[2] - 0.01
        assert b_p / (h_p + 0.01) == pytest.approx(0.3 / mp.center[2], rel=TOL)


def test_joint_faces_meet_in_register():
    """Two drums of one radius, and two voussoirs sharing a joint: the layer on one's face is the layer on
    the other's, sphere for sphere (in the face's own frame)."""
    lower = drum_clump(0.3, 0.27, r_core=0.045, r_joint=0.015, zone=0.05)
    upper = drum_clump(0.3, 0.35, top_radius=0.28, r_core=0.045, r_joint=0.015, zone=0.05)
    top = lower.centers[np.isclose(lower.centers[:, 2] + lower.radii, 0.135)][:, :2]
    bottom = upper.centers[np.isclose(upper.centers[:, 2] - upper.radii, -0.175)][:, :2]
    assert len(top) == len(bottom) > 300
    assert np.array_equal(top[np.lexsort(np.round(top, 12).T)], bottom[np.lexsort(np.round(bottom, 12).T)])
    # voussoirs k and k+1 of a ring: the joint at angle a is edge 1 of one (intrados → extrados at a) and
    # edge 3 of the other, run the other way
    ri, re, a = 0.9, 1.1, np.radians([20.0, 40.0, 60.0])

    def voussoir(a0, a1):
        return [(ri * np.cos(a1), ri * np.sin(a1)), (ri * np.cos(a0), ri * np.sin(a0)),
                (re * np.cos(a0), re * np.sin(a0)), (re * np.cos(a1), re * np.sin(a1))]

    v1 = prism_clump(voussoir(a[0], a[1]), 0.3, r_core=0.03, r_joint=0.01, zone=0.04, joints=(1, 3))
    v2 = prism_clump(voussoir(a[1], a[2]), 0.3, r_core=0.03, r_joint=0.01, zone=0.04, joints=(1, 3))
    d = np.array([np.cos(a[1]), np.sin(a[1])])  # along the joint
    n = np.array([-np.sin(a[1]), np.cos(a[1])])  # its normal, into voussoir 2

    def face(t, side):
        xz = t.centers[:, [0, 2]]
        on = np.isclose(side * (xz @ n) - t.radii, 0.0, atol=TOL) & (t.zone >= 3)
        pts = np.column_stack([xz[on] @ d, t.centers[on, 1]])
        return pts[np.lexsort(np.round(pts, 12).T)]

    f1, f2 = face(v1, -1), face(v2, 1)
    assert len(f1) > 50 and np.allclose(f1, f2, atol=TOL)


BAD_POLYGONS = [
    ([(0, 0), (1, 0)], "n >= 3"),
    ([(0, 0), (0, 1), (1, 1), (1, 0)], "clockwise"),
    ([(0, 0), (0.5, 0), (1, 0), (1, 1), (0, 1)], "collinear"),
    ([(0, 0), (1, 0), (0.5, 0.2), (1, 1), (0, 1)], "not convex"),
    ([(0, 0), (1, 0), (1, 0), (1, 1)], "coincide"),
    ([(math.cos(t), math.sin(t)) for t in np.radians([90, 234, 18, 162, 306])], "cross"),  # a pentagram
    ([(0, 0), (1, 0), (np.nan, 1)], "non-finite"),
]


@pytest.mark.parametrize("poly, words", BAD_POLYGONS)
def test_bad_polygons_are_refused(poly, words):
    with pytest.raises(ValueError, match="vertices must be a convex polygon.*" + words):
        prism_clump(poly, 0.3, r_core=0.02)


@pytest.mark.parametrize("call, words", [
    (lambda: prism_clump(TRAPEZOID, 0.0, r_core=0.02), "thickness must be a finite number > 0"),
    (lambda: prism_clump(TRAPEZOID, 0.3, r_core=-0.02), "r_core must be a finite number > 0"),
    (lambda: prism_clump(TRAPEZOID, 0.3, r_core=0.02, spacing_ratio=1.5), r"spacing_ratio must be in \(0, 1\]"),
    (lambda: prism_clump(TRAPEZOID, 0.3, r_core=0.02, r_joint=0.01, zone=0.01), "zone=0.01 m must hold one"),
    (lambda: prism_clump(TRAPEZOID, 0.3, r_core=0.02, r_joint=0.01, zone=0.6), "zone=0.6 m is too deep"),
    (lambda: prism_clump(TRAPEZOID, 0.3, r_core=0.02, r_joint=0.01, zone=0.05, joints=(4,)),
     r"joints must be distinct edge indices in \[0, 3\]"),
    (lambda: prism_clump(TRAPEZOID, 0.3, r_core=0.2), "r_core=0.2 m must be <= half the prism's smallest width"),
    (lambda: drum_clump(0.0, 0.3, r_core=0.02), "radius must be a finite number > 0"),
    (lambda: drum_clump(0.3, -1.0, r_core=0.02), "height must be a finite number > 0"),
    (lambda: drum_clump(0.3, 0.3, top_radius=0.0, r_core=0.02), "top_radius must be a finite number > 0"),
    (lambda: drum_clump(0.01, 0.3, r_core=0.005, r_joint=0.015, zone=0.04), "radius and top_radius must be >= r_joint"),
    (lambda: drum_clump(0.3, 0.3, r_core=0.04, r_joint=0.01, zone=0.15), r"zone \+ top_zone must be < height"),
])
def test_bad_dimensions_are_refused(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_huge_packings_are_refused_before_allocation():
    """A prism or drum whose sphere count would not fit in memory is refused with the estimate (as box_clump's
    boxes are, dem.model.sizing), at once: nothing of that size is allocated first."""
    with pytest.raises(ModelTooLarge, match="prism packing"):
        prism_clump(TRAPEZOID, 1e5, r_core=1e-3)
    with pytest.raises(ModelTooLarge, match="drum packing"):
        drum_clump(100.0, 1e5, r_core=1e-3)
