"""Two stacked granite blocks on a base shaken by a ground-motion record (a custom scene).

A 0.33 × 0.9 × 0.33 m block (width × height × thickness) stands on the base; a 0.21 × 0.63 × 0.21 m block
stands on it, put there by ``ModelBuilder.place_on`` (lowered until it touches: the two meet through their solid
boxes, each one's spheres on the other's face, whatever their packings; docs/joints.md). The base
rests for ``settle`` seconds, then follows the record along x. Recorded: both blocks' rocking angles
(÷ α), angular velocities and displacements, and the resultants of both interfaces.

    dem run examples/stacked_blocks.py                      # the whole record (about a minute)
    dem run examples/stacked_blocks.py --set t_end=1 --vtk  # a short run with ParaView frames
    python examples/stacked_blocks.py --t-end 0.3 --out runs/stack   # the same from Python

The record is ``record`` (a PEER NGA ``.AT2`` file, accelerations in g; default: the synthetic stand-in
in examples/data, see make_synthetic_motion.py there).
"""

from __future__ import annotations

import math
from pathlib import Path

from dem import Material, ModelBuilder, Param, Scene, box_clump
from dem.model.base_motion import Recorded
from dem.run.probes import AngularVelocity, BodyMotion, Interface, RockingAngle, WallMotionProbe
from dem.scenes.tools import shaking

NAME = "stacked_blocks"
G = 9.81
HERE = Path(__file__).resolve().parent

PARAMS = {
    "record": Param(str(HERE / "data" / "synthetic_motion.AT2"), "ground acceleration record (PEER .AT2, in g)"),
    "scale": Param(1.0, "factor on the record's accelerations", "", low=0),
    "lower_width": Param(0.33, "lower block width (x) and thickness (y)", "m", low=0, low_open=True),
    "lower_height": Param(0.9, "lower block height", "m", low=0, low_open=True),
    "upper_width": Param(0.21, "upper block width (x) and thickness (y)", "m", low=0, low_open=True),
    "upper_height": Param(0.63, "upper block height", "m", low=0, low_open=True),
    "density": Param(2650.0, "granite density", "kg/m^3", low=0, low_open=True),
    "mu": Param(0.7, "friction coefficient (granite on granite)", "", low=0),
    "beta": Param(0.15, "normal and shear critical-damping ratio", "", low=0, high=1),
    "r_face": Param(0.01, "sphere radius at the faces that touch", "m", low=0, low_open=True),
    "r_core": Param(0.03, "sphere radius in the cores", "m", low=0, low_open=True),
    "settle": Param(0.1, "time the stack rests before the base moves", "s", low=0),
    "dt": Param(2e-5, "time step", "s", low=0, low_open=True),
    "t_end": Param(8.0, "duration", "s", low=0, low_open=True),
    "history_dt": Param(1e-3, "interval between history rows", "s", low=0, low_open=True),
}


def build(p: dict) -> Scene:
    granite = Material.hertz(young=50.7e9, poisson=0.28, friction=p["mu"], damping_normal=p["beta"],
                             damping_shear=p["beta"], density=p["density"])
    lw, lh, uw, uh, r = p["lower_width"], p["lower_height"], p["upper_width"], p["upper_height"], p["r_face"]
    zone = 4 * r  # two or three layers of small spheres at each face that touches
    lower_t = box_clump(lw, lh, lw, r_core=p["r_core"], r_base=r, r_top=r, base_zone=zone, top_zone=zone)
    upper_t = box_clump(uw, uh, uw, r_core=p["r_core"], r_base=r, base_zone=zone)
    motion = Recorded.from_at2(p["record"])
    quake = Recorded(motion.time, p["scale"] * motion.samples)

    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    lower = b.add_clump(lower_t, material=granite, position=(0.0, 0.0, lh / 2), name="lower")
    upper = b.add_clump(upper_t, material=granite, position=(0.0, 0.0, lh + uh), name="upper")  # any height
    placed = b.place_on(upper, lower)  # in register, just touching
    base = b.add_wall((0, 0, 0), (0, 0, 1), material=granite, u_axis=(1, 0, 0), size=(4 * lw, 4 * lw),
                      motion=shaking(quake, t_end=p["t_end"], delay=p["settle"]), name="base")
    base_slot = b.add_interface("base", lower, wall=base)
    joint_slot = b.add_interface("joint", upper, other=lower)
    model = b.finalize()

    m_l, m_u = model.mass[lower], model.mass[upper]
    alpha_l, alpha_u = math.atan2(lw, lh), math.atan2(uw, uh)
    probes = [
        WallMotionProbe("ground", base),
        RockingAngle("lower_theta_deg", lower, alpha=alpha_l), RockingAngle("upper_theta_deg", upper, alpha=alpha_u),
        AngularVelocity("lower_omega", lower), AngularVelocity("upper_omega", upper),
        BodyMotion("lower", lower), BodyMotion("upper", upper),
        Interface("base", base_slot, lower, (0.0, 0.0, -lh / 2), lw, (m_l + m_u) * G),
        Interface("joint", joint_slot, upper, (0.0, 0.0, -uh / 2), uw, m_u * G),
    ]
    info = {"alpha_lower_rad": alpha_l, "alpha_upper_rad": alpha_u, "uplift_threshold_upper_g": math.tan(alpha_u),
            "record_pga_g": float(abs(quake.samples).max() / G), "placement_shift_m": placed.shift.tolist(),
            "joint_sphere_pairs_at_t0": placed.contact_count}
    return Scene(NAME, model, probes, p["dt"], p["t_end"], p["history_dt"], p, info)


if __name__ == "__main__":
    import argparse

    import dem
    from dem.cli.main import summary_line

    ap = argparse.ArgumentParser(description="run the stacked-blocks scene from Python")
    ap.add_argument("--t-end", type=float, default=8.0, help="duration [s]")
    ap.add_argument("--out", default="runs/stacked_blocks", help="output folder")
    args = ap.parse_args()
    dem.init("cpu")
    scene = dem.build_scene(__import__(__name__), {"t_end": args.t_end})
    result = dem.run_scene(scene, out_dir=args.out, progress=False)
    print(summary_line(result.summary, args.out))
    v = result.history["joint_V_ratio"]
    print(f"joint: {scene.info['joint_sphere_pairs_at_t0']} sphere pairs in register at t = 0; V ÷ upper weight "
          f"{v[-1]:.4f} at the end, {abs(v).max():.3f} at most")
