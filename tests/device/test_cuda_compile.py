"""The block path compiles for CUDA on a machine without a GPU (issue 30): Taichi's CUDA backend against the stand-in
driver of benchmarks/ptx_resources.py, then NVIDIA's assembler for an H100/H200 (sm_90). A kernel Taichi cannot
generate for CUDA, or PTX that ptxas refuses, fails here rather than in a lent GPU's 15 minutes. Slow (a cold CUDA
compile of the step kernel: ~100 s on 2 cores); CI runs it once.
"""

import shutil
from pathlib import Path

import pytest

from tests.device.benchmark_modules import benchmark

ROOT = Path(__file__).resolve().parents[2]
SHARED_LIMIT = 48 * 1024  # static shared memory a block may declare on sm_90 [B] (more needs dynamic opt-in)


@pytest.mark.slow
def test_the_step_kernel_compiles_and_assembles_for_sm_90(tmp_path):
    """The step kernel at 128 threads a world: Taichi emits its PTX and ptxas assembles it for sm_90 within the
    hardware's limits: a register count read from its report (ptxas caps it at 255), the shared memory it declares
    ≤ 48 KiB."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler (cc, gcc) to build the stand-in CUDA driver")
    tool = benchmark("ptx_resources")
    try:
        ptxas = tool.find_ptxas(None)
    except SystemExit:
        pytest.skip("no ptxas (CUDA's toolkit or pip install nvidia-cuda-nvcc-cu12)")
    stub = tool.build_stub(tmp_path)
    ptx = tool.compile_ptx(ROOT, stub, tmp_path / "bd128", 128, True, 900.0)
    got = tool.assemble(ptxas, ptx, "sm_90")
    assert 0 < got["registers"] <= 255
    assert got["smem"] <= SHARED_LIMIT
