"""Two blocks stacked and tilted about y on a floor (a scene file for the checkpoint tests): the lower block
rocks on the floor carrying the upper one, so wall contacts, body–body contacts with their carried-over
shear history and the host's pair rebuilds are all in play."""

import math

import numpy as np

from dem import Material, ModelBuilder, Param, Scene, box_clump
from dem.run.events import EventSpec, block_watch
from dem.run.probes import AngularVelocity, RockingAngle

NAME = "stacked_blocks"

PARAMS = {
    "theta0_deg": Param(8.0, "initial tilt of both blocks about +y", "deg", low=-30, high=30),
    "size": Param(0.1, "edge of each cubic block", "m", low=0.02, high=1.0),
    "r": Param(0.01, "sphere radius", "m", low=0.002, high=0.05),
    "mu": Param(0.5, "friction coefficient", "", low=0),
    "dt": Param(1e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(1.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(1e-3, "interval between history rows", "s", low=0, low_open=True),
}


def build(p: dict) -> Scene:
    a, th = p["size"], math.radians(p["theta0_deg"])
    mat = Material.hertz(shear_modulus=1e9, poisson=0.25, friction=p["mu"], damping_normal=0.2, damping_shear=0.2)
    tpl = box_clump(a, a, a, r_core=p["r"])
    c, s = math.cos(th), math.sin(th)
    rot = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    low = float(np.min((tpl.centers @ rot.T)[:, 2] - tpl.radii))
    b = ModelBuilder(gravity=(0.0, 0.0, -9.81))
    lower = b.add_clump(tpl, material=mat, mass=2.0, orientation=rot, position=(0, 0, -low), name="lower")
    up = rot @ np.array([0.0, 0.0, a])  # the upper block on the lower one's top face, along its normal
    upper = b.add_clump(tpl, material=mat, mass=1.0, orientation=rot, position=np.array([0, 0, -low]) + up,
                        name="upper")
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, size=(1.0, 1.0), name="floor")
    model = b.finalize()
    probes = [RockingAngle("theta_lower_deg", lower), RockingAngle("theta_upper_deg", upper),
              AngularVelocity("omega_lower", lower), AngularVelocity("omega_upper", upper)]
    events = EventSpec(((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)),
                       (block_watch("lower", a, a, a, p["r"], base="floor"),))
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, {}, events=events)
