"""The scenes of several bodies with the joints through solids (issue 29, the default) against the sphere-on-sphere
joint (``--set joints=spheres``), one run each, in this checkout: what changed in the physics and in the cost.

    python benchmarks/compare_joints.py --out /tmp/joints            # every case (~20 min on 2 cores)
    python benchmarks/compare_joints.py --out /tmp/joints --cases column_ricker arch

For each case and joint it prints the summary line's figures from summary.json: the largest rotation and its body,
the first joint to open (assemblies), bodies that fell, the energy balance error, steps/s and the contacts a step
(largest), the body-pair searches; and writes them to ``joints.json`` in --out.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

CASES = {
    "pier_deck_0.1g": ["pier_deck", "--set", "pga_g=0.1", "--t-end", "20"],
    "pier_deck_0.5g": ["pier_deck", "--set", "pga_g=0.5", "--t-end", "20"],
    "column_ricker": ["drum_column", "--set", "pulse=ricker", "pulse_pga_g=0.4", "--t-end", "2.5"],
    "arch": ["arch"],
    "masonry_wall": ["masonry_wall"],
    "packages": ["vehicle_packages", "--set", "box_stack=2"],
}
JOINTS = ("solid", "spheres")


def figures(folder: Path) -> dict:
    s = json.loads((folder / "summary.json").read_text())
    head = s.get("motion", {}).get("headline") or {}
    fell = [b["name"] for b in s.get("bodies", []) if b.get("fell")]
    return {"status": s["status"], "peak": head.get("value"), "peak_unit": head.get("unit"),
            "peak_body": head.get("label"), "peak_t_s": head.get("t_s"), "fell": fell,
            "energy_error": s.get("max_energy_error"), "steps_per_s": s.get("steps_per_s"),
            "wall_time_s": s.get("wall_time_s"), "max_contacts": s.get("max_contact_count"),
            "pair_searches": s.get("pair_rebuilds"), "first_joint_to_open": s.get("first_joint_to_open")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    found = {}
    for name in a.cases:
        for joints in JOINTS:
            folder = a.out / f"{name}_{joints}"
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "dem.cli", "run", *CASES[name], "--set", f"joints={joints}",
                            "--out", str(folder), "--no-progress", "--no-plots"], check=True)
            found[f"{name}/{joints}"] = figures(folder) | {"command_s": time.perf_counter() - t0}
            f = found[f"{name}/{joints}"]
            print(f"{name:15s} {joints:8s} peak {f['peak']:.4g} {f['peak_unit']} ({f['peak_body']}, {f['peak_t_s']} s)"
                  f"; fell {f['fell'] or 'none'}; energy error {f['energy_error']:.2g}; {f['steps_per_s']:.4g} steps/s"
                  f", ≤ {f['max_contacts']} contacts, {f['pair_searches']} pair searches", flush=True)
    (a.out / "joints.json").write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
