"""A parameter loop from Python: the stacked blocks of stacked_blocks.py under the same record scaled to
several intensities, and how far the upper block rocks at each (an incremental dynamic analysis in five
lines of loop).

    python examples/parameter_loop.py                       # scales 0.5, 1, 1.5 on the whole record (≈ 1 min)
    python examples/parameter_loop.py --t-end 2 --scales 0.5 1.5

Each run is an ordinary ``dem.run_scene``: the scene is built once per parameter set from its module, and
the run's ``summary`` holds the physics (``motion``: peak |θ|/α and the body, settling time) next to every
parameter used. Nothing is written to disk unless ``out_dir`` is given.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import dem


def load_scene(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=float, nargs="+", default=[0.5, 1.0, 1.5], help="factors on the record")
    ap.add_argument("--t-end", type=float, default=8.0, help="duration of each run [s]")
    args = ap.parse_args()

    dem.init("cpu")
    scene_module = load_scene(Path(__file__).with_name("stacked_blocks.py"))
    rows = []
    for scale in args.scales:
        scene = dem.build_scene(scene_module, {"scale": scale, "t_end": args.t_end})
        s = dem.run_scene(scene, progress=False, plots=False).summary
        peak = s["motion"]["headline"]
        rows.append({"scale": scale, "pga_g": s["record_pga_g"], "peak_theta_over_alpha": peak["value"],
                     "body": peak["label"], "at_s": peak["t_s"], "wall_s": s["wall_time_s"]})
    print(f"{'scale':>6} {'PGA [g]':>8} {'peak |θ|/α':>11} {'body':>6} {'at [s]':>7} {'wall [s]':>8}")
    for r in rows:
        print(f"{r['scale']:6.2f} {r['pga_g']:8.3f} {r['peak_theta_over_alpha']:11.4f} {r['body']:>6} "
              f"{r['at_s']:7.3f} {r['wall_s']:8.1f}")
    return rows


if __name__ == "__main__":
    main()
