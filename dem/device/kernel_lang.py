"""The kernel language, imported from one place: every module of the engine writes ``from .kernel_lang import ti``.

``ti`` is the toolchain chosen in :mod:`.toolchain` (Taichi or quadrants). On quadrants, ``ti.func`` is adapted
so that the argument packs of :mod:`.kernel_args` pass through ``ti.template()`` parameters as they do on Taichi
(see _typed_packs); every other name is the toolchain's own, so the kernels are the same source on both.
"""

from __future__ import annotations

import types

from .kernel_args import PACKS_BY_PARAM
from .toolchain import (
    BANNER,
    CACHE_DIR_ENV,
    NAME,
    TOOLCHAINS,
    argpack,
    compiled_variants,
    current_arch,
    to_numpy_type,
)
from .toolchain import ti as _raw

if NAME == "taichi":
    ti = _raw
else:
    _qd = _raw

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
    notes = getattr(fn, "__annotations__", {})
    for name, pack in PACKS_BY_PARAM.items():
        if name in notes and isinstance(notes[name], _qd.template):
            notes[name] = pack
    return fn


__all__ = ["BANNER", "CACHE_DIR_ENV", "NAME", "TOOLCHAINS", "argpack", "compiled_variants", "current_arch", "ti",
           "to_numpy_type"]
