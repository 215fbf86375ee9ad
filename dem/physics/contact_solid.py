"""Narrow phase of a sphere against another body's solid (issue 29): its signed distance to the solid's convex
parts, on the device.

The solid and its rows are described in dem/model/contact_solid.py (the host's reference of the same distance, which
the tests compare with these kernels): a body's ``md.solid`` rows start at clump_param[c][CP_SOLID] (−1: the body has
no solid, and its contacts with other bodies are sphere to sphere): a header (parts, loop iterations of one
distance), then per part a header (kind,
vertices n, half thickness T/2 [m], bounding radius [m]), its frame's origin relative to the body's centre of mass
(body frame [m]), and n vertex rows (u, v) [m], counter-clockwise.
"""

import math

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..model.contact_solid import FACE_COS, PRISM, SAME_AREA
from . import contact_geometry as CG
from .small_linalg import mat_vec

HUGE = 1e300


@ti.func
def solid_row(md: ti.template(), c):  # in:
    """First ``md.solid`` row of clump c's solid, −1 if it has none.

    In/out — in md: clump_param[c].
    """
    return ti.cast(md.clump_param[c][LY.CP_SOLID], ti.i32)


@ti.func
def _vertex(solid: ti.template(), row, k):  # in:
    """Vertex k of a part whose vertex rows start at `row` (2-D, [m]).

    In/out — in solid: the model's solid rows (md.solid).
    """
    v = solid[row + k]
    return ti.Vector([v[0], v[1]])


@ti.func
def _edge_normal(solid: ti.template(), row, k):  # in:
    """Outward unit normal of edge k (vertex k to k + 1) of a part whose vertex rows start at `row` (2-D, stored
    with the vertex: dem.model.contact_solid.device_rows).

    In/out — in solid: the model's solid rows (md.solid).
    """
    v = solid[row + k]
    return ti.Vector([v[2], v[3]])


@ti.func
def _polygon(solid: ti.template(), row, n, edges, q):  # in:
    """For a 2-D point q and a part's convex polygon (n vertex rows from `row`, counter-clockwise, of which the
    first `edges` edges bound it): the largest n_k·(q − v_k) over its edges, that edge's outward unit normal, and
    the closest point of its boundary to q when q is outside (q itself inside, where no caller needs it).

    Outside a convex polygon the closest boundary point lies on an edge that faces q (n_k·(q − v_k) > 0), so only
    those edges (one or two) are measured.

    In/out — in solid: the model's solid rows (md.solid).
    """
    smax = -HUGE
    nmax = ti.Vector([0.0, 0.0])
    for k in range(edges):
        nrm = _edge_normal(solid, row, k)
        s = (q - _vertex(solid, row, k)).dot(nrm)
        if s > smax:
            smax = s
            nmax = nrm
    closest = q
    if smax > 0.0:
        best2 = HUGE
        for k in range(edges):
            a = _vertex(solid, row, k)
            if (q - a).dot(_edge_normal(solid, row, k)) > 0.0:
                e = _vertex(solid, row, (k + 1) % n) - a
                t = ti.min(ti.max((q - a).dot(e) / e.dot(e), 0.0), 1.0)
                c = a + t * e
                d2 = (q - c).dot(q - c)
                if d2 < best2:
                    best2 = d2
                    closest = c
    return smax, nmax, closest


@ti.func
def _part_distance(solid: ti.template(), row, p):  # in:
    """Signed distance [m] of p (body frame, from the centre of mass [m]) to the part whose header is row `row`, and
    the unit normal (body frame) from the part towards p, or out of its nearest face when p is inside.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    o = solid[row + 1]
    x = p - ti.Vector([o[0], o[1], o[2]])
    dist = 0.0
    normal = ti.Vector([0.0, 0.0, 1.0])
    if ti.cast(hdr[0], ti.i32) == PRISM:
        half = hdr[2]
        q = ti.Vector([x[0], x[2]])
        smax, nmax, closest = _polygon(solid, row + 2, n, n, q)
        sy = ti.abs(x[1]) - half
        if smax <= 0.0 and sy <= 0.0:  # inside: the nearer of the polygon's faces and the slab's
            if smax >= sy:
                dist = smax
                normal = ti.Vector([nmax[0], 0.0, nmax[1]])
            else:
                dist = sy
                normal = ti.Vector([0.0, 1.0 if x[1] >= 0.0 else -1.0, 0.0])
        else:
            cq = q
            if smax > 0.0:
                cq = closest
            d = x - ti.Vector([cq[0], ti.min(ti.max(x[1], -half), half), cq[1]])
            dist = d.norm()
            if dist > 0.0:
                normal = d / dist
    else:  # a frustum: the meridian plane of x
        rho = ti.sqrt(x[0] * x[0] + x[1] * x[1])
        radial = ti.Vector([1.0, 0.0])
        if rho > 0.0:
            radial = ti.Vector([x[0], x[1]]) / rho
        q = ti.Vector([rho, x[2]])
        smax, nmax, closest = _polygon(solid, row + 2, n, n - 1, q)  # the last edge lies on the axis
        n2 = nmax
        dist = smax
        if smax > 0.0:
            d2 = q - closest
            dist = d2.norm()
            if dist > 0.0:
                n2 = d2 / dist
        normal = ti.Vector([n2[0] * radial[0], n2[0] * radial[1], n2[1]])
    return dist, normal


@ti.func
def solid_distance(solid: ti.template(), row0, p):  # in:
    """Signed distance [m] of p (body frame, from the centre of mass [m]) to the solid whose rows start at row0 (the
    least over its parts), and the unit normal, body frame, from the solid towards p.

    In/out — in solid: the model's solid rows (md.solid).
    """
    best = HUGE
    best_n = ti.Vector([0.0, 0.0, 1.0])
    row = row0 + 1
    for _k in range(ti.cast(solid[row0][0], ti.i32)):
        d, nrm = _part_distance(solid, row, p)
        if d < best:
            best = d
            best_n = nrm
        row += 2 + ti.cast(solid[row][1], ti.i32)
    return best, best_n


@ti.func
def solid_trips(solid: ti.template(), row0):  # in:
    """Loop iterations of one distance to the solid whose rows start at row0 (the block path's budget).

    In/out — in solid: the model's solid rows (md.solid).
    """
    return ti.cast(solid[row0][1], ti.i32)


@ti.func
def distance_to_solid(solid: ti.template(), x, pos, rot, row0):  # in:
    """Signed distance [m] of a point x [m] to the solid (rows from row0) of a body at pos [m] with attitude rot.

    In/out — in solid: the model's solid rows (md.solid).
    """
    d, _n = solid_distance(solid, row0, mat_vec(rot.transpose(), x - pos))
    return d


@ti.func
def sphere_solid(solid: ti.template(), x, r, body, row0):  # in:
    """A sphere of centre x [m] and radius r [m] against the solid (rows from row0) of `body` (a
    ``contact_geometry.Body``): its ``ContactGeometry`` without motion, the normal from the solid towards the sphere.

    In/out — in solid: the model's solid rows (md.solid).
    """
    p = mat_vec(body.rot.transpose(), x - body.pos)
    dist, n_body = solid_distance(solid, row0, p)
    g = CG.ContactGeometry(touching=0)
    overlap = r - dist
    if overlap > 0.0:
        normal = mat_vec(body.rot, n_body)
        g.touching = 1
        g.point = x - normal * (r - 0.5 * overlap)  # the middle of the overlap, as against a wall
        g.normal = normal
        g.overlap = overlap
        g.r_eff = r  # R̄ = R_ball, as against a wall (spec §2)
        g.ratio = overlap / r
    return g


@ti.func
def _take(area, best_gap, cand_area, gap, aligned):
    """The face so far (its area [m²], its plane's distance from the point [m]) or this one, if it is aligned and
    nearer."""
    if aligned and gap < best_gap:
        area = cand_area
        best_gap = gap
    return area, best_gap


@ti.func
def face_area(solid: ti.template(), row0, p, d):  # in:
    """Area [m²] of the flat face of the solid (rows from row0) that meets a contact at p (body frame, from the
    centre of mass [m]) whose outward normal is d (unit, body frame): of the faces within 10° of d, the one whose
    plane is nearest p; −1 when none is (an edge, a corner, a drum's mantle). dem.model.contact_solid.ContactSolid.
    face_area is the host's.

    In/out — in solid: the model's solid rows (md.solid).
    """
    area = -1.0
    best_gap = HUGE
    row = row0 + 1
    for _k in range(ti.cast(solid[row0][0], ti.i32)):
        hdr = solid[row]
        n = ti.cast(hdr[1], ti.i32)
        o = solid[row + 1]
        x = p - ti.Vector([o[0], o[1], o[2]])
        if ti.cast(hdr[0], ti.i32) == PRISM:
            half = hdr[2]
            for k in range(n):
                n2 = _edge_normal(solid, row + 2, k)
                if d[0] * n2[0] + d[2] * n2[1] > FACE_COS:  # the side face of edge k looks along d
                    a = _vertex(solid, row + 2, k)
                    gap = ti.abs(x[0] * n2[0] + x[2] * n2[1] - n2.dot(a))
                    length = (_vertex(solid, row + 2, (k + 1) % n) - a).norm()
                    area, best_gap = _take(area, best_gap, length * 2.0 * half, gap, True)
            area, best_gap = _take(area, best_gap, o[3], ti.abs(x[1] - half), d[1] > FACE_COS)
            area, best_gap = _take(area, best_gap, o[3], ti.abs(-x[1] - half), -d[1] > FACE_COS)
        else:
            lo = _vertex(solid, row + 2, 1)  # (R₀, −h/2)
            hi = _vertex(solid, row + 2, 2)  # (R₁, h/2)
            area, best_gap = _take(area, best_gap, math.pi * lo[0] * lo[0], ti.abs(x[2] - lo[1]), -d[2] > FACE_COS)
            area, best_gap = _take(area, best_gap, math.pi * hi[0] * hi[0], ti.abs(x[2] - hi[1]), d[2] > FACE_COS)
        row += 2 + n
    return area


@ti.func
def sphere_side_share(own, other, own_first):
    """The share [-] of the stiffness a sphere's contact takes against the other body's face, from the areas [m²]
    of its own body's face and the other's (docs/joints.md): the smaller face's spheres carry the joint (1; the
    larger's, 0); of two faces of one size, the first body's (own_first = 1: the sphere's body is the entry's a, the
    lower index); anything that is not face on face, ½ each side."""
    share = 0.5
    if own > 0.0 and other > 0.0:
        share = 1.0 if own_first == 1 else 0.0
        if own < other * (1.0 - SAME_AREA):
            share = 1.0
        elif own > other * (1.0 + SAME_AREA):
            share = 0.0
    return share
