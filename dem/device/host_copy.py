"""Host copies of a simulation's device arrays, and back: every Taichi ndarray, NumPy array and plain value
(number, string, bool, None) held by its ``state``, ``contacts`` and ``diag``, and its own plain counters.
Generic over attributes, so that a new array is saved and restored without a line here (checkpoints,
dem.run.checkpoint, write these to a file). A part may name, in ``checkpoint_columns`` ({array: columns}), 2-D
arrays of which only the first columns are saved: the rest are zero whenever a checkpoint is taken, and come back
as zeros (the block path's share partials in the ledger array, simulation.Diagnostics)."""

from __future__ import annotations

import numpy as np

from .kernel_lang import ti, to_numpy_type

PARTS = ("state", "contacts", "diag")
PLAIN = (bool, int, float, str, type(None))


def _element_dims(arr) -> int:
    """Dimensions of one element of a Taichi ndarray: 0 scalar, 1 vector, 2 matrix."""
    if getattr(arr, "m", None) is not None and type(arr).__name__.startswith("Matrix"):
        return 2
    return 1 if getattr(arr, "n", None) is not None else 0


def _like(arr, shape: tuple):
    """A new Taichi ndarray of `arr`'s element type with outer shape `shape`."""
    dims = _element_dims(arr)
    if dims == 2:
        dtype = ti.types.matrix(arr.n, arr.m, arr.dtype)
    elif dims == 1:
        dtype = ti.types.vector(arr.n, arr.dtype)
    else:
        dtype = arr.dtype
    return ti.ndarray(dtype, shape)


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    return v


def gather(sim) -> dict:
    """Host copies of every Taichi ndarray and NumPy array, and every plain value (number, string, bool,
    None), of sim.state, sim.contacts and sim.diag, and the plain public values of sim itself, keyed
    '<part>.<attribute>' ('sim.<attribute>' for sim's own)."""
    out = {}
    for part in PARTS:
        obj = getattr(sim, part)
        trim = getattr(obj, "checkpoint_columns", {})
        for name, v in vars(obj).items():
            if isinstance(v, ti.Ndarray):
                out[f"{part}.{name}"] = v.to_numpy()[:, : trim[name]].copy() if name in trim else v.to_numpy()
            elif isinstance(v, np.ndarray):
                out[f"{part}.{name}"] = v.copy()
            elif isinstance(v, (*PLAIN, np.generic)):
                out[f"{part}.{name}"] = _plain(v)
    for name, v in vars(sim).items():
        if not name.startswith("_") and isinstance(v, (*PLAIN, np.generic)):
            out[f"sim.{name}"] = _plain(v)
    return out


def scatter(sim, saved: dict) -> None:
    """Put back what :func:`gather` returned. A device array whose saved shape differs (a list that grew)
    is re-created with the saved shape; the caller drops anything bound to the old arrays (the
    Simulation's argument packs: Simulation.restore_arrays)."""
    for key, val in saved.items():
        part, name = key.split(".", 1)
        obj = sim if part == "sim" else getattr(sim, part)
        cur = getattr(obj, name, None)
        if isinstance(cur, ti.Ndarray):
            val = np.asarray(val)
            if name in getattr(obj, "checkpoint_columns", {}) and val.ndim == 2 and val.shape[1] < cur.shape[1]:
                val = np.pad(val, ((0, 0), (0, cur.shape[1] - val.shape[1])))  # the columns left out: zeros
            shape = val.shape[: val.ndim - _element_dims(cur)]
            if tuple(cur.shape) != tuple(shape):
                cur = _like(cur, shape)
                setattr(obj, name, cur)
            cur.from_numpy(np.ascontiguousarray(val, dtype=to_numpy_type(cur.dtype)))
        else:
            setattr(obj, name, np.array(val) if isinstance(val, np.ndarray) else val)
