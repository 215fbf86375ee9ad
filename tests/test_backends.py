"""The GPU code path: one parallel launch per step. On the CPU backend it must match the serial path;
on Taichi's Vulkan backend (a GPU API; here Mesa's lavapipe runs it on the CPU) it must match the CPU.

Parallel force sums use atomics whose order varies, so agreement is to round-off growth, not bitwise.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = """
import sys, numpy as np, dem
dem.init(sys.argv[1])
from tests.builders import block_on_floor
model = block_on_floor(dem, theta=0.05, mu=0.5, beta=0.2, interface=True)
sim = dem.Simulation(model, dt=1e-5, record_every=1, parallel=sys.argv[3] == "parallel")
np.save(sys.argv[2], sim.advance(int(sys.argv[4])))
"""
# 60 steps: the block settles onto its edge row and the contact forces rise from zero to ~its weight;
# atomics reorder sums of ~10 terms per step: relative differences ~1e-15 per step, < 1e-10 after 60 steps
AGREEMENT = 1e-10


def _run(tmp_path, arch, mode, steps=60):
    out = tmp_path / f"{arch}_{mode}.npy"
    proc = subprocess.run([sys.executable, "-c", SCRIPT, arch, str(out), mode, str(steps)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    return proc, out


# columns that are zero in exact arithmetic hold round-off (~1e-19); they are compared to this floor in
# SI units (N, m, J, ...), far below any physical value in the record (≥ 1e-9)
ABS_FLOOR = 1e-12


def _compare(a, b):
    scale = np.max(np.abs(a), axis=0) + ABS_FLOOR / AGREEMENT
    return np.max(np.abs(a - b) / scale)


def test_parallel_path_with_contacts_matches_serial_on_cpu(ti_cpu):
    from tests.builders import block_on_floor

    rows = {}
    for parallel in (False, True):
        model = block_on_floor(ti_cpu, theta=0.05, mu=0.5, beta=0.2, interface=True)
        sim = ti_cpu.Simulation(model, dt=1e-5, record_every=1, parallel=parallel)
        rows[parallel] = sim.advance(300)
    assert rows[False][-1, 7] > 0  # contacts were active
    assert _compare(rows[False], rows[True]) < AGREEMENT


@pytest.mark.timeout(900)
def test_vulkan_matches_cpu(tmp_path):
    probe = subprocess.run([sys.executable, "-c", "import dem; dem.init('vulkan')"], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    if probe.returncode != 0:
        pytest.skip("Taichi's Vulkan backend is not available here (install mesa-vulkan-drivers and libvulkan1): "
                    + probe.stderr.strip().splitlines()[-1][:200])
    proc_v, out_v = _run(tmp_path, "vulkan", "parallel")
    assert proc_v.returncode == 0, proc_v.stderr[-2000:]
    proc_c, out_c = _run(tmp_path, "cpu", "serial")
    assert proc_c.returncode == 0, proc_c.stderr[-2000:]
    v, c = np.load(out_v), np.load(out_c)
    assert c[-1, 7] > 0
    assert _compare(c, v) < AGREEMENT
