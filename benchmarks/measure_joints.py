"""The figures of tests/physics/test_joints.py, printed (issue 29): each joint's largest opening at 0.98 and 1.02 ×
its statics threshold (narrow on wide, wide over narrow), the apparent friction of a block sliding on a wall and on
a plinth over the whole slide, and a block's first impact rocking on a wider block against on a wall and against the
rigid block's quarter period. The models are the tests' own.

    python benchmarks/measure_joints.py          # ~5 min on 2 cores
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import dem  # noqa: E402
from dem.physics.history_rows import C_POS, C_VEL  # noqa: E402
from tests.physics import test_joints as T  # noqa: E402
from validation.rocking.closed_form import free_rocking_period, frequency_parameter, slenderness  # noqa: E402
from validation.stack import Box, stack_thresholds  # noqa: E402

DENSITIES = [20000.0, 2500.0]


def uplift() -> None:
    for name, blocks in (("narrow-on-wide", T.NARROW_ON_WIDE), ("wide-over-narrow", T.WIDE_OVER_NARROW)):
        lam = float(stack_thresholds([Box(w / 2, h, t) for w, h, t, _ in blocks], density=DENSITIES).rocking[1])
        models = []
        for f in (0.98, 1.02):
            m, asm = T._model(dem, blocks, motion=T._held(f * lam * T.G, **T.HOLD), densities=DENSITIES, E=T.E_HOLD)
            models.append(m)
        sim = dem.Simulation(models, dt=min(T._dt(m) for m in models), history_every=500, sleep=False)
        rows = sim.advance(int(T.HOLD["t_end"] / sim.dt))
        low, up = asm.bodies
        for k, f in enumerate((0.98, 1.02)):
            op = np.degrees(np.abs(T._tilt_y(rows[k], sim.layout, up) - T._tilt_y(rows[k], sim.layout, low)))
            print(f"{name} at {f} × λ: largest opening {op.max():.4f}°, at the end {op[-1]:.4f}°")


def slide() -> None:
    for on_wall in (True, False):
        model, cube = T._slider(dem, on_wall=on_wall)
        sim = dem.Simulation(model, dt=T._dt(model), history_every=100, sleep=False)
        rows = sim.advance(int(0.25 / sim.dt))
        t = rows[:, 0]
        v = sim.layout.clump(rows, cube, C_VEL)[:, 0]
        x = sim.layout.clump(rows, cube, C_POS)[:, 0]
        sl = (t > 0.01) & (v < 0.58)
        a = np.polyfit(t[sl], v[sl], 1)[0]
        lag = (0.6 * t - (x - x[0]))[sl]
        tilt = np.degrees(np.max(np.abs(T._tilt_y(rows, sim.layout, cube))))
        print(f"slide on {'a wall' if on_wall else 'a plinth'}: a/(μ g) − 1 = {a / (T.MU_SLIDE * T.G) - 1:.2e} over "
              f"{1e3 * (lag[-1] - lag[0]):.1f} mm of slip, largest tilt {tilt:.2e}°")


def rocking() -> None:
    models = [T._rocker(dem, on_block=False)[0], T._rocker(dem, on_block=True)[0]]
    sim = dem.Simulation(models, dt=min(T._dt(m) for m in models), history_every=20, sleep=False)
    rows = sim.advance(int(0.3 / sim.dt))
    t = rows[0][:, 0]
    blk = [next(k for k, c in enumerate(m.clumps) if c.name == "block") for m in models]
    wall, block = (t[np.flatnonzero(T._tilt_y(rows[k], sim.layout, blk[k]) < 0)[0]] for k in range(2))
    rigid = free_rocking_period(0.0873, slenderness(0.2, 0.6), frequency_parameter(0.2, 0.6), linear=False) / 4
    print(f"first impact on a wall {wall:.5f} s, on a block {block:.5f} s, rigid block {rigid:.5f} s: "
          f"block/wall − 1 = {block / wall - 1:.2e}, wall/rigid − 1 = {wall / rigid - 1:.2e}")


if __name__ == "__main__":
    dem.init("cpu")
    uplift()
    slide()
    rocking()
