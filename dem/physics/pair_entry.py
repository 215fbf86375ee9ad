"""An entry of a world's body-pair list (contacts.py: ``pairs``), whatever kind of contact it stands for.

An entry (p, q, g, h, hint) holds two sides, p of body a and q of body b, a < b, the clusters g, h the device search
orders it by (pair_search_device.py), and the search's hint (dem.model.contact_solid.classify_entries): ≥ 0, the one
flat face of the solid that stays the sphere's closest feature, its share 1, till the next search (the step measures
the distance to its plane and skips the share); −1, the whole narrow phase each step; ≤ −3 (SHARE_HINT), the
share from the one face of each body it can meet (the step tests two faces, not all), and the distance to the
solid's face named where that face also holds the closest point (AT_FACE), else the whole narrow phase. A
side ≥ 0 is a hull sphere (global index); a side < 0 stands for the solid of clump −1 − side
(physics/contact_solid.py). So an entry is one of
    (i, j)          hull sphere i of a against hull sphere j of b          bodies without solids (joints "spheres")
    (i, −1 − b)     hull sphere i of a against b's solid                   joints "solid"
    (−1 − a, j)     hull sphere j of b against a's solid                   joints "solid"
and every kind gives its geometry from b towards a, the force on a (−force on b), so that one run of entries
between a and b adds up as one (pair_contact.py). When both bodies have solids the search finds each side's spheres
against the other's solid, and each touching entry takes a share of the contact stiffness by the two faces that
meet (:func:`entry_share`, docs/joints.md): the smaller face's spheres carry the joint whole, as on a wall (a narrow
block on a wide one, a wide one on a narrow pedestal: the pivot is the narrow face's own edge); of two faces of one
size, body a's (the lower index) do.
"""

from ..device import layout as LY
from ..device.kernel_lang import ti
from ..model.contact_solid import AT_FACE, SHARE_HINT, SHARE_SPAN
from . import contact_geometry as CG
from .contact_geometry import sphere_centre, sphere_sphere
from .contact_solid import coded_face_area, face_area, sphere_side_share, sphere_solid
from .small_linalg import mat_vec


@ti.func
def entry_bodies(md: ti.template(), pair):  # in:
    """The clumps (a, b), a < b, of a pair-list entry (module docstring: p ≥ 0 a hull sphere, p < 0 the solid of
    clump −1 − p).

    In/out — in md: sph_info.
    """
    a = -1 - pair[0]
    b = -1 - pair[1]
    if pair[0] >= 0:
        a = md.sph_info[pair[0]][0]
    if pair[1] >= 0:
        b = md.sph_info[pair[1]][0]
    return a, b


@ti.func
def entry_share(md: ti.template(), pair, g, ba, bb):  # in:
    """The share of the contact stiffness [-] a touching entry takes (g: its geometry, ba, bb: the bodies): a sphere
    pair, or a sphere against the solid of a body when the sphere's own body has none, the whole; a sphere against a
    solid when both bodies have one, by the two faces that meet (contact_solid.sphere_side_share): the smaller face's
    spheres carry the joint, of faces of one size a's, anything not face on face halves it (docs/joints.md). With the
    search's share hint (contact_solid.classify_entry) each body's face is the one it names, if the normal meets it.

    In/out — in md: solid.
    """
    share = 1.0  # (a hint ≥ 0: the search found the share 1 till the next search)
    hint = pair[LY.PAIR_HINT]
    if (pair[0] < 0 or pair[1] < 0) and ba.solid >= 0 and bb.solid >= 0 and hint < 0:
        area_a = 0.0
        area_b = 0.0
        coded = (SHARE_HINT - hint) % AT_FACE  # a share hint: the solid's face × SHARE_SPAN + the sphere's body's
        for side in range(2):  # a's face there looks along −n (n from b towards a), b's along n: one call site
            row, pos, rot, d = ba.solid, ba.pos, ba.rot, -g.normal
            solid_side = pair[0] < 0  # a is the solid's body
            if side == 1:
                row, pos, rot, d = bb.solid, bb.pos, bb.rot, g.normal
                solid_side = pair[1] < 0
            area = 0.0
            if hint <= SHARE_HINT:  # at most one face of this body can meet the normal within 10°: test it alone
                code = coded % SHARE_SPAN
                if solid_side:
                    code = coded // SHARE_SPAN
                area = coded_face_area(md.solid, row, code, mat_vec(rot.transpose(), d))
            else:
                area = face_area(md.solid, row, mat_vec(rot.transpose(), g.point - pos), mat_vec(rot.transpose(), d))
            if side == 0:
                area_a = area
            else:
                area_b = area
        if pair[0] >= 0:
            share = sphere_side_share(area_a, area_b, 1)
        else:
            share = sphere_side_share(area_b, area_a, 0)
    return share


@ti.func
def pair_geometry(md: ti.template(), pair, ba, bb):  # in:
    """The ``ContactGeometry`` (without motion) of a pair-list entry between bodies ba and bb
    (``contact_geometry.Body``): hull sphere against hull sphere, a's sphere against b's solid, or b's sphere
    against a's solid; the normal from b towards a whichever side the sphere is on.

    In/out — in md: sph_body, clump_param, solid.
    """
    g = CG.ContactGeometry(touching=0)
    if pair[0] >= 0 and pair[1] >= 0:
        bi = md.sph_body[pair[0]]
        bj = md.sph_body[pair[1]]
        g = sphere_sphere(sphere_centre(ba.pos, ba.rot, bi), bi[3], sphere_centre(bb.pos, bb.rot, bj), bj[3])
    else:  # one body's sphere against the other's solid (one call site: the kernel inlines it once)
        sphere, own, other, sign = pair[0], ba, bb, 1.0
        if pair[0] < 0:
            sphere, own, other, sign = pair[1], bb, ba, -1.0
        bs = md.sph_body[sphere]
        g = sphere_solid(md.solid, sphere_centre(own.pos, own.rot, bs), bs[3], other, other.solid, pair[LY.PAIR_HINT])
        g.normal = sign * g.normal  # from b towards a
    return g


@ti.func
def kept_geometry(md: ti.template(), pair, ba, bb, row):  # in:
    """The ``ContactGeometry`` (without motion) of a touching entry from its row of the step's geometry pass
    (pair_geometry_pass.py, layout.PG_*): the contact point, the effective radius and the ratio from the kept normal
    and overlap by the formulas of the narrow phase (contact_geometry.sphere_sphere, contact_solid.sphere_solid), so
    the same bits as :func:`pair_geometry`.

    In/out — in md: sph_body.
    """
    g = CG.ContactGeometry(touching=1)
    n = ti.Vector([row[LY.PG_NORMAL], row[LY.PG_NORMAL + 1], row[LY.PG_NORMAL + 2]])
    overlap = row[LY.PG_OVERLAP]
    if pair[0] >= 0 and pair[1] >= 0:
        ri = md.sph_body[pair[0]][3]
        bj = md.sph_body[pair[1]]
        rj = bj[3]
        g.point = sphere_centre(bb.pos, bb.rot, bj) + n * (rj - 0.5 * overlap)
        g.r_eff = 2.0 * ri * rj / (ri + rj)
        g.ratio = overlap / ti.min(ri, rj)
    else:  # the sphere's side: the normal from the solid towards it is sign · n
        sphere, own, sign = pair[0], ba, 1.0
        if pair[0] < 0:
            sphere, own, sign = pair[1], bb, -1.0
        bs = md.sph_body[sphere]
        r = bs[3]
        g.point = sphere_centre(own.pos, own.rot, bs) - (sign * n) * (r - 0.5 * overlap)
        g.r_eff = r
        g.ratio = overlap / r
    g.normal = n
    g.overlap = overlap
    return g
