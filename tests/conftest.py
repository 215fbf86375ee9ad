"""Shared fixtures: Taichi on the CPU (f64) once per test session; a check that Taichi's Vulkan backend works
here (it runs in child processes: one process holds one Taichi backend)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def ti_cpu():
    import dem

    dem.init("cpu", "f64")
    return dem


@pytest.fixture(scope="session")
def vulkan_available():
    """Skip unless `dem.init('vulkan')` works in a child process (CI installs Mesa's lavapipe for it)."""
    probe = subprocess.run([sys.executable, "-c", "import dem; dem.init('vulkan')"], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    if probe.returncode != 0:
        pytest.skip("Taichi's Vulkan backend is not available here (install mesa-vulkan-drivers and libvulkan1): "
                    + probe.stderr.strip().splitlines()[-1][:200])
