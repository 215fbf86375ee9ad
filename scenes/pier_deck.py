"""A rocking bridge: four free-standing piers under one deck that rests on them by friction alone, on a
shaken base (Itiola & El Shamy 2024, §5.2–5.5, Table 3).

Piers as in scenes/single_pier.py (5 × 1.6 × 9.6 m, 178,176 kg each) stand in a row along x, the shaking
direction, about 8 m apart, so the bridge rocks as a frame in the x–z plane. Itiola & El Shamy 2024 does not print the
deck's size: here it is about 26.4 m long (x), 5 m wide (y, the piers' length) and 2 m thick, with Itiola & El Shamy's
(2024) deck mass 612,480 kg, so γ = 612480 / (4 × 178176) = 0.86 and the rocking frame's p̄ = √((1+2γ)/(1+3γ)) p = 1.07
rad/s. The deck has 80 mm spheres in its bottom 0.4 m and 200 mm above.

Edges. The outer rows of every body are centred on its side faces (``edges=true``, dem/model/box_clump.py):
each pier pivots on its own edges at the base and under the deck (α = 9.46°, uplift at g tan α).
``edges=rounded`` keeps the spheres inside the faces: the piers then rock as piers of α' = 0.917 α.

Lattice alignment. With 80 mm spheres about 120 mm apart, a face of spheres is an egg-crate about 27 mm
deep: where the deck's bottom lattice is out of register with a pier's top lattice, the deck sits up to
27 mm higher, and a rigid deck then rests only on the best-aligned piers. So the deck's bottom lattice takes
the pier tops' column spacing along x (1.6 m / 14 = 114.3 mm with true edges, 120 mm with rounded ones),
the deck length is rounded to a whole number of those spacings (26.51 m, or 26.32 m, by default) and the
piers are moved to the nearest positions in register with the deck (x = ±4.0, ±12.0 m, or ±3.96, ±12.0 m,
by default); the deck is then placed touching them all (its interfaces still become "corrugated" once
piers tilt, Itiola & El Shamy 2024, §5.4). The deck settles for ``settle`` seconds before the base starts
to move with Itiola & El Shamy 2024, Eq. 42 (``pga_g`` = 0.5 or 0.1).

Time step: Δt = 1e-4 s (Itiola & El Shamy 2024: 1e-5 s; the critical step with implicit dashpots is 1.6e-3 s). Halving
it changes the piers' peak rocking angle at 0.5 g (0.444 α over 80 s) by 0.01 %
(`python benchmarks/bench_bridges.py --pga 0.5 --halve`).

Recorded per pier and for the deck: rocking angle (÷ α), angular velocity, displacements and
accelerations; at each pier–base and pier–deck interface: horizontal resultant, vertical resultant ÷ its
static load (pier + ¼ deck at the base, ¼ deck at the top), eccentricity ÷ pier width (±1/6: middle
third) and friction ratio |H|/V.

Base motion: the Eq. 42 sine by default, or a record (``--set record=FILE.AT2 target_pga_g=0.3``; see
dem.scenes.tools.RECORD_PARAMS), after the settling time.
"""

import math

import numpy as np

from dem import Material, ModelBuilder, Param, Scene, box_clump
from dem.model.box_clump import EDGES
from dem.model.materials import DAMPING_MASSES
from dem.model.placement import resting_height
from dem.run.events import EventSpec, block_watch
from dem.run.probes import AngularVelocity, BodyMotion, Interface, RockingAngle, WallMotionProbe
from dem.scenes.tools import (
    JOINTS,
    SHEAR_UNLOADING,
    base_signal,
    rigid_reference,
    rocking_body,
    shaking,
    shaking_direction,
    shaking_params,
)

NAME = "pier_deck"
G = 9.81

PARAMS = shaking_params({
    "pier_length": Param(5.0, "pier length along y", "m", low=0, low_open=True),
    "pier_width": Param(1.6, "pier width along x (rocking direction)", "m", low=0, low_open=True),
    "pier_height": Param(9.6, "pier height", "m", low=0, low_open=True),
    "spacing": Param(8.0, "distance between neighbouring piers along x (moved into register)", "m", low=0,
                     low_open=True),
    "deck_length": Param(26.4, "deck length along x (rounded to the pier-top lattice)", "m", low=0, low_open=True),
    "deck_width": Param(5.0, "deck width along y", "m", low=0, low_open=True),
    "deck_thickness": Param(2.0, "deck thickness", "m", low=0, low_open=True),
    "deck_mass": Param(612480.0, "deck mass (004 §5.2)", "kg", low=0, low_open=True),
    "density": Param(2320.0, "pier concrete density", "kg/m^3", low=0, low_open=True),
    "E": Param(25e9, "Young's modulus (G = E/(2(1+ν)))", "Pa", low=0, low_open=True),
    "nu": Param(0.16, "Poisson's ratio", "", low=0, high=0.5, high_open=True),
    "mu": Param(0.59, "friction coefficient (base and deck interfaces)", "", low=0),
    "beta_n": Param(0.015, "normal critical-damping ratio", "", low=0, high=1),
    "beta_s": Param(0.015, "shear critical-damping ratio", "", low=0, high=1),
    "damping_mass": Param("body", "dashpot mass: the bodies' at every contact (004) or shared among an "
                          "interface's contacts (docs/damping.md)", choices=DAMPING_MASSES),
    "shear_unloading": SHEAR_UNLOADING,
    "joints": JOINTS,
    "r_base": Param(0.08, "sphere radius at the interfaces (r1)", "m", low=0, low_open=True),
    "r_core": Param(0.2, "sphere radius in the cores (r2)", "m", low=0, low_open=True),
    "zone": Param(0.4, "height of the small-sphere zones", "m", low=0, low_open=True),
    "spacing_ratio": Param(0.75, "sphere centre spacing ÷ diameter", "", low=0, high=1, low_open=True),
    "edges": Param("true", "edge spheres centred on the side faces (true: bodies pivot on their edges) or "
                   "tangent to them (rounded)", choices=EDGES),
    "pga_g": Param(0.5, "peak base acceleration ÷ g (004 Eq. 42, b): 0.5 or 0.1 in 004", "", low=0),
    "frequency": Param(1.0, "base excitation frequency", "Hz", low=0, low_open=True),
    "ramp_end": Param(4.5, "end of the linear ramp-up (Eq. 42, T)", "s", low=0),
    "hold_end": Param(14.5, "end of the constant amplitude (Eq. 42, L1)", "s", low=0),
    "stop": Param(16.0, "end of the ramp-down (Eq. 42, L2)", "s", low=0),
    "settle": Param(1.0, "time the bridge settles before the base moves", "s", low=0),
    "dt": Param(1e-4, "time step", "s", low=0, low_open=True),
    "t_end": Param(80.0, "duration (shaking, then free vibration)", "s", low=0, low_open=True),
    "history_dt": Param(5e-3, "interval between history rows", "s", low=0, low_open=True),
})


def build(p: dict) -> Scene:
    pw, pl, ph = p["pier_width"], p["pier_length"], p["pier_height"]
    concrete = Material.hertz(young=p["E"], poisson=p["nu"], friction=p["mu"], damping_normal=p["beta_n"],
                              damping_shear=p["beta_s"], damping_mass=p["damping_mass"],
                              shear_unloading=p["shear_unloading"])
    pier_tpl = box_clump(pw, ph, pl, r_core=p["r_core"], r_base=p["r_base"], r_top=p["r_base"],
                         base_zone=p["zone"], top_zone=p["zone"], spacing_ratio=p["spacing_ratio"], edges=p["edges"])
    pier_mass = p["density"] * pw * pl * ph
    # the pier tops' lattice spacing along x, and the deck length and pier positions in register with it
    top = pier_tpl.centers[:, 2] > ph / 2 - p["zone"]
    columns = np.unique(np.round(pier_tpl.centers[top, 0], 9))
    step = float(pier_tpl.centers[top, 0].max() - pier_tpl.centers[top, 0].min()) / (len(columns) - 1)
    r1 = p["r_base"]
    inset = 0.0 if p["edges"] == "true" else r1  # outer columns: centred on the faces, or r1 inside them
    n_cells = max(2, 2 * math.floor((p["deck_length"] - 2 * inset) / (2 * step) + 0.5 + 1e-9))  # halves round up
    deck_length = 2 * inset + n_cells * step
    # the deck's bottom lattice takes the piers' step exactly along x (along y both use the default, which
    # is the same lattice when deck_width = pier_length)
    deck_tpl = box_clump(deck_length, p["deck_thickness"], p["deck_width"], r_core=p["r_core"], r_base=r1,
                         base_zone=p["zone"], spacing_ratio=p["spacing_ratio"], edges=p["edges"],
                         zone_step=(step, None))
    first = -deck_length / 2 + inset  # the deck's first bottom column
    pier_first = -(pw / 2 - inset)  # a pier's first top column relative to its axis
    offset = first - pier_first
    xs = offset + step * np.round(((np.arange(4) - 1.5) * p["spacing"] - offset) / step)
    signal, motion_info = base_signal(p, PARAMS)

    b = ModelBuilder(gravity=(0.0, 0.0, -G), joints=p["joints"])
    piers = [b.add_clump(pier_tpl, material=concrete, mass=pier_mass, position=(x, 0.0, ph / 2), name=f"pier{k + 1}")
             for k, x in enumerate(xs)]
    # the deck on the piers' top spheres, just touching
    lower = np.concatenate([pier_tpl.centers[top] + [x, 0.0, ph / 2] for x in xs])
    lower_r = np.tile(pier_tpl.radii[top], 4)
    under = deck_tpl.centers[:, 2] < -p["deck_thickness"] / 2 + p["zone"]
    upper = deck_tpl.centers[under]
    dz = resting_height(lower, lower_r, upper, deck_tpl.radii[under])
    deck = b.add_clump(deck_tpl, material=concrete, mass=p["deck_mass"], position=(0.0, 0.0, dz), name="deck")
    span = deck_length + 2 * pw + 10.0
    base = b.add_wall((0, 0, 0), (0, 0, 1), material=concrete, u_axis=(1, 0, 0), size=(span, pl + 4.0),
                      motion=shaking(signal, direction=shaking_direction(p), t_end=p["t_end"], delay=p["settle"]),
                      name="base")
    base_slots = [b.add_interface(f"base{k + 1}", c, wall=base) for k, c in enumerate(piers)]
    top_slots = [b.add_interface(f"top{k + 1}", deck, other=c) for k, c in enumerate(piers)]
    model = b.finalize()

    alpha = math.atan2(pw, ph)
    p_freq = math.sqrt(3 * G / (4 * math.hypot(pw / 2, ph / 2)))
    gamma = p["deck_mass"] / (4 * pier_mass)
    p_frame = math.sqrt((1 + 2 * gamma) / (1 + 3 * gamma)) * p_freq
    deck_weight = p["deck_mass"] * G
    probes = [WallMotionProbe("base", base)]
    for k, c in enumerate(piers):
        n = k + 1
        probes += [
            RockingAngle(f"theta{n}_deg", c, alpha=alpha),
            AngularVelocity(f"omega{n}", c, p=p_frame),
            BodyMotion(f"pier{n}", c),
            Interface(f"base{n}", base_slots[k], c, (0.0, 0.0, -ph / 2), pw, pier_mass * G + deck_weight / 4),
            Interface(f"top{n}", top_slots[k], c, (0.0, 0.0, ph / 2), pw, deck_weight / 4),
        ]
    probes += [RockingAngle("deck_theta_deg", deck), AngularVelocity("deck_omega", deck), BodyMotion("deck", deck)]
    info = {"alpha_rad": alpha, "p_rad_s": p_freq, "gamma": gamma, "p_frame_rad_s": p_frame,
            "pier_mass_kg": pier_mass, "deck_mass_kg": p["deck_mass"], "pier_x_m": xs.tolist(),
            "deck_rest_height_m": dz, "deck_length_m": deck_length, "uplift_threshold_g": math.tan(alpha),
            "frame_restitution": (1 - 1.5 * math.sin(alpha) ** 2 + 3 * gamma * math.cos(2 * alpha)) / (1 + 3 * gamma),
            "shaking_delay_s": p["settle"]} | motion_info
    info["rocking_bodies"] = [rocking_body(f"theta{k + 1}_deg", f"pier{k + 1}", width=pw, height=ph,
                                           edge_radius=p["r_base"], edges=p["edges"]) for k in range(4)]
    # the rigid rocking frame (Makris & Vassiliou 2013): the piers' α with p̄ and the frame's restitution
    info["rigid_reference"] = rigid_reference(alpha, p_frame, restitution=info["frame_restitution"], width=pw,
                                              height=ph, g=G)
    # events: each pier overturning (the frame tips as a single pier does, Makris & Vassiliou 2013) or
    # sliding on the base, any body leaving the domain (the base facet grown by a pier height)
    reach = ph + p["deck_thickness"]
    lo = (-span / 2 - reach, -(pl + 4.0) / 2 - reach, -reach)
    hi = (span / 2 + reach, (pl + 4.0) / 2 + reach, 2 * reach)
    events = EventSpec((lo, hi), tuple(block_watch(f"pier{k + 1}", pw, pl, ph, r1, base="base",
                                                   pga_g=motion_info["base_pga_g"], edges=p["edges"])
                                       for k in range(4)))
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info, events=events)
