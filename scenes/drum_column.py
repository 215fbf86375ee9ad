"""A free-standing classical column of marble drums, with a capital, on a shaking table: a 1:3 column of the
size of Mouzakis et al. (2002)'s specimen, by default.

Dimensions. Mouzakis et al. (2002) tested a 1:3 marble replica of a column of the Parthenon on the NTUA
shaking table; their paper was not available here (only its abstract, which gives the scale, the material
and the monument, not the dimensions), so the default is the Parthenon's peristyle column scaled 1:3, from
figures commonly quoted for it and not checked against the specimen: 10.43 m high with its capital, 1.905 m
in diameter at the foot → 3.48 m and 0.635 m (``radius`` 0.3175 m). The rest is chosen and documented here,
not measured: a shaft tapering to a diameter 0.77 of the foot's (``top_radius`` 0.245 m: a straight taper,
no entasis curve), 12 drums (issue 22's count for the specimen, unverified), a capital 0.29 m high (0.86 m /
3) made of an echinus flaring to a radius of 0.335 m over 0.16 m and a square abacus 0.67 m wide and 0.13 m
high, carved in one block. Shaft 3.19 m + capital 0.29 m = 3.48 m. Marble: ρ = 2700 kg/m³;
E = 50 GPa, ν = 0.25 (the order of a marble's) for the contacts of 15 mm joint spheres (``stiffness_radius``,
below); μ = 0.7 at every joint and on the table. With these, the column weighs 2,425 kg (the capital 273 kg);
held at a horizontal acceleration a it would uplift on the table at a/g = R/z_G = 0.190 (z_G the height of
its centre of mass), and each joint above at a higher a/g, 0.199 … 1.46 under the capital (info:
``joint_uplift_g``, the statics of a stack: tests/physics/test_drum_column_scene.py checks them against
validation.stack).

Model. Drums and capital are edge-true clumps (dem.model.drum_clump, dem.model.assembly.column): each drum
rests on its own faces and pivots on its own rim, faces of one radius meet sphere on sphere. Packing:
r_joint = 40 mm spheres in 80 mm joint zones, r_core = 60 mm in the cores, spacing 0.75 × the diameter
(4,650 spheres, 4,310 on the hull, ~700 contacts; 9,000 steps/s on this 2-core machine: the default 20 s
in a minute and a half). The contacts take E (r_joint/stiffness_radius)^1.5 = 217 GPa, so that every joint
closes under a pressure as a lattice of 15 mm spheres with E = 50 GPa does (dem.model.joint_modulus); at a
fixed E a joint's stiffness goes as 1/r and the coarse joints would be softer.

Packing study (a Ricker pulse, 0.4 g, 2 Hz, this scene otherwise; docs/examples/column_packing.md): the
foot's first rocking excursion was 0.80, 0.83, 0.86, 0.88 and 0.88° with 15, 20, 10, 25 and 40 mm joint
spheres, the modulus scaled (0.80–1.01° with E = 50 GPa for all). Past the first impacts the runs part ways,
as rocking drums do: the capital's peak was 1.62–2.07° over the packings. Δt: at twice the default, 5e-5 s,
the first excursion moves by 0.001° and the history follows the default's to 1.98 s, as long as a 0.1 %
larger pulse follows the 15 mm run (1.94 s); but over the default 20 s of sine the energy balance error is
1.6e-2 at 5e-5 s, 7.6e-3 at 3.5e-5 s and 3.7e-3 at 2.5e-5 s: the default takes 2.5e-5 s, as the 15 mm
packing did (its joints are as stiff). The 15 mm packing (``r_joint=0.015 r_core=0.045 zone=0.05``: 37,385
spheres, ~4,000 contacts) costs 5.5–6.5 times as much.

Dashpot mass shared over each interface (``damping_mass=shared``, docs/damping.md): ζ = β per interface
whatever the packing; with "body" dashpots a stack of drums needs Δt ≲ 1/(β√N ω) (the dashpots between two
bodies are explicit in the other body's velocity; the 15 mm column at β = 0.15 went unstable at 2e-5 s,
stable at 1.5e-5 s). The column stands still for ``settle`` seconds first: released with its joints just
touching, its first axial mode rings with ζ = β ω₁/ω_I and has decayed to 1 % of the weight by 0.5 s.
Δt = 2.5e-5 s (dem.model.timestep's critical estimate, the highest mode of the 13 bodies together on their
contacts, is 1.3e-4 s; at 1e-4 s the rocking column blew up: on its pivot a few large spheres carry the whole
weight, stiffer than the estimate's load allows).

Table motion: Itiola & El Shamy (2024)'s Eq. 42 ramped sine (``pga_g``, ``frequency``, ramps), a pulse
(``pulse=ricker`` or ``one_sine``, ``pulse_pga_g``, ``pulse_frequency``: dem.scenes.pulses) or a record
(``record=FILE``, dem.scenes.tools), along ``direction_deg``. ``monolithic=true`` glues the drums into one
shaft (the rigid column). The default, Eq. 42 at 0.3 g and 2 Hz (above the column's 0.19 g), rocks it
from 3.3 s on, the upper half most (the joints under the 10th and the 9th drums open by 2.5 and 2.0°; peak
3.7°, the 11th drum at 15.2 s); it stands, still rocking by 0.65° at 20 s (energy balance error
3.7e-3; 800,000 steps in 88 s on this 2-core machine). The 15 mm packing rocked from 3 s on, its drums opening
at the foot and at mid-height by turns (peak 3.1°, the capital at 9.9 s): over 16 s of sine the response
moves with the packing as with any small change.

Recorded: each drum's and the capital's rotation about y, angular velocity, displacements and accelerations
(``drum1_theta_deg`` …, ``capital_ux`` …), and at every joint (``joint0`` on the table, ``joint<k>`` under
drum k + 1, ``joint12`` under the capital) H, V, V ÷ the weight above, eccentricity ÷ the face's width, |H|/V
and the sphere contacts (dem.run.assembly_probes).

Worlds and sweeps: ``dem run drum_column --vary ...`` (worlds.csv) and ``dem sweep drum_column`` (results.parquet)
read the column's response over every block (dem.run.assembly_response, from ``info['assembly']``): overturned
when any block reaches θ_ov of the column's α = atan(R/z_G), the joints' residual dislocation and rotation, the
foot's slip on the table. ``dem sweep --engine rigid`` solves the monolithic column on its foot's rim
(``info['rigid_reference']``: :func:`response_info`); docs/examples/column_fragility.md is a small study.
"""

import math

import numpy as np

from dem import Material, ModelBuilder, Param, Scene
from dem.model.assembly import Capital, column
from dem.model.joint_modulus import joint_modulus
from dem.model.materials import DAMPING_MASSES
from dem.run.assembly_probes import assembly_probes
from dem.run.assembly_response import assembly_info
from dem.run.events import EventSpec
from dem.run.probes import WallMotionProbe
from dem.scenes.pulses import PULSE_PARAMS, table_signal
from dem.scenes.tools import (
    JOINTS,
    SHEAR_UNLOADING,
    joint_stiffness_params,
    rigid_reference,
    rocking_body,
    shaking,
    shaking_direction,
    shaking_params,
)

NAME = "drum_column"
G = 9.81

PARAMS = shaking_params({
    "drums": Param(12, "number of drums in the shaft", "", low=1, high=200),
    "shaft_height": Param(3.19, "height of the shaft (all drums)", "m", low=0, low_open=True),
    "radius": Param(0.3175, "radius of the shaft at its foot", "m", low=0, low_open=True),
    "top_radius": Param(0.245, "radius of the shaft at its top (a straight taper)", "m", low=0, low_open=True),
    "capital": Param(True, "a capital (echinus and abacus in one block) on the shaft"),
    "echinus_height": Param(0.16, "height of the capital's echinus", "m", low=0, low_open=True),
    "echinus_radius": Param(0.335, "radius of the echinus at its top", "m", low=0, low_open=True),
    "abacus_width": Param(0.67, "width of the capital's square abacus", "m", low=0, low_open=True),
    "abacus_height": Param(0.13, "height of the abacus", "m", low=0, low_open=True),
    "monolithic": Param(False, "glue the drums into one shaft (the rigid column)"),
    "density": Param(2700.0, "marble density", "kg/m^3", low=0, low_open=True),
    **joint_stiffness_params(0.015),
    "nu": Param(0.25, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "mu": Param(0.7, "friction coefficient (joints and table)", "", low=0),
    "beta_n": Param(0.15, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.15, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("shared", "dashpot mass: shared among an interface's contacts (docs/damping.md) or the "
                          "body's at every contact (004)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "joints": JOINTS,
    "r_joint": Param(0.04, "sphere radius in the joint zones", "m", low=0, low_open=True),
    "r_core": Param(0.06, "sphere radius in the cores", "m", low=0, low_open=True),
    "zone": Param(0.08, "depth of the joint zones", "m", low=0, low_open=True),
    "spacing_ratio": Param(0.75, "sphere centre spacing ÷ diameter", "", low=0, high=1, low_open=True),
    "pga_g": Param(0.3, "peak table acceleration ÷ g (004 Eq. 42, b)", "", low=0),
    "frequency": Param(2.0, "table frequency (Eq. 42)", "Hz", low=0, low_open=True),
    "ramp_end": Param(4.5, "end of the linear ramp-up (Eq. 42, T)", "s", low=0),
    "hold_end": Param(14.5, "end of the constant amplitude (Eq. 42, L1)", "s", low=0),
    "stop": Param(16.0, "end of the ramp-down (Eq. 42, L2)", "s", low=0),
    "settle": Param(0.5, "time the column stands before the table moves", "s", low=0),
    "dt": Param(2.5e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(20.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(5e-3, "interval between history rows", "s", low=0, low_open=True),
}) | PULSE_PARAMS


def joint_uplift(model, bodies, joints) -> list[float]:
    """a/g at which each joint opens under a held horizontal acceleration (the statics of a centred stack:
    half-width of the contact face ÷ height of the centre of mass of the blocks above it)."""
    m = np.array([model.mass[c] for c in bodies])
    z = np.array([model.clumps[c].position[2] for c in bodies])
    out = []
    for k, j in enumerate(joints):
        z_g = float(np.sum(m[k:] * z[k:]) / np.sum(m[k:]))
        out.append(0.5 * j.width / (z_g - j.height))
    return out


def response_info(p: dict, model, col, horizontal) -> dict:
    """What a sweep and a batch's worlds.csv read (dem.run.assembly_response): the column's slenderness as one
    rigid body about its foot's rim, α = atan(R/z_G) (z_G: its centre of mass above the table), every block
    and joint, the foot as a rocking body on the table; and the rigid reference of ``dem sweep --engine
    rigid``: the monolithic column rocking on its foot's rim (Housner 1963 with the column's own mass and
    inertia: p² = m g R₀/I_O, R₀ = √(R² + z_G²), and the restitution that conserves the angular momentum about
    the rim point it lands on, e = 1 − 2 m R²/I_O, 1 − 1.5 sin²α for a box)."""
    m = np.array([model.mass[c] for c in col.bodies])
    pos = np.array([model.clumps[c].position for c in col.bodies])
    h = np.asarray(horizontal, float)
    mass, g_pos = float(m.sum()), (m[:, None] * pos).sum(axis=0) / m.sum()
    z_g = float(g_pos[2] - col.base_height)
    axis = np.array([-h[1], h[0], 0.0])
    i_g = sum(float(axis @ model.inertia[c] @ axis) + mk * float(np.sum(np.cross(axis, x - g_pos) ** 2))
              for c, mk, x in zip(col.bodies, m, pos))
    radius = p["radius"]
    i_o = i_g + mass * (radius**2 + z_g**2)
    alpha = math.atan2(radius, z_g)
    foot = col.bodies[0]
    g_foot = float(model.clumps[foot].position[2] - col.base_height)  # the foot's centre above its bottom face
    return {"alpha_rad": alpha, "p_rad_s": math.sqrt(mass * G * math.hypot(radius, z_g) / i_o),
            "assembly": assembly_info(model, col, horizontal=horizontal, ground_disp="table_disp",
                                      foot=rocking_body(f"{col.body_names[0]}_theta_deg", col.body_names[0],
                                                        width=2 * radius, height=2 * g_foot,
                                                        edge_radius=p["r_joint"], ground_disp="table_disp")),
            "rigid_reference": rigid_reference(alpha, math.sqrt(mass * G * math.hypot(radius, z_g) / i_o),
                                               restitution=float(1.0 - 2.0 * mass * radius**2 / i_o), width=2 * radius,
                                               height=2 * z_g, g=G)}


def build(p: dict) -> Scene:
    young = joint_modulus(p["E"], p["r_joint"], p["stiffness_radius"])
    marble = Material.hertz(young=young, poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                            damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                            shear_unloading=p["shear_unloading"], density=p["density"])
    cap = Capital(p["echinus_height"], p["echinus_radius"], p["abacus_width"], p["abacus_height"]) \
        if p["capital"] else None
    signal, motion_info = table_signal(p, PARAMS)
    width = 2 * max(p["radius"], p["echinus_radius"], p["abacus_width"]) + 4.0
    b = ModelBuilder(gravity=(0.0, 0.0, -G), joints=p["joints"])
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=marble, u_axis=(1, 0, 0), size=(width, width),
                       motion=shaking(signal, direction=shaking_direction(p), t_end=p["t_end"], delay=p["settle"]),
                       name="table")
    col = column(b, drums=p["drums"], height=p["shaft_height"], radius=p["radius"], top_radius=p["top_radius"],
                 capital=cap, material=marble, r_core=p["r_core"], r_joint=p["r_joint"], zone=p["zone"],
                 spacing_ratio=p["spacing_ratio"], base=table, monolithic=p["monolithic"])
    model = b.finalize()
    d = shaking_direction(p)
    horizontal, axis = (d[0], d[1], 0.0), (-d[1], d[0], 0.0)  # rotations about the axis normal to the shaking
    probes = assembly_probes(col, horizontal=horizontal, axis=axis) + [WallMotionProbe("table", table, horizontal)]
    mass = float(sum(model.mass[c] for c in col.bodies))
    uplift = joint_uplift(model, col.bodies, col.joints)
    info = {"mass_kg": mass, "body_masses_kg": {n: float(model.mass[c]) for n, c in zip(col.body_names, col.bodies)},
            "height_m": col.top_height, "joint_heights_m": [j.height for j in col.joints],
            "joint_uplift_g": uplift, "uplift_threshold_g": min(uplift),
            "first_joint_to_open": col.joints[int(np.argmin(uplift))].name, "shaking_delay_s": p["settle"],
            "sphere_count": model.ball_count, "hull_sphere_count": model.hull_count,
            "contact_young_Pa": young} | motion_info
    reach = col.top_height + 1.0
    domain = ((-width / 2 - reach, -width / 2 - reach, -reach), (width / 2 + reach, width / 2 + reach, 2 * reach))
    alpha = math.atan2(p["radius"], col.top_height / 2)
    info["column_alpha_rad"] = alpha
    info |= response_info(p, model, col, horizontal)
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info, events=EventSpec(domain))
