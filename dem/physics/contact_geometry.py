"""Narrow phase: where a hull sphere touches something, one function per kind of geometry, all returning one
``ContactGeometry``.

A contact is always seen from body a, the body of the hull sphere: the normal points from the other side (a
wall, or body b's sphere) towards the sphere, the overlap δ > 0 [m] while they touch, and the contact point is
the middle of the overlap (004 §2.1; spec §2). The effective radius R̄ [m] is the sphere's radius against a
plane and 2R₁R₂/(R₁+R₂) between two spheres (spec §2). :func:`motion_on_wall` and :func:`motion_between` then
add the lever arms from the two bodies' centres of mass and the relative velocity of a's material point with
respect to the other side's at t − Δt/2, which the response (contact_response.py) needs; the interface stiffness
pass needs the geometry only.

Touching test, the same for every pass that asks (the force pass, the interface stiffness pass, the frame export):
against a plane, the sphere's centre lies within r in front of it (beside a finite facet only its rim can touch,
and nothing behind its plane); between spheres, centres closer than the sum of the radii and apart.
"""

from ..device import layout as LY
from ..device import runtime
from ..device.kernel_lang import ti
from .small_linalg import mat_vec

ContactGeometry = None  # struct type, defined at init (runtime.define_types)
Body = None  # a body's pose and velocities at t − Δt/2, defined at init
Plane = None  # a wall's frame now, defined at init


def _define_types(real):
    global ContactGeometry, Body, Plane
    v3 = ti.types.vector(3, real)
    ContactGeometry = ti.types.struct(
        touching=ti.i32,  # 1 while they overlap
        point=v3,  # contact point [m]: the middle of the overlap
        normal=v3,  # unit normal from the other side towards body a's sphere
        overlap=real,  # δ [m]
        r_eff=real,  # R̄ [m]
        ratio=real,  # δ ÷ the smaller radius
        arm_a=v3, arm_b=v3,  # contact point − each body's centre of mass [m] (arm_b: 0 against a wall)
        v_rel=v3,  # velocity of a's material point minus the other side's at t − Δt/2 [m/s]
    )
    Body = ti.types.struct(
        pos=v3, rot=ti.types.matrix(3, 3, real),  # centre of mass [m] and attitude at t_n
        vel=v3, omega=v3,  # velocities at t − Δt/2 [m/s, rad/s]
        mass=real,  # [kg]
        asleep=ti.i32,  # 1 while it sleeps (integrator.py)
        solid=ti.i32,  # first md.solid row of its solid, −1: none (contact_solid.py)
    )
    Plane = ti.types.struct(
        origin=v3, normal=v3, u=v3, v=v3,  # origin now [m], unit normal and in-plane axes
        half_u=real, half_v=real,  # half lengths along u and v [m] (0: an infinite plane)
    )


runtime.define_types(_define_types)


@ti.func
def _vec3(g, k: ti.template()):
    return ti.Vector([g[k], g[k + 1], g[k + 2]])


@ti.func
def load_body(md: ti.template(), st: ti.template(), c):  # in:
    """Body c's ``Body``: pose at t_n, velocities at t − Δt/2, mass, whether it sleeps, its solid.

    In/out — in md: clump_param; in st: pos, rot, vel, omega, monitor of c.
    """
    return Body(pos=st.pos[c], rot=st.rot[c], vel=st.vel[c], omega=st.omega[c], mass=LY.clump_mass(md, c),
                asleep=1 if LY.asleep(st, c) else 0, solid=ti.cast(md.clump_param[c][LY.CP_SOLID], ti.i32))


@ti.func
def load_plane(md: ti.template(), st: ti.template(), w):  # in:
    """Wall w now as a ``Plane``.

    In/out — in md: wall_geom[w]; in st: wall_state[w].
    """
    g = md.wall_geom[w]
    ws = st.wall_state[w]
    return Plane(origin=_vec3(g, LY.WG_ORIGIN) + _vec3(ws, LY.WS_DISP), normal=_vec3(g, LY.WG_NORMAL),
                 u=_vec3(g, LY.WG_U), v=_vec3(g, LY.WG_V), half_u=g[LY.WG_HALF_U], half_v=g[LY.WG_HALF_V])


@ti.func
def sphere_centre(pos, rot, b):
    """World position [m] of a sphere b (body-frame centre relative to the centre of mass [m], radius [m]) of a
    body at pos [m] with attitude rot."""
    return pos + mat_vec(rot, ti.Vector([b[0], b[1], b[2]]))


@ti.func
def plane_distance(x, pl):
    """Distance [m] from a point x to a plane pl (a ``Plane``), the unit normal from the plane towards x, and
    whether the plane can touch x at all (beside a facet's edge and behind its plane it cannot)."""
    rel = x - pl.origin
    d = rel.dot(pl.normal)
    dist = d
    normal = pl.normal
    valid = 1
    if pl.half_u > 0.0:  # finite facet
        a = rel.dot(pl.u)
        b = rel.dot(pl.v)
        ac = ti.min(ti.max(a, -pl.half_u), pl.half_u)
        bc = ti.min(ti.max(b, -pl.half_v), pl.half_v)
        if a != ac or b != bc:
            if d < 0.0:
                valid = 0
            else:  # nearest point is on the facet's rim
                dv = rel - ac * pl.u - bc * pl.v
                dist = dv.norm()
                if dist > 0.0:
                    normal = dv / dist
    return dist, normal, valid


@ti.func
def sphere_plane(x, r, pl):
    """A sphere of centre x [m] and radius r [m] against a plane pl: its ``ContactGeometry`` without motion."""
    dist, normal, valid = plane_distance(x, pl)
    g = ContactGeometry(touching=0)
    overlap = r - dist
    if valid == 1 and overlap > 0.0 and dist > -r:
        g.touching = 1
        g.point = x - normal * (r - 0.5 * overlap)  # the middle of the overlap
        g.normal = normal
        g.overlap = overlap
        g.r_eff = r  # R̄ = R_ball (spec §2)
        g.ratio = overlap / r
    return g


@ti.func
def sphere_sphere(xi, ri, xj, rj):
    """Sphere i (centre xi [m], radius ri [m], of body a) against sphere j (of body b): its ``ContactGeometry``
    without motion, the normal from j towards i."""
    d = xi - xj
    dist = d.norm()
    g = ContactGeometry(touching=0)
    overlap = ri + rj - dist
    if overlap > 0.0 and dist > 0.0:
        g.touching = 1
        n = d / dist
        g.point = xj + n * (rj - 0.5 * overlap)
        g.normal = n
        g.overlap = overlap
        g.r_eff = 2.0 * ri * rj / (ri + rj)  # R̄ (spec §2)
        g.ratio = overlap / ti.min(ri, rj)
    return g


@ti.func
def point_velocity(body, arm):
    """Velocity [m/s] at t − Δt/2 of the material point of `body` (a ``Body``) at `arm` [m] from its centre."""
    return body.vel + body.omega.cross(arm)


@ti.func
def motion_on_wall(g, ba, v_wall):
    """g (body a's sphere on a wall) with its lever arm and its velocity relative to the wall, which moves at
    v_wall [m/s] at t − Δt/2 (arm_b stays 0)."""
    g.arm_a = g.point - ba.pos
    g.v_rel = point_velocity(ba, g.arm_a) - v_wall
    return g


@ti.func
def motion_between(g, ba, bb):
    """g (body a's sphere on body b) with both lever arms and the velocity of a's material point relative to
    b's (``Body`` ba, bb)."""
    g.arm_a = g.point - ba.pos
    g.arm_b = g.point - bb.pos
    g.v_rel = point_velocity(ba, g.arm_a) - point_velocity(bb, g.arm_b)
    return g
