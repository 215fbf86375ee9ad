"""Cost of the narrow phase between bodies, per pair-list entry, with the joints through solids (issue 29, the
default) against the sphere-on-sphere joint: a scene's list is evaluated in a loop on the CPU, three ways —
bodies only (loading the two bodies), + the geometry (pair_entry.pair_geometry), + the stiffness share of a
touching entry (pair_entry.entry_share) — so that the step's extra cost can be put where it is.

    python benchmarks/bench_joint_geometry.py [--scene drum_column] [--reps 200]

A step evaluates every entry once in the force pass and, under damping_mass "shared", once more in the stiffness
pass (interface_stiffness.py). Run it alone: the figures are wall-clock nanoseconds on a shared machine.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dem.device import layout as LY  # noqa: E402
from dem.device.kernel_lang import ti  # noqa: E402
from dem.physics.contact_geometry import load_body  # noqa: E402
from dem.physics.pair_entry import entry_bodies, entry_share, pair_geometry  # noqa: E402
from dem.physics.simulation import ContactArgs, ModelArgs, Simulation, StateArgs  # noqa: E402
from dem.scenes.scene import build_scene  # noqa: E402

MODES = ("bodies", "geometry", "geometry+share")


@ti.kernel
def _evaluate(md: ModelArgs, st: StateArgs, ct: ContactArgs, n: ti.i32, reps: ti.i32, mode: ti.i32) -> ti.f64:
    acc = 0.0
    ti.loop_config(serialize=True)
    for _r in range(reps):
        for k in range(n):
            pair = ct.pairs[k]
            a, b = entry_bodies(md, pair)
            ba = load_body(md, st, a)
            bb = load_body(md, st, b)
            acc += ba.mass + bb.mass
            if mode >= 1:
                g = pair_geometry(md, pair, ba, bb)
                if g.touching == 1:
                    acc += g.overlap
                    if mode >= 2:
                        acc += entry_share(md, pair, g, ba, bb)
    return acc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="drum_column")
    ap.add_argument("--reps", type=int, default=200)
    a = ap.parse_args(argv)
    for joints in ("solid", "spheres"):
        sc = build_scene(a.scene, {"joints": joints})
        sim = Simulation(sc.model, dt=sc.dt, history_every=200)
        sim.advance(10)
        md, st, ct, _dg = sim._packs()
        n = int(sim.contacts.counters()[0, LY.CT_N_PAIRS])
        for mode, name in enumerate(MODES):
            _evaluate(md, st, ct, n, 1, mode)
            t0 = time.perf_counter()
            _evaluate(md, st, ct, n, a.reps, mode)
            el = (time.perf_counter() - t0) / a.reps
            print(f"{a.scene} joints={joints:7s} {n:6d} entries  {name:15s} {el / max(n, 1) * 1e9:7.1f} ns/entry "
                  f"{el * 1e6:8.1f} µs a pass", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
