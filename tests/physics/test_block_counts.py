"""The block's counters from shared memory (issue 30, item 4): no thread of a block reads what lane 0 stored to a
global array in the same launch (dem/physics/block_counts.py).

On the SPIR-V backends Taichi's block barrier orders shared memory only, so a lane that read lane 0's global store
after a barrier could read a stale value. Mesa's lavapipe runs a block's threads on one CPU thread, in order, over
coherent memory: no read there is ever stale, so a test cannot wait for one. The test makes the dependency visible
instead: compiled with block_counts.POISON, lane 0 stores a wrong value in the global copy of each counter right after
its store (a flag flipped, a count zeroed), before the barrier, and puts the right values back after the step. A lane
that read the global copy would now read the wrong value as surely as a stale one; the lanes read the block's shared
copies, so the histories and the counters the host reads keep their bits. With block_counts.READS = "global" (every
lane reading the global copies, as the code did before the shared copies) the same poison changes the histories:
the test would catch a read of the global copies.

The worlds: two blocks on a floor that shakes (rebuilds of the wall candidates, walls moving), two boxes colliding
(device body-pair searches: the pair list's half and count), a tilted stack (wall and pair contacts); 64 threads a
block, 600 steps in launches of 160 (the copies loaded at each launch's start).
"""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
STEPS = 600
BLOCK_DIM = 64
SCRIPT = """
import sys, numpy as np
import dem.physics.block_counts as BC
BC.POISON = sys.argv[2] == "poison"
BC.READS = sys.argv[3]
import dem
dem.init("vulkan")
from tests.physics.test_block_counts import run
rows, counts = run(dem)
np.savez(sys.argv[1], counts, *rows)
"""


def shaken_stack(dem):
    """Two 50 mm blocks stacked on a floor that shakes along x at 0.4 m/s, 25 Hz: the wall candidates are rebuilt
    every hundred steps or so."""
    from dem.model.walls import WallMotion

    mat = dem.Material.hertz(shear_modulus=1e9, poisson=0.25, friction=0.5, damping_normal=0.2, damping_shear=0.2)
    tpl = dem.box_clump(0.05, 0.05, 0.05, r_core=0.005)
    low = float(np.min(tpl.centers[:, 2] - tpl.radii))
    b = dem.ModelBuilder()
    b.add_clump(tpl, material=mat, mass=0.3, position=(0, 0, -low), name="lower")
    b.add_clump(tpl, material=mat, mass=0.2, position=(0.004, 0, -low + 0.05), name="upper")
    shake = WallMotion.from_function(lambda t: np.stack([0.4 * np.sin(2 * math.pi * 25 * t), 0 * t, 0 * t], 1),
                                     t_end=0.01, dt=1e-4)
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, motion=shake, name="floor")
    return b.finalize()


def run(dem):
    """The batch's histories and its counters after STEPS steps. Module-level so that the child processes run it."""
    from tests.builders import colliding_boxes, tilted_stack

    models = [shaken_stack(dem), colliding_boxes(dem, sideways=0.3), tilted_stack(dem, theta=0.08)]
    sim = dem.Simulation(models, dt=1e-5, history_every=10, parallel=True, block_dim=BLOCK_DIM, capacity=16)
    rows = sim.advance(STEPS)
    return rows, sim.contacts.counters()


_RUNS: dict = {}


def _vulkan(tmp_path, poison, reads):
    """(counters, histories) of a child process compiled with the knobs (cached for the module's tests)."""
    key = (poison, reads)
    if key not in _RUNS:
        path = tmp_path / f"{poison}-{reads}.npz"
        proc = subprocess.run([sys.executable, "-c", SCRIPT, str(path), poison, reads], cwd=ROOT, capture_output=True,
                              text=True, timeout=1500)
        assert proc.returncode == 0, proc.stderr[-2000:]
        with np.load(path) as z:
            _RUNS[key] = (z["arr_0"], [z[f"arr_{k}"] for k in range(1, len(z.files))])
    return _RUNS[key]


def _same_bits(a, b):
    return len(a) == len(b) and all(x.shape == y.shape and np.array_equal(x.view(np.uint64), y.view(np.uint64))
                                    for x, y in zip(a, b))


@pytest.mark.timeout(3000)
def test_vulkan_poisoned_global_counters_leave_the_bits(tmp_path, vulkan_available):
    from dem.device import layout as LY

    counts, rows = _vulkan(tmp_path, "clean", "shared")
    # something to poison: rebuilds in the shaken world, device searches in the colliding one
    assert counts[0, LY.CT_REBUILDS] >= 3 and counts[0, LY.CT_WALLS_MOVING] == 1
    assert counts[1, LY.CT_PAIR_SEARCHES] >= 2 and counts[1, LY.CT_N_PAIRS] > 0
    poisoned_counts, poisoned_rows = _vulkan(tmp_path, "poison", "shared")
    assert _same_bits(poisoned_rows, rows), "a lane read a counter's global copy"
    np.testing.assert_array_equal(poisoned_counts, counts)  # the host's copies put back


@pytest.mark.timeout(3000)
def test_vulkan_the_poison_shows_a_read_of_the_global_copies(tmp_path, vulkan_available):
    """Reading the global copies (the code before the block's shared copies): the same bits without the poison,
    other bits with it."""
    _, rows = _vulkan(tmp_path, "clean", "shared")
    _, global_rows = _vulkan(tmp_path, "clean", "global")
    assert _same_bits(global_rows, rows)
    _, poisoned_rows = _vulkan(tmp_path, "poison", "global")
    assert not _same_bits(poisoned_rows, rows)
