"""Stacks under a held horizontal acceleration (issue 22, item 4): the DEM stack opens first at the joint,
and at the acceleration, that the statics of a stack of rigid blocks predicts (validation.stack, which does
not use the engine: joint k opens at a/g = b_k / z_k, the half-width of its contact face over the height of
the centre of mass of the blocks above it; Housner 1963's g b/h for one block, g R/h for a drum).

The table holds still while the stack settles, then its acceleration ramps linearly to a and holds (a
"held" acceleration; in the table's frame the stack feels m a sideways, as in the statics). Each case runs
as two worlds of one batch (dem.run.worlds), at a = 0.97 and 1.03 × the lowest threshold λ: below it the
joints stay closed, above it the predicted joint opens and keeps opening (the stack tips about it) while
the others stay closed. Friction μ = 0.8 exceeds every a/g here, so nothing slides (the statics' second
threshold, a/g = μ).

Stiff contacts (E = 200 GPa). The statics are of rigid blocks; the DEM stack stands on compliant contacts,
and near the threshold a drum must carry its weight on the few spheres at its toe (its rim sphere and its
neighbours): it tilts, and the tilt shortens the lever of its weight. So the DEM opens a little below the
statics, by an amount that falls as the contacts stiffen (Hertz: overlaps ∝ E^(-2/3)), measured
with a 1 s hold: the drum and the three drums between 0.97 λ and 0.98 λ at E = 50 GPa, between 0.98 λ and
0.99 λ at 200 GPa; the boxes, whose toe is a whole row of spheres, between 0.98 λ and 0.99 λ at 50 GPa and
between 0.99 λ and λ at 200 GPa.
At 200 GPa the ±3 % of the test leave a margin of about 1.5 %.

What "closed" and "open" mean here. Above λ a rigid stack's rotation grows from the end of the ramp as
ε λ (cosh p t − 1), ε = 0.03 (Housner 1963, linearised): 1.1–2.7° after the 0.4 s hold (measured). Below λ
it does not move; the DEM stack tilts on its contacts' compliance, by at most 0.07° here (measured).
OPEN = 0.6° lies between, with margins of more than 1.8× either way.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from dem.model.assembly import Piece, stack
from dem.model.box_clump import box_clump
from dem.model.drum_clump import drum_clump
from dem.model.materials import Material
from dem.model.model import ModelBuilder
from dem.model.walls import WallMotion
from dem.scenes.scene import Param, Scene
from validation.stack import Box, Drum, stack_thresholds

G = 9.81
FACTORS = (0.97, 1.03)
"""Issue 22: the DEM stack uplifts at the statics' threshold within 3 %."""
OPEN = 0.6
"""[deg] relative rotation at a joint that has opened (module docstring)."""
CLOSED = 0.02
"""[deg] relative rotation at the joints that stay closed while another opens: measured ≤ 0.0005°."""
TOL_LOAD = 0.03
"""|H|/V at the foot below λ, averaged over the hold, against a/g: the rocking oscillation the ramp leaves
adds inertia forces of up to 2 % of the load over the last 0.1 s (measured); the hold's mean is nearer."""
TOL_ENERGY = 2e-2
"""The ledger's balance error (dem.physics.ledger), second order in Δt: Δt = 5e-5 s is a third of the
critical step with 200 GPa contacts; measured 1.4e-2 on the single drum tipping at 1.03 λ."""
SETTLE, RAMP, HOLD = 0.2, 0.2, 0.4  # [s]
R_JOINT = 0.01  # [m]
YOUNG = 200e9  # [Pa]


def _pieces(case: str):
    """The blocks (bottom first) and their statics (validation.stack) of each case."""
    zones = dict(r_core=0.04, r_joint=R_JOINT, zone=0.05)
    if case == "drum":  # one drum, 0.3 m × 0.6 m: g R/h = 0.5 g
        return [Piece(drum_clump(0.15, 0.6, **zones), "drum")], [Drum(0.15, 0.6)]
    if case == "column":  # three drums 0.3 m × 0.3 m: the foot opens first
        return [Piece(drum_clump(0.15, 0.3, **zones), f"drum{k + 1}") for k in range(3)], [Drum(0.15, 0.3)] * 3
    # a wide plinth under two slender blocks: the joint on the plinth opens first (widths whole numbers of the
    # 15 mm lattice step, so that the faces meet in register)
    box = dict(r_core=0.04, r_base=R_JOINT, r_top=R_JOINT, base_zone=0.05, top_zone=0.05)
    return ([Piece(box_clump(0.6, 0.3, 0.3, **box), "plinth"), Piece(box_clump(0.24, 0.4, 0.24, **box), "block1"),
             Piece(box_clump(0.24, 0.4, 0.24, **box), "block2")],
            [Box(0.3, 0.3, depth=0.3), Box(0.12, 0.4, depth=0.24), Box(0.12, 0.4, depth=0.24)])


def _build(p: dict) -> Scene:
    from dem.run.assembly_probes import assembly_probes
    from dem.run.events import EventSpec

    pieces, blocks = _pieces(p["case"])
    statics = stack_thresholds(blocks)
    a = p["factor"] * statics.rocking[statics.first_joint] * G
    t_end = SETTLE + RAMP + HOLD

    def velocity(t):  # the table: still, then a(t) ramping linearly to a over RAMP, then held
        s = np.clip(t - SETTLE, 0.0, None)
        return np.outer(np.where(s < RAMP, a * s * s / (2 * RAMP), a * (RAMP / 2 + s - RAMP)), [1.0, 0.0, 0.0])

    marble = Material.hertz(young=YOUNG, poisson=0.25, friction=0.8, damping_normal=0.15, damping_shear=0.15,
                            density=2700.0, damping_mass="shared")
    b = ModelBuilder(gravity=(0.0, 0.0, -G))
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=marble, motion=WallMotion.from_function(velocity, t_end, 1e-3),
                       name="table")
    st = stack(b, pieces, material=marble, base=table)
    # the table (an infinite plane) carries the stack metres away during the hold: a domain that allows it
    domain = ((-1e3, -1e3, -10.0), (1e3, 1e3, 10.0))
    return Scene("held", b.finalize(), assembly_probes(st), 5e-5, t_end, 0.01, p,
                 {"bodies": list(st.body_names), "statics": statics}, events=EventSpec(domain))


HELD = SimpleNamespace(NAME="held", build=_build, PARAMS={
    "case": Param("drum", "which stack", choices=("drum", "column", "boxes")),
    "factor": Param(1.0, "held acceleration ÷ the statics' lowest threshold", "", low=0, low_open=True)})


@pytest.mark.parametrize("case, first", [("drum", 0), ("column", 0), ("boxes", 1)])
def test_stack_opens_first_where_and_when_statics_says(ti_cpu, case, first):
    """Measured rotation at the opening joint, at 0.97 λ (largest) / 1.03 λ (end): drum 0.045° / 2.7°, three
    drums 0.068° / 1.4°, boxes 0.013° / 1.1°; at the other joints ≤ 0.0005°."""
    from dem.run.worlds import build_worlds, run_worlds

    worlds = build_worlds(HELD, [{"case": case, "factor": f} for f in FACTORS])
    statics = worlds.scenes[0].info["statics"]
    assert statics.first_joint == first  # the case is what it says
    results = run_worlds(worlds, progress=False, plots=False)
    names = worlds.scenes[0].info["bodies"]
    opened = []
    for factor, res in zip(FACTORS, results):
        h = res.history
        theta = np.array([h[f"{n}_theta_deg"] for n in names])
        rel = np.abs(np.diff(np.vstack([np.zeros(theta.shape[1]), theta]), axis=0))  # joint k: θ_k − θ_{k−1}
        opened.append(rel[:, -1] > OPEN)
        if factor < 1:
            assert not opened[-1].any(), (factor, rel[:, -1])
        else:
            # open, and opening faster and faster (tipping): more than twice what it was 0.19 s before
            assert opened[-1][first] and rel[first, -1] > 2 * rel[first, -20], (factor, rel[first, -20:])
            others = np.delete(rel, first, axis=0)
            assert np.all(others < CLOSED), (factor, others.max(axis=1))
        assert res.summary["max_energy_error"] < TOL_ENERGY
        if factor < 1:  # at rest on the table: the foot carries H = M a, V = M g (the held load is the statics')
            ratio = np.mean(h["joint0_friction"][h["t"] > SETTLE + RAMP])
            assert ratio == pytest.approx(factor * statics.rocking[first], rel=TOL_LOAD), ratio
