"""A stack of crates on a braking vehicle (issue 22, items 3 and 4): the vehicle_packages scene with
``box_stack`` crates one on another, under a held braking deceleration, opens first at the joint, and at
the deceleration, that the statics of a stack of rigid blocks predicts (validation.stack, which does not
use the engine: joint j opens at a/g = b_j / z_j; for N equal crates W/((N − j) H), the joint on the bed
first, at W/(N H): the stack tips as one block, Housner 1963's g b/h).

The vehicle brakes with a trapezoidal pulse whose ramp (0.2 s) ends in a long hold (the "held"
deceleration); it runs as two worlds of one batch (dem.run.worlds) held at 0.97 and 1.03 × W/(N H) (the
±3 % of issue 22). μ = 0.8 on the bed and between the crates, far above every a/g here: nothing slides
(the statics' second threshold, a/g = μ). Coarse crates (r = 25 mm spheres in the joint zones, 50 mm in
the core) with true edges: the crates pivot on their own edges whatever the sphere size, so the packing
moves the threshold only through the contacts' compliance, kept small by stiff contacts (E = 200 GPa, as
tests/physics/test_column_uplift.py). Measured (the bed joint's opening after the 1 s hold): 0.008° and
settling at 0.98 λ, 0.018° and growing at 0.99 λ, 0.30° at λ: the DEM stack opens between 0.98 and 0.99 λ
(its toe sinks into the bed), so the ±3 % leave a margin of 1 % or more.

"Open" and "closed". Above λ the rigid stack's rotation grows from the end of the ramp as ε λ (cosh p t −
1) (Housner 1963, linearised; ε = 0.03, p² = 3g/(4R) for the 2.4 m stack): 1.31° after the 1 s hold
(measured), and still growing (×1.7 over its last 0.19 s). Below λ the stack tilts on its contacts'
compliance, 0.009° at most (measured). OPEN = 0.3° lies between (margins 4× and 30×); the joint between
the crates stays shut, 0.0002° (measured), CLOSED = 0.02°.
"""

import numpy as np
import pytest

from validation.stack import Box, stack_thresholds

G = 9.81
FACTORS = (0.97, 1.03)
"""Held deceleration ÷ the statics' lowest threshold (issue 22: within 3 %)."""
OPEN = 0.3
"""[deg] relative rotation across a joint that has opened (module docstring)."""
CLOSED = 0.02
"""[deg] relative rotation across the joints that stay shut (measured 0.0002°)."""
TOL_HELD = 0.01
"""|H|/V on the bed averaged over the hold at 0.97 λ against a/g (the load the statics assume): measured
0.3 % above it (the rocking the ramp leaves)."""
TOL_ENERGY = 1e-2
"""The ledger's balance error (second order in Δt = 5e-5 s, a third of the critical step at 200 GPa):
measured 6.8e-4."""
SCENE = {"packages": "box", "box_stack": 2, "box_mu": 0.8, "E": 2e11, "r_joint": 0.025, "r_core": 0.05,
         "zone": 0.05, "motion": "braking", "rise": 0.2, "hold": 1.5, "fall": 0.1, "settle": 0.2, "t_end": 1.4,
         "history_dt": 0.01}


def test_crate_stack_opens_first_where_and_when_statics_says(ti_cpu):
    from dem.run.worlds import build_worlds, run_worlds

    n, w, h, d = SCENE["box_stack"], 0.3, 1.2, 0.3  # the scene's default crate (box_width, box_height, ...)
    statics = stack_thresholds([Box(w / 2, h, depth=d)] * n, density=150.0 / (w * h * d), mu=SCENE["box_mu"])
    lam = statics.rocking[statics.first_joint]
    assert statics.first_event == ("rock", 0, pytest.approx(w / (n * h)))  # rocks, about the bed, first
    worlds = build_worlds("vehicle_packages", [SCENE | {"peak_g": -f * lam} for f in FACTORS])
    info = worlds.scenes[0].info["stacks"]["box1"]
    assert np.allclose(info["joint_uplift_g"], statics.rocking, rtol=1e-12)  # the scene's statics are these
    assert info["first_joint"] == "box1_joint0"
    crates = info["crates"]
    results = run_worlds(worlds, progress=False, plots=False)
    for factor, res in zip(FACTORS, results):
        hist = res.history
        theta = np.array([hist[f"{c}_theta_deg"] for c in crates])
        rel = np.abs(np.diff(np.vstack([np.zeros(theta.shape[1]), theta]), axis=0))  # joint j: θ_j − θ_{j−1}
        assert res.summary["max_energy_error"] < TOL_ENERGY
        if factor < 1:
            assert np.all(rel[:, -1] < OPEN), rel[:, -1]
            held = np.mean(hist["box1_joint0_friction"][hist["t"] > SCENE["settle"] + SCENE["rise"]])
            assert held == pytest.approx(factor * lam, rel=TOL_HELD)
        else:  # the bed joint opens, faster and faster (the stack tips as one block); the other stays shut
            first = statics.first_joint
            assert rel[first, -1] > OPEN and rel[first, -1] > 1.5 * rel[first, -20], rel[first, -20:]
            assert np.all(np.delete(rel, first, axis=0)[:, -1] < CLOSED)
        assert not any(r["overturned"] for r in res.summary["postprocess"]["packages"].values())
