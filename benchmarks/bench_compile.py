"""Where the time before the first step goes (issue 19): the kernels' compile, cold and warm, per entry point.

    python benchmarks/bench_compile.py [--entries run batch run+batch blocks vulkan frames] [--no-warm]

Each entry point runs in a fresh process with an empty kernel cache (a temporary directory, cold), then again
in another fresh process with the cache the first one left (warm: a load). For every kernel launched it prints
how many specialisations were made (one per combination of template arguments and static branches), the time
spent turning its Python into Taichi IR (``ast``) and the time of its first launch (``compile``: Taichi's IR
passes, LLVM and code generation — or, warm, the cache load), and the size of the cache files written (the step
kernel is the largest). Entry points:
    run        a single world on the serial path (dem run on the CPU)
    batch      a batch of two worlds on the serial path
    run+batch  a single world, then a batch of 20 in the same process: what the batch compiles anew
    blocks     the block path on the CPU (--parallel), two worlds
    vulkan     the block path on Taichi's Vulkan backend (Mesa's lavapipe here), 2 worlds then 20 (the SPIR-V
               launch size is a compile-time class of W, solver.world_slots)
    frames     the contact export of frames (--vtk)
The model is dem.run.precompile.small_model (a kernel's compiled form does not depend on the model's size).
The figures are wall times on a machine that may be shared: the CPU time of each child is printed too. Under
quadrants (DEM_KERNELS=quadrants) only the phases are timed (its kernel class is not instrumented).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRIES = ["run", "batch", "run+batch", "blocks", "vulkan", "frames"]


def child(entry: str) -> dict:
    """Run one entry point here, with Taichi's kernel class instrumented; return the figures."""
    sys.path.insert(0, str(ROOT))
    import dem
    from dem.device.kernel_lang import ti
    from dem.run import precompile

    kernel_cls = getattr(ti.lang.kernel_impl, "Kernel", None)
    stats: dict = {}
    orig_materialize = getattr(kernel_cls, "materialize", None)
    orig_launch = getattr(kernel_cls, "launch_kernel", None)

    def entry_of(k):
        return stats.setdefault(k.func.__name__, {"ast_s": 0.0, "compile_s": 0.0, "kernel": k, "launched": set()})

    def materialize(self, key=None, args=None, arg_features=None):
        t0 = time.perf_counter()
        try:
            return orig_materialize(self, key, args, arg_features)
        finally:
            entry_of(self)["ast_s"] += time.perf_counter() - t0

    def launch(self, t_kernel, *args):
        s = entry_of(self)
        first = id(t_kernel) not in s["launched"]
        t0 = time.perf_counter()
        try:
            return orig_launch(self, t_kernel, *args)
        finally:
            if first:
                s["compile_s"] += time.perf_counter() - t0
                s["launched"].add(id(t_kernel))

    from dem.device.kernel_lang import NAME

    if NAME == "taichi":  # Taichi 1.7's Kernel class (quadrants' differs)
        kernel_cls.materialize, kernel_cls.launch_kernel = materialize, launch
    arch = "vulkan" if entry == "vulkan" else "cpu"
    t0 = time.perf_counter()
    dem.init(arch)
    t_init = time.perf_counter() - t0
    from dem.physics.simulation import Simulation

    model = precompile.small_model()
    phases = []

    def timed(label, fn):
        t = time.perf_counter()
        fn()
        phases.append((label, time.perf_counter() - t))

    if entry == "frames":
        from dem.output.snapshot import snapshot

        sim = Simulation(model, dt=1e-5, history_every=10)
        timed("step", sim.compile)
        timed("frames", lambda: snapshot(sim))
    elif entry in ("run", "batch", "run+batch", "blocks", "vulkan"):
        first_w = 2 if entry in ("batch", "blocks", "vulkan") else 1
        sims = [Simulation([model] * first_w if first_w > 1 else model, dt=1e-5, history_every=10,
                           parallel=True if entry == "blocks" else None)]
        timed(f"W={first_w}", sims[0].compile)
        if entry in ("run+batch", "vulkan"):
            sims.append(Simulation([model] * 20, dt=1e-5, history_every=10))
            timed("then W=20", sims[1].compile)
    else:
        raise SystemExit(f"unknown entry {entry}")
    kernels = {name: {"specialisations": len(s["kernel"].compiled_kernels), "ast_s": s["ast_s"],
                      "compile_s": s["compile_s"]} for name, s in stats.items()}
    cache = Path(ti.lang.impl.current_cfg().offline_cache_file_path)
    before = {p.name for p in cache.rglob("*") if p.is_file()}
    ti.reset()  # writes the offline cache
    sizes = sorted((p.stat().st_size for p in cache.rglob("*") if p.is_file() and p.name not in before
                    and p.suffix != ".tcb"), reverse=True)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"entry": entry, "init_s": t_init, "phases": phases, "kernels": kernels, "new_cache_files": len(sizes),
            "largest_file_bytes": sizes[0] if sizes else 0, "cache_bytes": sum(sizes),
            "cpu_s": ru.ru_utime + ru.ru_stime, "peak_rss_mib": ru.ru_maxrss / 1024}


def run_child(entry: str, cache: str) -> dict | str:
    from dem.device.kernel_lang import CACHE_DIR_ENV

    env = dict(os.environ, XDG_CACHE_HOME=str(Path(cache) / "xdg"))
    env[CACHE_DIR_ENV] = cache
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, __file__, "--child", entry], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        return (p.stderr.strip().splitlines() or ["failed"])[-1][:200]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["process_wall_s"] = wall
    return out


def report(label: str, r) -> None:
    if isinstance(r, str):
        print(f"  {label}: not run: {r}")
        return
    phases = ", ".join(f"{name} {t:.1f} s" for name, t in r["phases"])
    print(f"  {label}: process {r['process_wall_s']:.1f} s wall, {r['cpu_s']:.1f} s CPU, peak {r['peak_rss_mib']:.0f}"
          f" MiB; init {r['init_s']:.1f} s; {phases}; {r['new_cache_files']} cache files written "
          f"({r['cache_bytes'] / 2**20:.1f} MiB, largest {r['largest_file_bytes'] / 2**20:.2f} MiB)")
    big = sorted(r["kernels"].items(), key=lambda kv: -(kv[1]["ast_s"] + kv[1]["compile_s"]))
    for name, k in big:
        if k["ast_s"] + k["compile_s"] < 0.05 and len(big) > 4:
            continue
        print(f"      {name:32s} {k['specialisations']:2d} specialisation(s)  ast {k['ast_s']:6.2f} s  "
              f"compile/load {k['compile_s']:6.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", nargs="+", default=ENTRIES, choices=ENTRIES)
    ap.add_argument("--no-warm", action="store_true", help="cold runs only")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(child(a.child)))
        return
    from dem.device import kernel_lang

    print(f"machine: {os.cpu_count()} CPUs; kernels: {kernel_lang.NAME}; python {sys.version.split()[0]}")
    for entry in a.entries:
        with tempfile.TemporaryDirectory(prefix="dem-kernels-") as cache:
            print(f"{entry}:")
            report("cold", run_child(entry, cache))
            if not a.no_warm:
                report("warm", run_child(entry, cache))


if __name__ == "__main__":
    main()
