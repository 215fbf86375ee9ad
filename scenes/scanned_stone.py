"""An irregular stone, as a scan of a stone from a dry-stone wall or a ruin would give it, rocking on a table.

The stone is the convex hull of ``points`` random points (NumPy's generator seeded with ``seed``: the same
seed, the same stone) on an ellipsoid of sizes ``size_x`` × ``size_y`` × ``size_z``, each moved in or out by up
to ``roughness`` of its radius, with a flat bed (the points below ``bed`` × the lower semi-axis put on that
plane: a stone laid in a wall rests on a bedding face); turned so that the longest edge of its bed that passes
beside its centre of mass lies along y on the +x side (dem.model.mesh_shapes.stone_mesh). It is not symmetric:
its pivots towards +x and −x differ (b, h, α, I_O, the uplift threshold g s/h: summary.json's ``pivots``),
and the −x pivot is not parallel to y (rocking onto it turns the stone out of the x–z plane).

The default, seed 8: 83.1 kg of stone (2500 kg/m³) 0.34 × 0.33 × 0.55 m, its +x pivot b = 79 mm from its
centre of mass's foot, h = 226 mm below it (uplift at 0.349 g), the −x one at 0.621 g, released from a tilt of
2° onto its +x edge on a still table (``theta0_deg``; 0 and ``record=FILE`` shake it instead, and
``dem run --vary``, ``dem sweep`` and fragility work as on every scene with a table: dem.scenes.tools). Packing
and contacts as scenes/mesh_body.py (dem.scenes.mesh_bodies: a skin and base layer of r_surface spheres,
1/16 of the stone's smallest extent by default, an edge-true base); mass and inertia from the mesh.
"""

from dem import Param, Scene
from dem.model.mesh_shapes import stone_mesh
from dem.run.standing_body import standing_scene
from dem.scenes.mesh_bodies import build_standing, choose_dt, packing_params
from dem.scenes.tools import shaking_params

NAME = "scanned_stone"

PARAMS = shaking_params({
    "seed": Param(8, "seed of the random point cloud (the same seed, the same stone)", "", low=0, high=2**31 - 1),
    "points": Param(60, "points in the cloud", "", low=8, high=100_000),
    "size_x": Param(0.40, "the ellipsoid's size along x", "m", low=0, low_open=True),
    "size_y": Param(0.30, "the ellipsoid's size along y", "m", low=0, low_open=True),
    "size_z": Param(0.70, "the ellipsoid's size along z (before its bed is cut)", "m", low=0, low_open=True),
    "roughness": Param(0.15, "how far each point moves in or out ÷ its radius", "", low=0, high=0.5),
    "bed": Param(0.55, "height of the flat bed below the centre ÷ the lower semi-axis", "", low=0.05, high=0.95),
    **packing_params(),
    "theta0_deg": Param(2.0, "initial tilt about y (> 0: leaning on its +x edge; 0: upright)", "deg", low=-60,
                        high=60),
    "pga_g": Param(0.0, "peak table acceleration ÷ g of the Eq. 42 sine (0: the table stays still)", "", low=0),
    "frequency": Param(1.0, "frequency of the Eq. 42 sine", "Hz", low=0, low_open=True),
    "ramp_end": Param(4.5, "end of the sine's linear ramp-up (Eq. 42, T)", "s", low=0),
    "hold_end": Param(14.5, "end of its constant amplitude (Eq. 42, L1)", "s", low=0),
    "stop": Param(16.0, "end of its ramp-down (Eq. 42, L2)", "s", low=0),
    "dt": Param(0.0, "time step (0: half the critical estimate)", "s", low=0),
    "t_end": Param(2.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(1e-3, "interval between history rows", "s", low=0, low_open=True),
})


def stone(p: dict):
    """The stone's mesh (dem.model.mesh_file.TriMesh) for the scene's parameters."""
    return stone_mesh(p["seed"], size=(p["size_x"], p["size_y"], p["size_z"]), points=p["points"],
                      roughness=p["roughness"], bed=p["bed"])


def build(p: dict) -> Scene:
    mesh = stone(p)
    sb = build_standing(p, PARAMS, mesh, body="stone")
    return standing_scene(NAME, sb, p, choose_dt(p, sb.model), info={"stone": {"seed": p["seed"],
                                                                             "faces": len(mesh.faces)}})
