"""The probes and events of a mesh body standing on a shaking table (dem.scenes.mesh_bodies.StandingBody):
what scenes/mesh_body.py and scenes/scanned_stone.py record and watch.

History: ``<body>_theta_deg`` (and ``_over_alpha``), its rotation about y; ``<body>_omega`` (and ``_over_p``);
``<body>_ux, _uz, _ax, _az``; the base interface (``base_H``, ``_V``, ``_V_ratio``, ``_ecc``, ``_friction``,
``_contacts``: eccentricity ÷ the footprint's width across the two pivots); the table (``table_vel``,
``_disp``, ``_acc``). Events: sliding of the footprint's corner spheres on the table, leaving a box twice the
body's size and two metres beyond it (overturning: the body's fall, as dem.run.bodies decides it for every body,
its α the scene's, the weaker pivot's).
"""

from __future__ import annotations

import numpy as np

from ..scenes.mesh_bodies import G, StandingBody, feet
from ..scenes.scene import Scene
from .events import EventSpec, Watch
from .probes import AngularVelocity, BodyMotion, Interface, RockingAngle, WallMotionProbe


def standing_scene(name: str, sb: StandingBody, p: dict, dt: float, *, info: dict | None = None) -> Scene:
    """The scene of `sb` (module docstring): its probes, its events, its info (and `info`), time step `dt` [s]."""
    body, c, weak = sb.body, sb.clump, sb.weak
    props = sb.model.clumps[c].mass_props
    base_z = float(sb.template.solid.vertices[:, 2].min())
    probes = [RockingAngle(f"{body}_theta_deg", c, axis=(0, 1, 0), alpha=weak.alpha),
              AngularVelocity(f"{body}_omega", c, axis=(0, 1, 0), p=weak.p(G)),
              BodyMotion(body, c),
              Interface("base", sb.interface, c, (0.0, 0.0, base_z - float(props.center[2])), sb.plus.b + sb.minus.b,
                        props.mass * G),
              WallMotionProbe("table", sb.table, sb.direction)]
    r = sb.r_surface
    size = float(np.max(np.ptp(sb.template.solid.vertices, axis=0)))
    reach = 2.0 * size + 2.0
    watch = Watch(body, None, (0.0, 1.0, 0.0), base="table",
                  feet=tuple(tuple(float(v) for v in x) for x in feet(sb.template, r)), foot_radius=r)
    events = EventSpec(((-reach, -reach, -reach), (reach, reach, 2 * reach)), (watch,))
    return Scene(name, sb.model, probes, dt, p["t_end"], p["history_dt"], p, sb.info | (info or {}), events=events)
