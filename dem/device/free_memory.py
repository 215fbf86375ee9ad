"""How much memory the backend's arrays can still take [bytes], asked without allocating anything.

By the backend Taichi runs (runtime.device_name()):
    x64, arm64  the host's available memory (dem.model.sizing.available_memory: MemAvailable, or less under a
                cgroup limit): the CPU backend's arrays are host memory
    metal       the same: Apple's GPUs share the system's memory
    vulkan      the same where the Vulkan driver in this process is Mesa's lavapipe (a CPU device: CI's Vulkan);
                on any other Vulkan device None: Taichi neither names the device it picked nor says how much
                memory it has, and the host's figure says nothing about a graphics card's
    cuda        the free memory of the device Taichi's context runs on (the CUDA driver's cuMemGetInfo, a query);
                where the driver cannot be asked, nvidia-smi's memory.free of the first visible GPU; else None
None: the backend cannot be asked, and dem.physics.batch_memory skips its check.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..model.sizing import available_memory

HOST_BACKENDS = ("x64", "arm64", "metal")
# shared objects of Vulkan drivers other than lavapipe (libvulkan_lvp): one of them mapped into the process means
# Taichi may run on a real GPU (NVIDIA's Vulkan driver is its GLX library)
OTHER_VULKAN_DRIVERS = ("nvidia", "libvulkan_radeon", "libvulkan_intel", "amdvlk", "libvulkan_nouveau",
                        "libvulkan_freedreno", "libvulkan_panfrost", "libvulkan_broadcom", "libMoltenVK")


@dataclass(frozen=True)
class FreeMemory:
    """Memory the backend's arrays can still take [bytes] (None: it cannot be asked) and where it is, in words."""

    bytes: int | None
    where: str


def free_memory(backend: str) -> FreeMemory:
    """The memory a new array of backend `backend` (a name of runtime.device_name(), or 'cpu') can take."""
    if backend in ("cpu", *HOST_BACKENDS):
        return FreeMemory(available_memory(), "the host's available memory")
    if backend == "vulkan":
        if vulkan_is_lavapipe():
            return FreeMemory(available_memory(), "the host's available memory (Vulkan on Mesa's lavapipe)")
        return FreeMemory(None, "a Vulkan device's memory (Taichi cannot ask it)")
    if backend == "cuda":
        free = cuda_driver_free()
        if free is not None:
            return FreeMemory(free, "the GPU's free memory")
        return FreeMemory(nvidia_smi_free(), "the GPU's free memory (nvidia-smi)")
    return FreeMemory(None, f"the {backend} backend's memory (unknown)")


def vulkan_is_lavapipe(maps: str | None = None) -> bool:
    """Whether the only Vulkan driver loaded in this process is Mesa's lavapipe, read from /proc/self/maps (or
    `maps`, its text); False where that cannot be read (not Linux)."""
    if maps is None:
        try:
            maps = Path("/proc/self/maps").read_text()
        except OSError:
            return False
    libs = {line.rsplit(None, 1)[-1] for line in maps.splitlines() if ".so" in line}
    return any("libvulkan_lvp" in lib for lib in libs) and not any(
        other in lib for lib in libs for other in OTHER_VULKAN_DRIVERS)


def cuda_driver_free() -> int | None:
    """Free memory of the current CUDA context's device [bytes] (cuMemGetInfo_v2 of the driver Taichi loaded), or
    None: no driver, or no context current on this thread (Taichi makes its context current on the thread that
    called ti.init)."""
    try:
        lib = ctypes.CDLL("libcuda.so.1")
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        status = lib.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total))
    except (OSError, AttributeError):
        return None
    return int(free.value) if status == 0 else None  # 201 CUDA_ERROR_INVALID_CONTEXT: no context here


def nvidia_smi_free() -> int | None:
    """memory.free of the first GPU this process sees (CUDA_VISIBLE_DEVICES' first entry, else GPU 0) from
    nvidia-smi [bytes], or None."""
    if shutil.which("nvidia-smi") is None:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
    select = ["--id=" + visible] if visible else []
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.free", "--format=csv,noheader,nounits", *select],
                             capture_output=True, text=True, timeout=10)
        return int(out.stdout.split()[0]) * 2**20  # MiB
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None
