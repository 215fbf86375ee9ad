"""The history of a run, held chunk by chunk: its columns (the history table), the energy balance error and
the force-profile tables, and writing and reading them in either of two formats.

Formats (``TABLE_FORMATS``): ``parquet`` (the default: ``history.parquet``, ``profile_<name>.parquet``; every
value as the float64 the run computed, compressed: the Peña block's 6 s history is 2.6 MB where the CSV
is 21 MB) or ``csv`` (``history.csv``, ``profile_<name>.csv``: text, '%.10g'). :func:`read_history` and
:func:`read_profiles` read either; pandas reads both (``pd.read_parquet``, ``pd.read_csv``).

CSV: rewriting history.csv in full at every flush would format every row again (~1 s for 10⁶ numbers), so
each row is formatted once, when it arrives, and a flush writes the text so far: a row's text depends
only on its values (dem.output.format_rows), so the file is the same whatever the chunks were, and the
same after a restart from a checkpoint, which restores the columns as float64. Parquet: a flush writes the
columns so far as one table (tens of milliseconds for a 6 s run), the same bytes for the same values.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .files import CorruptFileError, atomic_path, atomic_write, csv_header, format_rows, read_csv, write_csv

TABLE_FORMATS = ("parquet", "csv")
HISTORY_STEM = "history"
PROFILE_PREFIX = "profile_"


def history_name(fmt: str) -> str:
    """The history file's name in format `fmt` (TABLE_FORMATS)."""
    return f"{HISTORY_STEM}.{_suffix(fmt)}"


def _suffix(fmt: str) -> str:
    if fmt not in TABLE_FORMATS:
        raise ValueError(f"table format must be one of {', '.join(TABLE_FORMATS)}, got {fmt!r}")
    return fmt


def load_writer(fmt: str) -> None:
    """Import what writing `fmt` needs (pyarrow for Parquet) now, so that the first write of a run is timed as a
    write (the run driver spaces its flushes by how long a write takes) and not as an import [about 0.3 s; over 1 s
    on a loaded machine]."""
    if fmt == "parquet":
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401


def write_parquet(path: Path, columns: dict[str, np.ndarray], *, durable: bool = True) -> None:
    """Columns of equal length as a Parquet file of float64 columns (zstd, byte-stream split: floats compress
    about 8× better than as text), atomically (``durable``: dem.output.files.atomic_path)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({k: pa.array(np.asarray(v, np.float64)) for k, v in columns.items()})
    with atomic_path(Path(path), durable=durable) as tmp:
        pq.write_table(table, tmp, compression="zstd", use_dictionary=False, use_byte_stream_split=True)


def read_parquet(path: Path) -> dict[str, np.ndarray]:
    """Read a file written by :func:`write_parquet` (float64 columns); :class:`CorruptFileError` (one line,
    naming the file) if it is truncated or is not such a file."""
    import pyarrow.parquet as pq

    path = Path(path)
    if path.is_dir():
        raise CorruptFileError(f"{path} is a folder, not a Parquet file")
    try:
        table = pq.read_table(path)
        return {k: table.column(k).to_numpy().astype(np.float64, copy=False) for k in table.column_names}
    except FileNotFoundError:
        raise
    except Exception as e:  # pyarrow raises its own errors (ArrowInvalid, OSError) on a damaged file
        raise CorruptFileError(f"{path} is not a readable dem Parquet file ({type(e).__name__}: "
                               f"{' '.join(str(e).split())[:160]}; truncated or corrupted)") from None


def read_table(path: Path) -> dict[str, np.ndarray]:
    """A history or profile table, by its suffix (.parquet or .csv)."""
    path = Path(path)
    return read_parquet(path) if path.suffix == ".parquet" else read_csv(path)


def history_path(out: Path, summary: dict | None = None) -> Path | None:
    """The history file of an output folder: the one its summary.json names (``history_file``), else
    history.parquet, else history.csv; None if there is none."""
    out = Path(out)
    named = (summary or {}).get("history_file")
    candidates = ([out / named] if named else []) + [out / history_name(f) for f in TABLE_FORMATS]
    return next((p for p in candidates if p.is_file()), None)


def read_history(out: Path, summary: dict | None = None) -> dict[str, np.ndarray]:
    """The history columns of an output folder (either format, :func:`history_path`); {} if it has none."""
    path = history_path(out, summary)
    return read_table(path) if path is not None else {}


def read_profiles(out: Path) -> dict[str, dict[str, np.ndarray]]:
    """The force-profile tables of an output folder, by name (``profile_<name>.parquet`` or ``.csv``; the
    Parquet one where both are there)."""
    found: dict[str, Path] = {}
    for fmt in reversed(TABLE_FORMATS):
        for p in sorted(Path(out).glob(f"{PROFILE_PREFIX}*.{fmt}")):
            found[p.stem.removeprefix(PROFILE_PREFIX)] = p
    return {name: read_table(found[name]) for name in sorted(found)}


def remove_tables(out: Path) -> list[Path]:
    """Delete the history and profile files of an earlier run in `out` (either format), so that a new run's
    folder holds only its own; returns what was removed."""
    removed = []
    for fmt in TABLE_FORMATS:
        for p in [Path(out) / history_name(fmt), *Path(out).glob(f"{PROFILE_PREFIX}*.{fmt}")]:
            if p.is_file():
                p.unlink(missing_ok=True)
                removed.append(p)
    return removed


class History:
    """Columns accumulated chunk by chunk (see the module notes)."""

    def __init__(self):
        self.chunks: dict[str, list[np.ndarray]] = {}
        self.profiles: dict[str, list[np.ndarray]] = {}
        self._text: list[bytes] = []
        self._pending: list[dict[str, np.ndarray]] = []

    def add(self, cols: dict[str, np.ndarray], profiles: dict[str, np.ndarray] | None = None) -> None:
        """Append rows: `cols` (equal lengths, energy_error included), `profiles` {name: table}."""
        cols = {k: np.asarray(v, float) for k, v in cols.items()}
        for k, v in cols.items():
            self.chunks.setdefault(k, []).append(v)
        for k, v in (profiles or {}).items():
            self.profiles.setdefault(k, []).append(np.asarray(v, float))
        self._pending.append(cols)

    @property
    def names(self) -> list[str]:
        return list(self.chunks)

    @property
    def row_count(self) -> int:
        return sum(len(v) for v in next(iter(self.chunks.values()), []))

    def columns(self) -> dict[str, np.ndarray]:
        return {k: np.concatenate(v) for k, v in self.chunks.items()}

    def profile_tables(self) -> dict[str, np.ndarray]:
        return {k: np.concatenate(v) for k, v in self.profiles.items()}

    def _format_pending(self) -> None:
        for cols in self._pending:
            self._text.append(format_rows(cols))
        self._pending.clear()

    def csv_bytes(self) -> bytes:
        """The text of history.csv for the rows so far."""
        self._format_pending()
        return csv_header(self.names) + b"".join(self._text)

    def write(self, out: Path, fmt: str = "parquet", *, durable: bool = True) -> None:
        """The history file into `out` in format `fmt` (atomically; CSV written piece by piece, without
        joining the text). ``durable``: synced to the disk before it replaces the old file (a power cut
        cannot lose it; dem.output.files.atomic_path): the flushes during a run skip it (each sync took
        10-450 ms here, on a disk shared with other jobs), the final write does not."""
        path = Path(out) / history_name(fmt)
        if fmt == "parquet":
            write_parquet(path, self.columns(), durable=durable)
            return
        self._format_pending()

        def write(fh):
            fh.write(csv_header(self.names))
            fh.writelines(self._text)

        atomic_write(path, write, durable=durable)

    def write_profiles(self, out: Path, probes, fmt: str = "parquet") -> None:
        """profile_<name>.parquet (or .csv) for each ForceProfile probe in `probes`: column t [s], then one
        column per bin centre x [m], named ``x_+0.1200``."""
        for name, table in self.profile_tables().items():
            p = next(p for p in probes if p.name == name)
            cols = {"t": table[:, 0]} | {f"x_{x:+.4f}": table[:, 1 + i] for i, x in enumerate(p.centers)}
            path = Path(out) / f"{PROFILE_PREFIX}{name}.{_suffix(fmt)}"
            (write_parquet if fmt == "parquet" else write_csv)(path, cols)

    # ------------------------------------------------------------------ checkpoint
    def arrays(self) -> dict[str, np.ndarray]:
        """Everything as float64 arrays: 'col.<name>' and 'profile.<name>'."""
        out = {f"col.{k}": v for k, v in self.columns().items()}
        out |= {f"profile.{k}": v for k, v in self.profile_tables().items()}
        return out

    @classmethod
    def from_arrays(cls, names: list[str], profiles: list[str], arrays: dict[str, np.ndarray]) -> History:
        """A History holding what :meth:`arrays` returned; `names` and `profiles` give the column order."""
        h = cls()
        if names:
            h.add({k: arrays[f"col.{k}"] for k in names}, {k: arrays[f"profile.{k}"] for k in profiles})
        return h
