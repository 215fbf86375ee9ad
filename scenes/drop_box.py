"""A rigid box dropped on four corner spring–dampers (the drop-shock method notes, docs/references.md), as a DEM clump:
the engine's counterpart of the RKF45 reference `validation.drop_shock`.

The notes' box (weight W, size L_x × L_y × L_z) falls from a height h with initial tilts θ_x then θ_y (about
world x, then world y) onto the ground; each corner is a unilateral linear spring–damper,
F = max(0, k·pen − c·v_z). Here each of the eight corners carries a sphere of radius r centred on the
corner, with the linear contact law (k_n = k, no tension, frictionless) and the dashpot 2β√(m k) = c, i.e.
β = c / (2√(m k)) with m the box's mass (the engine's contact mass against a wall). The ground plane is at
z = −r, so a sphere's overlap is exactly its corner's penetration below z = 0 whatever the box's tilt, and
its vertical force acts on the corner's vertical line: the motion does not depend on r. r is large
(0.25 m) only so that the springs' centimetre penetrations stay small beside it (the engine stops a run
whose overlaps pass 0.3 of a radius).
Recorded: the centre's acceleration in G (1 in free fall, as the notes, §10) and the four bottom corner loads.
"""

import math

import numpy as np

from dem import Material, ModelBuilder, Param, Scene
from dem.model.clump import Box, spheres
from dem.run.events import EventSpec
from dem.run.probes import AccelerationMagnitude, BodyMotion, GroupForce

NAME = "drop_box"

PARAMS = {
    "weight": Param(200.0, "box weight W", "N", low=0, low_open=True),
    "gravity": Param(9.81, "gravitational acceleration G", "m/s^2", low=0, low_open=True),
    "length_x": Param(0.6, "box size L_x (up to 100 m: a package, not a building)", "m", low=0,
                       low_open=True, high=100),
    "length_y": Param(0.4, "box size L_y (up to 100 m: a package, not a building)", "m", low=0,
                       low_open=True, high=100),
    "length_z": Param(0.3, "box size L_z (up to 100 m: a package, not a building)", "m", low=0,
                       low_open=True, high=100),
    "stiffness": Param(5e4, "spring stiffness k per corner", "N/m", low=0, low_open=True),
    "damping": Param(200.0, "damper coefficient c per corner", "N s/m", low=0),
    "drop_height": Param(0.3, "height of the lowest corner above the ground", "m", low=0),
    "theta_x_deg": Param(5.0, "initial tilt about world x (applied first)", "deg", low=-89, high=89),
    "theta_y_deg": Param(3.0, "initial tilt about world y (applied second)", "deg", low=-89, high=89),
    "corner_radius": Param(0.25, "radius of the corner spheres (any value gives the same motion)", "m", low=0,
                           low_open=True),
    "dt": Param(2e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(0.8, "duration", "s", low=0, low_open=True),
    "history_dt": Param(1e-3, "interval between history rows", "s", low=0, low_open=True),
}

CORNER_NAMES = ("corner0", "corner1", "corner2", "corner3")  # the notes' bottom corners: (−,−), (+,−), (+,+), (−,+)


def build(p: dict) -> Scene:
    lx, ly, lz = p["length_x"], p["length_y"], p["length_z"]
    mass = p["weight"] / p["gravity"]
    hx, hy, hz = lx / 2, ly / 2, lz / 2
    xy = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
    corners = np.array([(x, y, -hz) for x, y in xy] + [(x, y, hz) for x, y in xy])
    r = p["corner_radius"]
    tpl = spheres(corners, r, solid=Box((lx, ly, lz)))
    beta = p["damping"] / (2.0 * math.sqrt(mass * p["stiffness"]))
    springs = Material.linear(normal_stiffness=p["stiffness"], shear_stiffness=p["stiffness"], friction=0.0,
                              damping_normal=beta).with_(no_tension=True)
    tx, ty = math.radians(p["theta_x_deg"]), math.radians(p["theta_y_deg"])
    rx = np.array([[1, 0, 0], [0, math.cos(tx), -math.sin(tx)], [0, math.sin(tx), math.cos(tx)]])
    ry = np.array([[math.cos(ty), 0, math.sin(ty)], [0, 1, 0], [-math.sin(ty), 0, math.cos(ty)]])
    rot = ry @ rx  # x first, then y (the reading of validation.drop_shock)
    z_low = float(np.min((corners @ rot.T)[:, 2]))
    b = ModelBuilder(gravity=(0.0, 0.0, -p["gravity"]))
    c = b.add_clump(tpl, material=springs, mass=mass, orientation=rot, position=(0, 0, p["drop_height"] - z_low),
                    name="box")
    b.add_wall((0, 0, -r), (0, 0, 1), material=springs, name="ground")
    slots = [b.add_sphere_group(name, c, np.arange(8) == k) for k, name in enumerate(CORNER_NAMES)]
    model = b.finalize()
    probes = [AccelerationMagnitude("cg_accel_G", c), BodyMotion("box", c)]
    probes += [GroupForce(name, s) for name, s in zip(CORNER_NAMES, slots)]
    info = {"mass_kg": mass, "beta": beta}
    # events: the domain only (the corners are frictionless springs: no overturning or sliding to watch)
    reach = max(lx, ly, lz) + p["drop_height"]
    events = EventSpec(((-reach, -reach, -r - reach), (reach, reach, p["drop_height"] + 2 * reach)))
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info, events=events)
