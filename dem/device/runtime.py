"""Kernel runtime selection (Taichi or quadrants, see kernel_lang.py): backend (CPU/GPU) and floating-point
precision.

``ti.init`` happens here, once, when a user script or the command line calls :func:`init`; importing
``dem`` never initialises Taichi. Every device array is allocated with :func:`real`, so the precision
chosen at init (f64 by default) is the precision of the whole engine.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys

from .backends import ARCHS, PRECISIONS
from .kernel_lang import current_arch, ti

# Taichi's Vulkan backend has 31 storage-buffer slots per kernel in practice: a kernel bound to 32
# ndarrays returned a wrong sum and one bound to 33 or more crashed (Mesa lavapipe, Taichi 1.7.4).
# The solver checks its kernels against this bound.
MAX_KERNEL_ARRAYS = 30

# Taichi's control-flow-graph optimisation (store-to-load forwarding and dead-store elimination over the whole
# kernel) costs in proportion to a kernel's size for every statement it touches: on the step kernel (some 80
# functions inlined into one loop) it took 85 % of a 200 s cold compile and 2.2 GB of memory, while LLVM, which
# runs after it, forwards the same stores (the serial Peña run is as fast without it: 4.8-5.5 s against
# 5.2-5.9 s for 2 s of rocking). It also computed the implicit rotation step wrong, by ~3e-11 relative on the
# small components of ω (without it the step matches a NumPy reference to the bit; tests/physics/test_torque_free.py).
# Off, the step compiles in ~30 s here (docs/compile_time.md). Quadrants has the same pass and option.
CFG_OPTIMIZATION = False

_state: dict = {"arch": None, "precision": None}
_type_builders: list = []


def define_types(builder) -> None:
    """Register ``builder(real)``, which (re)defines a module's Taichi struct types for the real type of the
    current precision: Taichi fixes a struct's real type when the struct is created, so the types are made
    after :func:`init` (again at every init), never at import. Called at once if Taichi is already running."""
    _type_builders.append(builder)
    if _state["arch"] is not None:
        builder(real())


def init(arch: str = "cpu", precision: str = "f64", *, debug: bool = False, threads: int | None = None,
         fast_math: bool | None = None) -> None:
    """Initialise the kernel language's runtime (Taichi or quadrants, kernel_lang.py) for `dem`.

    quadrants' ``init`` takes the same options as Taichi's 1.7 (each field of its compile config is a keyword,
    ``cfg_optimization`` and ``fast_math`` included; unknown keywords raise), plus ``src_ll_cache`` (on by
    default: a source-hash cache for kernels declared ``fastcache=True``, which the engine's are not).

    Args:
        arch: one of ``cpu``, ``gpu`` (Taichi picks CUDA, Vulkan or Metal), ``cuda``, ``vulkan``, ``metal``.
        precision: ``f64`` (default) or ``f32``; the type of every real-valued device array.
        debug: Taichi debug mode (bounds checks; slow).
        threads: CPU threads for the CPU backend (default: all cores).
        fast_math: let the compiler reorder and fuse floating-point operations (Taichi's default). On: the
            serial Peña run is ~25 % faster (5.2 s against 6.4–6.8 s for its 6 s on this 2-core machine);
            each world of a batch still equals the same world run alone, bit for bit, and a resumed run
            its uninterrupted twin (the same compiled kernel either way). Off: results also stay the same
            bit for bit whatever the code around an operation, to check a refactored kernel against the old.
            None (default): on, unless the environment sets ``DEM_FAST_MATH=0`` (benchmarks/compare_histories.py
            --no-fast-math).
    Calling again with the same arguments is a no-op; with different ones it resets Taichi.
    """
    if arch not in ARCHS:
        raise ValueError(f"arch must be one of {ARCHS}, got {arch!r}")
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    if fast_math is None:
        fast_math = os.environ.get("DEM_FAST_MATH", "1") != "0"
    if _state["arch"] == arch and _state["precision"] == precision and _state.get("fast_math") == fast_math:
        return
    if _state["arch"] is not None:
        ti.reset()
    kwargs = {}
    if threads is not None and arch == "cpu":
        kwargs["cpu_max_num_threads"] = int(threads)
    # the toolchain prints "[Taichi] Starting on arch=..." on stdout, between dem's own lines: kept here instead
    # (printed with DEM_VERBOSE=1), the backend being named in dem's outputs (summary.json)
    banner = io.StringIO()
    with contextlib.redirect_stdout(banner):
        _init_toolchain(arch, precision, debug, fast_math, kwargs)
    if os.environ.get("DEM_VERBOSE", "") not in ("", "0") and banner.getvalue().strip():
        print(banner.getvalue().strip(), file=sys.stderr)
    _check_arch(arch)
    _state["arch"] = arch
    _state["precision"] = precision
    _state["fast_math"] = fast_math
    for builder in _type_builders:
        builder(real())


def _init_toolchain(arch, precision, debug, fast_math, kwargs) -> None:
    ti.init(
        arch=getattr(ti, arch),
        default_fp=ti.f64 if precision == "f64" else ti.f32,
        default_ip=ti.i32,
        debug=debug,
        offline_cache=True,
        log_level=ti.WARN,
        fast_math=fast_math,
        cfg_optimization=CFG_OPTIMIZATION,
        **kwargs,
    )


def _check_arch(arch: str) -> None:
    """Refuse (and reset) a toolchain that started another backend than the one asked for."""
    got = current_arch()
    if arch != "gpu" and got != getattr(ti, arch if arch != "cpu" else "x64"):
        ti.reset()
        raise ValueError(f"arch {arch!r} is not available on this machine (Taichi started {got.name} instead); "
                         "use --arch cpu, or install that backend's driver")
    if arch == "gpu" and got in (ti.x64, ti.arm64):
        ti.reset()
        raise ValueError("arch 'gpu' found no GPU backend (CUDA, Vulkan or Metal) on this machine; use --arch cpu")


def is_initialized() -> bool:
    return _state["arch"] is not None


def ensure_init() -> None:
    """Initialise with the defaults (CPU, f64) if the user has not called :func:`init`."""
    if not is_initialized():
        init()


def arch() -> str:
    ensure_init()
    return _state["arch"]


def precision() -> str:
    ensure_init()
    return _state["precision"]


def real():
    """Taichi real type of the current precision (``ti.f64`` or ``ti.f32``)."""
    return ti.f64 if precision() == "f64" else ti.f32


def is_serial_backend() -> bool:
    """True on the CPU backend: there the solver runs many steps per launch in one serial loop."""
    return arch() == "cpu"


def has_loop_limit() -> bool:
    """Whether kernels may be cut after 65,535 loop iterations per thread (Mesa's lavapipe caps the loops of a
    shader invocation; the block path then budgets its launches, see layout.LOOP_BUDGET). Assumed for every
    SPIR-V backend, where Taichi cannot tell a software device from a real one."""
    return arch() in ("vulkan", "metal") or (arch() == "gpu" and device_name() in ("vulkan", "metal"))


def device_name() -> str:
    """The backend Taichi actually runs (x64, arm64, cuda, vulkan, metal)."""
    ensure_init()
    return current_arch().name
