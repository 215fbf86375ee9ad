"""Validation cases: each module runs the DEM on one test and compares it with its references.

A case module defines ``NAME``, ``TITLE`` and ``run(out_dir: Path, *, quick: bool) -> CaseResult``
(validation.cases.common): metrics with tolerances and pass/fail, PNG figures under ``out_dir/<NAME>/``,
findings as Markdown sections. ``quick=True`` runs a reduced version (coarse packing, short runs) that
the test suite asserts on. ``dem validate`` (dem/cli/validate.py) runs the cases and writes the report.

To add a case: write ``validation/cases/<name>.py`` with those three names and add ``<name>`` to CASES below,
in report order. The bridge cases (Itiola & El Shamy 2024, §5): ``single_pier`` and ``pier_deck``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from validation.cases.common import CaseResult, Figure, Metric

CASES: tuple[str, ...] = ("pena", "uplift", "single_pier", "pier_deck", "sensitivity", "damping", "calibration",
                         "transfer")
"""Case names in report order (module names in this package)."""


def get_case(name: str) -> ModuleType:
    """The module of case `name` (ValueError listing the known cases otherwise)."""
    if name not in CASES:
        raise ValueError(f"unknown validation case {name!r}; known: {', '.join(CASES)}")
    return importlib.import_module(f"validation.cases.{name}")


__all__ = ["CASES", "CaseResult", "Figure", "Metric", "get_case"]
