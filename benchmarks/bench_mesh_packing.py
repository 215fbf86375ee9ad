"""Speed and memory of bodies from meshes (issue 31): packing a 100,000-triangle mesh at two sphere sizes, and
the step's speed per hull sphere of the mesh scenes beside a box of the builders.

    python benchmarks/bench_mesh_packing.py [--faces 100000] [--radii 0.01 0.005] [--size 0.5]
                                            [--t-end 0.5] [--skip pack step]

1. Packing (dem.model.mesh_clump): a bumpy stone of about ``--faces`` triangles (a sphere of ``--size`` m with
   smooth random bumps, dem.model.mesh_shapes.bumpy_stone_mesh; non-convex) packed with r_surface = each of
   ``--radii`` and r_core = 3 r_surface: the time to read it from an STL file and check it
   (dem.model.mesh_checks), the packing's time, its spheres (all, on the hull, of the skin), and the packing's
   peak memory (tracemalloc: NumPy's arrays) and that ÷ the spheres kept (memory that scales with the spheres
   kept, not with the candidates). Each packing starts from the file, the template cache cleared.
2. Step speed (dem.run.driver.run_scene, no files): the stele (scenes/mesh_body.py, released from 2°), the
   statue on its plinth (scenes/museum_statue.py) and a box of box_clump of the stele's size, each for
   ``--t-end`` s: steps/s and hull-sphere-steps/s (the cost of a step goes with the hull spheres near a wall
   or another body, as the builders' bodies).

The figures depend on the machine's load (this 2-core machine is shared): run it alone, or say what ran
beside it. README ("Bodies from meshes") quotes a run of it.
"""

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from dem.model import mesh_clump as mc  # noqa: E402
from dem.model.lattice import ZONE_SURFACE  # noqa: E402
from dem.model.mesh_checks import check_closed_surface  # noqa: E402
from dem.model.mesh_file import load_mesh  # noqa: E402
from dem.model.mesh_shapes import bumpy_stone_mesh, write_stl  # noqa: E402


def pack(path: Path, r: float) -> None:
    mc._CACHE._items.clear()  # noqa: SLF001  (each packing from the file)
    t0 = time.perf_counter()
    mesh = load_mesh(path)
    check_closed_surface(mesh)
    t_read = time.perf_counter() - t0
    tracemalloc.start()
    t0 = time.perf_counter()
    tpl = mc.mesh_clump(path, r_core=3 * r, r_surface=r)
    took = time.perf_counter() - t0
    _cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    skin = int(np.sum(tpl.zone == ZONE_SURFACE))
    print(f"  r_surface {1e3 * r:g} mm, r_core {3e3 * r:g} mm: packed in {took:.1f} s (read and checked in "
          f"{t_read:.1f} s); {tpl.sphere_count:,} spheres, {tpl.hull_count:,} on the hull ({skin:,} skin); "
          f"peak {peak / 2**20:.0f} MiB, {peak / tpl.sphere_count / 1024:.1f} KiB a sphere kept")


def step_speed(t_end: float) -> None:
    import dem
    from dem.model.box_clump import box_clump
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    dem.init("cpu")
    cases = [("mesh_body", {"theta0_deg": 2.0, "t_end": t_end, "dt": 1e-4}),
             ("museum_statue", {"t_end": t_end, "settle": 0.0, "dt": 1e-4})]
    for name, params in cases:
        scene = build_scene(name, params)
        run_scene(scene, progress=False, plots=False, t_end=2e-4, history_dt=1e-4)  # load the kernel
        res = run_scene(scene, progress=False, plots=False)
        s, m = res.summary, scene.model
        print(f"  {name}: {m.ball_count:,} spheres, {m.hull_count:,} on the hull, Δt 1e-4 s: {s['steps_per_s']:,.0f} "
              f"steps/s, {s['steps_per_s'] * m.hull_count:.3g} hull-sphere-steps/s")
    # a box of box_clump the stele's size, rocking the same way (its template in the stele's scene's place)
    scene = build_scene("mesh_body", {"theta0_deg": 2.0, "t_end": t_end, "dt": 1e-4})
    box = box_clump(0.3, 1.0, 0.5, r_core=0.047, r_base=0.0188, base_zone=0.06)
    from dem import Material, ModelBuilder, Scene
    from dem.run.probes import RockingAngle

    b = ModelBuilder(gravity=(0.0, 0.0, -9.81))
    mat = Material.hertz(young=50e9, poisson=0.25, friction=0.7, damping_normal=0.15, damping_shear=0.15)
    rot = scene.model.clumps[0].rotation
    lowest = float(np.min((box.centers @ rot.T)[:, 2] - box.radii))
    c = b.add_clump(box, material=mat, density=2500.0, orientation=rot, position=(0, 0, -lowest), name="box")
    b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="table")
    m = b.finalize()
    res = run_scene(Scene("box", m, [RockingAngle("theta_deg", c)], 1e-4, t_end, 1e-3, {}, {}), progress=False,
                    plots=False)
    s = res.summary
    print(f"  box_clump of the stele's size: {m.ball_count:,} spheres, {m.hull_count:,} on the hull: "
          f"{s['steps_per_s']:,.0f} steps/s, {s['steps_per_s'] * m.hull_count:.3g} hull-sphere-steps/s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--faces", type=int, default=100_000)
    p.add_argument("--radii", type=float, nargs="+", default=[0.01, 0.005])
    p.add_argument("--size", type=float, default=0.5)
    p.add_argument("--t-end", type=float, default=0.5)
    p.add_argument("--skip", nargs="*", default=[], choices=("pack", "step"))
    a = p.parse_args()
    if "pack" not in a.skip:
        mesh = bumpy_stone_mesh(a.faces, size=a.size)
        path = write_stl(Path("/tmp") / f"bench_stone_{len(mesh.faces)}.stl", mesh)
        print(f"packing {mesh.source} ({a.size:g} m across, {path.stat().st_size / 2**20:.1f} MiB of STL):")
        for r in a.radii:
            pack(path, r)
    if "step" not in a.skip:
        print(f"stepping, {a.t_end:g} s each:")
        step_speed(a.t_end)


if __name__ == "__main__":
    main()
