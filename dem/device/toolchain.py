"""The kernel toolchain, chosen once: Taichi or quadrants (``DEM_KERNELS``), bound to the name ``ti``, with the
few helpers where the two differ. The engine's modules import the language from :mod:`.kernel_lang`, which adds
the argument packs' typing that quadrants needs; this module is its lower half (kernel_args.py builds the packs
from it).

Two toolchains speak the language: Taichi (``taichi``, whose last release, 1.7.4, has wheels up to CPython 3.13)
and quadrants (the maintained fork of Taichi's language, the kernel language of Genesis; wheels from CPython
3.10 on, the only choice on 3.14 and later). ``DEM_KERNELS`` names the one to use (``taichi`` | ``quadrants``);
unset, it is Taichi where Taichi is installed, else quadrants.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os

TOOLCHAINS = ("taichi", "quadrants")


def _choose() -> str:
    name = os.environ.get("DEM_KERNELS", "").strip().lower()
    if name:
        if name not in TOOLCHAINS:
            raise ImportError(f"DEM_KERNELS must be one of {TOOLCHAINS}, got {name!r}")
        return name
    # Taichi stays the default where it installs (the toolchain the engine was measured with); quadrants is
    # the automatic choice where it does not (no Taichi wheel for CPython >= 3.14).
    for name in TOOLCHAINS:
        if importlib.util.find_spec(name) is not None:
            return name
    raise ImportError("no kernel language is installed: pip install taichi (CPython <= 3.13) or quadrants")


NAME = _choose()

if NAME == "taichi":
    import taichi as ti
    from taichi.lang.util import to_numpy_type
else:
    import quadrants as _qd
    from quadrants.lang.util import to_numpy_type

    ti = _qd


# Environment variable that moves the toolchain's offline kernel cache (the cache of compiled kernels on disk).
CACHE_DIR_ENV = "TI_OFFLINE_CACHE_FILE_PATH" if NAME == "taichi" else "QD_OFFLINE_CACHE_FILE_PATH"


def argpack(name: str, **fields):
    """A group of kernel arguments passed as one (``pack.field`` inside a kernel), built as
    ``Pack(field=array, ...)`` by keyword on both toolchains.

    Taichi: an argument pack (``ti.types.argpack``). Quadrants has no argument packs; a Python dataclass whose
    fields are annotated with ndarray types is its way (the kernel's parameter is flattened into one parameter
    per field at compile time), so there the pack is a dataclass named ``name``."""
    if NAME == "taichi":
        return ti.types.argpack(**fields)
    return dataclasses.make_dataclass(name, list(fields.items()))


def current_arch():
    """The backend the running program uses (``ti.x64``, ``ti.cuda``, ...; ``.name`` gives its name)."""
    return ti.lang.impl.current_cfg().arch


def compiled_variants(kernel) -> int:
    """How many specialisations of a ``@ti.kernel`` (one per combination of its compile-time arguments) this
    process has compiled or loaded: Taichi counts them in ``compiled_kernels``, quadrants in
    ``materialized_kernels``."""
    primal = kernel._primal
    return len(primal.compiled_kernels if NAME == "taichi" else primal.materialized_kernels)


# The banner each toolchain prints on import and init ("[Taichi] ...", "[Quadrants] ..."), for output filters.
BANNER = "[Taichi]" if NAME == "taichi" else "[Quadrants]"

__all__ = ["BANNER", "CACHE_DIR_ENV", "NAME", "TOOLCHAINS", "argpack", "compiled_variants", "current_arch", "ti",
           "to_numpy_type"]
