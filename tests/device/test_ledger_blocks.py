"""The energy ledger's shear-spring terms on the block path (issue 21): the stiffness work W_k and the
trapezoidal slip of wall and pair contacts, under both shear unloading rules, as the serial path books them:
on the CPU (one thread per world) and on Taichi's Vulkan backend (Mesa's lavapipe here, 128 threads a block,
atomic sums). Under "rescale" the springs give no energy on either path (E_shear_stiffness ≥ 0 to round-off).
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
models = [tilted_stack(dem, shear_unloading=u) for u in ("incremental", "rescale")] + \\
    [colliding_boxes(dem, sideways=0.5, shear_unloading=u) for u in ("incremental", "rescale")]
sim = dem.Simulation(models, dt=1e-5, history_every=10, parallel=sys.argv[3] == "parallel")
np.savez(sys.argv[2], *sim.advance(600))
"""
LEDGER = ("E_body", "E_kinetic", "E_strain", "E_damping", "E_friction", "E_shear_stiffness")
AGREEMENT_CPU = 1e-10
"""Block path against serial path on the CPU, ÷ each column's largest magnitude: the same contacts summed in
another order (pairs found by the device search): round-off growth over 600 steps (measured ~1e-13)."""
AGREEMENT_VULKAN = 1e-6
"""Vulkan against the CPU: atomics reorder sums of ~50 terms per step, and a marginal contact's force enters one
backend's sums and not the other's (tests/device/test_backends.py: energies agree to ~1e-8)."""


def _ledger(rows):
    from dem.physics.history_rows import GLOBAL_COLUMNS

    return np.column_stack([rows[:, GLOBAL_COLUMNS.index(n)] for n in LEDGER])


def _worlds(dem):
    from tests.builders import colliding_boxes, tilted_stack

    return [tilted_stack(dem, shear_unloading=u) for u in ("incremental", "rescale")] + \
        [colliding_boxes(dem, sideways=0.5, shear_unloading=u) for u in ("incremental", "rescale")]


def _check(serial, other, agreement):
    for k, (a, b) in enumerate(zip(serial, other)):
        la, lb = _ledger(a), _ledger(b)
        scale = np.max(np.abs(la), axis=0) + 1e-12 / agreement
        assert np.max(np.abs(la - lb) / scale) < agreement, f"world {k}"
    w_k = [_ledger(r)[:, LEDGER.index("E_shear_stiffness")] for r in serial]
    assert abs(w_k[2][-1]) > 1e-3 * serial[2][0, 3]  # the boxes' sliding contacts do stiffness work (−8e-5 J)
    for k in (1, 3):  # rescale: never negative (to round-off of the sums, ~1e-16 of the energies in play)
        assert np.min(_ledger(other[k])[:, LEDGER.index("E_shear_stiffness")]) >= -1e-12 * np.max(np.abs(w_k[k]))


def test_block_path_books_the_spring_terms_as_the_serial_path(ti_cpu):
    runs = {}
    for parallel in (False, True):
        sim = ti_cpu.Simulation(_worlds(ti_cpu), dt=1e-5, history_every=10, parallel=parallel)
        runs[parallel] = sim.advance(600)
    _check(runs[False], runs[True], AGREEMENT_CPU)


@pytest.mark.timeout(900)
def test_vulkan_books_the_spring_terms_as_the_cpu(tmp_path, vulkan_available):
    out = {}
    for arch, mode in (("vulkan", "parallel"), ("cpu", "serial")):
        out[arch] = tmp_path / f"{arch}.npz"
        proc = subprocess.run([sys.executable, "-c", SCRIPT, arch, str(out[arch]), mode], cwd=ROOT,
                              capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-2000:]
    runs = {}
    for arch, path in out.items():
        with np.load(path) as z:
            runs[arch] = [z[f"arr_{k}"] for k in range(len(z.files))]
    _check(runs["cpu"], runs["vulkan"], AGREEMENT_VULKAN)
