"""A marble statue on a stone plinth on a museum floor shaking in an earthquake: does it slide, rock or
overturn, and does the plinth move? (issue 31)

The statue is a mesh (``mesh``; by default scenes/data/statue.stl, made by the project from lofted sections,
scenes/data/make_meshes.py: a standing figure 1.10 m high on its own 0.27 × 0.27 m pedestal, leaning forward
(+x), an arm held forward; 79 kg of marble at 2700 kg/m³), packed by dem.model.mesh_clump (a skin of r_joint
spheres, an edge-true layer on its base, a core of r_core spheres), its mass, centre of mass and inertia from the
mesh. The plinth is a box (dem.box_clump) ``plinth_width`` square and ``plinth_height`` high, of
``plinth_density`` (by default 0.54 × 0.54 × 0.90 m of stone, 630 kg). The floor is a table moving along x
(``direction_deg``): Itiola & El Shamy (2024)'s Eq. 42 ramped sine (by default 0.4 g at 1.5 Hz, ramped over 1 s,
held to 4 s, ended at 5 s, after ``settle`` s of standing still) or a ground-motion record (``record=FILE``,
dem.scenes.tools).

The statue's seat. The statue stands on the plinth's top face, its base's layer of spheres in register with
the plinth's top layer (dem.model.placement, dem.model.assembly.stack): both are lattices of one step
(``joint_step``, 1.5 r_joint by default; the plinth's width and the statue's base must be whole numbers of it: 36
and 18 steps of 15 mm by default), sphere on sphere. The exact contact of a body's spheres against another
body's face (the joints issue) is not in the engine yet; until it is, a seat in register is what makes two flat
faces meet as flat faces (docs/tutorial.md, "A scene of your own").

Statics (from the meshes; dem.model.mesh_rocking): under a held horizontal acceleration the statue uplifts on
its plinth at a/g = s/h, 0.270 towards +x (where it leans: b = 0.120 m from its centre of mass's foot to its
pedestal's edge, h = 0.444 m) and 0.339 towards −x; the plinth with the statue uplifts on the floor at
0.49 g; either slides at a/g = μ (0.6). At the default 0.4 g the statue rocks up to 12.68° (0.84 α) and slides
3.5 mm on the plinth, which stays put (summary: ``statics``, and ``postprocess``: what the statue and the plinth
did; 130,000 steps in 94 s on this 2-core machine).

Time step 5e-5 s: the plinth and the statue settle on their 10 mm spheres at the start, and the energy balance
closes to 1.9e-3 over it (8.1e-3 at the automatic 1e-4 s; the rocking alike: peak 12.68° against 12.69°).

Recorded (dem.run.assembly_probes): each body's rotation (``statue_theta_deg``, ``plinth_theta_deg``), angular
velocity and motion; the plinth's seat on the floor (``joint0``) and the statue's on the plinth (``joint1``):
H, V, V ÷ the weight above, eccentricity, |H|/V, contacts, opening (``joint1_opening_deg``: the statue
rocking on its plinth) and slip; the table's motion.
"""

from pathlib import Path
from types import SimpleNamespace

import numpy as np

from dem import ModelBuilder, Param, Scene, box_clump
from dem.model.assembly import Piece, stack
from dem.model.lattice import spacing
from dem.model.mesh_clump import mesh_clump
from dem.model.mesh_rocking import uplift_ratio
from dem.run.assembly_probes import assembly_probes
from dem.run.events import EventSpec, Watch
from dem.run.probes import WallMotionProbe
from dem.scenes.mesh_bodies import G, choose_dt, material, pivot_info, pivots, rigid_info, units
from dem.scenes.mesh_bodies import packing_params as _packing
from dem.scenes.tools import base_signal, rocking_body, shaking, shaking_direction, shaking_params

NAME = "museum_statue"
DEFAULT_MESH = Path(__file__).resolve().parent / "data" / "statue.stl"
_SHARED = {k: v for k, v in _packing().items() if k in ("units", "edges", "spacing_ratio", "E", "nu", "beta_n",
                                                         "beta_s", "shear_unloading")}

PARAMS = shaking_params({
    "mesh": Param("", "the statue's closed surface mesh (empty: scenes/data/statue.stl)"),
    "density": Param(2700.0, "the statue's density (marble)", "kg/m^3", low=0, low_open=True),
    "mass": Param(0.0, "the statue's mass (0: density × its mesh's volume)", "kg", low=0),
    "r_joint": Param(0.01, "sphere radius of the statue's skin and base and of the plinth's faces", "m", low=0,
                     low_open=True),
    "r_core": Param(0.03, "sphere radius in the statue's and the plinth's cores", "m", low=0, low_open=True),
    "joint_step": Param(0.0, "lattice step of the seat's two faces (0: the spacing of r_joint spheres)", "m", low=0),
    "plinth_width": Param(0.54, "the plinth's width along x and y", "m", low=0, low_open=True),
    "plinth_height": Param(0.90, "the plinth's height", "m", low=0, low_open=True),
    "plinth_density": Param(2400.0, "the plinth's density (stone)", "kg/m^3", low=0, low_open=True),
    "mu": Param(0.6, "friction coefficient (marble on stone, and the plinth on the floor)", "", low=0),
    "damping_mass": Param("shared", "dashpot mass: shared among an interface's contacts (docs/damping.md) or the "
                          "body's at every contact", choices=("shared", "body")),
    **_SHARED,
    "pga_g": Param(0.4, "peak floor acceleration ÷ g (Eq. 42 sine)", "", low=0),
    "frequency": Param(1.5, "frequency of the sine", "Hz", low=0, low_open=True),
    "ramp_end": Param(1.0, "end of the sine's linear ramp-up (Eq. 42, T)", "s", low=0),
    "hold_end": Param(4.0, "end of its constant amplitude (Eq. 42, L1)", "s", low=0),
    "stop": Param(5.0, "end of its ramp-down (Eq. 42, L2)", "s", low=0),
    "settle": Param(0.3, "time the plinth and statue stand before the floor moves", "s", low=0),
    "dt": Param(5e-5, "time step (0: half the critical estimate, rounded down)", "s", low=0),
    "t_end": Param(6.5, "duration", "s", low=0, low_open=True),
    "history_dt": Param(2e-3, "interval between history rows", "s", low=0, low_open=True),
})


def assemble(p: dict, motion) -> SimpleNamespace:
    """The model: the floor (a wall moving with `motion`, a dem.model.walls.WallMotion or None), the plinth and
    the statue in register on it (module docstring), and the statics from the meshes. Used by :func:`build` and
    by the tests (a held acceleration)."""
    step = p["joint_step"] or spacing(p["r_joint"], p["spacing_ratio"])
    mesh = p["mesh"] or str(DEFAULT_MESH)
    statue = mesh_clump(mesh, r_core=p["r_core"], r_surface=p["r_joint"], edges=p["edges"], units=units(p),
                        spacing_ratio=p["spacing_ratio"], zone_step=step)
    pw, ph = p["plinth_width"], p["plinth_height"]
    n = pw / step
    if abs(n - round(n)) > 1e-6 * n:
        raise ValueError(f"plinth_width={pw} m must be a whole number of joint steps ({step:g} m: joint_step, or "
                         f"1.5 r_joint) for its top face to meet the statue's base in register")
    zone = max(2 * p["r_joint"], p["r_core"] + p["r_joint"])  # the core's edge spheres above the pivot's
    plinth = box_clump(pw, ph, pw, r_core=p["r_core"], r_base=p["r_joint"], r_top=p["r_joint"], base_zone=zone,
                       top_zone=zone, spacing_ratio=p["spacing_ratio"], edges=p["edges"], zone_step=(step, step))
    mat = material(p | {"density": p["density"]})
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    width = 4 * pw + 4.0
    floor = b.add_wall((0, 0, 0), (0, 0, 1), material=mat, u_axis=(1, 0, 0), size=(width, width), motion=motion,
                       name="table")
    asm = stack(b, [Piece(plinth, "plinth", density=p["plinth_density"]),
                    Piece(statue, "statue", mass=p["mass"] or None, density=p["density"])], material=mat, base=floor)
    model = b.finalize()
    plinth_c, statue_c = asm.bodies
    plus, minus = pivots(statue, model.clumps[statue_c].mass_props)
    weak, other = (plus, minus) if plus.uplift_ratio <= minus.uplift_ratio else (minus, plus)
    m = np.array([model.mass[c] for c in asm.bodies])
    pos = np.array([model.clumps[c].position for c in asm.bodies])
    g_sys = (m[:, None] * pos).sum(axis=0) / m.sum()
    square = np.array([[-pw / 2, -pw / 2], [pw / 2, -pw / 2], [pw / 2, pw / 2], [-pw / 2, pw / 2]])
    square += model.clumps[plinth_c].position[:2]
    plinth_up = [float(uplift_ratio(g_sys, g_sys[2], square, (s, 0.0))) for s in (1.0, -1.0)]
    statics = {"statue_uplift_g": {"+x": plus.uplift_ratio, "-x": minus.uplift_ratio},
               "plinth_uplift_g": {"+x": plinth_up[0], "-x": plinth_up[1]},
               "sliding_g": p["mu"], "statue_pivots": {"+x": pivot_info(plus), "-x": pivot_info(minus)},
               "statue_mass_kg": float(m[1]), "plinth_mass_kg": float(m[0])}
    return SimpleNamespace(model=model, assembly=asm, floor=floor, statue=statue, plinth=plinth, weak=weak,
                           other=other, statics=statics, notes=list(statue.solid.notes))


def build(p: dict) -> Scene:
    signal, motion_info = base_signal(p, PARAMS)
    d = shaking_direction(p)
    s = assemble(p, shaking(signal, direction=d, t_end=p["t_end"], delay=p["settle"]))
    model, asm, weak = s.model, s.assembly, s.weak
    horizontal, axis = (d[0], d[1], 0.0), (-d[1], d[0], 0.0)
    probes = assembly_probes(asm, horizontal=horizontal, axis=axis) + [WallMotionProbe("table", s.floor, horizontal)]
    r = p["r_joint"]
    pw, ph = p["plinth_width"], p["plinth_height"]
    # sliding: the plinth's on the floor (its corner spheres); the statue's is its seat's slip on the moving
    # plinth (joint1_slip, postprocess). Falls: dem.run.bodies, for both bodies
    watches = (Watch("plinth", None, tuple(axis), base="table",
                     feet=tuple((sx * pw / 2, sy * pw / 2, -ph / 2 + r) for sx in (-1, 1) for sy in (-1, 1)),
                     foot_radius=r),)
    reach = ph + 2.0
    events = EventSpec(((-reach - pw, -reach - pw, -reach), (reach + pw, reach + pw, 2 * reach)), watches)
    info = {"statics": s.statics, "alpha_rad": weak.alpha, "p_rad_s": weak.p(G),
            "uplift_threshold_g": weak.uplift_ratio, "shaking_delay_s": p["settle"],
            "mesh": {"source": s.statue.solid.source, "volume_m3": s.statue.solid.volume,
                     "sphere_count": s.statue.sphere_count, "hull_sphere_count": s.statue.hull_count,
                     "notes": s.notes},
            # the statue is the body in question (a sweep's response, its α); the plinth falls or not at its
            # own α (dem.run.bodies)
            "rocking_bodies": [rocking_body("statue_theta_deg", "statue", width=2 * weak.b, height=2 * weak.h,
                                            edge_radius=r, edges=p["edges"], ground_disp="plinth_ux")],
            "rigid_reference": rigid_info(weak, s.other)} | motion_info
    return Scene(NAME, model, probes, choose_dt(p, model), p["t_end"], p["history_dt"], p, info, postprocess,
                 events=events)


def postprocess(result, out_dir):
    """What happened: the statue's largest rocking (its rotation relative to the plinth, ÷ its α), whether it
    uplifted (opened its seat by more than 0.05°), slid on its plinth (more than 1 mm) or overturned; the
    plinth's largest rotation and slide on the floor; and a sentence."""
    h = result.history
    info = result.summary
    alpha = float(info["alpha_rad"])
    opening = np.abs(np.asarray(h["joint1_opening_deg"]))
    slip = np.abs(np.asarray(h["joint1_slip"]))
    fell = [e for e in info.get("events", []) if e.get("event") == "overturn"]
    statue = {"peak_rocking_deg": float(opening.max()), "peak_rocking_over_alpha": float(np.radians(opening.max())
                                                                                        / alpha),
              "uplifted": bool(opening.max() > 0.05), "max_slip_m": float(slip.max()), "slid": bool(slip.max() > 1e-3),
              "overturned": any(e.get("body") == "statue" for e in fell)}
    p_turn = np.abs(np.asarray(h["joint0_opening_deg"]))
    p_slip = np.abs(np.asarray(h["joint0_slip"]))
    plinth = {"peak_rocking_deg": float(p_turn.max()), "max_slip_m": float(p_slip.max()),
              "moved": bool(p_turn.max() > 0.05 or p_slip.max() > 1e-3),
              "overturned": any(e.get("body") == "plinth" for e in fell)}
    what = ("overturned" if statue["overturned"] else
            f"rocked (up to {statue['peak_rocking_deg']:.2f}°, {statue['peak_rocking_over_alpha']:.2f} α)"
            if statue["uplifted"] else "did not rock")
    what += f" and slid {1e3 * statue['max_slip_m']:.1f} mm on it" if statue["slid"] else " and did not slide"
    moved = ("overturned" if plinth["overturned"] else
             f"moved (rocked {plinth['peak_rocking_deg']:.2f}°, slid {1e3 * plinth['max_slip_m']:.1f} mm)"
             if plinth["moved"] else "stayed put")
    return {"statue": statue, "plinth": plinth, "verdict": f"the statue {what}; the plinth {moved}"}
