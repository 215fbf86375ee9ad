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
from ..model.contact_solid import (
    AT_FACE,
    CARRY,
    FACE_CODE,
    FACE_COS,
    GENERAL,
    IDLE,
    MAX_TURN,
    PRISM,
    SAME_AREA,
    SHARE_HINT,
    SHARE_SPAN,
)
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
def _edge_max(solid: ti.template(), row, edges, q):  # in:
    """For a 2-D point q and a part's convex polygon (vertex rows from `row`, of which the first `edges` edges
    bound it): the largest n_k·(q − v_k) over its edges and that edge k (the first of equals).

    In/out — in solid: the model's solid rows (md.solid).
    """
    smax = -HUGE
    kmax = 0
    for k in range(edges):
        s = (q - _vertex(solid, row, k)).dot(_edge_normal(solid, row, k))
        if s > smax:
            smax = s
            kmax = k
    return smax, kmax


@ti.func
def _polygon(solid: ti.template(), row, n, edges, q):  # in:
    """For a 2-D point q and a part's convex polygon (n vertex rows from `row`, counter-clockwise, of which the
    first `edges` edges bound it): the largest n_k·(q − v_k) over its edges, that edge's outward unit normal, and
    the closest point of its boundary to q when q is outside (q itself inside, where no caller needs it).

    Outside a convex polygon the closest boundary point lies on an edge that faces q (n_k·(q − v_k) > 0), so only
    those edges (one or two) are measured.

    In/out — in solid: the model's solid rows (md.solid).
    """
    smax, kmax = _edge_max(solid, row, edges, q)
    nmax = _edge_normal(solid, row, kmax)
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
def _face_margin(solid: ti.template(), row, p):  # in:
    """How far [m] inside the boundary of a flat face of the part whose header is row `row` lies the projection of p
    (body frame, from the centre of mass [m]), when p is outside the part beyond that face's plane and its
    projection lies in the face (then the projection is p's closest point on the part); ≤ 0 otherwise (p nearest an
    edge, a corner or a drum's mantle, or inside); and that face's index in the part (prism: side faces 0 … n − 1,
    then +y, −y; frustum: base, top). dem.model.contact_solid.ContactSolid.face_margin is the host's.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    o = solid[row + 1]
    x = p - ti.Vector([o[0], o[1], o[2]])
    margin = -1.0
    face = 0
    if ti.cast(hdr[0], ti.i32) == PRISM:
        half = hdr[2]
        q = ti.Vector([x[0], x[2]])
        smax, k = _edge_max(solid, row + 2, n, q)
        inside_slab = half - ti.abs(x[1])
        if smax <= 0.0 and inside_slab < 0.0:  # over a slab face: the distance to the polygon's boundary
            margin = -smax
            face = n if x[1] > 0.0 else n + 1
        elif smax > 0.0 and inside_slab >= 0.0:  # beyond the side face of edge k: within its rectangle?
            a = _vertex(solid, row + 2, k)
            e = _vertex(solid, row + 2, (k + 1) % n) - a
            length = e.norm()
            t = (q - a).dot(e) / length
            margin = ti.min(ti.min(t, length - t), inside_slab)
            face = k
    else:
        lo = _vertex(solid, row + 2, 1)  # (R₀, −h/2)
        hi = _vertex(solid, row + 2, 2)  # (R₁, h/2)
        rho = ti.sqrt(x[0] * x[0] + x[1] * x[1])
        if x[2] > hi[1]:
            margin = hi[0] - rho
            face = 1
        elif x[2] < lo[1]:
            margin = lo[0] - rho
    return margin, face


@ti.func
def _face_plane(solid: ti.template(), row, face, p):  # in:
    """The signed distance [m] of p (body frame, from the centre of mass [m]) to the plane of face `face` of the part
    whose header is row `row` (:func:`_face_margin`'s numbering), and its outward unit normal (body frame).

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    o = solid[row + 1]
    x = p - ti.Vector([o[0], o[1], o[2]])
    dist = 0.0
    normal = ti.Vector([0.0, 0.0, 1.0])
    if ti.cast(hdr[0], ti.i32) == PRISM:
        if face < n:
            n2 = _edge_normal(solid, row + 2, face)
            dist = x[0] * n2[0] + x[2] * n2[1] - n2.dot(_vertex(solid, row + 2, face))
            normal = ti.Vector([n2[0], 0.0, n2[1]])
        elif face == n:
            dist = x[1] - hdr[2]
            normal = ti.Vector([0.0, 1.0, 0.0])
        else:
            dist = -x[1] - hdr[2]
            normal = ti.Vector([0.0, -1.0, 0.0])
    elif face == 1:
        dist = x[2] - _vertex(solid, row + 2, 2)[1]
    else:
        dist = _vertex(solid, row + 2, 1)[1] - x[2]
        normal = ti.Vector([0.0, 0.0, -1.0])
    return dist, normal


@ti.func
def _plane_of(solid: ti.template(), row, g, q, x):  # in:
    """The distance [m] of a point to the plane of face g of the part whose header is row `row` and its unit normal
    (3-vector): a prism's side g < n at q = (x, z), its slab faces n (+y), n + 1 (−y) at x (part frame); a frustum's
    meridian edge g at q = (ρ, z), its normal in that plane (the third component 0). As the host's _face_planes.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    value = 0.0
    normal = ti.Vector([0.0, 1.0, 0.0])
    prism = ti.cast(hdr[0], ti.i32) == PRISM
    if g < n:
        n2 = _edge_normal(solid, row + 2, g)
        value = (q - _vertex(solid, row + 2, g)).dot(n2)
        normal = ti.Vector([n2[0], 0.0, n2[1]])
        if not prism:
            normal = ti.Vector([n2[0], n2[1], 0.0])
    elif g == n:
        value = x[1] - hdr[2]
    else:
        value = -x[1] - hdr[2]
        normal = ti.Vector([0.0, -1.0, 0.0])
    return value, normal


@ti.func
def _face_rules(solid: ti.template(), row, face, p, reach):  # in:
    """Whether the plane of face `face` (:func:`_face_margin`'s numbering) of the part whose header is row `row`
    stays the part's largest face-plane distance wherever p (body frame, from the centre of mass [m]) moves by less
    than `reach` [m], inside the part as well as outside: each plane's distance changes by less than the reach (a
    frustum's in its meridian plane: ρ is 1-Lipschitz), two planes' difference by less than the reach × |n_F − n_G|.
    Inside a convex part its signed distance is the largest plane distance (:func:`_part_distance`), so over F the
    sphere may then come inside and F's plane is still its distance. dem.model.contact_solid.ContactSolid.face_rules
    is the host's.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    o = solid[row + 1]
    x = p - ti.Vector([o[0], o[1], o[2]])
    q = ti.Vector([x[0], x[2]])
    planes = n + 2  # a prism's sides and its two slab faces
    f = face
    if ti.cast(hdr[0], ti.i32) != PRISM:
        q = ti.Vector([ti.sqrt(x[0] * x[0] + x[1] * x[1]), x[2]])
        planes = n - 1  # the last meridian edge lies on the axis
        f = 2 * face  # base, top: meridian edges 0 and 2
    vf, nf = _plane_of(solid, row, f, q, x)
    ok = True
    for g in range(planes):
        if g != f:
            vg, ng = _plane_of(solid, row, g, q, x)
            if vf - vg <= reach * (nf - ng).norm():
                ok = False
    return ok


@ti.func
def _face_distance(solid: ti.template(), row, face, p):  # in:
    """The distance [m] of p (body frame, from the centre of mass [m]) to face `face` of the part whose header is row
    `row` (:func:`_face_margin`'s numbering), the face with its rim, and the unit normal (body frame) from its
    closest point towards p: its plane's distance and normal (:func:`_face_plane`) where p lies over the face, else
    to the closest point of its rim. The solid's distance wherever p's closest point on the solid lies in that face
    or on its rim (:func:`_closed_face`). A prism's two slab faces are taken as planes (the search names them only
    over their inside).

    In/out — in solid: the model's solid rows (md.solid).
    """
    dist, normal = _face_plane(solid, row, face, p)
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    o = solid[row + 1]
    x = p - ti.Vector([o[0], o[1], o[2]])
    half = hdr[2]
    prism = ti.cast(hdr[0], ti.i32) == PRISM
    k = face
    rim = 0.0  # a frustum: its face's radius [m]
    if not prism:
        k = 2 * face  # the meridian edge: base 0, top 2
        rim = _vertex(solid, row + 2, 1 + face)[0]
    if face < n:  # (a prism's slab faces are n, n + 1)
        over = True
        q = ti.Vector([x[0], x[2]])
        a = _vertex(solid, row + 2, k)
        e = _vertex(solid, row + 2, (k + 1) % n) - a
        if prism:
            u = (q - a).dot(e)
            over = u >= 0.0 and u <= e.dot(e) and ti.abs(x[1]) <= half
        else:
            over = x[0] * x[0] + x[1] * x[1] <= rim * rim
        if not over:  # the closest point of the rim: the edge's in the polygon's (the meridian) plane
            radial = ti.Vector([1.0, 0.0])
            if not prism:
                rho = ti.sqrt(x[0] * x[0] + x[1] * x[1])
                radial = ti.Vector([x[0], x[1]]) / rho
                q = ti.Vector([rho, x[2]])
            t = ti.min(ti.max((q - a).dot(e) / e.dot(e), 0.0), 1.0)
            c = a + t * e
            if prism:  # as _part_distance
                d = x - ti.Vector([c[0], ti.min(ti.max(x[1], -half), half), c[1]])
                dist = d.norm()
                if dist > 0.0:
                    normal = d / dist
            else:
                d2 = q - c
                dist = d2.norm()
                if dist > 0.0:
                    n2 = d2 / dist
                    normal = ti.Vector([n2[0] * radial[0], n2[0] * radial[1], n2[1]])
    return dist, normal


@ti.func
def _face_bounds(s, turn):
    """For a contact normal that turns by less than ψ (sin ψ = s) in the solid's frame and less than ψ + `turn`
    [rad] in the sphere's body's: cos(10° + ψ), its bound for the sphere's body, and bounds of cos(10° − ψ) and of
    cos(10° − ψ − turn), 2 where that angle may be ≤ 0 (dem.model.contact_solid._face_bounds is the host's). A face
    whose normal lies within the first (the third) angle of the normal now may (surely does) meet it within 10°
    till the next search."""
    sin_face = ti.sqrt(1.0 - FACE_COS * FACE_COS)
    c = ti.sqrt(1.0 - s * s)
    loose = FACE_COS * c - sin_face * s
    loose_own = loose * ti.sqrt(1.0 - turn * turn) - (sin_face * c + FACE_COS * s) * turn
    both = ti.min(s + turn, 1.0)
    tight = 2.0
    if s < sin_face:
        tight = FACE_COS * c + sin_face * s
    tight_own = 2.0
    if both < sin_face:
        tight_own = FACE_COS * ti.sqrt(1.0 - both * both) + sin_face * both
    return loose, loose_own, tight, tight_own


@ti.func
def _steady_share(solid: ti.template(), own_row, back, row0, p, best_n, s, turn, own_first):  # in:
    """:func:`classify_entry`'s share for a sphere whose body (solid rows from own_row) looks back along `back` (its
    frame) against the solid's faces about its normal best_n at p (the solid's frame), the normal turning by less
    than ψ (sin ψ = s) in the solid's frame and ψ + turn [rad] in the sphere's body's till the next search: IDLE
    (the share stays 0), CARRY (it stays 1) or GENERAL. It stays so when a face of each body surely meets the
    normal within 10° and every face that may meet it compares alike (sphere_side_share): the sphere's body's all
    larger (IDLE) or all smaller (CARRY) than the solid's, of one size as the first body's (own_first) decides.
    dem.model.contact_solid.steady_share is the host's.

    In/out — in solid: the model's solid rows (md.solid).
    """
    loose, loose_own, tight, tight_own = _face_bounds(s, turn)
    found = ti.Vector([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])  # faces surely within 10°, least and largest area: solid, own
    for k in range(4):  # one call site: the solid's faces surely and maybe met, then the sphere's body's
        row, q, d, limit = row0, p, best_n, tight
        if k == 1:
            limit = loose
        elif k >= 2:
            row, q, d, limit = own_row, back, back, tight_own
            if k == 3:
                limit = loose_own
        _a, count, least, most, _c = scan_faces(solid, row, q, d, limit)
        if k % 2 == 0:
            found[3 * (k // 2)] = ti.cast(count, float)
        else:
            found[3 * (k // 2) + 1] = least
            found[3 * (k // 2) + 2] = most
    hint = GENERAL
    if found[0] > 0.0 and found[3] > 0.0:
        if own_first == 1:
            if found[4] > found[2] * (1.0 + SAME_AREA):
                hint = IDLE
            elif found[5] <= found[1] * (1.0 + SAME_AREA):
                hint = CARRY
        else:
            if found[4] >= found[2] * (1.0 - SAME_AREA):
                hint = IDLE
            elif found[5] < found[1] * (1.0 - SAME_AREA):
                hint = CARRY
    return hint


@ti.func
def _share_hint(solid: ti.template(), own_row, back, row0, p, best_n, s, turn, code):  # in:
    """:func:`classify_entry`'s share hint, or GENERAL: the normal best_n (the solid's frame, at p) turns by less than
    ψ, sin ψ = s = reach ÷ distance, in the solid's frame (p − its closest point moves by less than the reach: the
    map is 1-Lipschitz for a convex part), by less than ψ + turn in the sphere's body's (looking back along `back`):
    the faces within 10° + ψ (+ turn) of it now are all the step's share can meet. With AT_FACE where the solid's
    face named is `code`, the face on which, or on whose rim, p's closest point stays (GENERAL: none).

    In/out — in solid: the model's solid rows (md.solid).
    """
    hint = GENERAL
    cos_solid, cos_own, _t, _to = _face_bounds(s, turn)
    _a, n_solid, _l, _m, f_solid = scan_faces(solid, row0, p, best_n, cos_solid)
    _a2, n_own, _l2, _m2, f_own = scan_faces(solid, own_row, back, back, cos_own)
    if n_solid == 0:
        f_solid = 0
    if n_own == 0:
        f_own = 0
    if n_solid <= 1 and n_own <= 1 and f_solid < SHARE_SPAN and f_own < SHARE_SPAN:
        at_face = 0
        if code >= 0 and code == f_solid:  # the distance: that face's
            at_face = AT_FACE
        hint = SHARE_HINT - (f_solid * SHARE_SPAN + f_own + at_face)
    return hint


@ti.func
def _closed_face(solid: ti.template(), row, p, reach):  # in:
    """The index (:func:`_face_margin`'s numbering) of the flat face of the part whose header is row `row` on which,
    or on whose rim, p's closest point of the part (body frame, from the centre of mass [m]) lies wherever p moves by
    less than `reach` [m]; −1 where no face is sure to hold it. dem.model.contact_solid.ContactSolid.closed_face is
    the host's.

    Take the face F (normal n_F) whose plane p lies farthest beyond. A point beyond F's plane has its closest point
    on F or its rim unless it lies in the region of a face G with n_G·n_F > 0 (an obtuse edge: a voussoir's
    intrados, a tapering drum's top), which lies on G's side of the plane through their common edge along n_G:
    so F holds it when p lies more than `reach` beyond F's plane and more than `reach` on F's side of each such
    plane (a prism: in its polygon's plane; a frustum: in p's meridian plane, p ↦ (ρ, z) being 1-Lipschitz).

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    o = solid[row + 1]
    x = p - ti.Vector([o[0], o[1], o[2]])
    q = ti.Vector([x[0], x[2]])
    edges = n
    if ti.cast(hdr[0], ti.i32) != PRISM:
        q = ti.Vector([ti.sqrt(x[0] * x[0] + x[1] * x[1]), x[2]])
        edges = n - 1
    smax, k = _edge_max(solid, row + 2, edges, q)
    ok = smax > reach
    nk = _edge_normal(solid, row + 2, k)
    prev = (k + n - 1) % n
    nxt = (k + 1) % n
    n_prev = _edge_normal(solid, row + 2, prev)
    n_next = _edge_normal(solid, row + 2, nxt)
    if n_prev.dot(nk) > 0.0 and (q - _vertex(solid, row + 2, k)).dot(ti.Vector([-n_prev[1], n_prev[0]])) <= reach:
        ok = False
    if n_next.dot(nk) > 0.0 and -(q - _vertex(solid, row + 2, nxt)).dot(ti.Vector([-n_next[1], n_next[0]])) <= reach:
        ok = False
    face = -1
    if ok:
        face = k
        if ti.cast(hdr[0], ti.i32) != PRISM:
            face = k // 2 if k != 1 else -1  # base, top; the mantle is no flat face
    return face


@ti.func
def classify_entry(solid: ti.template(), x, own_rot, own_row, own_bound, pos, rot, row0, bound, own_first,  # in:
                   skin):
    """The pair search's hint for a sphere centred at x [m], of a body with attitude own_rot, solid rows from own_row
    (−1: none) and bounding radius own_bound [m], against the solid (rows from row0) of a body at pos [m], rot,
    bounding radius bound [m] (own_first: the sphere's body is the lower index), until the next search, while each
    body moves less than `skin` [m]: IDLE (its stiffness share, sphere_side_share, is 0 at every pose the two can
    reach: the search leaves it out), a face code ≥ 0 (its closest point on the solid stays in one flat face F or
    on F's rim and its share stays 1: the step measures the distance to F alone, :func:`sphere_solid` with the
    hint), a share hint ≤ SHARE_HINT (at most one face of each body can meet the contact's normal within 10°: the
    step tests those two, :func:`coded_face_area`, instead of scanning every face; with AT_FACE the solid's face
    named also holds the closest point, as a face code's, and the step measures its distance alone, else the whole
    narrow phase), or GENERAL.

    The sphere's centre moves less than reach = skin · max(1, (|x − pos| + skin) ÷ bound) in the solid's frame (its
    own body's motion bound, and the solid's at the sphere's distance from its centre), and either body turns less
    than turn = skin ÷ bound (the smaller bound). With the centre more than `reach` outside its nearest part (the
    next part more than twice `reach` farther), or outside it by less over a face F whose plane stays the part's
    largest (:func:`_face_rules`: the sphere may come inside, F's plane still its distance):
    - over a face F, more than `reach` inside F's boundary, the closest feature stays F and the normal F's (ψ = 0);
      else the normal turns by less than ψ, sin ψ = reach ÷ distance, in the solid's frame (p − its closest point on
      a convex part is 1-Lipschitz in p), and the closest point may stay on F or its rim (:func:`_closed_face`);
    - the share: the faces of the sphere's body that can look back along −n within 10° after a turn of ψ + turn,
      one of them surely, against the solid's faces within 10° of the normal after ψ, one surely: all larger
      (larger or the same, for the second body), IDLE; all smaller (smaller or the same, for the first body), the
      share stays 1 and with F the hint is F's code (:func:`_steady_share`);
    - else, if at most one face of each lies within 10° + ψ (+ the turn) of the normal now, the share hint names the
      two (code 0: none).
    dem.model.contact_solid.classify_entries is the host's.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hint = GENERAL
    p = mat_vec(rot.transpose(), x - pos)
    best = HUGE
    second = HUGE
    best_row = row0 + 1
    best_n = ti.Vector([0.0, 0.0, 1.0])
    row = row0 + 1
    for _k in range(ti.cast(solid[row0][0], ti.i32)):
        d, nrm = _part_distance(solid, row, p)
        if d < best:
            second = best
            best = d
            best_row = row
            best_n = nrm
        elif d < second:
            second = d
        row += 2 + ti.cast(solid[row][1], ti.i32)
    reach = skin * ti.max(1.0, ((x - pos).norm() + skin) / bound)  # the sphere's motion in the solid's frame
    turn = skin / ti.min(own_bound, bound)  # [rad], ≥ its sine
    back = mat_vec(own_rot.transpose(), -mat_vec(rot, best_n))  # own frame
    margin, face = _face_margin(solid, best_row, p)
    # a centre within the reach may come inside the solid: over F, inside its rim, it still takes F's plane and
    # normal where F's plane stays the part's largest (_face_rules); near an edge it is general
    usable = best > reach or (best > 0.0 and margin > reach and _face_rules(solid, best_row, face, p, reach))
    if usable and second - best > 2.0 * reach:
        s = 0.0  # over F, inside its rim: the normal stays F's
        if margin <= reach:
            s = reach / best
            face = _closed_face(solid, best_row, p, reach)
        code = GENERAL
        if face >= 0:
            code = (best_row - row0) * FACE_CODE + face
        if own_row < 0:  # the share is 1 whatever the faces
            hint = code
        elif turn < MAX_TURN:
            steady = _steady_share(solid, own_row, back, row0, p, best_n, s, turn, own_first)
            if steady == IDLE:
                hint = IDLE
            elif steady == CARRY and code >= 0:
                hint = code
            else:
                hint = _share_hint(solid, own_row, back, row0, p, best_n, s, turn, code)
    return hint


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
def sphere_solid(solid: ti.template(), x, r, body, row0, hint):  # in:
    """A sphere of centre x [m] and radius r [m] against the solid (rows from row0) of `body` (a
    ``contact_geometry.Body``): its ``ContactGeometry`` without motion, the normal from the solid towards the sphere.
    With the pair search's `hint` ≥ 0, or a share hint with AT_FACE (:func:`classify_entry`: the sphere's closest
    point on the solid stays in that flat face or on its rim) the distance is that face's (:func:`_face_distance`),
    else the solid's (:func:`solid_distance`).

    In/out — in solid: the model's solid rows (md.solid).
    """
    p = mat_vec(body.rot.transpose(), x - body.pos)
    dist = 0.0
    n_body = ti.Vector([0.0, 0.0, 1.0])
    code = hint  # the face whose distance is the solid's (-1: none)
    if hint <= SHARE_HINT:
        code = -1
        if SHARE_HINT - hint >= AT_FACE:
            code = (SHARE_HINT - hint - AT_FACE) // SHARE_SPAN
    if code >= 0:
        dist, n_body = _face_distance(solid, row0 + code // FACE_CODE, code % FACE_CODE, p)
    else:
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
def _take(f, area, gap, code, aligned):
    """The faces so far, f = (the nearest one's area [m²], its plane's distance from the point [m], how many, their
    least and largest areas [m²], the code of the last one), with one more of `area`, `gap` and `code` if it is
    aligned."""
    if aligned:
        if gap < f[1]:
            f[0] = area
            f[1] = gap
        f[2] += 1.0
        f[3] = ti.min(f[3], area)
        f[4] = ti.max(f[4], area)
        f[5] = ti.cast(code, float)
    return f


@ti.func
def _face_aligned(solid: ti.template(), row, face, d, cos_limit):  # in:
    """Whether the outward normal of face `face` of the part whose header is row `row` (:func:`_face_margin`'s
    numbering) lies within the angle of cosine `cos_limit` of d (unit, body frame).

    In/out — in solid: the model's solid rows (md.solid).
    """
    n = ti.cast(solid[row][1], ti.i32)
    aligned = False
    if ti.cast(solid[row][0], ti.i32) == PRISM:
        if face < n:
            n2 = _edge_normal(solid, row + 2, face)
            aligned = d[0] * n2[0] + d[2] * n2[1] > cos_limit
        elif face == n:
            aligned = d[1] > cos_limit
        else:
            aligned = -d[1] > cos_limit
    elif face == 1:
        aligned = d[2] > cos_limit
    else:
        aligned = -d[2] > cos_limit
    return aligned


@ti.func
def _face_size(solid: ti.template(), row, face):  # in:
    """Area [m²] of face `face` of the part whose header is row `row` (:func:`_face_margin`'s numbering).

    In/out — in solid: the model's solid rows (md.solid).
    """
    hdr = solid[row]
    n = ti.cast(hdr[1], ti.i32)
    area = 0.0
    if ti.cast(hdr[0], ti.i32) == PRISM:
        if face < n:
            area = (_vertex(solid, row + 2, (face + 1) % n) - _vertex(solid, row + 2, face)).norm() * 2.0 * hdr[2]
        else:
            area = solid[row + 1][3]
    else:
        r = _vertex(solid, row + 2, 1 + face)[0]  # (R₀, −h/2) or (R₁, h/2)
        area = math.pi * r * r
    return area


@ti.func
def scan_faces(solid: ti.template(), row0, p, d, cos_limit):  # in:
    """The flat faces of the solid (rows from row0) whose outward normal lies within the angle of cosine `cos_limit`
    of d (unit, body frame), for a point p (body frame, from the centre of mass [m]): the area [m²] of the one whose
    plane is nearest p (−1 when there is none), how many there are, their least and largest areas [m²], and the code
    of the last of them (its part's header row from row0 × FACE_CODE + its index, :func:`_face_margin`'s numbering).

    In/out — in solid: the model's solid rows (md.solid).
    """
    f = ti.Vector([-1.0, HUGE, 0.0, HUGE, -HUGE, 0.0])
    row = row0 + 1
    for _k in range(ti.cast(solid[row0][0], ti.i32)):
        n = ti.cast(solid[row][1], ti.i32)
        faces = n + 2 if ti.cast(solid[row][0], ti.i32) == PRISM else 2
        for face in range(faces):
            gap, _normal = _face_plane(solid, row, face, p)
            f = _take(f, _face_size(solid, row, face), ti.abs(gap), (row - row0) * FACE_CODE + face,
                      _face_aligned(solid, row, face, d, cos_limit))
        row += 2 + n
    return f[0], ti.cast(f[2], ti.i32), f[3], f[4], ti.cast(f[5], ti.i32)


@ti.func
def coded_face_area(solid: ti.template(), row0, code, d):  # in:
    """:func:`face_area` for a contact whose only candidate face is known (the search's share hint,
    :func:`classify_entry`): that face's area [m²] if its normal lies within 10° of d (unit, body frame), else −1;
    code 0: no face can be within 10°, −1.

    In/out — in solid: the model's solid rows (md.solid).
    """
    area = -1.0
    if code > 0:
        row = row0 + code // FACE_CODE
        if _face_aligned(solid, row, code % FACE_CODE, d, FACE_COS):
            area = _face_size(solid, row, code % FACE_CODE)
    return area


@ti.func
def face_area(solid: ti.template(), row0, p, d):  # in:
    """Area [m²] of the flat face of the solid (rows from row0) that meets a contact at p (body frame, from the
    centre of mass [m]) whose outward normal is d (unit, body frame): of the faces within 10° of d, the one whose
    plane is nearest p; −1 when none is (an edge, a corner, a drum's mantle). dem.model.contact_solid.ContactSolid.
    face_area is the host's.

    In/out — in solid: the model's solid rows (md.solid).
    """
    area, _count, _least, _most, _code = scan_faces(solid, row0, p, d, FACE_COS)
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
