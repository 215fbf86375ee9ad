"""A sweep's output folder: its settings, one Parquet part per finished batch, the consolidated table.

Layout of ``OUT/``:
- ``sweep.json``: the settings that every case of the folder shares (scene, engine, duration, scaling rule,
  ...). A later run into the same folder must use the same settings (it may add records, intensities or
  parameter values: new cases are appended);
- ``parts/part-*.parquet``: one file per finished batch, written to a temporary name and renamed, so a part
  is either complete or absent — a sweep killed at any moment loses only the batches in flight;
- ``results.parquet`` and ``results.csv``: the parts consolidated (one row per case, duplicates from a
  batch that finished twice dropped), rewritten at the end of every run.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

SORT_KEYS = ("record", "intensity")


class ResultStore:
    """The output folder of a sweep (module docstring)."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.parts = self.out / "parts"

    # settings -------------------------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.out / "sweep.json"

    def check_settings(self, settings: dict) -> None:
        """Write ``sweep.json`` on the first run; on later runs, ValueError naming the first setting that
        differs (so one folder never mixes, e.g., two durations)."""
        self.out.mkdir(parents=True, exist_ok=True)
        self.parts.mkdir(exist_ok=True)
        for stale in self.parts.glob(".*.tmp*"):  # a part being written when a run was killed
            stale.unlink(missing_ok=True)
        new = json.loads(json.dumps(settings, default=str))
        if self.manifest_path.exists():
            old = json.loads(self.manifest_path.read_text())
            for key in sorted(set(old) | set(new)):
                if old.get(key) != new.get(key):
                    raise ValueError(f"{self.out} holds a sweep with {key} = {old.get(key)!r}, this one has "
                                     f"{new.get(key)!r}; use another --out (or the same settings to resume)")
            return
        tmp = self.out / f".sweep.json.tmp{os.getpid()}"
        tmp.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, self.manifest_path)

    def settings(self) -> dict:
        if not self.manifest_path.exists():
            raise ValueError(f"{self.out}: no sweep.json (not a sweep output folder)")
        return json.loads(self.manifest_path.read_text())

    # parts ----------------------------------------------------------------------------------------------
    def part_files(self) -> list[Path]:
        return sorted(self.parts.glob("part-*.parquet")) if self.parts.exists() else []

    def done_ids(self) -> set[str]:
        """Ids of the cases some finished batch holds."""
        ids: set[str] = set()
        for f in self.part_files():
            ids.update(pq.read_table(f, columns=["case_id"]).column("case_id").to_pylist())
        return ids

    def append(self, rows: pd.DataFrame) -> Path:
        """Write one finished batch as a new part, atomically (temporary file, then rename)."""
        self.parts.mkdir(parents=True, exist_ok=True)
        name = f"part-{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.parquet"
        tmp = self.parts / f".{name}.tmp{os.getpid()}"
        pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, self.parts / name)
        return self.parts / name

    def read(self) -> pd.DataFrame:
        """All parts as one table, one row per case (the first finished copy), sorted by record, parameters
        and intensity."""
        files = self.part_files()
        if not files:
            return pd.DataFrame()
        df = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
        df = df.drop_duplicates("case_id", keep="first")
        params = sorted(c for c in df.columns if c.startswith("param_"))
        return df.sort_values(["record", *params, "intensity"], kind="stable").reset_index(drop=True)

    def consolidate(self) -> pd.DataFrame:
        """Rewrite ``results.parquet`` and ``results.csv`` from the parts (atomically); returns the table."""
        df = self.read()
        for name, write in (("results.parquet", lambda p: df.to_parquet(p, index=False)),
                            ("results.csv", lambda p: df.to_csv(p, index=False))):
            tmp = self.out / f".{name}.tmp{os.getpid()}"
            write(tmp)
            os.replace(tmp, self.out / name)
        return df


def read_results(out: str | Path) -> pd.DataFrame:
    """The results of a sweep folder: its parts consolidated (works on a folder whose run was killed)."""
    store = ResultStore(out)
    if not store.out.is_dir():
        raise ValueError(f"{out}: no such sweep folder")
    df = store.read()
    if df.empty:
        raise ValueError(f"{out}: no finished cases (no parts/part-*.parquet)")
    return df
