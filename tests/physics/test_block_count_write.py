"""The block path's count/write pairs (issue 30, item 4): spheres on the skin's edge of a wall, exactly and a few
ulps either side, give the block path the candidate list of the serial path, entry for entry, each entry once,
with no slot written past the count and none left from before; and the histories of the two paths are the same.

The candidate list is pre-filled with a sentinel before the rebuild, so a slot the rebuild should have written and
did not, or one it wrote past its count, shows. The disagreement that two passes compiled apart might have on such
a sphere is made on purpose in child processes: the block path compiled with its count pass's skin scaled
(pair_search_device.COUNT_PASS_SKIN_SCALE) counts spheres the write pass does not find, or misses ones it finds;
the list must still be the serial path's, and counts[CT_RECOUNTS] says it was written again.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RADIUS = 2.0 ** -7  # [m]: dyadic, so that centre − radius = skin is exact in f64
SKIN = 2.0 ** -10  # [m], the wall skin
ULPS = range(-3, 4)  # heights r + skin + k ulp of the centre; candidates: k < 0 (distance − r < skin)
SENTINEL = -7
STEPS = 400
DT = 1e-6
SCRIPT = """
import sys, numpy as np
import dem
import dem.physics.pair_search_device as P
P.COUNT_PASS_SKIN_SCALE = float(sys.argv[3])
dem.init(sys.argv[1])
from tests.physics.test_block_count_write import run
lists, rows, recounts = run(dem, parallel=sys.argv[4] == "parallel")
np.savez(sys.argv[2], lists=lists, rows=rows, recounts=recounts)
"""


def edge_model(dem):
    """Single-sphere bodies far apart over the floor z = 0: on the skin's edge (centre height r + skin + k ulp) and
    two pressed 0.2 mm into the floor (they push off: contacts, and later rebuilds). No gravity."""
    mat = dem.Material.hertz(shear_modulus=1e8, poisson=0.3, friction=0.5, damping_normal=0.1, damping_shear=0.1)
    b = dem.ModelBuilder(gravity=(0.0, 0.0, 0.0))
    heights = [float(np.float64(RADIUS + SKIN) + k * np.spacing(RADIUS + SKIN)) for k in ULPS]
    heights += [RADIUS - 2e-4, RADIUS - 1e-4]
    for j, z in enumerate(heights):
        b.add_clump(dem.single_sphere(RADIUS), material=mat, mass=0.05, mass_from="spheres", position=(0.1 * j, 0, z))
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    return b.finalize()


def _world_list(sim, w=0):
    """World w's candidate region (hull sphere, wall) rows, and its count."""
    from dem.device import layout as LY

    info = sim.device_model.world_info.to_numpy()[w]
    n_region = int(info[LY.WI_NHULL]) * int(info[LY.WI_NWALL])
    cand = sim.contacts.cand.to_numpy()[info[LY.WI_CAND0]: info[LY.WI_CAND0] + n_region]
    return cand, int(sim.contacts.counters()[w, LY.CT_N_CAND])


def run(dem, *, parallel):
    """The first rebuild's candidate region (sentinel-filled before it) padded with its count, the histories of
    STEPS steps, and the recounts. Module-level so that the child processes run the same."""
    from dem.device import layout as LY

    sim = dem.Simulation(edge_model(dem), dt=DT, history_every=20, skin=SKIN, parallel=parallel, sleep=False)
    sim.contacts.cand.from_numpy(np.full(sim.contacts.cand.shape + (2,), SENTINEL, np.int32))
    sim.invalidate_neighbours()
    rows = [sim.advance(1)]
    cand, n = _world_list(sim)
    lists = np.concatenate([[[n, n]], cand])
    rows.append(sim.advance(STEPS - 1))
    return lists, np.concatenate(rows), int(sim.contacts.counters()[0, LY.CT_RECOUNTS])


def _check_list(lists, expect_n):
    n, cand = int(lists[0, 0]), lists[1:]
    assert n == expect_n
    written = [tuple(e) for e in cand[:n]]
    assert SENTINEL not in cand[:n], "a counted slot was not written"
    assert len(set(written)) == n, "an entry twice"
    assert np.all(cand[n:] == SENTINEL), "a slot past the count was written"
    return written


# candidates by the skin test itself (centre height − r < skin): the spheres below the edge, and the two pressed in
EXPECTED = sum(k < 0 for k in ULPS) + 2


def test_block_list_on_the_skin_edge_is_the_serial_list(ti_cpu):
    out = {p: run(ti_cpu, parallel=p) for p in (False, True)}
    serial = _check_list(out[False][0], EXPECTED)
    assert _check_list(out[True][0], EXPECTED) == serial  # entry for entry, in the same order
    # one body per wall contact, each summed alone: the paths take the same operations (no tolerance)
    np.testing.assert_array_equal(out[True][1], out[False][1])
    assert out[True][2] == 0 and out[False][2] == 0


def _child(tmp_path, arch, scale, mode):
    path = tmp_path / f"{arch}-{scale}-{mode}.npz"
    env = {**__import__("os").environ, "TI_OFFLINE_CACHE": "0"}  # the scale is read when the kernel compiles
    proc = subprocess.run([sys.executable, "-c", SCRIPT, arch, str(path), repr(scale), mode], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    with np.load(path) as z:
        return z["lists"], z["rows"], int(z["recounts"])


@pytest.mark.timeout(900)
@pytest.mark.parametrize("scale", [1 + 2.0 ** -20, 1 - 2.0 ** -20])
def test_a_count_pass_that_disagrees_still_gives_the_serial_list(tmp_path, ti_cpu, scale):
    """Count skin × (1 ± 1e-6): 1e-9 m, some 1e8 ulps of the edge spheres' heights: the count pass takes in the
    three spheres at and just above the edge (+) or leaves out the three below it (−)."""
    serial = run(ti_cpu, parallel=False)
    lists, rows, recounts = _child(tmp_path, "cpu", scale, "parallel")
    assert recounts >= 1  # the disagreement happened, and was handled
    assert _check_list(lists, EXPECTED) == _check_list(serial[0], EXPECTED)
    np.testing.assert_array_equal(rows, serial[1])


@pytest.mark.timeout(1800)
def test_vulkan_block_list_on_the_skin_edge(tmp_path, ti_cpu, vulkan_available):
    """The same on Taichi's Vulkan backend (128 threads a block on lavapipe), against the CPU's serial path. The
    history agrees to round-off only: atomics add the clumps' sums there (tests/device/test_ledger_blocks.py)."""
    serial = run(ti_cpu, parallel=False)
    lists, rows, recounts = _child(tmp_path, "vulkan", 1.0, "parallel")
    assert recounts == 0
    assert _check_list(lists, EXPECTED) == _check_list(serial[0], EXPECTED)
    # ÷ each column's largest magnitude, floored at 1e-6 (SI units: the energies in play are ~1e-3 J): one contact
    # per clump, so the sums are of one term each; what differs is the device's arithmetic (no fast-math promise
    # across backends): measured 3e-16 relative, and 2e-20 J on E_boundary, a round-off-sized column (no wall moves)
    scale = np.max(np.abs(serial[1]), axis=0) + 1e-6
    assert np.max(np.abs(rows - serial[1]) / scale) < 1e-9
