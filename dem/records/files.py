"""Record files: reading one (``.AT2`` or CSV) and finding a suite of them (a folder, a glob or a list).

A record set (ground motion in three components, dem.model.motion_set) is a small JSON file named
``*.set.json`` that names its components' files, relative to its own folder, by the scene parameters that take
them: ``{"record": "RSN1_H1.AT2", "record_h2": "RSN1_H2.AT2", "record_v": "RSN1_UP.AT2"}`` (any subset). It
stands wherever a record file does: ``--set record=quake.set.json``, and a sweep's ``--records`` (a folder's
record sets are swept, one case per set, with its intensity measures from its first component).

Errors are ValueErrors that name the file (and the line, where one is at fault), for a one-line
``dem: error:`` on the command line.
"""

from __future__ import annotations

import functools
import glob as _glob
import json
import os
from pathlib import Path

from ..model.base_motion import STANDARD_G, Recorded

SET_SUFFIX = ".set.json"
SET_KEYS = ("record", "record_h2", "record_v")
"""The components a record set may name: the two horizontal and the vertical (dem.scenes.tools.RECORD_PARAMS)."""


def is_at2(path: str | Path) -> bool:
    return Path(path).suffix.lower() == ".at2"


def is_record_set(path: str | Path) -> bool:
    return str(path).lower().endswith(SET_SUFFIX)


def read_record_set(path: str | Path) -> dict[str, Path]:
    """The component files a record-set file names (module docstring), resolved against its folder.
    ValueError naming the file for a bad one."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"{p}: cannot read the record set ({e.strerror or e})") from None
    except ValueError as e:
        raise ValueError(f"{p}: not a JSON record set ({e})") from None
    if not isinstance(data, dict) or not data or any(k not in SET_KEYS or not isinstance(v, str) or not v
                                                      for k, v in data.items()):
        raise ValueError(f"{p}: a record set maps some of {', '.join(SET_KEYS)} to record files, got {data!r}")
    return {k: (p.parent / data[k]) for k in SET_KEYS if k in data}


def first_component(path: str | Path) -> Path:
    """A record file itself, or a record set's first component (the file its intensity measures come from)."""
    return next(iter(read_record_set(path).values())) if is_record_set(path) else Path(path)


def load_record(path: str | Path, *, units: str = "g", column: int | str = 1, g: float = STANDARD_G) -> Recorded:
    """A record file as :class:`dem.model.base_motion.Recorded` (accelerations in m/s², baseline-corrected).
    ``.AT2`` (any case): PEER NGA format, values in g. Anything else: CSV with time in column 0 and the
    acceleration in ``column`` (index or header name; pick the component of a multi-column file), in
    ``units`` ('g' or 'm/s2')."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{p}: is a folder, not a record file")
    try:
        st = os.stat(p)
    except OSError:
        return _load(str(p), units, str(column), g)  # raises the reader's error, naming the file
    # a process that runs many cases of one record (a sweep's worker) reads it once; a changed file is re-read
    return _load_cached(str(p), st.st_mtime_ns, st.st_size, units, str(column), g)


@functools.lru_cache(maxsize=256)
def _load_cached(path: str, mtime_ns: int, size: int, units: str, column: str, g: float) -> Recorded:
    return _load(path, units, column, g)  # Recorded is immutable (read-only arrays): safe to share


def _load(path: str, units: str, column: str, g: float) -> Recorded:
    if is_at2(path):
        return Recorded.from_at2(path, g=g)
    col: int | str = int(column) if column.strip().lstrip("-").isdigit() else column
    return Recorded.from_csv(path, units=units, accel_column=col, g=g)


def find_records(specs) -> list[Path]:
    """Record files from a folder (its record sets, else its ``.AT2`` files, any case: a folder may also hold
    tables, and the components of its sets), a glob
    pattern (``recs/*.csv``) or a file, or a list of these; sorted by name within each spec, duplicates
    dropped. ValueError if a spec matches nothing."""
    if isinstance(specs, (str, Path)):
        specs = [specs]
    out: list[Path] = []
    for spec in specs:
        p = Path(spec)
        if p.is_dir():
            files = [f for f in p.iterdir() if f.is_file()]
            sets = sorted(f for f in files if is_record_set(f))  # a folder of record sets sweeps the sets
            found = sets or sorted(f for f in files if is_at2(f))
            if not found:
                raise ValueError(f"{p}: no .AT2 record files or record sets (*{SET_SUFFIX}) in this folder (give a "
                                 f"glob such as '{p}/*.csv' for CSV records)")
        elif p.is_file():
            found = [p]
        else:
            found = sorted(Path(f) for f in _glob.glob(str(spec)) if Path(f).is_file())
            if not found:
                raise ValueError(f"{spec}: no such record file, folder or matching files")
        out.extend(f.resolve() for f in found)
    seen: set[Path] = set()
    return [f for f in out if not (f in seen or seen.add(f))]
