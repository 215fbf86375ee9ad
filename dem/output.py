"""Output files written so that an interrupted run never leaves a half-written file: each file is
written to a temporary name in the same folder and moved over the old one in one step (os.replace).
Files get the permissions of an ordinary new file (0666 less the umask: 0644 usually), not the 0600 of a
temporary file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()


def _atomic_write(path: Path, write) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)  # mkstemp made it 0600
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_csv(path: Path, columns: dict[str, np.ndarray]) -> None:
    """Columns of equal length as CSV with a header row (%.10g)."""
    names = list(columns)
    data = np.column_stack([np.asarray(columns[k], float) for k in names]) if names else np.zeros((0, 0))

    def write(fh):
        fh.write((",".join(names) + "\n").encode())
        if data.size:
            np.savetxt(fh, data, delimiter=",", fmt="%.10g")

    _atomic_write(path, write)


def read_csv(path: Path) -> dict[str, np.ndarray]:
    """Read a file written by :func:`write_csv`."""
    with open(path) as fh:
        names = fh.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    if data.size == 0:
        return {k: np.zeros(0) for k in names}
    return {k: data[:, i] for i, k in enumerate(names)}


def write_json(path: Path, obj) -> None:
    def default(o):
        if isinstance(o, np.ndarray):
            return o.tolist()
        if isinstance(o, (np.floating, np.integer)):
            return o.item()
        if isinstance(o, Path):
            return str(o)
        raise TypeError(f"not JSON serialisable: {type(o)}")

    text = json.dumps(obj, indent=2, default=default, allow_nan=True)
    _atomic_write(path, lambda fh: fh.write(text.encode()))
