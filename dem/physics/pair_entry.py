"""An entry of a world's body-pair list (contacts.py: ``pairs``), whatever kind of contact it stands for.

An entry (p, q, g, h) holds two sides, p of body a and q of body b, a < b, and the clusters g, h the device search
orders it by (pair_search_device.py). A side ≥ 0 is a hull sphere (global index); a side < 0 stands for the solid
of clump −1 − side (physics/contact_solid.py). So an entry is one of
    (i, j)          hull sphere i of a against hull sphere j of b          bodies without solids (joints "spheres")
    (i, −1 − b)     hull sphere i of a against b's solid                   joints "solid"
    (−1 − a, j)     hull sphere j of b against a's solid                   joints "solid"
and every kind gives its geometry from b towards a, the force on a (−force on b), so that one run of entries
between a and b adds up as one (pair_contact.py). When both bodies have solids, each side's spheres meet the
other's solid at half the contact stiffness (docs/joints.md): the joint's stiffness is the mean of the two
packings' own against a flat face, its pivot the true edge of whichever face ends first.
"""

from ..device.kernel_lang import ti
from . import contact_geometry as CG
from .contact_geometry import sphere_centre, sphere_sphere
from .contact_solid import solid_row, sphere_solid


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
def stiffness_share(pair, both_solid):
    """The share of a contact's stiffness an entry takes [-]: a half for a sphere against a solid when both bodies
    have one (each side's spheres meet the other's solid: docs/joints.md), else the whole."""
    share = 1.0
    if both_solid == 1 and (pair[0] < 0 or pair[1] < 0):
        share = 0.5
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
    elif pair[1] < 0:
        bi = md.sph_body[pair[0]]
        g = sphere_solid(md.solid, sphere_centre(ba.pos, ba.rot, bi), bi[3], bb, solid_row(md, -1 - pair[1]))
    else:
        bj = md.sph_body[pair[1]]
        g = sphere_solid(md.solid, sphere_centre(bb.pos, bb.rot, bj), bj[3], ba, solid_row(md, -1 - pair[0]))
        g.normal = -g.normal
    return g
