"""Scenes: a short script that builds a model from named parameters, plus what to record.

A scene module defines ``PARAMS`` (a dict of :class:`Param`) and ``build(params) -> Scene``. The same
module serves the command line (``dem run scenes/x.py --set key=value``), the tests (short runs) and the
benchmarks (long runs). Parameters are checked, with the allowed range in the message, before anything
is built.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..version import renamed_keyword, warn_renamed

if TYPE_CHECKING:  # dem.model imports Taichi; listing scenes must not
    from ..model.model import Model


@dataclass(frozen=True)
class Param:
    """A scene parameter: default value (its type is the parameter's type), meaning, unit and range."""

    default: Any
    doc: str
    unit: str = ""
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    choices: tuple | None = None

    def range_text(self) -> str:
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, str):
            return "text" if not self.unit else f"text, {self.unit}"
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        lb = "(" if self.low_open or self.low is None else "["
        rb = ")" if self.high_open or self.high is None else "]"
        return f"{lb}{lo}, {hi}{rb}" + (f" {self.unit}" if self.unit else "")

    def convert(self, name: str, value: Any) -> Any:
        kind = type(self.default)
        try:
            if kind is bool:
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                        raise ValueError(value)
                    value = low in ("1", "true", "yes", "on")
                value = bool(value)
            elif kind is int:
                fv = float(value)
                if fv != int(fv):
                    raise ValueError(value)
                value = int(fv)
            elif kind is float:
                value = float(value)
            else:
                value = str(value)
        except (TypeError, ValueError):
            raise ValueError(f"parameter {name!r} must be a {kind.__name__} in {self.range_text()}, "
                             f"got {value!r}") from None
        self.check(name, value)
        return value

    def check(self, name: str, value: Any) -> None:
        if self.choices is not None:
            if value not in self.choices:
                raise ValueError(f"parameter {name!r} must be {self.range_text()}, got {value!r}")
            return
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return
        bad = not math.isfinite(value)
        if self.low is not None:
            bad |= value <= self.low if self.low_open else value < self.low
        if self.high is not None:
            bad |= value >= self.high if self.high_open else value > self.high
        if bad:
            raise ValueError(f"parameter {name!r} must be in {self.range_text()}, got {value!r}")


RENAMED_PARAMS = {"record_dt": "history_dt"}
"""Old names of the shipped scenes' parameters: an override by the old name sets the new one (with a
DeprecationWarning) in a scene that has the new name and not the old (README, "Names")."""


def resolve_params(spec: dict[str, Param], overrides: dict[str, Any] | None = None, *, scene: str = "") -> dict:
    """Defaults updated by `overrides`, each converted and range-checked (ValueError names the key)."""
    out = {k: p.default for k, p in spec.items()}
    for key, value in (overrides or {}).items():
        if key not in spec and RENAMED_PARAMS.get(key) in spec:
            warn_renamed(f"the scene parameter {key}", RENAMED_PARAMS[key])
            if RENAMED_PARAMS[key] in overrides:
                raise ValueError(f"give {RENAMED_PARAMS[key]} only (it is {key}'s new name), not both")
            key = RENAMED_PARAMS[key]
        if key not in spec:
            valid = ", ".join(sorted(spec))
            raise ValueError(f"unknown parameter {key!r} for scene {scene or '?'}; valid keys: {valid}")
        out[key] = spec[key].convert(key, value)
    return out


def parse_assignments(items: list[str]) -> dict[str, str]:
    """['a=1', 'b=x'] → {'a': '1', 'b': 'x'} (for --set)."""
    out = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"--set expects KEY=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k:
            raise ValueError(f"--set expects KEY=VALUE with a key, got {item!r}")
        if k in out:
            raise ValueError(f"--set gives {k!r} twice ({k}={out[k]} and {k}={v.strip()}); give each key once")
        out[k] = v.strip()
    return out


@renamed_keyword("record_dt", "history_dt")
@dataclass
class Scene:
    """What a scene module's ``build`` returns.

    Attributes:
        name: scene name.
        model: the finalized model.
        probes: quantities recorded in the history (dem.run.probes).
        dt: default time step [s]; t_end: default duration [s]; history_dt: interval between history rows [s]
            (``record_dt`` before, still taken and read with a DeprecationWarning: a "record" is a ground motion).
        params: the parameters used.
        info: extra facts for summary.json (e.g. both mass computations of a clump).
        postprocess: optional f(history, out_dir) -> dict, run after the run; its result goes in the summary.
        events: what to watch (dem.run.events.EventSpec: the domain box, overturning, sliding); None: the
            default domain (the initial bounding box grown by its size) and nothing else.
        source: the scene file it was built from (set by :func:`build_scene`; a checkpoint rebuilds from it).
    """

    name: str
    model: Model
    probes: list
    dt: float
    t_end: float
    history_dt: float
    params: dict
    info: dict = field(default_factory=dict)
    postprocess: Callable | None = None
    events: Any = None
    source: str | None = None


def scenes_dir() -> Path:
    """The repository's ``scenes/`` folder (beside the ``dem`` package in a source checkout)."""
    return Path(__file__).resolve().parents[2] / "scenes"


def load_scene_module(ref: str):
    """Import a scene by file path, or by name from :func:`scenes_dir`."""
    path = Path(ref)
    if not path.exists() and not ref.endswith(".py"):
        path = scenes_dir() / f"{ref}.py"
    if not path.exists():
        raise ValueError(f"scene {ref!r} not found (give a path to a scene .py file or a name in {scenes_dir()})")
    if not path.is_file() or path.suffix != ".py":
        what = "a directory" if path.is_dir() else "not a .py file"
        hint = f" (a run's output folder goes on with: dem run --resume {ref})" \
            if (path / "summary.json").is_file() else ""
        raise ValueError(f"scene {ref!r} is {what}: give a scene script (.py) or a scene name from 'dem scenes'"
                         + hint)
    name = f"dem_scene_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise ValueError(f"{path}:{e.lineno}: the scene file has a syntax error: {e.msg}") from e
    except Exception as e:  # noqa: BLE001 — a user's scene file: one line naming it, not a traceback
        if getattr(e, "signal_stop", False):  # a signal while it imported (dem.run.interrupts): not bad input
            raise
        raise ValueError(f"{_where(e, path)}: loading the scene file raised {type(e).__name__}: {e}") from e
    for attr in ("PARAMS", "build"):
        if not hasattr(module, attr):
            raise ValueError(f"scene file {path} must define {attr}")
    return module


def _where(e: BaseException, path) -> str:
    """'FILE:LINE' of the deepest frame of `e`'s traceback in the scene file `path` (or the file alone)."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if Path(f.filename).resolve() == Path(path).resolve()]
    return f"{path}:{frames[-1].lineno}" if frames else str(path)


def build_scene(ref_or_module, overrides: dict | None = None) -> Scene:
    """Load (if needed), resolve parameters and build a scene."""
    module = load_scene_module(ref_or_module) if isinstance(ref_or_module, (str, Path)) else ref_or_module
    name = getattr(module, "NAME", Path(getattr(module, "__file__", "scene")).stem)
    params = resolve_params(module.PARAMS, overrides, scene=name)
    try:
        scene = module.build(params)
    except (ValueError, ArithmeticError, MemoryError):
        raise  # what the engine says of bad input (one line on the command line)
    except Exception as e:  # noqa: BLE001 — a bug in a scene's build: one line naming the file and line
        where = _where(e, getattr(module, "__file__", name))
        raise ValueError(f"{where}: the scene's build raised {type(e).__name__}: {e}") from e
    if not isinstance(scene, Scene):
        raise ValueError(f"scene {name}: build(params) must return a dem.Scene, got {type(scene).__name__} "
                         f"(from {getattr(module, '__file__', name)})")
    if getattr(module, "__file__", None):
        scene.source = str(Path(module.__file__).resolve())
    return scene
