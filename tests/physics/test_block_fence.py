"""The block barrier orders the storage buffers on SPIR-V too, with quadrants (issue 30, item 4: correct by
construction). On Vulkan and Metal a block barrier (OpControlBarrier) carries workgroup-memory semantics only, so the
Vulkan memory model does not promise one thread's global stores visible to another after it; lavapipe orders them
anyway, so no run here can catch the gap. What can be checked is the code: compiled for Vulkan, every barrier of
pair_search_device.block_sync (the step's stage barrier) stands between two device-scope memory barriers with
UniformMemory (storage-buffer) and AcquireRelease semantics. Read from the SPIR-V in the kernel cache of a child
process. Taichi 1.7.4 has no such fence on SPIR-V (its grid.memfence emits nothing): there the test skips."""

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from dem.device.kernel_lang import NAME

ROOT = Path(__file__).resolve().parents[2]
OP_CONSTANT, OP_CONTROL_BARRIER, OP_MEMORY_BARRIER = 43, 224, 225
SCOPE_DEVICE, ACQUIRE_RELEASE, UNIFORM_MEMORY = 1, 0x8, 0x40
CHILD = """
import os, sys
os.environ["QD_OFFLINE_CACHE_FILE_PATH"] = os.environ["TI_OFFLINE_CACHE_FILE_PATH"] = sys.argv[1]
import dem
dem.init("vulkan")
from dem.device.kernel_lang import ti
from dem.physics.pair_search_device import STORAGE_FENCE, block_sync
a = ti.field(float, 128)

@ti.kernel
def hand_over():
    ti.loop_config(block_dim=64)
    for i in range(128):
        a[i] = 1.0 + i
        block_sync(64)
        a[i] += a[(i + 1) % 128]  # a neighbour's store, read after the barrier

hand_over()
print(STORAGE_FENCE, a[0])
"""


def spirv_modules(blob: bytes):
    """The SPIR-V modules in a file of the kernel cache: each from its magic number to the last whole instruction."""
    i = 0
    while (i := blob.find(b"\x03\x02\x23\x07", i)) >= 0:
        j = i + 20  # the header's five words
        while j + 4 <= len(blob):
            count = struct.unpack_from("<I", blob, j)[0] >> 16
            if count == 0 or j + 4 * count > len(blob):
                break
            j += 4 * count
        yield [struct.unpack_from(f"<{(j - i) // 4}I", blob, i)][0][5:]
        i = j


def instructions(words):
    """(opcode, operands) of each instruction of a module's words."""
    k = 0
    while k < len(words):
        count, op = words[k] >> 16, words[k] & 0xFFFF
        yield op, words[k + 1:k + count]
        k += count


@pytest.mark.skipif(NAME != "quadrants", reason="Taichi 1.7.4 emits no storage-buffer fence on SPIR-V (its "
                    "ti.simt.grid.memfence compiles to nothing there): the gap stays documented in step_blocks.py, "
                    "'What orders what'; CI runs this test in its quadrants environment")
def test_every_stage_barrier_is_fenced_for_the_storage_buffers(vulkan_available, tmp_path):
    cache, script = tmp_path / "cache", tmp_path / "hand_over.py"
    script.write_text(CHILD)  # a file: the kernel language reads a kernel's source
    p = subprocess.run([sys.executable, str(script), str(cache)], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    fence, first = p.stdout.split()[-2:]
    assert fence == "True" and float(first) == 1.0 + 2.0  # a[0] + a[1] as stored before the barrier
    barriers = 0
    for path in cache.rglob("*"):
        if not path.is_file():
            continue
        for words in spirv_modules(path.read_bytes()):
            code = list(instructions(words))
            const = {ops[1]: ops[2] for op, ops in code if op == OP_CONSTANT and len(ops) == 3}
            for n, (op, _ops) in enumerate(code):
                if op != OP_CONTROL_BARRIER:
                    continue
                barriers += 1
                for side in (code[n - 1], code[n + 1]):
                    assert side[0] == OP_MEMORY_BARRIER, f"a barrier without a fence beside it: {side}"
                    scope, semantics = const[side[1][0]], const[side[1][1]]
                    assert scope == SCOPE_DEVICE and semantics & UNIFORM_MEMORY and semantics & ACQUIRE_RELEASE, \
                        (scope, hex(semantics))
    assert barriers >= 1  # the kernel's one barrier was found, fenced on both sides
