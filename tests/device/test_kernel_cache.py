"""Warm runs load their kernels from the cache, and say so (issue 32: 17 of ~27 warm runs said "the kernels were not
in the cache after all: compiled 1/1 in 8-10 s" for a command that had loaded before).

The cause was the start-up notice, not the cache: a load runs the Python → IR step as a compile does (Taichi keys
its cache on the IR), which on a loaded 2-core machine outlasted the 8 s taken as the least compile. The notice
now reads the toolchain's own compile clock (dem.device.startup). Each test runs the same command three times
with a fresh kernel cache directory and a fresh record of compiles, and checks both what is said and what the
cache holds: the first run writes the kernel files, the next two write none and rewrite none.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A kernel of some size (the clock must see a compile of more than a few statements), compiled or loaded under the
# start-up notice as `dem run` does its step kernel.
SCRIPT = """
import sys
from dem.device import runtime
from dem.device.kernel_lang import ti
from dem.device.startup import compile_notice, kernel_cache_dir

runtime.init("cpu")
a = ti.ndarray(ti.f64, 64)


@ti.kernel
def work(x: ti.types.ndarray()):
    for i in x:
        s = 0.0
        for k in ti.static(range(30)):  # unrolled (quadrants warns past 32)
            s += ti.sin(i * (k + 1.0)) * ti.cos(s + k) + ti.sqrt(ti.abs(s) + k)
        x[i] = s


with compile_notice("test-kernel", cache_dir=kernel_cache_dir(), kernels=("work",), stream=sys.stdout, delay=0.0):
    work(a)
"""


def _cache_files(cache: Path) -> dict[str, int]:
    """The compiled-kernel files of a cache directory (Taichi's ``*.tic``, quadrants' ``*.qdc`` in a folder of
    its own): name → modification time [ns]."""
    if not cache.is_dir():
        return {}
    return {str(p.relative_to(cache)): p.stat().st_mtime_ns for p in cache.rglob("*") if p.suffix in (".tic", ".qdc")}


def _three_runs(argv: list[str], tmp_path: Path, timeout: float) -> tuple[list[str], list[dict]]:
    from dem.device.kernel_lang import CACHE_DIR_ENV

    cache = tmp_path / "kernels"
    env = {**os.environ, CACHE_DIR_ENV: str(cache), "XDG_CACHE_HOME": str(tmp_path / "xdg"),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    said, files = [], []
    for _ in range(3):
        r = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=tmp_path, env=env,
                           timeout=timeout)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        said.append(r.stdout + r.stderr)
        files.append(_cache_files(cache))
    return said, files


def test_three_runs_of_a_kernel_compile_once(tmp_path):
    script = tmp_path / "kernel.py"  # Taichi reads a kernel's source from its file
    script.write_text(SCRIPT)
    said, files = _three_runs([str(script)], tmp_path, timeout=300)
    assert "Compiling kernels 0/1 (work" in said[0] and "compiled 1/1 kernels in" in said[0], said[0]
    assert files[0], "the first run wrote no kernel file"
    for text, f in zip(said[1:], files[1:]):
        assert "Loading kernels from the kernel cache" in text and "loaded in" in text, text
        assert "compiled" not in text and "not in the cache" not in text, text
        assert f == files[0]  # no kernel file written or rewritten: the toolchain loaded, as the notice says


@pytest.mark.slow  # the step kernel's cold compile: 30-90 s on a 2-core machine (CI runs it: .ci/run)
def test_three_dem_runs_compile_the_step_once(tmp_path):
    run = ["-m", "dem.cli", "run", "pena_block", "--set", "r_base=0.02", "r_core=0.05", "--t-end", "0.01",
           "--no-plots", "--no-progress", "--out", "run"]
    said, files = _three_runs(run, tmp_path, timeout=900)
    assert said[0].count("Compiling kernels 0/1 (step") == 1 and "compiled 1/1 kernels in" in said[0], said[0]
    for text, f in zip(said[1:], files[1:]):
        assert "Compiling" not in text and "compiled" not in text and "not in the cache" not in text, text
        assert f == files[0]
