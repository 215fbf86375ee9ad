"""The history of a run, held chunk by chunk: its columns (history.csv), the energy balance error and the
force-profile tables, with the text of history.csv kept as it grows.

Rewriting history.csv in full at every flush would format every row again (~1 s for 10⁶ numbers), so
each row is formatted once, when it arrives, and a flush writes the text so far: a row's text depends
only on its values (dem.output.format_rows), so the file is the same whatever the chunks were, and the
same after a restart from a checkpoint, which restores the columns as float64.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .files import atomic_write, csv_header, format_rows, write_csv


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

    def write(self, out: Path) -> None:
        """history.csv into `out` (atomically; written piece by piece, without joining the text)."""
        self._format_pending()

        def write(fh):
            fh.write(csv_header(self.names))
            fh.writelines(self._text)

        atomic_write(Path(out) / "history.csv", write)

    def write_profiles(self, out: Path, probes) -> None:
        """profile_<name>.csv for each ForceProfile probe in `probes`."""
        for name, table in self.profile_tables().items():
            p = next(p for p in probes if p.name == name)
            write_csv(Path(out) / f"profile_{name}.csv",
                      {"t": table[:, 0]} | {f"x_{x:+.4f}": table[:, 1 + i] for i, x in enumerate(p.centers)})

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
