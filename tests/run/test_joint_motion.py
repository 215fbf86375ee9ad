"""A joint's opening and slip (dem.run.assembly_probes.JointMotion) on made-up history rows of a column of two
drums on a table (no run): poses put by hand, each with its closed-form opening and slip.

Exact to round-off (ROUND_OFF) but for rocking, which moves a face centre by R(1 − cos θ) (the probe's
docstring): that term is the expected value where the rows rock.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

ROUND_OFF = 1e-12  # [m] and [deg]: a few operations on numbers of order 1
R, H = 0.2, 0.8  # drum radius and column height [m]


def _column():
    import dem
    from dem.model.assembly import column

    stone = dem.Material.hertz(young=5e9, poisson=0.25, friction=0.7, density=2500.0)
    b = dem.ModelBuilder()
    table = b.add_wall((0, 0, 0), (0, 0, 1), material=stone, size=(2.0, 2.0), name="table")
    col = column(b, drums=2, height=H, radius=R, top_radius=R, capital=None, material=stone, r_core=0.05,
                 r_joint=0.03, zone=0.06, base=table)
    return b.finalize(), col


def _rot_y(theta: float) -> np.ndarray:
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _quat_y(theta: float) -> np.ndarray:
    return np.array([math.cos(theta / 2), 0.0, math.sin(theta / 2), 0.0])


def test_opening_and_slip_of_hand_made_poses():
    from dem.physics.history_rows import C_POS, C_QUAT, CLUMP_WIDTH, HistoryRowLayout
    from dem.run.assembly_probes import JointMotion, assembly_probes
    from dem.run.probes import ProbeContext

    model, col = _column()
    lay = HistoryRowLayout(model.clump_count, model.wall_count, model.slot_count)
    probes = [p for p in assembly_probes(col) if isinstance(p, JointMotion)]
    assert [p.prefix for p in probes] == [j.name for j in col.joints] == ["joint0", "joint1"]
    low, up = col.bodies
    x0 = {c: np.asarray(model.clumps[c].position, float) for c in col.bodies}
    assert all(np.allclose(model.clumps[c].rotation, np.eye(3)) for c in col.bodies)
    z_joint = col.joints[1].height
    poses = []  # (positions, rotation angles about y, table displacement along x)
    poses.append(({low: x0[low], up: x0[up]}, {low: 0.0, up: 0.0}, 0.0))  # at rest
    th = math.radians(3.0)  # the column as one, rocked about the table's edge point (R, 0, 0)
    pivot = np.array([R, 0.0, 0.0])
    poses.append(({c: pivot + _rot_y(th) @ (x0[c] - pivot) for c in col.bodies}, {low: th, up: th}, 0.0))
    # the upper drum slid 5 mm, the table moved 2 mm
    poses.append(({low: x0[low], up: x0[up] + [0.005, 0.0, 0.0]}, {low: 0.0, up: 0.0}, 0.002))
    ph = math.radians(2.0)  # the upper drum rocked on the lower one's rim by 2° (about (−R, 0, z_joint))
    rim = np.array([-R, 0.0, z_joint])
    poses.append(({low: x0[low], up: rim + _rot_y(-ph) @ (x0[up] - rim)}, {low: 0.0, up: -ph}, 0.0))
    rows = np.zeros((len(poses), lay.width))
    for k, (pos, ang, table) in enumerate(poses):
        for c in col.bodies:
            b = lay.clump_base + CLUMP_WIDTH * c
            rows[k, b + C_POS: b + C_POS + 3] = pos[c]
            rows[k, b + C_QUAT: b + C_QUAT + 4] = _quat_y(ang[c])
        rows[k, lay.wall_base: lay.wall_base + 3] = [table, 0.0, 0.0]
    ctx = ProbeContext(model, lay)
    got = {}
    for p in probes:
        got |= p.evaluate(rows, ctx)
    want = {"joint0_opening_deg": [0.0, 3.0, 0.0, 0.0], "joint1_opening_deg": [0.0, 0.0, 0.0, -2.0],
            "joint0_slip": [0.0, R * (1 - math.cos(th)), -0.002, 0.0],
            "joint1_slip": [0.0, 0.0, 0.005, -R * (1 - math.cos(ph))]}  # the face centre swings back over the rim
    for name, values in want.items():
        assert got[name] == pytest.approx(values, abs=ROUND_OFF), name
    cols = probes[0].columns(model)
    assert cols["joint0_opening_deg"].unit == "deg" and cols["joint0_slip"].unit == "m"
    assert "drum1" in cols["joint0_slip"].meaning and "the base" in cols["joint0_slip"].meaning
