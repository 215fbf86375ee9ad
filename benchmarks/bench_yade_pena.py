"""The Peña block in YADE (Debian package `yade`) and in dem, side by side (issue 2).

    python benchmarks/bench_yade_pena.py [--steps 300] [--threads 1] [--set r_base=0.01 r_core=0.04]

Both codes get the same sphere packing (dem's graded box builder), tilted by θ0 = 2.9° on a floor, with
Hertz–Mindlin contacts (G, ν, μ = 0.7, β_n = β_s = 0.15) and Δt = 1e-5 s; mass 503 kg (in YADE through
the sphere density, since YADE integrates a clump's mass from its spheres). YADE runs `--steps` steps (it
needs ~ms per step at paper resolution); dem runs the full 6 s. Printed: seconds per step and the time
projected for 6 s (600,000 steps) for each. Skips with a message if `yade` is not installed.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

YADE_SCRIPT = r"""
import json, math, time, sys
import numpy as np
cfg = json.load(open(CFG))
d = np.load(cfg["spheres"])
c, r = d["centers"], d["radii"]
vol = float(np.sum(4.0 / 3.0 * math.pi * r ** 3))
mat = O.materials.append(FrictMat(young=cfg["E"], poisson=cfg["nu"], frictionAngle=math.atan(cfg["mu"]),
                                  density=cfg["mass"] / vol))
O.bodies.appendClumped([sphere(tuple(x), float(rr), material=mat) for x, rr in zip(c, r)])
O.bodies.append(wall(0.0, axis=2, material=mat))
O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()]),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
                    [Ip2_FrictMat_FrictMat_MindlinPhys(betan=cfg["beta"], betas=cfg["beta"])],
                    [Law2_ScGeom_MindlinPhys_Mindlin()]),
    NewtonIntegrator(gravity=(0, 0, -9.81), damping=0.0),
]
O.dt = cfg["dt"]
O.run(10, True)  # warm-up: collider initialisation
t0 = time.time()
O.run(cfg["steps"], True)
el = time.time() - t0
print("YADE_RESULT " + json.dumps({"seconds_per_step": el / cfg["steps"], "bodies": len(O.bodies),
                                   "interactions": len([i for i in O.interactions if i.isReal])}))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=300, help="YADE steps to time")
    ap.add_argument("--threads", type=int, default=1, help="YADE threads (-j)")
    ap.add_argument("--set", dest="sets", nargs="+", default=[], help="dem scene parameters (packing)")
    a = ap.parse_args()
    yade = shutil.which("yade") or shutil.which("yade-batch")
    if yade is None:
        print("yade is not installed (Debian: apt-get install yade); nothing to compare")
        return 0

    import dem
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene, parse_assignments

    dem.init("cpu")
    scene = build_scene("pena_block", parse_assignments(a.sets))
    cs = scene.model.clumps[0]
    centers = cs.position + cs.offsets @ cs.rotation.T
    p = scene.params
    with tempfile.TemporaryDirectory() as tmp:
        np.savez(Path(tmp) / "spheres.npz", centers=centers, radii=cs.template.radii)
        cfg = {"spheres": str(Path(tmp) / "spheres.npz"), "E": p["E"], "nu": p["nu"], "mu": p["mu"],
               "beta": p["beta_n"], "mass": p["mass"], "dt": p["dt"], "steps": a.steps}
        (Path(tmp) / "cfg.json").write_text(json.dumps(cfg))
        script = Path(tmp) / "pena_yade.py"
        script.write_text(f"CFG = {str(Path(tmp) / 'cfg.json')!r}\n" + YADE_SCRIPT)
        t0 = time.perf_counter()
        proc = subprocess.run([yade, "-n", "-x", f"-j{a.threads}", str(script)], capture_output=True, text=True,
                              timeout=24 * 3600)
        yade_wall = time.perf_counter() - t0
    line = next((x for x in proc.stdout.splitlines() if x.startswith("YADE_RESULT ")), None)
    if line is None:
        print("YADE failed:\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
        return 1
    y = json.loads(line[len("YADE_RESULT "):])

    res = run_scene(scene, progress=False, plots=False)
    s = res.summary
    n_full = s["steps"]
    ours = s["wall_time_s"] / n_full
    print(f"Peña block, {scene.model.ball_count} balls, dt = {p['dt']:g} s, {n_full} steps for {s['t_end']:g} s")
    print(f"{'':8s} {'s/step':>12s} {'6 s run [s]':>14s}  notes")
    print(f"{'YADE':8s} {y['seconds_per_step']:12.3e} {y['seconds_per_step'] * n_full:14.1f}  "
          f"2023.02a, -j{a.threads}, timed over {a.steps} steps ({y['interactions']} contacts; {yade_wall:.0f} s "
          f"with start-up)")
    print(f"{'dem':8s} {ours:12.3e} {s['wall_time_s']:14.1f}  CPU backend, whole run (start-up "
          f"{s['startup_s']:.1f} s); the block sleeps from {s.get('quiescent_from_s')} s")
    print(f"speed-up: {y['seconds_per_step'] * n_full / s['wall_time_s']:.0f}x on the full run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
