"""The kernel language, imported from one place: every module of the engine writes ``from .kernel_lang import ti``.

Today this is Taichi (``taichi``, the default where it installs). The choice of toolchain lives here alone so
that a second one (``quadrants``, the maintained fork of Taichi's language) can be selected without touching
the kernels: ``DEM_KERNELS`` names it (``taichi`` | ``quadrants``).
"""

from __future__ import annotations

import os

TOOLCHAINS = ("taichi", "quadrants")

NAME = os.environ.get("DEM_KERNELS", "taichi").strip().lower() or "taichi"
if NAME not in TOOLCHAINS:
    raise ImportError(f"DEM_KERNELS must be one of {TOOLCHAINS}, got {NAME!r}")

import taichi as ti  # noqa: E402

__all__ = ["NAME", "TOOLCHAINS", "ti"]
