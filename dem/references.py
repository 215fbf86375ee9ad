"""The one place dem names the ``validation`` package: its reference solvers and validation cases, loaded when a
command asks for them.

``validation`` (the rigid rocking solvers and their siblings, the validation cases and their reference values)
ships in the same distribution as dem (pyproject.toml: packages ``dem*`` and ``validation*``) but is not part
of the engine: it judges the engine from outside (docs/architecture.md). Two commands use it, and only they
load it, here, by name:

- ``dem sweep --engine rigid``: the rigid rocking solver (``validation.rocking``: the batch solver, the
  scalar solver with a vertical component, the pivot geometry of a block of spheres), dem/sweep/engines.py;
- ``dem validate``: the cases and their reference values (``validation.cases``, ``validation.data``),
  dem/cli/validate.py.

``import dem``, its every module, ``dem --help`` and every other command leave it unloaded
(tests/test_names.py). Where the package cannot be imported (dem installed without it, or a copy of the
``dem`` folder alone), the command ends in one line naming what it needed: a ValueError, which the command
line prints as ``dem: error: ...``.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

PACKAGE = "validation"
"""The top-level package of the reference solvers and the validation cases (the repository's validation/)."""


def load(name: str, *, needed_by: str) -> ModuleType:
    """The module ``validation.<name>`` (``name`` dotted: ``"rocking.batch"``), imported now.

    ``needed_by``: the command or option that asks for it, for the message when the package is not there
    (ValueError; an import error inside the package itself propagates as it is: that is a bug, not a missing
    install)."""
    full = f"{PACKAGE}.{name}"
    try:
        return import_module(full)
    except ModuleNotFoundError as e:
        parts = full.split(".")
        if e.name not in {".".join(parts[:k]) for k in range(1, len(parts) + 1)}:
            raise
        raise ValueError(f"{needed_by} needs the '{PACKAGE}' package (the reference solvers and validation cases, "
                         f"which a pip install of dem's source puts beside dem), but {full} cannot be imported: "
                         f"{e}") from e
