"""Command line: ``python -m validation.drop_shock --theta-x 0.05 --csv out.csv --json out.json``."""

from __future__ import annotations

import argparse
import math
import sys

from .box import DropBox
from .export import write_csv, write_json
from .solver import simulate_drop


def main(argv: list[str] | None = None) -> int:
    """Run one drop and print a summary; write CSV/JSON if asked. Returns the exit status."""
    d = DropBox()
    p = argparse.ArgumentParser(prog="python -m validation.drop_shock", description=__doc__)
    p.add_argument("--weight", type=float, default=d.weight, help="box weight W [N]")
    p.add_argument("--gravity", type=float, default=d.gravity, help="G [m/s^2]")
    p.add_argument("--lx", type=float, default=d.length_x, help="L_x [m]")
    p.add_argument("--ly", type=float, default=d.length_y, help="L_y [m]")
    p.add_argument("--lz", type=float, default=d.length_z, help="L_z [m]")
    p.add_argument("--k", type=float, default=d.stiffness, help="spring stiffness per corner [N/m]")
    p.add_argument("--c", type=float, default=d.damping, help="damper per corner [N s/m]")
    p.add_argument("--height", type=float, default=d.drop_height, help="drop height of lowest corner [m]")
    p.add_argument("--theta-x", type=float, default=0.0, help="initial tilt about x [deg]")
    p.add_argument("--theta-y", type=float, default=0.0, help="initial tilt about y [deg]")
    p.add_argument("--t-end", type=float, default=None, help="end time [s] (default: 002 §9 estimate)")
    p.add_argument("--tol", type=float, default=1e-8, help="RKF45 relative tolerance per step")
    p.add_argument("--csv", default=None, help="write t, a_G, corner0..3 here")
    p.add_argument("--json", default=None, help="write data and metadata here")
    a = p.parse_args(argv)
    try:
        box = DropBox(weight=a.weight, gravity=a.gravity, length_x=a.lx, length_y=a.ly, length_z=a.lz,
                      stiffness=a.k, damping=a.c, drop_height=a.height,
                      theta_x=math.radians(a.theta_x), theta_y=math.radians(a.theta_y))
        res = simulate_drop(box, t_end=a.t_end, tol=a.tol)
    except ValueError as exc:
        p.error(str(exc))
    m = res.modal
    print(f"m = {box.mass:.4g} kg, f_max = {m.f_max:.4g} Hz, dt_max = {m.dt_max:.3g} s, "
          f"t_drop = {m.t_drop:.4g} s, t_end = {res.settings['t_end']:.4g} s, zeta = {m.damping_ratio:.3g}")
    print(f"steps: {res.stats.accepted} accepted, {res.stats.rejected} rejected, {res.stats.forced} forced")
    print(f"peak CG acceleration {res.cg_accel_G.max():.4g} G; peak corner loads [N] "
          + ", ".join(f"{v:.4g}" for v in res.corner_loads.max(axis=0)))
    if a.csv:
        write_csv(res, a.csv)
    if a.json:
        write_json(res, a.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
