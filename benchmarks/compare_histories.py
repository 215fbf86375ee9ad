"""Same numbers before and after a change that should not change them: runs three cases through the command
line, writes the SHA-256 of every history they produce, as history.csv's text, and compares with another
checkout's digests.

    python benchmarks/compare_histories.py --out /tmp/new                # this checkout
    (cd OLD_CHECKOUT && python /path/to/compare_histories.py --out /tmp/old)
    python benchmarks/compare_histories.py --compare /tmp/old /tmp/new   # byte-identical or not, per file

The cases (serial CPU path, f64): the Peña block at the coarse packing for 0.5 s, the four-pier bridge for 2 s
at 0.5 g (1 s of settling, then 1 s of Eq. 42's ramp), and a batch of 3 Peña worlds (θ0 = 2, 2.5, 3°) for
0.3 s; and the gate of the contact pipeline's rewrite (issue 29): the single pier (4 s at 0.5 g), the bridge at
0.1 g, the drum column under a Ricker pulse, the arch, the masonry wall, stacked packages, and two cases on the
block path (``--parallel``). It uses only ``python -m dem.cli run``, so it runs unchanged on a checkout of any
layout. A checkout that writes history.parquet (the default since issue 23) is digested as the history.csv its
numbers make (header and '%.10g' rows, dem.output.files.format_rows: what ``dem run --csv`` writes), so digests
compare across the change of format; the digests are keyed by .../history.csv either way; a Parquet history also
gets a digest of its float64 bits (.../history.parquet). Where digests differ, the largest difference of each
column relative to its largest magnitude is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

COARSE = ["--set", "r_base=0.01", "--set", "r_core=0.05"]
CASES = {
    "pena_coarse": ["pena_block", *COARSE, "--t-end", "0.5"],
    "pier_deck_0.5g": ["pier_deck", "--set", "pga_g=0.5", "--t-end", "2"],
    "pena_batch3": ["pena_block", *COARSE, "--t-end", "0.3", "--vary", "theta0_deg=2,2.5,3"],
    # the gate of issue 29's first step: every kind of contact the engine has, on its default scenes
    "single_pier": ["single_pier", "--t-end", "4"],
    "pier_deck_0.1g": ["pier_deck", "--set", "pga_g=0.1", "--t-end", "2"],
    "drum_column": ["drum_column", "--set", "pulse=ricker", "--set", "pulse_pga_g=0.4", "--t-end", "1.5"],
    "arch": ["arch", "--set", "tilt_rate=0.5", "--t-end", "1.0"],
    "masonry_wall": ["masonry_wall", "--t-end", "0.5"],
    "packages": ["vehicle_packages", "--set", "box_stack=2", "--t-end", "0.5"],
    # the block path on the CPU (one thread a block: the same stages, the launch of a GPU)
    "pena_batch3_blocks": ["pena_block", *COARSE, "--t-end", "0.3", "--vary", "theta0_deg=2,2.5,3", "--parallel"],
    "pier_deck_blocks": ["pier_deck", "--set", "pga_g=0.5", "--t-end", "1", "--parallel"],
}


def history_text(folder: Path) -> bytes:
    """history.csv's bytes, or the same text made from history.parquet (its float64 values to '%.10g')."""
    if (folder / "history.csv").exists():
        return (folder / "history.csv").read_bytes()
    import numpy as np
    import pyarrow.parquet as pq

    table = pq.read_table(folder / "history.parquet")
    data = np.column_stack([table.column(k).to_numpy() for k in table.column_names])
    buf = io.BytesIO()
    np.savetxt(buf, data, delimiter=",", fmt="%.10g")
    return (",".join(table.column_names) + "\n").encode() + buf.getvalue()


def digest(folder: Path) -> str:
    return hashlib.sha256(history_text(folder)).hexdigest()


def float_digest(folder: Path) -> str | None:
    """SHA-256 of history.parquet's float64 values (every bit, not '%.10g'), or None for a CSV history."""
    if not (folder / "history.parquet").exists():
        return None
    import numpy as np
    import pyarrow.parquet as pq

    table = pq.read_table(folder / "history.parquet")
    h = hashlib.sha256(",".join(table.column_names).encode())
    for k in table.column_names:
        h.update(np.ascontiguousarray(table.column(k).to_numpy(), dtype=np.float64).tobytes())
    return h.hexdigest()


def run_cases(out: Path, names: list[str], fast_math: bool = True) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, DEM_FAST_MATH="1" if fast_math else "0")
    found = {}
    for name in names:
        folder = out / name
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "dem.cli", "run", *CASES[name], "--out", str(folder),
                        "--no-progress"], check=True, env=env)
        print(f"{name}: {time.perf_counter() - t0:.1f} s")
        for d in sorted({h.parent for pattern in ("history.csv", "history.parquet") for h in folder.rglob(pattern)}):
            found[str((d / "history.csv").relative_to(out))] = digest(d)
            bits = float_digest(d)
            if bits is not None:
                found[str((d / "history.parquet").relative_to(out))] = bits
    (out / "digests.json").write_text(json.dumps(found, indent=1) + "\n")
    return found


def column_differences(a: Path, b: Path) -> list[str]:
    import numpy as np

    ta = np.genfromtxt(io.BytesIO(history_text(a.parent)), delimiter=",", names=True)
    tb = np.genfromtxt(io.BytesIO(history_text(b.parent)), delimiter=",", names=True)
    if ta.shape != tb.shape:
        return [f"  rows differ: {ta.shape} {tb.shape}"]
    lines = []
    only_a = [n for n in ta.dtype.names if n not in tb.dtype.names]
    only_b = [n for n in tb.dtype.names if n not in ta.dtype.names]
    if only_a:
        lines.append(f"  columns only in the first: {', '.join(only_a)}")
    if only_b:
        lines.append(f"  columns only in the second: {', '.join(only_b)}")
    for name in (n for n in ta.dtype.names if n in tb.dtype.names):
        scale = max(np.nanmax(np.abs(ta[name])), 1e-300)
        d = np.nanmax(np.abs(ta[name] - tb[name])) / scale
        if d > 0:
            lines.append(f"  {name}: {d:.2e} of its largest magnitude")
    return lines


def compare(old: Path, new: Path) -> int:
    da = json.loads((old / "digests.json").read_text())
    db = json.loads((new / "digests.json").read_text())
    bad = 0
    for key in sorted(set(da) | set(db)):
        if da.get(key) == db.get(key):
            print(f"identical  {key}")
            continue
        bad += 1
        print(f"DIFFERENT  {key}")
        if key in da and key in db and key.endswith(".csv"):
            print("\n".join(column_differences(old / key, new / key)))
    print(f"{len(set(da) | set(db)) - bad} identical, {bad} different")
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="folder for the runs and digests.json")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--no-fast-math", action="store_true",
                    help="compile without fast math (DEM_FAST_MATH=0): the same arithmetic gives the same bits "
                         "whatever the code around it (dem.device.runtime.init); the checkout compared with must read "
                         "DEM_FAST_MATH too")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"), help="two --out folders")
    a = ap.parse_args(argv)
    if a.compare:
        return compare(*a.compare)
    if a.out is None:
        ap.error("--out is required unless --compare is given")
    run_cases(a.out, a.cases, fast_math=not a.no_fast_math)
    return 0


if __name__ == "__main__":
    sys.exit(main())
