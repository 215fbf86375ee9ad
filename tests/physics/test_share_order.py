"""The block path's sums in a fixed order (issue 30, item 3): the same bits whatever order the threads run in, two
runs alike, and a world in a batch as alone.

The block path splits each list into shares and reduces their partials in share order (dem/physics/share_sums.py).
Mesa's lavapipe and the CPU run a block's threads in a fixed order, so an order-dependent sum would still give the
same bits run after run there; the test knobs make the order explicit: share_sums.SHARES_PER_LANE gives the CPU's one
thread a world several shares (the partials and reductions of a GPU's block), share_sums.SHARE_ORDER permutes which
turn takes which share. A sum that depended on the order the shares add in (an atomic add, a running sum over the
shares as they come) gives other bits once the order is reversed; the fixed-order reductions give the same.

The worlds: a tilted block carrying another on the floor (wall and body-pair contacts, interface probe slots) at two
tilts, and two boxes colliding under damping_mass "shared" (the interface stiffness sums).
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
STEPS = 600
SHARES = 4  # shares a world on the CPU's block path (one thread)
SCRIPT = """
import sys, numpy as np
import dem
dem.init("vulkan")
import dem.physics.share_sums as SS
SS.SHARE_ORDER = sys.argv[2]
from tests.physics.test_share_order import runs
np.savez(sys.argv[1], *runs(dem, parallel=True))
"""


def _worlds(dem):
    from tests.builders import colliding_boxes, tilted_stack

    return [tilted_stack(dem), tilted_stack(dem, theta=0.08), colliding_boxes(dem, damping_mass="shared", sideways=0.3)]


def _advance(dem, models, parallel):
    sim = dem.Simulation(models, dt=1e-5, history_every=10, parallel=parallel)
    out = sim.advance(STEPS)
    return out if isinstance(out, list) else [out]


def runs(dem, *, parallel):
    """The batch's histories twice (two Simulations), then each world's alone: 3 W arrays."""
    models = _worlds(dem)
    return _advance(dem, models, parallel) + _advance(dem, models, parallel) + \
        [_advance(dem, [m], parallel)[0] for m in models]


def _same(a, b, what):
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b)):
        assert x.shape == y.shape, (what, k)
        assert np.array_equal(x.view(np.uint64), y.view(np.uint64)), f"{what}, world {k}: other bits"


@pytest.fixture
def shares(ti_cpu, monkeypatch):
    """The CPU's block path with SHARES shares a world, in the order the test sets."""
    import dem.physics.share_sums as SS

    monkeypatch.setattr(SS, "SHARES_PER_LANE", SHARES)

    def run(order):
        monkeypatch.setattr(SS, "SHARE_ORDER", order)
        return runs(ti_cpu, parallel=True)

    return run


@pytest.mark.timeout(900)
def test_shares_taken_in_reverse_order_give_the_same_bits(shares):
    first = shares("identity")
    w = len(first) // 3
    _same(first[:w], first[w: 2 * w], "two runs of the batch")
    _same(first[:w], first[2 * w:], "each world alone against the batch")
    _same(first, shares("reverse"), "the shares in reverse order")


def test_shares_agree_with_the_serial_path_to_round_off(shares, ti_cpu):
    """The shares' sums are the serial path's split elsewhere: the same to round-off (measured ≤ 2.5e-15 of each
    ledger column's largest magnitude over the 600 steps)."""
    from tests.device.test_ledger_blocks import _ledger

    serial = _advance(ti_cpu, _worlds(ti_cpu), False)
    split = shares("identity")[: len(serial)]
    for a, b in zip(serial, split):
        la, lb = _ledger(a), _ledger(b)
        assert np.max(np.abs(la - lb) / (np.max(np.abs(la), axis=0) + 1e-12)) < 1e-12
        np.testing.assert_allclose(b[:, 11:18], a[:, 11:18], rtol=0, atol=1e-12)  # the first clump's pose


def _vulkan(tmp_path, order):
    path = tmp_path / f"{order}.npz"
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(path), order], cwd=ROOT, capture_output=True, text=True,
                          timeout=2400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    with np.load(path) as z:
        return [z[f"arr_{k}"] for k in range(len(z.files))]


@pytest.mark.timeout(3000)
def test_vulkan_blocks_give_the_same_bits_in_any_thread_order(tmp_path, vulkan_available):
    """On Taichi's Vulkan backend (128 threads a world on lavapipe): two runs, each world alone, and the threads taking
    the shares in reverse order all give the batch's bits."""
    first = _vulkan(tmp_path, "identity")
    w = len(first) // 3
    _same(first[:w], first[w: 2 * w], "two runs of the batch")
    _same(first[:w], first[2 * w:], "each world alone against the batch")
    _same(first, _vulkan(tmp_path, "reverse"), "the threads taking the shares in reverse order")
