"""Output files written so that an interrupted run never leaves a half-written file: each file is
written to a temporary name in the same folder and moved over the old one in one step (os.replace).

Files get the permissions of any file the user creates (0666 less the umask: 0644 usually), not the
0600 of a temporary file. summary.json is strict JSON: a value that is not a finite number is written as
``null`` and the reason goes in ``null_reasons`` (JSON path → reason), since NaN and Infinity are not
JSON (RFC 8259 §6) and strict readers (jq, JavaScript, Go) refuse them.
"""

from __future__ import annotations

import io
import json
import math
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

# temporary names of this package's atomic writes: '.NAME.XXXX.tmp' (atomic_path) and
# '.NAME.tmp.png' (dem.output.plots); a run stopped by SIGKILL or a power cut can leave one behind
TEMP_PATTERNS = (".*.tmp", ".*.tmp.png")


class CorruptFileError(ValueError):
    """A file this package wrote cannot be read back: truncated, or not the kind of file its name says."""


def _file_mode() -> int:
    """0666 less the process's umask (reading the umask means setting it; set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_path(path: Path, *, durable: bool = True):
    """A temporary path beside `path` to write to (by name, for writers that take a path), moved over `path`
    when the block ends without an exception, removed otherwise. ``durable``: fsync before the move, so the
    file survives a power cut too (milliseconds per file; os.replace alone already makes the file appear
    whole or not at all when the process stops, which is what frames need)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, _file_mode())
        if durable:
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write(path: Path, write, *, durable: bool = True) -> None:
    """Call write(fh) on a temporary file beside `path` (binary), then move it over `path` (:func:`atomic_path`:
    the one way this package replaces a file)."""
    with atomic_path(path, durable=durable) as tmp, open(tmp, "wb") as fh:
        write(fh)


def write_bytes(path: Path, data: bytes) -> None:
    """`data` as the whole content of `path`, atomically."""
    atomic_write(path, lambda fh: fh.write(data))


def remove_stale_temps(folder: Path) -> list[Path]:
    """Delete temporary files that an earlier run stopped without warning (SIGKILL, power cut) left in
    `folder` and its ``vtk`` subfolder; returns what was removed. Call only while holding the folder's
    lock (dem.run.lock), so that no live run's temporary file is taken."""
    removed = []
    for d in (Path(folder), Path(folder) / "vtk"):
        if not d.is_dir():
            continue
        for pattern in TEMP_PATTERNS:
            for p in d.glob(pattern):
                if p.is_file():
                    p.unlink(missing_ok=True)
                    removed.append(p)
    return removed


def format_rows(columns: dict[str, np.ndarray]) -> bytes:
    """Rows of equal-length columns as CSV lines (%.10g), without a header. A row's text depends only on
    its values, so rows formatted in pieces join into the same file as rows formatted at once."""
    names = list(columns)
    if not names:
        return b""
    data = np.column_stack([np.asarray(columns[k], float) for k in names])
    if not data.size:
        return b""
    buf = io.BytesIO()
    np.savetxt(buf, data, delimiter=",", fmt="%.10g")
    return buf.getvalue()


def csv_header(names) -> bytes:
    return (",".join(names) + "\n").encode()


def write_csv(path: Path, columns: dict[str, np.ndarray]) -> None:
    """Columns of equal length as CSV with a header row (%.10g)."""
    atomic_write(path, lambda fh: fh.write(csv_header(columns) + format_rows(columns)))


def read_csv(path: Path) -> dict[str, np.ndarray]:
    """Read a file written by :func:`write_csv`; :class:`CorruptFileError` (one line, naming the file and
    what is wrong) if it is truncated or is not such a file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise CorruptFileError(f"{path} is a folder, not a CSV file") from None
    what = f"{path} is not a readable dem CSV file"
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as e:
        raise CorruptFileError(f"{what}: byte {e.start} is not text (corrupted)") from None
    if not text:
        raise CorruptFileError(f"{what}: it is empty")
    if not text.endswith("\n"):
        raise CorruptFileError(f"{what}: its last line is cut short (truncated; every line written ends "
                               "with a newline)")
    lines = text.split("\n")[:-1]
    names = lines[0].split(",")
    if not all(n and n.strip() == n and not _is_number(n) for n in names) or len(set(names)) != len(names):
        raise CorruptFileError(f"{what}: its first line is not a header of distinct column names")
    body = lines[1:]
    if not body:
        return {k: np.zeros(0) for k in names}
    for i, line in enumerate(body, start=2):
        # np.loadtxt would skip a blank line, and float() takes '1_0' (PEP 515) as 10: neither is written here
        if not line or "_" in line:
            raise CorruptFileError(f"{what}: line {i} is {'empty' if not line else 'damaged'} (corrupted)")
    try:
        data = np.loadtxt(io.StringIO("\n".join(body)), delimiter=",", ndmin=2, dtype=float, comments=None)
    except ValueError:
        data = None
    if data is None or data.shape[1] != len(names):
        for i, line in enumerate(body, start=2):
            fields = line.split(",")
            if len(fields) != len(names):
                raise CorruptFileError(f"{what}: line {i} has {len(fields)} fields, the header {len(names)}")
            bad = [f for f in fields if not _is_number(f)]
            if bad:
                raise CorruptFileError(f"{what}: line {i} holds {bad[0][:20]!r}, not a number")
        raise CorruptFileError(what)
    return {k: data[:, i] for i, k in enumerate(names)}


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def strict_json(obj, reasons: dict[str, str] | None = None):
    """`obj` with every value that is not a finite number replaced by None, NumPy scalars and arrays made
    plain; returns (clean object, {JSON path: reason} for each replacement). `reasons` gives the reason
    for a path (else: 'not a finite number: inf')."""
    reasons = reasons or {}
    found: dict[str, str] = {}

    def clean(o, path):
        if isinstance(o, dict):
            return {str(k): clean(v, f"{path}.{k}" if path else str(k)) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [clean(v, f"{path}[{i}]") for i, v in enumerate(o)]
        if isinstance(o, np.ndarray):
            return clean(o.tolist(), path)
        if isinstance(o, (np.floating, np.integer, np.bool_)):
            o = o.item()
        if isinstance(o, Path):
            return str(o)
        if isinstance(o, float) and not math.isfinite(o):
            found[path] = reasons.get(path, f"not a finite number: {o!r}")
            return None
        if o is None or isinstance(o, (str, int, float, bool)):
            return o
        raise TypeError(f"not JSON serialisable: {type(o)} at {path or 'top level'}")

    return clean(obj, ""), found


def write_json(path: Path, obj, *, reasons: dict[str, str] | None = None) -> None:
    """`obj` as strict JSON (see the module notes): a dict gets ``null_reasons`` when a value was replaced."""
    clean, found = strict_json(obj, reasons)
    if found and isinstance(clean, dict):
        clean["null_reasons"] = clean.get("null_reasons", {}) | found
    text = json.dumps(clean, indent=2, allow_nan=False)
    atomic_write(path, lambda fh: fh.write(text.encode()))
