"""PEER NGA ``.AT2`` accelerogram files: a reader that names the file and line of any bad value, and a writer.

Format (PEER NGA database): four header lines — a title, the event/station/component, the units line
("ACCELERATION TIME SERIES IN UNITS OF G") and ``NPTS= 3929, DT= .0100 SEC`` (older files:
``3929 .0100 NPTS, DT``) — then NPTS accelerations in g, several per line, in Fortran E format (numbers
may touch: ``-.1E-02-.2E-02``; a ``D`` exponent is accepted). Sample i is at t = i DT [s].

The writer prints 17 significant digits by default, which is enough for every float64 to be read back
exactly (IEEE 754: 17 digits round-trip a double), so ``read_at2(write_at2(...))`` returns the same samples
bit for bit; ``digits=8`` writes the database's usual ``%15.7E`` fields.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[EeDd][-+]?\d+)?")
"""A Fortran real: sign, digits with an optional point, optional E or D exponent."""
HEADER_LINES = 4
UNITS_LINE = "ACCELERATION TIME SERIES IN UNITS OF G"


@dataclass(frozen=True)
class At2:
    """The content of an AT2 file: sample interval ``dt`` [s], accelerations ``values_g`` [g] (read-only
    array, sample i at t = i dt) and the four ``header`` lines as written."""

    dt: float
    values_g: np.ndarray
    header: tuple[str, ...]

    @property
    def npts(self) -> int:
        return int(self.values_g.size)


def to_float(s: str) -> float:
    """A Fortran real as a float (D exponents accepted)."""
    return float(s.replace("D", "E").replace("d", "e"))


def read_text_lines(path: str | Path) -> list[str]:
    """The lines of a text file; a missing or unreadable file is a ValueError naming it (for ``dem: error:``)."""
    try:
        return Path(path).read_text(errors="replace").splitlines()
    except OSError as err:
        raise ValueError(f"{path}: cannot read the record file ({err.strerror or err})") from None


def read_at2(path: str | Path) -> At2:
    """Read a PEER NGA ``.AT2`` file (module docstring). Errors name the file and, where one line is at
    fault, its number (``rec.AT2:12: ...``): a missing file, a header without NPTS and DT, a data line with
    something that is not a number, a value count that differs from NPTS, DT ≤ 0."""
    text = read_text_lines(path)
    if len(text) < HEADER_LINES:
        raise ValueError(f"{path}: an AT2 file needs {HEADER_LINES} header lines, got {len(text)} lines")
    head = text[3]
    m_n = re.search(r"NPTS\s*[=:]?\s*(\d+)", head, re.IGNORECASE)
    m_dt = re.search(r"DT\s*[=:]?\s*(" + NUMBER.pattern + ")", head, re.IGNORECASE)
    if m_n and m_dt:
        npts, dt = int(m_n.group(1)), to_float(m_dt.group(1))
    else:
        nums = NUMBER.findall(head)
        if len(nums) < 2:
            raise ValueError(f"{path}:4: cannot find NPTS and DT in {head.strip()!r}")
        npts, dt = int(float(nums[0])), to_float(nums[1])
    if npts < 2:
        raise ValueError(f"{path}:4: NPTS must be >= 2, got {npts}")
    if not (math.isfinite(dt) and dt > 0.0):
        raise ValueError(f"{path}:4: DT must be finite and > 0 [s], got {dt!r}")
    try:  # fast path: blank-separated numbers (most files); anything else goes through the checks below
        arr = np.array(" ".join(text[HEADER_LINES:]).replace("D", "E").replace("d", "e").split(), dtype=float)
    except ValueError:
        arr = None
    if arr is not None and arr.size == npts and np.all(np.isfinite(arr)):
        arr.flags.writeable = False
        return At2(float(dt), arr, tuple(text[:HEADER_LINES]))
    values: list[float] = []
    for lineno, line in enumerate(text[HEADER_LINES:], HEADER_LINES + 1):
        found = NUMBER.findall(line)
        rest = NUMBER.sub(" ", line).replace(",", " ").strip()
        if rest:
            raise ValueError(f"{path}:{lineno}: not a number: {rest.split()[0]!r} in {line.strip()!r}")
        values.extend(to_float(x) for x in found)
        if len(values) > npts:
            raise ValueError(f"{path}:{lineno}: more values than NPTS = {npts} in the header")
    if len(values) != npts:
        raise ValueError(f"{path}:{len(text)}: NPTS = {npts} in the header but {len(values)} values follow")
    arr = np.array(values, dtype=float)
    if not np.all(np.isfinite(arr)):
        k = int(np.argmax(~np.isfinite(arr)))
        raise ValueError(f"{path}: value {k + 1} is not finite ({arr[k]!r})")
    arr.flags.writeable = False
    return At2(float(dt), arr, tuple(text[:HEADER_LINES]))


def write_at2(path: str | Path, dt: float, values_g, *, title: str = "SYNTHETIC ACCELEROGRAM (dem records)",
              description: str = "", digits: int = 17, per_line: int = 5) -> Path:
    """Write accelerations ``values_g`` [g] sampled every ``dt`` [s] as a PEER ``.AT2`` file, atomically
    (a temporary file renamed over ``path``). ``digits`` significant digits (17: exact round trip);
    ``per_line`` values a line. Returns the path."""
    a = np.asarray(values_g, dtype=float)
    if a.ndim != 1 or a.size < 2 or not np.all(np.isfinite(a)):
        raise ValueError(f"values_g must be a finite 1-D array of >= 2 accelerations [g], got shape {a.shape}")
    if not (math.isfinite(dt) and dt > 0.0):
        raise ValueError(f"dt must be finite and > 0 [s], got {dt!r}")
    if not 1 <= int(digits) <= 17:
        raise ValueError(f"digits must be in [1, 17], got {digits!r}")
    width = int(digits) + 8  # sign, point, 'E+NN' and a separating blank
    fmt = f"{{:{width}.{int(digits) - 1}E}}"
    lines = [title, description or "-", UNITS_LINE, f"NPTS= {a.size:7d}, DT= {float(dt)!r} SEC"]
    for i in range(0, a.size, per_line):
        lines.append("".join(fmt.format(x) for x in a[i:i + per_line]))
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return path
