"""The backends and precisions a run may ask for, named without loading the kernel toolchain (the command line
lists them in its help; runtime.py checks a choice against them), and the block sizes each backend takes."""

import numbers

ARCHS = ("cpu", "gpu", "cuda", "vulkan", "metal")
PRECISIONS = ("f64", "f32")

# The most threads a block (a world on the block path) may have, by the backend Taichi runs: the CPU backend runs
# the block path with one thread a world; CUDA's limit is 1,024 threads a block; Vulkan promises 128 invocations a
# workgroup and desktop drivers (lavapipe too) take 1,024, Metal 1,024 for a simple pipeline but fewer for one of
# many registers such as the step's: 256 on both is a conservative bound, for which Taichi has no query. ``gpu``
# (Taichi picks the backend) takes the smallest of its three.
BLOCK_DIM_LIMITS = {"cpu": 1, "x64": 1, "arm64": 1, "cuda": 1024, "vulkan": 256, "metal": 256, "gpu": 256}


def check_block_dim(block_dim, arch: str, *, name: str = "block_dim") -> None:
    """ValueError (one line, naming `name` and the allowed values) unless `block_dim` is a power of two no larger
    than the limit of backend `arch` (BLOCK_DIM_LIMITS; a backend name of ARCHS or the one Taichi runs). None
    (the backend's default) passes."""
    if block_dim is None:
        return
    limit = BLOCK_DIM_LIMITS.get(arch)
    if limit is None:
        raise ValueError(f"arch must be one of {', '.join(ARCHS)}, got {arch!r}")
    ok = isinstance(block_dim, numbers.Integral) and not isinstance(block_dim, bool) and 1 <= block_dim <= limit \
        and int(block_dim) & (int(block_dim) - 1) == 0
    if not ok:
        allowed = "1" if limit == 1 else f"a power of two in [1, {limit}] (1, 2, 4, ..., {limit})"
        raise ValueError(f"{name} must be {allowed} on the {arch} backend, got {block_dim!r}")
