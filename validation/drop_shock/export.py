"""CSV and JSON export of a drop-shock run (the notes, §10), written atomically."""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path

from .box import BOTTOM_CORNER_NAMES
from .solver import DropShockResult

__all__ = ["write_csv", "write_json", "result_metadata", "COLUMNS"]

COLUMNS = ("t", "a_G", *BOTTOM_CORNER_NAMES)
"""Column names of both exports (the notes, §10)."""

UNITS = {"t": "s", "a_G": "G (resultant CG acceleration / gravity)", **{c: "N" for c in BOTTOM_CORNER_NAMES}}


def _write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``.

    os.replace is atomic on POSIX and Windows, so a reader never sees a half-written file.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def result_metadata(result: DropShockResult) -> dict:
    """Units, box parameters, the notes, §9 estimates, solver settings and step counters of ``result``."""
    box = result.box
    return {
        "source": "002 3D drop shock: rigid box on four corner spring-dampers, RKF45 Cash-Karp",
        "units": UNITS,
        "corner_order": "body (x, y) signs (-,-), (+,-), (+,+), (-,+); bottom face",
        "parameters": {
            "W_N": box.weight, "G_m_s2": box.gravity, "L_x_m": box.length_x, "L_y_m": box.length_y,
            "L_z_m": box.length_z, "k_N_m": box.stiffness, "c_N_s_m": box.damping, "h_m": box.drop_height,
            "theta_x_rad": box.theta_x, "theta_y_rad": box.theta_y, "mass_kg": box.mass,
        },
        "modal_estimates": asdict(result.modal),
        "solver": dict(result.settings),
        "stats": asdict(result.stats),
        "quaternion_drift": result.quaternion_drift,
        "top_contact": result.top_contact,
    }


def write_csv(result: DropShockResult, path: str | os.PathLike) -> None:
    """Write t, a_G, corner0..3 (one header row, then one row per sample) to ``path``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for t, a, loads in zip(result.t, result.cg_accel_G, result.corner_loads, strict=True):
        writer.writerow([repr(float(t)), repr(float(a)), *(repr(float(f)) for f in loads)])
    _write_atomic(path, buf.getvalue())


def write_json(result: DropShockResult, path: str | os.PathLike) -> None:
    """Write ``{"metadata": ..., "columns": [...], "data": {column: [values]}}`` to ``path``."""
    data = {
        "t": result.t.tolist(),
        "a_G": result.cg_accel_G.tolist(),
        **{name: result.corner_loads[:, i].tolist() for i, name in enumerate(BOTTOM_CORNER_NAMES)},
    }
    doc = {"metadata": result_metadata(result), "columns": list(COLUMNS), "data": data}
    _write_atomic(path, json.dumps(doc, indent=1) + "\n")
