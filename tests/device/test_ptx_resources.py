"""benchmarks/ptx_resources.py: what it reads from ptxas's report and the occupancy it derives (issue 30, item 1).

The occupancy is CUDA's closed form for an SM of compute capability 9.0 (65,536 registers given to a warp in units
of 256, 2,048 threads, 32 blocks); Nsight Compute measured its inputs and outputs on an H200 (docs/gpu.md): 255
registers a thread at 128 threads a block, 2 blocks an SM by registers, 12.5 % theoretical occupancy.
"""

import ast
from pathlib import Path

import pytest

from tests.device.benchmark_modules import benchmark

ROOT = Path(__file__).resolve().parents[2]

# ptxas 13.0's report (-v --gpu-name sm_90) on the step kernel's PTX of ae7028f at 128 threads a block, as printed
REPORT = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'advance_blocks_c84_0_kernel_1_range_for' for 'sm_90'
ptxas info    : Function properties for advance_blocks_c84_0_kernel_1_range_for
    1784 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 1784 bytes cumulative stack size, 600 bytes smem
ptxas info    : Compile time = 11231.974 ms
ptxas info    : Function properties for function_body
    0 bytes stack frame, 3796 bytes spill stores, 4300 bytes spill loads
ptxas info    : Compiling entry function 'advance_blocks_c84_0_kernel_0_serial' for 'sm_90'
ptxas info    : Function properties for advance_blocks_c84_0_kernel_0_serial
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 0 barriers
ptxas info    : Compile time = 1.195 ms
"""


@pytest.fixture(scope="module")
def tool():
    return benchmark("ptx_resources")


def test_report_read_for_the_step_task(tool):
    """The range-for entry's registers, stack and shared memory; the spills of it and of the loop body it calls,
    summed; the serial prologue's 14 registers are not the task's."""
    got = tool.parse_report(REPORT)
    assert got == {"registers": 255, "stack": 1784, "smem": 600, "spill_stores": 16 + 3796, "spill_loads": 8 + 4300}


def test_occupancy_is_the_measured_one(tool):
    """255 registers at 128 threads: 2 blocks an SM, 12.5 % (Nsight Compute on the H200, docs/gpu.md). The same
    registers at 64 and 32 threads: 4 and 8 blocks, the same occupancy; 128 registers (Taichi's launch bounds at 256
    threads: 65,536 / (2 · 256)) at 256 threads: 2 blocks, 25 %; 32 registers at 1,024 threads: limited by the 2,048
    threads an SM to 2 blocks, 100 %."""
    assert tool.occupancy(255, 128) == (2, 0.125)
    assert tool.occupancy(255, 64) == (4, 0.125)
    assert tool.occupancy(255, 32) == (8, 0.125)
    assert tool.occupancy(128, 256) == (2, 0.25)
    assert tool.occupancy(32, 1024) == (2, 1.0)
    # 32 threads and few registers: the 32 blocks an SM bound it, not registers or threads
    assert tool.occupancy(24, 32) == (32, 0.5)


def test_every_stage_is_found_in_the_block_step(tmp_path):
    """benchmarks/ptx_stages.py names each stage by its calls in step_blocks.py: all are found as often as listed,
    and the copy without them is Python that calls none of them (the register map follows the code)."""
    P = benchmark("ptx_stages")
    copy = P.strip(ROOT, tmp_path, list(P.STAGES))
    text = (copy / P.STEP_BLOCKS).read_text()
    ast.parse(text)
    for calls in P.STAGES.values():
        for start, _, _ in calls:
            assert start not in text
    with pytest.raises(SystemExit, match="unknown stage"):
        P.strip(ROOT, tmp_path / "again", ["no_such_stage"])
