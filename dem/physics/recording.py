"""Deprecated: the history rows' module is :mod:`dem.physics.history_rows` (a "record" is a ground motion, README
"Names"). Every name read from here is history_rows' own (``RecordLayout``: ``HistoryRowLayout``), with a
DeprecationWarning naming it; kept for one release."""

from ..version import warn_renamed
from . import history_rows as _history_rows

_RENAMED = {"RecordLayout": "HistoryRowLayout"}


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    new = _RENAMED.get(name, name)
    if new.startswith("_") or not hasattr(_history_rows, new):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warn_renamed(f"dem.physics.recording.{name}", f"dem.physics.history_rows.{new}")
    return getattr(_history_rows, new)


def __dir__():
    return sorted(n for n in dir(_history_rows) if not n.startswith("_")) + sorted(_RENAMED)
