"""The example study of docs/examples/fragility.md: the single pier under 40 synthetic records × 8 PGA levels,
with the DEM and the rigid rocking block; fragility curves, IDA plots and where the engines disagree.

    python docs/examples/fragility_study.py                      # everything (DEM: ~20-40 min on 2 cores)
    python docs/examples/fragility_study.py --skip-dem           # records, rigid sweeps, analysis
    python docs/examples/fragility_study.py --workers 2          # the DEM sweep on a local Dask cluster

Every step is a ``dem`` command (printed before it runs); the sweeps resume where they stopped, so the
script can be interrupted and re-run. The figures and the table of numbers the document quotes are written
to --figures (default docs/examples/fragility/). With the world batching (many DEM cases per launch) the
same script runs the DEM sweep in one go; nothing else changes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dem_commands import dem  # beside this script

SEED = 2026
RECORDS = 40
LEVELS = "0.25:2.0:8"  # PGA [g]
DEM_RESTITUTION = 0.984  # the DEM pier's impact restitution, measured in docs/validation (single pier)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="runs/fragility_study", help="working folder (default runs/fragility_study)")
    ap.add_argument("--figures", default="docs/examples/fragility", help="figures and numbers for the document")
    ap.add_argument("--skip-dem", action="store_true", help="only the records and the rigid sweeps")
    ap.add_argument("--workers", type=int, default=0, help="Dask workers for the DEM sweep (default: in process)")
    a = ap.parse_args()
    out = Path(a.out)
    recs = out / "records"
    dem("records", "synth", "--count", str(RECORDS), "--seed", str(SEED), "--out", str(recs), "--duration", "10:20",
        "--freq", "1:4", "--pga", "0.2:0.5")
    dem("records", "spectrum", str(recs), "--out", str(out / "spectrum"))
    # the pier as the study was made, with rounded edges (the packing before edge-true boxes became the
    # default, issue 15): the fragility.md numbers; drop the setting for the edge-true pier
    sweep = ["sweep", "single_pier", "--records", str(recs), "--scale", LEVELS, "--scale-by", "pga",
             "--set", "edges=rounded"]
    dem(*sweep, "--engine", "rigid", "--out", str(out / "rigid"))
    dem(*sweep, "--engine", "rigid", "--rigid-geometry", "edge", "--restitution", str(DEM_RESTITUTION),
        "--out", str(out / "rigid_edge"))
    # the two differences separately: the DEM's rounded edges alone (α', Housner's e(α')), its restitution alone
    dem(*sweep, "--engine", "rigid", "--rigid-geometry", "edge", "--out", str(out / "rigid_edge_housner"))
    dem(*sweep, "--engine", "rigid", "--restitution", str(DEM_RESTITUTION), "--out", str(out / "rigid_e"))
    dem("fragility", *(str(out / d) for d in ("rigid", "rigid_edge_housner", "rigid_e", "rigid_edge")),
        "--labels", "Housner", "edges", "e=0.984", "edges+e", "--out", str(out / "fragility_rigid_variants"))
    dirs = [out / "rigid", out / "rigid_edge"]
    labels = ["rigid (Housner)", "rigid (DEM edges, e=0.984)"]
    if not a.skip_dem:
        dem(*sweep, "--engine", "dem", "--out", str(out / "dem"), "--workers", str(a.workers))
        dirs.append(out / "dem")
        labels.append("DEM")
    dem("fragility", *map(str, dirs), "--labels", *labels, "--out", str(out / "fragility"))
    from compare_engines import compare  # beside this script

    figs = Path(a.figures)
    figs.mkdir(parents=True, exist_ok=True)
    numbers = compare(dict(zip(labels, dirs)), out, figs)
    (figs / "numbers.json").write_text(json.dumps(numbers, indent=1) + "\n")
    print(f"figures and numbers in {figs}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
