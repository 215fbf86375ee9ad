"""Narrow phase of a sphere against another body's solid (issue 29): its signed distance to the solid's convex
parts, on the device.

The solid and its rows are described in dem/model/contact_solid.py (the host's reference of the same distance, which
the tests compare with these kernels): a body's ``md.solid`` rows start at clump_param[c][CP_SOLID] (−1: the body has
no solid, and its contacts with other bodies are sphere to sphere): a header (parts, loop iterations of one
distance), then per part a header (kind,
vertices n, half thickness T/2 [m], bounding radius [m]), its frame's origin relative to the body's centre of mass
(body frame [m]), and n vertex rows (u, v) [m], counter-clockwise.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..model.contact_solid import PRISM
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
def _polygon(solid: ti.template(), row, n, edges, q):  # in:
    """For a 2-D point q and a part's convex polygon (n vertex rows from `row`, counter-clockwise, of which the
    first `edges` edges bound it): the largest n_k·(q − v_k) over its edges, that edge's outward unit normal, and
    the closest point of its boundary to q.

    In/out — in solid: the model's solid rows (md.solid).
    """
    smax = -HUGE
    nmax = ti.Vector([0.0, 0.0])
    best2 = HUGE
    closest = q
    for k in range(edges):
        a = _vertex(solid, row, k)
        e = _vertex(solid, row, (k + 1) % n) - a
        length2 = e.dot(e)
        nrm = ti.Vector([e[1], -e[0]]) / ti.sqrt(length2)
        s = (q - a).dot(nrm)
        if s > smax:
            smax = s
            nmax = nrm
        t = ti.min(ti.max((q - a).dot(e) / length2, 0.0), 1.0)
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
