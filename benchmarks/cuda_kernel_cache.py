"""The CUDA kernel cache of the block path, built on a machine without a GPU, for a lent GPU's session to load
instead of compiling (issue 30): a cold CUDA compile of the step kernel takes ~114 s on the H200's host, one per
block size, out of a session's 15 minutes of device time.

Taichi compiles each kernel variant for CUDA against the stand-in driver of benchmarks/ptx_resources.py (a device of
compute capability 9.0: the H100's and H200's), and keeps what it compiled in its offline cache at exit; this packs
that cache into one archive (0.7 MiB for gpu_session.sh's five variants) that benchmarks/gpu_session.sh unpacks
where Taichi looks:

    python3.12 benchmarks/cuda_kernel_cache.py --block-dim 32 64 128 256 --out .gpu/ticache.tar.xz

Run it with the Python the device machine runs (3.12 there: a virtual environment with the cp312 Taichi wheel and
this package) and with the code that travels: the cache's keys are the kernels' code. Whether the device's Taichi
accepts it: not measured on a GPU yet; where it does not, it compiles as before (gpu_session.sh prints "compiled"
or "loaded from the cache" for each variant it loads first).
"""

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from ptx_resources import ROOT, build_stub


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--block-dim", type=int, nargs="+", default=[128], help="block sizes to compile (default 128)")
    ap.add_argument("--share-orders", nargs="+", default=["identity", "reverse"],
                    help="share orders at the default block size (check_block_bits.py runs both)")
    ap.add_argument("--out", default=str(ROOT / ".gpu" / "ticache.tar.xz"), help="archive to write")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds the compiles may take (default 1800)")
    a = ap.parse_args()
    for bd in a.block_dim:
        if bd < 1 or bd > 1024 or bd & (bd - 1):
            ap.error(f"--block-dim must be a power of two from 1 to 1024, got {bd}")
    out = Path(a.out).resolve()
    with tempfile.TemporaryDirectory(prefix="dem_cuda_cache_") as tmp:
        work = Path(tmp)
        stub = build_stub(work)
        env = dict(os.environ)
        env.update(LD_LIBRARY_PATH=f"{stub}:{env.get('LD_LIBRARY_PATH', '')}", DEM_PTX_DIR=str(work),
                   TI_OFFLINE_CACHE_FILE_PATH=str(work / "ticache"), XDG_CACHE_HOME=str(work / "xdg"),
                   PYTHONPATH=str(ROOT))
        env.pop("DEM_PTX_STOP_AT", None)
        code = (
            "import time, dem\nimport dem.physics.share_sums as SS\nfrom dem.run.precompile import small_model\n"
            "dem.init('cuda')\n"
            "def one(bd=None):\n"
            "    t0 = time.perf_counter()\n"
            "    sim = dem.Simulation(small_model(), dt=1e-5, history_every=10, parallel=True, block_dim=bd)\n"
            "    sim.compile()\n"
            "    print(f'{sim.kernel_variant():44s} {time.perf_counter() - t0:6.1f} s', flush=True)\n"
            f"for bd in {a.block_dim!r}:\n    one(bd)\n"
            f"for order in {a.share_orders!r}:\n    SS.SHARE_ORDER = order\n    one()\n")
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), env=env, timeout=a.timeout)
        if r.returncode != 0 or not (work / "ticache").is_dir():
            print(f"cuda_kernel_cache: error: the compile failed (status {r.returncode})", file=sys.stderr)
            return 1
        out.parent.mkdir(parents=True, exist_ok=True)
        part = out.with_name(f".{out.name}.{os.getpid()}.part")
        with tarfile.open(part, "w:xz") as tar:
            tar.add(work / "ticache", arcname="ticache")
        os.replace(part, out)
    print(f"{out} ({out.stat().st_size / 2**20:.1f} MiB, Python {sys.version.split()[0]}, "
          f"{time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
