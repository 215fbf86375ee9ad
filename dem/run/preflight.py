"""Checks made before the first step, so that a run fails at once rather than after its simulation: the
output folder (creatable, writable, room on its disk), the time settings, the thread count.

Each raises ValueError with a one-line message naming the input and what it may be.
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

# bytes per number in history.csv ('%.10g' and a comma: 17 at most with sign and exponent, ~13 usually)
CSV_BYTES_PER_VALUE = 14
# bytes per number in history.parquet (float64, compressed: 8 at most; ~1.5 for the Peña block)
PARQUET_BYTES_PER_VALUE = 8
# bytes per hull sphere and frame of the ParaView output (dem.output.paraview: ~125 B a sphere, raw)
VTK_BYTES_PER_SPHERE = 130
# margin on top of the estimate: plots, profiles, the temporary copy of a file being replaced
DISK_MARGIN = 2.0
DISK_FLOOR = 16 * 1024 * 1024  # at least this much free: plots and summary of any run


def check_threads(threads) -> None:
    """CPU threads for Taichi: an integer in [1, cores] (Taichi aborts on 0 or fewer and stalls on huge counts)."""
    if threads is None:
        return
    cores = os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= cores:
        raise ValueError(f"--threads must be an integer in [1, {cores}] (this machine's cores), got {threads!r}")


def check_times(t_end: float, dt: float | None, history_dt: float | None) -> None:
    """The duration against the time step and the history interval [s] (each must fit in the run once)."""
    if not (isinstance(t_end, (int, float)) and math.isfinite(t_end) and t_end > 0):
        raise ValueError(f"--t-end must be a number of seconds > 0, got {t_end!r}")
    if dt is not None and dt > t_end:
        raise ValueError(f"--dt must be at most --t-end = {t_end:g} s (one step at least), got {dt:g} s")
    if history_dt is not None and history_dt > t_end:
        raise ValueError(f"--history-dt must be at most --t-end = {t_end:g} s (one history row at least), "
                         f"got {history_dt:g} s")


def check_out_dir(out: Path | str) -> None:
    """Refuse an output folder that cannot be one (without creating anything): an existing file, or a path
    under a file."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out must be a folder, got the existing file {out}")
    for parent in out.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"--out {out} lies under {parent}, which is a file, not a folder")
            break


def prepare_out_dir(out: Path | str) -> Path:
    """Create the output folder and prove it writable by writing a file there; returns it."""
    out = Path(out)
    check_out_dir(out)
    probe = out / f".dem-write-check.{os.getpid()}.tmp"
    try:
        out.mkdir(parents=True, exist_ok=True)
        try:
            with open(probe, "wb") as fh:
                fh.write(b"ok")
        finally:
            probe.unlink(missing_ok=True)
    except OSError as e:
        raise ValueError(f"--out {out} is not a writable folder: {e.strerror or e}") from None
    return out


def estimate_output_bytes(records: int, columns: int, hull_spheres: int = 0, frames: int = 0,
                          checkpoint_bytes: int | None = None, *, table_format: str = "parquet") -> int:
    """Bytes a run will write: the history (records × columns, in ``table_format``), its checkpoint when it
    keeps one (the history as float64 plus ``checkpoint_bytes`` of state; None: no checkpoint) and the
    ParaView frames."""
    per_value = CSV_BYTES_PER_VALUE if table_format == "csv" else PARQUET_BYTES_PER_VALUE
    history = records * columns * per_value
    checkpoint = 0 if checkpoint_bytes is None else records * columns * 8 + checkpoint_bytes
    return int(history + checkpoint + frames * hull_spheres * VTK_BYTES_PER_SPHERE)


def check_disk_room(out: Path | str, estimate: int) -> None:
    """Refuse to start when the output folder's disk has less free space than DISK_MARGIN × the estimate."""
    need = max(DISK_MARGIN * estimate, DISK_FLOOR)
    free = shutil.disk_usage(out).free
    if free < need:
        raise ValueError(f"--out {out}: its disk has {free / 2**20:.1f} MiB free, and this run will write about "
                         f"{estimate / 2**20:.1f} MiB ({DISK_MARGIN:g}× that needed, with the temporary copies); "
                         "free some space, choose another --out, or record less often (--history-dt)")
