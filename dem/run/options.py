"""How to run: the settings of a run, one object, checked once (:class:`RunOptions`).

The command line builds one from its flags; :func:`dem.run_scene`, :func:`dem.run_worlds` and
:class:`dem.run.driver.Run` take one (``options=``), or the same names as keywords, which make one:

    opts = dem.RunOptions(t_end=2.0, out_dir="runs/pena", plots=False)
    dem.run_scene(scene, opts)
    dem.run_scene(scene, t_end=2.0, out_dir="runs/pena", plots=False)     # the same

A setting left at None takes the scene's own value (Δt, duration, history interval) or the default that its
description gives. Every value given is checked here, with the allowed range in the message, before any
model is built or any step runs.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

from ..output.history import TABLE_FORMATS
from ..version import renamed_keyword, warn_renamed
from .event_kinds import KINDS


def positive_seconds(name: str, value) -> float:
    """`value` as a float, or a ValueError naming `name` and the allowed range, (0, inf) s."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number of seconds > 0, got {value!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"{name} must be > 0 [s], got {x}")
    return x


@renamed_keyword("record_dt", "history_dt")
@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """The settings of a run (SI units; None: the scene's value or the default said).

    t_end: simulated duration [s] (None: the scene's). dt: time step [s], or ``"auto"`` (AUTO_SAFETY × the
    critical estimate; None: the scene's). history_dt: interval between history rows [s] (None: the scene's;
    ``record_dt`` before, still taken with a DeprecationWarning: a "record" is a ground motion).
    out_dir: the output folder (None: nothing written). force: run even with Δt above the critical estimate.
    progress: a progress bar on stderr. implicit_damping: dashpots applied implicitly (default) or explicitly
    as in the paper. plots: draw the history plots. sleep: bodies at rest stop being integrated.
    frame_dt: interval of the ParaView frames [s] (with a frame writer). checkpoint: keep a checkpoint of the
    run (checkpoint.npz, to resume or extend it): every CHECKPOINT_WALL_SECONDS of wall time, at SIGINT/SIGTERM
    and at the end. checkpoint_every: simulated seconds between checkpoints (implies ``checkpoint``). Neither:
    no checkpoint is written. table_format: the history and force-profile files, ``"parquet"`` (default:
    history.parquet, compact) or ``"csv"`` (history.csv; dem.output.history). stop_on: event kinds
    (dem.run.event_kinds.KINDS) that end the run (None: the scene's choice). handle_signals: SIGINT/SIGTERM end
    the run after its chunk with everything written (None: when writing an output folder). parallel: the
    block launch path (None: the backend's default, dem.physics.simulation). block_dim: threads per world on the
    block path (None: the backend's default; Simulation checks it against the backend's limit).
    """

    t_end: float | None = None
    dt: float | str | None = None
    history_dt: float | None = None
    out_dir: Path | str | None = None
    force: bool = False
    progress: bool = True
    implicit_damping: bool = True
    plots: bool = True
    sleep: bool = True
    frame_dt: float | None = None
    checkpoint: bool = False
    checkpoint_every: float | None = None
    table_format: str = "parquet"
    stop_on: tuple[str, ...] | None = None
    handle_signals: bool | None = None
    parallel: bool | None = None
    block_dim: int | None = None

    def __post_init__(self):
        setattr_ = object.__setattr__  # frozen: normalise the fields once, here
        for name in ("t_end", "history_dt", "frame_dt"):
            if getattr(self, name) is not None:
                setattr_(self, name, positive_seconds(name, getattr(self, name)))
        if isinstance(self.dt, str):
            if self.dt != "auto":
                raise ValueError(f"dt must be a number of seconds > 0 or 'auto', got {self.dt!r}")
        elif self.dt is not None:
            setattr_(self, "dt", positive_seconds("dt", self.dt))
        if self.checkpoint_every is not None:
            c = self.checkpoint_every
            if not (isinstance(c, (int, float)) and math.isfinite(c) and c > 0):
                raise ValueError(f"--checkpoint-every must be a number of simulated seconds > 0, got {c}")
        if self.table_format not in TABLE_FORMATS:
            raise ValueError(f"table_format must be one of {', '.join(TABLE_FORMATS)}, got {self.table_format!r}")
        if self.stop_on is not None:
            stop_on = (self.stop_on,) if isinstance(self.stop_on, str) else tuple(self.stop_on)
            bad = [k for k in stop_on if k not in KINDS]
            if bad:
                raise ValueError(f"--stop-on takes event kinds from {', '.join(KINDS)}, got {', '.join(bad)}")
            setattr_(self, "stop_on", stop_on)
        if self.out_dir is not None:
            setattr_(self, "out_dir", Path(self.out_dir))
        for name in ("force", "progress", "implicit_damping", "plots", "sleep", "checkpoint"):
            setattr_(self, name, bool(getattr(self, name)))
        if self.checkpoint_every is not None:
            setattr_(self, "checkpoint", True)

    @classmethod
    def of(cls, options: RunOptions | None = None, **settings) -> RunOptions:
        """`options` with `settings` (keywords of the same names) put over it; an unknown name is a
        TypeError naming it."""
        if "record_dt" in settings:  # the old name (dem.version.renamed_keyword), from run_scene or run_worlds
            warn_renamed("record_dt=", "history_dt=", stacklevel=4)
            if "history_dt" in settings:
                raise TypeError("got both record_dt and history_dt: give history_dt only")
            settings["history_dt"] = settings.pop("record_dt")
        unknown = sorted(set(settings) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise TypeError(f"unknown run option(s) {', '.join(unknown)}; the options are "
                            f"{', '.join(f.name for f in dataclasses.fields(cls))}")
        if options is None:
            return cls(**settings)
        return dataclasses.replace(options, **settings) if settings else options

    def replace(self, **changes) -> RunOptions:
        """A copy with `changes` (checked as the constructor checks them)."""
        return dataclasses.replace(self, **changes)
