"""Peak memory against sphere count: the pier–deck bridge at several packings (issue 4; developers' guide:
memory must grow with the spheres, not with their square, and the four-pier bridge at paper resolution must
fit well under 2 GiB).

    python benchmarks/bench_memory.py [--steps 200] [--packing R1:RCORE ...]

Each packing runs in its own process (so each peak is its own): build the scene, compile, take `--steps`
steps at 0.1 g, and report the balls, hull balls, contacts and the process's peak resident memory. A
straight-line fit of peak memory on the ball count gives the cost per ball; the quadratic term of a
second fit shows whether anything grows faster. Itiola & El Shamy's (2024) bridge has 4 × 65,851 balls in its piers; the
packings here go past that (r2 = r1: every sphere small).
"""

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["0.08:0.2", "0.08:0.12", "0.08:0.08", "0.0615:0.0615"]
"""r1:r2 pairs [m]. r1 must keep the pier tops in register with the deck (see validation/cases/pier_deck/settings.py,
R1_FINE): 80 mm and 1.6/26 m do."""


def child(r1: float, r2: float, steps: int) -> None:
    sys.path.insert(0, str(ROOT))
    import dem
    from dem.physics.simulation import Simulation
    from dem.scenes.scene import build_scene

    dem.init("cpu")
    scene = build_scene("pier_deck", {"pga_g": 0.1, "r_base": r1, "r_core": r2, "zone": max(0.4, 2 * r1)})
    sim = Simulation(scene.model, dt=scene.params["dt"])
    sim.advance(steps)
    from dem.device.layout import CT_N_CAND, CT_N_PAIRS

    counts = sim.contacts.counters()[0]
    print(json.dumps({"r1": r1, "r2": r2, "balls": int(scene.model.ball_count), "hull": int(scene.model.hull_count),
                      "wall_candidates": int(counts[CT_N_CAND]), "pair_candidates": int(counts[CT_N_PAIRS]),
                      "steps": steps,
                      "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--packing", nargs="*", default=DEFAULT, metavar="R1:RCORE")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        r1, r2 = (float(x) for x in a.child.split(":"))
        child(r1, r2, a.steps)
        return
    import numpy as np

    rows = []
    for pk in a.packing:
        out = subprocess.run([sys.executable, __file__, "--child", pk, "--steps", str(a.steps)], capture_output=True,
                             text=True, cwd=ROOT)
        if out.returncode != 0:
            print(f"packing {pk} failed:\n{out.stderr[-2000:]}")
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"r1 = {row['r1']:g} m, r2 = {row['r2']:g} m: {row['balls']:,} balls ({row['hull']:,} hull), "
              f"{row['wall_candidates']:,} wall and {row['pair_candidates']:,} pair candidates, "
              f"peak {row['peak_mib']:.0f} MiB")
    if len(rows) >= 2:
        n = np.array([r["balls"] for r in rows], float)
        mem = np.array([r["peak_mib"] for r in rows])
        slope, icpt = np.polyfit(n, mem, 1)
        print(f"linear fit: {icpt:.0f} MiB + {slope * 1024:.2f} KiB per ball")
        if len(rows) >= 3:
            q = np.polyfit(n, mem, 2)[0]
            print(f"quadratic term over the range: {q * n.max() ** 2:.1f} MiB at {n.max():,.0f} balls")
    print(f"machine: 2-core CPU, f64, Taichi CPU backend; {a.steps} steps per packing")


if __name__ == "__main__":
    main()
