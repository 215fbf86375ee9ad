"""Any mesh file as one free-standing body on a shaking table: released from a tilt, or shaken (issue 31).

    dem run mesh_body --set mesh=statue.stl units=mm density=2500 theta0_deg=3
    dem run mesh_body --set mesh=cabinet.obj theta0_deg=0 record=RSN1234.AT2 target_pga_g=0.4
    dem run mesh_body --vary target_pga_g=0.2,0.4,0.6 --set record=RSN1234.AT2 theta0_deg=0

The body is the closed surface in ``mesh`` (STL, OBJ, PLY, OFF, VTK/VTU, glTF, ...: dem.model.mesh_file; by
default the stele in scenes/data/stele.stl, a right prism on a trapezoid 0.30 m wide at its foot, 0.20 m at its
top, 1.0 m high and 0.5 m thick), in ``units``, of ``density`` (or ``mass``); its mass, centre of mass and
inertia come from the mesh exactly (dem.model.mesh_mass), its spheres from dem.model.mesh_clump (a skin of
r_surface spheres, an edge-true layer on its base, a core of r_core spheres; both sizes chosen from the body's
smallest extent unless given). It stands on its base, the flat face of its convex hull at the bottom of the
mesh's z, on a table that moves along x (``direction_deg``) with Itiola & El Shamy (2024)'s Eq. 42 ramped sine
(``pga_g``, 0 by default: the table stays still) or a ground-motion record (``record``, scaled by ``scale``,
``target_pga_g`` or ``target_sa_g``; dem.scenes.tools), and starts tilted by ``theta0_deg`` about y (leaning on
its +x edge for θ0 > 0, its −x edge for θ0 < 0; 0: upright). The defaults release the stele from 2° and let it
rock for 3 s on a still table.

What it reports: ``<body>_theta_deg`` (its rotation about y; ``<body>`` the file's name or ``name``) and ÷ α,
its angular velocity, motion and accelerations, the base interface (H, V, eccentricity, |H|/V, contacts), the
table's motion; in summary.json the mesh (volume, sphere counts, and notes: e.g. a body non-convex where it
rests), the pivots towards +x and −x from the mesh (b, h, R, α, I_O, p, the uplift threshold g s/h:
dem.model.mesh_rocking), and the rigid reference a sweep's rigid engine uses (the weaker pivot:
dem.scenes.mesh_bodies). Time step: half the critical estimate (dem.model.timestep) unless ``dt`` is given.
A mesh that is open, inside out, in several parts, self-intersecting, 1,000 times too big (millimetres read as
metres: give ``units``) or thinner than its spheres is refused before anything is built, in one line.
"""

from pathlib import Path

from dem import Param, Scene
from dem.run.standing_body import standing_scene
from dem.scenes.mesh_bodies import body_name, build_standing, choose_dt, packing_params
from dem.scenes.tools import shaking_params

NAME = "mesh_body"
DEFAULT_MESH = Path(__file__).resolve().parent / "data" / "stele.stl"

PARAMS = shaking_params({
    "mesh": Param("", "the body's closed surface mesh file (STL, OBJ, PLY, OFF, VTK, glTF...); empty: the stele "
                  "of scenes/data/stele.stl"),
    "name": Param("", "the body's name in the history columns (empty: the mesh file's name)"),
    **packing_params(),
    "theta0_deg": Param(2.0, "initial tilt about y (> 0: leaning on its +x edge; 0: upright)", "deg", low=-60,
                        high=60),
    "pga_g": Param(0.0, "peak table acceleration ÷ g of the Eq. 42 sine (0: the table stays still)", "", low=0),
    "frequency": Param(1.0, "frequency of the Eq. 42 sine", "Hz", low=0, low_open=True),
    "ramp_end": Param(4.5, "end of the sine's linear ramp-up (Eq. 42, T)", "s", low=0),
    "hold_end": Param(14.5, "end of its constant amplitude (Eq. 42, L1)", "s", low=0),
    "stop": Param(16.0, "end of its ramp-down (Eq. 42, L2)", "s", low=0),
    "dt": Param(0.0, "time step (0: half the critical estimate)", "s", low=0),
    "t_end": Param(3.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(1e-3, "interval between history rows", "s", low=0, low_open=True),
})


def build(p: dict) -> Scene:
    mesh = p["mesh"] or str(DEFAULT_MESH)
    sb = build_standing(p, PARAMS, mesh, body=body_name(mesh, p["name"]))
    return standing_scene(NAME, sb, p, choose_dt(p, sb.model))
