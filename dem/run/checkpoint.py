"""Checkpoints: everything a run needs to go on from where it was, in one file, ``checkpoint.npz``.

What a checkpoint holds:
- the simulation: every device array of ``sim.state``, ``sim.contacts`` and ``sim.diag`` (poses,
  velocities, force accumulators, sleep counters, candidate lists, the Mindlin shear history of wall and
  body pairs, the ledger, the probe slots) and their plain values (time, step, pair keys, capacities),
  and the Simulation's own counters. They are found by walking those objects' attributes, not by name,
  so a new array is saved without changing this file; an array that grew during the run (the pair lists)
  is re-created at its saved size on restore (:func:`gather`, :func:`scatter`);
- the run driver's state: the history so far (float64), the energy-balance tracker, the round-off bound,
  the events found, the quiescence (fast-forward) state, the frame times, the wall time spent;
- what it belongs to: a hash of the model (its host arrays and parameters, :func:`model_hash`), the code
  version (:func:`code_version`), the scene's file and parameters, the run's settings (Δt, history
  interval, damping, sleep, backend, precision). The base motion is a function of time, so the step
  count fixes where it is.

A checkpoint is refused, with the reason, when the model or the code differ (:func:`check_matches`). It
is written to a temporary file and renamed, like every output file (dem.output.files).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..device.host_copy import PARTS, PLAIN, gather, scatter  # noqa: F401  (part of the checkpoint API)
from ..device.kernel_lang import ti
from ..output.files import atomic_write
from ..version import __version__

CHECKPOINT_NAME = "checkpoint.npz"
FORMAT = 1
# The steps between history rows: the run settings' "history_every" and the Simulation's own
# "sim.history_every"; checkpoints written before that rename have "record_every" (still read).
OLD_EVERY, NEW_EVERY = "sim.record_every", "sim.history_every"


class CheckpointMismatch(ValueError):
    """A checkpoint that does not belong to this model, code or run."""


# ---------------------------------------------------------------------------------------------- identity
@functools.cache
def code_version() -> str:
    """The package version and a digest of its source files: a checkpoint resumes only under the code
    that wrote it, since any change to the step can change the numbers. (Read once per process: the code
    that runs is the code imported.)"""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    for f in sorted(package.rglob("*.py")):
        h.update(f.relative_to(package).as_posix().encode())
        h.update(f.read_bytes())
    return f"{__version__}+{h.hexdigest()[:16]}"


def _feed(h, obj, depth: int = 0) -> None:
    """Hash `obj`: arrays by dtype, shape and bytes; numbers by repr; containers, dataclasses and plain
    objects by their public attributes (caches, named with a leading underscore, and device arrays,
    copies of host arrays, are skipped)."""
    if depth > 12:
        return
    if isinstance(obj, ti.Ndarray) or callable(obj) and not dataclasses.is_dataclass(obj):
        return
    if isinstance(obj, np.ndarray):
        a = np.ascontiguousarray(obj)
        h.update(f"a{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes() if a.dtype != object else repr(a.tolist()).encode())
    elif isinstance(obj, (np.generic, *PLAIN)):
        h.update(f"v{obj!r};".encode())
    elif isinstance(obj, dict):
        h.update(b"{")
        for k in sorted(obj, key=repr):
            h.update(f"{k!r}:".encode())
            _feed(h, obj[k], depth + 1)
        h.update(b"}")
    elif isinstance(obj, (list, tuple)):
        h.update(b"[")
        for v in obj:
            _feed(h, v, depth + 1)
        h.update(b"]")
    elif dataclasses.is_dataclass(obj) or hasattr(obj, "__dict__"):
        h.update(type(obj).__name__.encode())
        items = vars(obj) if hasattr(obj, "__dict__") else {f.name: getattr(obj, f.name) for f in
                                                            dataclasses.fields(obj)}
        _feed(h, {k: v for k, v in items.items() if not k.startswith("_")}, depth + 1)
    else:
        h.update(repr(type(obj)).encode())


def model_hash(model) -> str:
    """Digest of a model's host arrays and parameters (clump templates, poses, masses, materials, walls
    and their motions, groups and interfaces)."""
    h = hashlib.sha256()
    _feed(h, model)
    return h.hexdigest()[:32]


# ---------------------------------------------------------------------------------------------- file
@dataclass
class Checkpoint:
    """A checkpoint read back: ``meta`` (JSON: identity, settings, driver state) and ``arrays``."""

    meta: dict
    arrays: dict
    path: Path | None = None

    @property
    def time(self) -> float:
        return float(self.meta["progress"]["time"])

    def sim_saved(self) -> dict:
        """What :func:`scatter` takes: the 'sim.*' arrays and the plain values (a checkpoint written before the
        rename saved the Simulation's ``record_every``: it is read as ``history_every``)."""
        out = {k[len("sim:"):]: v for k, v in self.arrays.items() if k.startswith("sim:")}
        out |= self.meta["sim_plain"]
        if OLD_EVERY in out:
            out.setdefault(NEW_EVERY, out.pop(OLD_EVERY))
        return out


def save(path: Path | str, meta: dict, sim_saved: dict, arrays: dict[str, np.ndarray]) -> None:
    """Write a checkpoint atomically: `meta` (JSON-able), what :func:`gather` returned, driver arrays."""
    plain = {k: v for k, v in sim_saved.items() if not isinstance(v, np.ndarray)}
    payload = {f"sim:{k}": v for k, v in sim_saved.items() if isinstance(v, np.ndarray)}
    payload |= {f"run:{k}": np.asarray(v) for k, v in arrays.items()}
    meta = meta | {"format": FORMAT, "sim_plain": plain}
    payload["meta"] = np.frombuffer(json.dumps(meta, allow_nan=True).encode(), np.uint8)
    atomic_write(Path(path), lambda fh: np.savez(fh, **payload))  # straight to the file: no copy in memory


def load(path: Path | str) -> Checkpoint:
    """Read a checkpoint (a folder means its checkpoint.npz); ValueError, one line, if it is missing or
    unreadable."""
    path = Path(path)
    if path.is_dir():
        path = path / CHECKPOINT_NAME
    if not path.exists():
        raise ValueError(f"--resume: no checkpoint at {path} (a run keeps one only when asked: dem run --checkpoint "
                         "or --checkpoint-every S; it then writes one at its end, when interrupted, and as often as "
                         "asked)")
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
        meta = json.loads(data.pop("meta").tobytes().decode())
    except Exception as e:  # zipfile, numpy and json all have their own errors for a damaged file
        raise ValueError(f"--resume: {path} is not a readable checkpoint ({type(e).__name__}: {e})") from None
    if meta.get("format") != FORMAT:
        raise CheckpointMismatch(f"--resume: {path} has checkpoint format {meta.get('format')}, this code reads "
                                 f"format {FORMAT}")
    arrays = {k: v for k, v in data.items()}
    return Checkpoint(meta, arrays, path)


def run_arrays(ckpt: Checkpoint) -> dict[str, np.ndarray]:
    """The driver's arrays of a checkpoint (saved by :func:`save` as `arrays`)."""
    return {k[len("run:"):]: v for k, v in ckpt.arrays.items() if k.startswith("run:")}


def saved_history_every(run: dict) -> int:
    """Steps between history rows of a checkpoint's run settings (``meta["run"]``): ``history_every``, or
    ``record_every`` in a checkpoint written before the rename."""
    return int(run["history_every"] if "history_every" in run else run["record_every"])


def check_matches(ckpt: Checkpoint, model, *, dt: float, history_every: int, precision: str,
                  world: int | None = None) -> None:
    """Refuse (CheckpointMismatch, with the reason) a checkpoint written by other code, for another model,
    or with other settings. ``world``: the model is that world of a batch's checkpoint."""
    m = ckpt.meta
    where = ckpt.path or "the checkpoint"
    code = code_version()
    if m.get("code_version") != code:
        raise CheckpointMismatch(f"--resume: {where} was written by dem {m.get('code_version')}, this is dem {code}: "
                                 "a different code version can give different numbers; rerun from the start")
    mh = model_hash(model)
    saved = m.get("model_hash") if world is None else (m.get("model_hashes") or [None] * (world + 1))[world]
    if saved != mh:
        what = "another model" if world is None else f"another model in world {world}"
        raise CheckpointMismatch(f"--resume: {where} belongs to {what} (model hash {saved}, "
                                 f"this scene builds {mh}): the scene file or its parameters changed")
    run = m["run"]
    was = {"dt": run.get("dt"), "history_every": saved_history_every(run), "precision": run.get("precision")}
    for key, now in (("dt", dt), ("history_every", history_every), ("precision", precision)):
        if was[key] != now:
            raise CheckpointMismatch(f"--resume: {where} was written with {key} = {was[key]}, this run has "
                                     f"{key} = {now}")
