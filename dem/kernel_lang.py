"""The kernel language, imported from one place: every module of the engine writes ``from .kernel_lang import ti``.

Two toolchains speak it: Taichi (``taichi``, whose last release, 1.7.4, has wheels up to CPython 3.13) and
quadrants (the maintained fork of Taichi's language, the kernel language of Genesis; wheels from CPython 3.10 on,
the only choice on 3.14 and later). ``DEM_KERNELS`` names the one to use (``taichi`` | ``quadrants``); unset, it
is Taichi where Taichi is installed, else quadrants. Whichever is chosen is bound to the name ``ti``, and the few
places where the two differ go through the helpers below, so the kernels are the same source on both.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import types

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

    class _Quadrants(types.ModuleType):
        """quadrants, with ``func`` adapted (see _typed_packs); every other name is quadrants' own."""

        def __getattr__(self, name):
            return getattr(_qd, name)

        @staticmethod
        def func(fn=None, **options):
            if fn is None:
                return lambda f: _qd.func(_typed_packs(f), **options)
            return _qd.func(_typed_packs(fn), **options)

    ti = _Quadrants("quadrants")


def _typed_packs(fn):
    """Quadrants: type the argument-pack parameters of a ``@ti.func`` with their pack.

    The engine's functions take the packs as ``md: ti.template()`` (Taichi passes an argument pack through a
    template parameter). Quadrants flattens a dataclass argument into one argument per array at the call, and
    only a parameter annotated with the dataclass itself takes them back; so a template parameter named after a
    pack (kernel_args.PACKS_BY_PARAM) gets that annotation here, and the kernels stay the same source."""
    from .kernel_args import PACKS_BY_PARAM  # here: kernel_args itself imports this module

    notes = getattr(fn, "__annotations__", {})
    for name, pack in PACKS_BY_PARAM.items():
        if name in notes and isinstance(notes[name], _qd.template):
            notes[name] = pack
    return fn


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
