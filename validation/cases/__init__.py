"""Validation cases: each runs the DEM on one test and compares it with its references.

A case is a module of this package, or a package when it outgrows one (``pena``, ``single_pier``,
``pier_deck``: ``settings``, ``simulate``, ``analyse``, ``metrics`` and ``report`` modules). Either way it
defines, in four stages that :func:`run` chains:

- ``NAME``, ``TITLE``, and ``FULL`` and ``QUICK``: its settings (a frozen dataclass: packings, run lengths);
- ``simulate(cfg)``: the DEM runs (histories, summaries, scenes), nothing derived;
- ``analyse(runs, cfg)``: what is derived from them, and the reference solutions (validation.rocking,
  validation/data) they are compared with;
- ``metrics(an, cfg) -> list[Metric]``: the comparisons, with tolerances and pass/fail (common.Metric);
- ``report(res, runs, an, cfg, out_dir)``: the result's Markdown sections, PNG figures under
  ``out_dir/<NAME>/``, one-paragraph summary and raw numbers (``res.data``, for the tests and result.json).

``QUICK`` is a reduced version (coarse packing, short runs) that the test suite asserts on. ``dem validate``
(dem/cli/validate.py) runs the cases through :func:`run` and writes the report. Shared by the cases:
``common`` (Metric, CaseResult, tables, figures, peak and restitution analysis), ``runs`` (DEM runs several
cases make) and ``rigid`` (the rigid block under a scene's shaking, swing by swing). The reference values are
in validation/data, the reference solvers in validation.rocking and its siblings, which do not import dem.

To add a case: write ``validation/cases/<name>.py`` with those names and add ``<name>`` to CASES below, in
report order. The bridge cases (Itiola & El Shamy 2024, §5): ``single_pier`` and ``pier_deck``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from validation.cases.common import CaseResult, Figure, Metric, Timer

CASES: tuple[str, ...] = ("pena", "uplift", "single_pier", "pier_deck", "sensitivity", "damping", "calibration",
                         "transfer")
"""Case names in report order (module names in this package)."""


def get_case(name: str) -> ModuleType:
    """The module of case `name` (ValueError listing the known cases otherwise)."""
    if name not in CASES:
        raise ValueError(f"unknown validation case {name!r}; known: {', '.join(CASES)}")
    return importlib.import_module(f"validation.cases.{name}")


def run(name: str, out_dir: Path, *, quick: bool) -> CaseResult:
    """Run case `name` (its quick or full settings): simulate → analyse → metrics → report. Figures go to
    ``out_dir/<name>/``, their paths in the result relative to `out_dir`."""
    case = get_case(name)
    clock = Timer()
    cfg = case.QUICK if quick else case.FULL
    res = CaseResult(case.NAME, case.TITLE, quick)
    runs = case.simulate(cfg)
    an = case.analyse(runs, cfg)
    res.metrics = case.metrics(an, cfg)
    case.report(res, runs, an, cfg, Path(out_dir))
    res.wall_time_s = clock()
    return res


__all__ = ["CASES", "CaseResult", "Figure", "Metric", "get_case", "run"]
