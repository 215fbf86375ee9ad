"""A dry masonry wall (dem.model.masonry_wall, scenes/masonry_wall.py) under gravity and under a held
horizontal acceleration out of plane (issue 22, items 2 and 4): it stands still under gravity, each bed
joint carrying the weight above it; loaded out of plane it opens first at the joint, and at the a/g, that
the statics of a stack of rigid blocks predicts (validation.stack, which does not use the engine): every
vertical strip of the wall is loaded alike whatever the bond, a bed joint z above the base opens at a/g =
T/(H − z), the base first at T/H (Housner 1963's g b/h for the whole wall, b = T/2, h = H/2).

Each bond runs as one batch of three worlds (dem.run.worlds): the table still (gravity only), and held at
0.97 and 1.03 × T/H after a 0.2 s ramp (the ±3 % of issue 22). Coarse blocks (r = 50 mm spheres, no bed
zones: 48 spheres a block) keep it fast: the blocks are edge-true out of plane whatever the sphere size
(their edge sphere's lowest point is the solid's edge), so the packing changes the threshold only through
the contacts' compliance, which the stiff contacts (E = 200 GPa) keep small. Measured (running bond, the
base's opening after the 0.4 s hold, still growing or not): the coarse wall opens between 0.99 and 1.00 ×
T/H, the scene's graded packing (slow case) between 0.98 and 0.99 × T/H, its toe carried by smaller
spheres; the ±3 % leave a margin of 2 % or more.

"Open" and "closed". Above T/H the rigid wall's rotation grows from the end of the ramp as ε λ (cosh p t −
1) (Housner 1963, linearised; ε = 0.03): 1.33° after the 0.4 s hold at 1.03 (measured, both bonds; graded:
1.59°). Below it the wall tilts on its contacts' compliance: 0.0033° across the base at 0.97 (graded:
0.0041°; measured). OPEN = 0.5° lies between, with margins of more than 2.6× either way; the joints above
the base stay shut while the base opens: ≤ 0.0008° (measured), CLOSED = 0.02°.
"""

import numpy as np
import pytest

from dem.scenes.scene import load_scene_module

G = 9.81
FACTORS = (0.0, 0.97, 1.03)
"""The table still, then held at 0.97 and 1.03 × the statics' threshold T/H (issue 22: within 3 %)."""
OPEN = 0.5
"""[deg] relative rotation across a bed joint that has opened (module docstring)."""
CLOSED = 0.02
"""[deg] relative rotation across the bed joints that stay shut while the base opens (measured ≤ 0.001°)."""
STILL = 1e-6
"""[deg] rotation, [m] horizontal drift of a block under gravity alone over 0.8 s: the wall is symmetric and
only settles on its contacts (measured: 1e-15°, 1e-17 m; the settlement, 4.6 µm, is the Hertz overlaps')."""
SETTLE = 1e-5
"""[m] the blocks' settlement under gravity: Hertz overlaps of the sphere contacts (measured 4.6 µm)."""
TOL_LOAD = 0.02
"""V ÷ load at the bed joints under gravity (the load: the weight above the joint over its length). The stack
bond's vertical lines of blocks carry their own weight (measured within 1e-8); the running bond shares it
between the two blocks under each block by the contacts' stiffness, not only by the lengths (measured
0.992-1.006; graded 0.997-1.003)."""
TOL_HELD = 0.01
"""|H|/V at the base joints averaged over the hold at 0.97 λ against a/g (the load the statics assume):
measured within 1e-5 (graded: 0.17 % above); 1 % leaves room for the ringing the ramp leaves."""
TOL_ENERGY = 1e-2
"""The ledger's balance error (second order in Δt = 4e-5 s, below the critical step at 200 GPa):
measured 7.6e-4 (coarse), 1.9e-3 (graded)."""
HELD = {"E": 2e11, "ramp": 0.2, "settle": 0.2, "t_end": 0.8, "history_dt": 0.01, "dt": 4e-5}
"""Δt 4e-5 s: below the critical estimate of the stiff coarse wall (4.7e-5 s through the blocks' solids)."""
COARSE = {"r_core": 0.05, "zone": 0.0}
"""Blocks of 50 mm spheres only (48 a block)."""
GRADED = {}
"""The scene's packing: 10 mm spheres (rounded to fit the block: 0.4 m / 40) in 30 mm bed zones, 25 mm in the
cores (1,354 spheres a block)."""


def _batch(bond: str, packing: dict):
    from dem.run.worlds import build_worlds, run_worlds

    module = load_scene_module("masonry_wall")
    lam = 0.2 / 0.6  # T/H with the scene's default wall
    worlds = build_worlds(module, [HELD | packing | {"bond": bond, "accel_g": f * lam} for f in FACTORS])
    return worlds.scenes[0].info, lam, run_worlds(worlds, progress=False, plots=False)


# the running bond in the default suite (its blocks span head joints: the more general wall); the stack bond,
# the same statics, and the graded packing with the slow tests (~7 s, ~2 min)
@pytest.mark.parametrize("bond, packing", [pytest.param("stack", COARSE, marks=pytest.mark.slow), ("running", COARSE),
                                           pytest.param("running", GRADED, marks=pytest.mark.slow)],
                         ids=["stack-coarse", "running-coarse", "running-graded"])
def test_wall_stands_and_opens_at_its_base_where_statics_says(ti_cpu, bond, packing):
    info, lam, results = _batch(bond, packing)
    beds = info["bed_joints"]
    assert info["uplift_threshold_g"] == pytest.approx(lam) and info["first_joint_to_open"].endswith("_base")
    base = [n for n, (_up, low) in beds.items() if low is None]
    for factor, res in zip(FACTORS, results):
        h = res.history
        rel = {n: np.abs(h[f"{up}_theta_deg"] - (0.0 if low is None else h[f"{low}_theta_deg"]))
               for n, (up, low) in beds.items()}
        assert res.summary["max_energy_error"] < TOL_ENERGY
        if factor == 0.0:  # gravity only: nothing moves, each bed joint carries the weight above it
            for name in info["bodies"]:
                assert np.max(np.abs(h[f"{name}_theta_deg"])) < STILL, name
                assert np.max(np.abs(h[f"{name}_ux"])) < STILL and np.max(np.abs(h[f"{name}_uz"])) < SETTLE, name
            total = sum(h[f"{n}_V"][-1] for n in base)
            assert total == pytest.approx(info["mass_kg"] * G, rel=1e-6)  # at rest: the base carries the weight
            for n in beds:
                assert h[f"{n}_V_ratio"][-1] == pytest.approx(1.0, abs=TOL_LOAD), n
        elif factor < 1:  # stands: every bed joint shut
            assert max(r[-1] for r in rel.values()) < OPEN, {n: r[-1] for n, r in rel.items()}
            assert res.summary["postprocess"]["first_open_joint"] is None
            held = np.mean([np.mean(h[f"{n}_friction"][h["t"] > HELD["settle"] + HELD["ramp"]]) for n in base])
            assert held == pytest.approx(factor * lam, rel=TOL_HELD)
        else:  # the base opens, and keeps opening (the wall tips as one block); the joints above stay shut
            for n in base:
                assert rel[n][-1] > OPEN and rel[n][-1] > 2 * rel[n][-20], (n, rel[n][-20:])
            assert all(r[-1] < CLOSED for n, r in rel.items() if n not in base), \
                {n: r[-1] for n, r in rel.items() if n not in base}
            assert res.summary["postprocess"]["first_open_joint"] in base

