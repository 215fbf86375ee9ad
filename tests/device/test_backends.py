"""The GPU code path (dem.physics.simulation's block path: one thread block per world looping over the steps, body
pairs searched on the device). On the CPU backend (one thread per world) it must match the serial path; on
Taichi's Vulkan backend (a GPU API; here Mesa's lavapipe runs it on the CPU, 128 threads a block, with real
block-level barriers) it must match the CPU.

Parallel force sums use atomics whose order varies, so agreement is to round-off growth, not bitwise.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys, numpy as np, dem
dem.init(sys.argv[1])
from tests.builders import colliding_boxes, tilted_stack
models = ([tilted_stack(dem), colliding_boxes(dem), colliding_boxes(dem, damping_mass="shared")]
          if sys.argv[5] == "batch" else tilted_stack(dem))
sim = dem.Simulation(models, dt=1e-5, history_every=1, parallel=sys.argv[3] == "parallel")
rows = sim.advance(int(sys.argv[4]))
np.savez(sys.argv[2], *(rows if isinstance(rows, list) else [rows]))
"""
# 60 steps of a tilted block carrying another (wall and body–body contacts): the contact forces rise from
# zero; atomics reorder sums of ~10–50 terms per step: relative differences ~1e-15 per step, < 1e-10 after
# 60 steps
AGREEMENT = 1e-10


def _run(tmp_path, arch, mode, steps=60, what="single"):
    out = tmp_path / f"{arch}_{mode}_{what}.npz"
    proc = subprocess.run([sys.executable, "-c", SCRIPT, arch, str(out), mode, str(steps), what], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    return proc, out


def _load(path):
    with np.load(path) as z:
        return [z[f"arr_{k}"] for k in range(len(z.files))]


# columns that are zero in exact arithmetic hold round-off (~1e-19); they are compared to this floor in
# SI units (N, m, J, ...), far below any physical value in the record (≥ 1e-9)
ABS_FLOOR = 1e-12


def _compare(a, b, *, agreement=AGREEMENT, skip=()):
    scale = np.max(np.abs(a), axis=0) + ABS_FLOOR / agreement
    keep = np.setdiff1d(np.arange(a.shape[1]), np.asarray(skip, int))
    return np.max((np.abs(a - b) / scale)[:, keep])


def _counting_columns(model):
    """Columns that count contacts or sum their stiffness: they differ between backends when a contact sits
    exactly at zero overlap (the blocks start just touching) and one backend's f64 rounding (fused
    multiply-adds, sqrt) counts it while the other does not. Its force is zero to first order."""
    from dem.physics.history_rows import C_CT, C_KR, C_KT, CLUMP_WIDTH, G_NC, SLOT_WIDTH, HistoryRowLayout

    lay = HistoryRowLayout(model.clump_count, model.wall_count, model.slot_count)
    cols = [G_NC]
    for c in range(model.clump_count):
        cols += [lay.clump_base + CLUMP_WIDTH * c + k for k in (C_KT, C_KR, C_CT)]
    cols += [lay.slot_base + SLOT_WIDTH * s + 6 for s in range(model.slot_count)]
    return cols


# Vulkan against CPU: kinematics and energies agree to ~1e-8, forces to ~2e-5 (a marginal contact's tiny
# force enters one backend's sums and not the other's); 1e-4 of each column's scale
VULKAN_AGREEMENT = 1e-4


def test_parallel_path_with_contacts_matches_serial_on_cpu(ti_cpu):
    """The block path on the CPU (one thread per world, pairs searched by the device code) against the
    serial path (host k-d tree)."""
    from tests.builders import tilted_stack

    rows = {}
    for parallel in (False, True):
        model = tilted_stack(ti_cpu)
        sim = ti_cpu.Simulation(model, dt=1e-5, history_every=1, parallel=parallel)
        rows[parallel] = sim.advance(300)
    from dem.physics.history_rows import G_NC

    assert rows[False][-1, G_NC] > 0  # contacts were active
    assert _compare(rows[False], rows[True]) < AGREEMENT


@pytest.mark.timeout(900)
def test_vulkan_matches_cpu(tmp_path, vulkan_available):
    """A batch of two worlds on Vulkan — the tilted stack, and two boxes that meet only after the device has
    searched their pairs again and again (600 steps) — against the serial CPU path, world by world."""
    proc_v, out_v = _run(tmp_path, "vulkan", "parallel", 600, "batch")
    assert proc_v.returncode == 0, proc_v.stderr[-2000:]
    proc_c, out_c = _run(tmp_path, "cpu", "serial", 600, "batch")
    assert proc_c.returncode == 0, proc_c.stderr[-2000:]
    v, c = _load(out_v), _load(out_c)
    import dem
    from dem.physics.history_rows import G_NC
    from tests.builders import colliding_boxes, tilted_stack

    dem.init("cpu")
    assert c[0][-1, G_NC] > 0 and c[1][:, G_NC].max() > 20  # contacts: the stack's, and the boxes' faces meeting
    # the third world is the second with the shared dashpot mass (its interface stiffness sums are added with
    # atomics on the block path): the boxes meet on ~50 contacts, so sharing the mass damps the impact far
    # less (β instead of ≈ β√50) and they separate faster
    from dem.physics.history_rows import C_VEL, HistoryRowLayout

    boxes = colliding_boxes(dem)
    lay = HistoryRowLayout(boxes.clump_count, boxes.wall_count, boxes.slot_count)
    speed = [abs(lay.clump(c[k], 0, C_VEL)[-1, 0]) for k in (1, 2)]
    assert speed[1] > speed[0] * 1.05, speed
    models = (tilted_stack(dem), boxes, colliding_boxes(dem, damping_mass="shared"))
    for k, model in enumerate(models):
        skip = _counting_columns(model)
        assert _compare(c[k], v[k], agreement=VULKAN_AGREEMENT, skip=skip) < VULKAN_AGREEMENT, f"world {k}"
