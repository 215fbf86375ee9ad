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
def _face_share_hint(solid: ti.template(), own_row, back, row0, p, best_n, code, turn, own_first):  # in:
    """:func:`classify_entry`'s share for a sphere whose closest feature stays the face of `code`, whose body
    (solid rows from own_row) looks back along `back` (its frame) and may turn by `turn` [rad] against the solid's
    faces within 10° of its normal best_n at p (the solid's frame): IDLE, the code, or GENERAL.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hint = GENERAL
    sin_face = ti.sqrt(1.0 - FACE_COS * FACE_COS)
    loose = FACE_COS * ti.sqrt(1.0 - turn * turn) - sin_face * turn  # ≤ cos(10° + turn)
    tight = FACE_COS + sin_face * turn  # ≥ cos(10° − turn)
    _a, sure, _l, _m, _c = scan_faces(solid, own_row, back, back, tight)
    _a2, _c2, own_least, own_most, _k2 = scan_faces(solid, own_row, back, back, loose)
    _a3, _c3, least, most, _k3 = scan_faces(solid, row0, p, best_n, FACE_COS)
    if sure > 0:
        if own_first == 1:
            if own_least > most * (1.0 + SAME_AREA):
                hint = IDLE
            elif own_most <= least * (1.0 + SAME_AREA):
                hint = code
        else:
            if own_least >= most * (1.0 - SAME_AREA):
                hint = IDLE
            elif own_most < least * (1.0 - SAME_AREA):
                hint = code
    return hint


@ti.func
def _share_hint(solid: ti.template(), own_row, back, row0, p, best_n, s, turn):  # in:
    """:func:`classify_entry`'s share hint, or GENERAL: the normal best_n (the solid's frame, at p) turns by less than
    ψ, sin ψ = s = reach ÷ distance, in the solid's frame (p − its closest point moves by less than the reach: the
    map is 1-Lipschitz for a convex part), by less than ψ + turn in the sphere's body's (looking back along `back`):
    the faces within 10° + ψ (+ turn) of it now are all the step's share can meet.

    In/out — in solid: the model's solid rows (md.solid).
    """
    hint = GENERAL
    sin_face = ti.sqrt(1.0 - FACE_COS * FACE_COS)
    c = ti.sqrt(1.0 - s * s)
    cos_solid = FACE_COS * c - sin_face * s  # cos(10° + ψ)
    sin_solid = sin_face * c + FACE_COS * s
    cos_own = cos_solid * ti.sqrt(1.0 - turn * turn) - sin_solid * turn  # ≤ cos(10° + ψ + turn)
    _a, n_solid, _l, _m, f_solid = scan_faces(solid, row0, p, best_n, cos_solid)
    _a2, n_own, _l2, _m2, f_own = scan_faces(solid, own_row, back, back, cos_own)
    if n_solid == 0:
        f_solid = 0
    if n_own == 0:
        f_own = 0
    if n_solid <= 1 and n_own <= 1 and f_solid < SHARE_SPAN and f_own < SHARE_SPAN:
        hint = SHARE_HINT - (f_solid * SHARE_SPAN + f_own)
    return hint


@ti.func
def classify_entry(solid: ti.template(), x, own_rot, own_row, own_bound, pos, rot, row0, bound, own_first,  # in:
                   skin):
    """The pair search's hint for a sphere centred at x [m], of a body with attitude own_rot, solid rows from own_row
    (−1: none) and bounding radius own_bound [m], against the solid (rows from row0) of a body at pos [m], rot,
    bounding radius bound [m] (own_first: the sphere's body is the lower index), until the next search, while each
    body moves less than `skin` [m]: IDLE (its stiffness share, sphere_side_share, is 0 at every pose the two can
    reach: the search leaves it out), a face code ≥ 0 (its closest feature stays one flat face F of the solid and
    its share stays 1: the step measures the distance to F's plane only, :func:`sphere_solid` with the hint), a share
    hint ≤ SHARE_HINT (the whole narrow phase, but at most one face of each body can meet the contact's normal
    within 10°: the step tests those two, :func:`coded_face_area`, instead of scanning every face), or GENERAL.

    The sphere's centre moves less than reach = skin · max(1, (|x − pos| + skin) ÷ bound) in the solid's frame (its
    own body's motion bound, and the solid's at the sphere's distance from its centre). F is kept when the centre
    lies more than `reach` outside the solid, over F of its nearest part (the next part more than twice `reach`
    farther), more than `reach` inside F's boundary: then F stays the closest feature and the normal F's. Its share:
    the faces of the sphere's body that can look back along −n within 10° after a turn of skin ÷ bound (a bound on
    either body's rotation), one of them surely, against the solid's faces within 10° of F's normal: all at least
    their size (larger, for the first body), IDLE; all smaller (at most their size, for the first body), the code.
    Else, with the centre more than `reach` outside its nearest part (the next more than twice that farther), the
    normal turns less than ψ (sin ψ = reach ÷ distance) in the solid's frame and less than ψ + the turn in the
    sphere's body's: if at most one face of each lies within 10° + ψ (+ the turn) of it now, the share hint names
    the two (code 0: none). dem.model.contact_solid.classify_entries is the host's.

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
    if best > reach and second - best > 2.0 * reach:
        margin, face = _face_margin(solid, best_row, p)
        code = (best_row - row0) * FACE_CODE + face
        if margin > reach:
            if own_row < 0:  # the share is 1 whatever the faces
                hint = code
            elif turn < MAX_TURN:
                hint = _face_share_hint(solid, own_row, back, row0, p, best_n, code, turn, own_first)
    if hint == GENERAL and own_row >= 0 and best > reach and second - best > 2.0 * reach and turn < MAX_TURN:
        hint = _share_hint(solid, own_row, back, row0, p, best_n, reach / best, turn)
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
    With the pair search's `hint` ≥ 0 (:func:`classify_entry`: the sphere's closest feature stays that flat face) the
    distance is the face plane's, else the solid's (:func:`solid_distance`).

    In/out — in solid: the model's solid rows (md.solid).
    """
    p = mat_vec(body.rot.transpose(), x - body.pos)
    dist = 0.0
    n_body = ti.Vector([0.0, 0.0, 1.0])
    if hint >= 0:
        dist, n_body = _face_plane(solid, row0 + hint // FACE_CODE, hint % FACE_CODE, p)
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
