"""Registers, local memory and occupancy of the block path's step kernel on an NVIDIA Hopper GPU, measured without
one (issue 30, item 1): Taichi compiles `advance_blocks` for CUDA against a stand-in driver (cuda_stub/cuda_stub.c,
built here with the C compiler: it reports one compute-capability-9.0 device and hands each PTX module back), and
NVIDIA's assembler `ptxas -v` says what the kernel needs on that card — the figures Nsight Compute reads on a real
one (docs/gpu.md: 255 registers and 1,392 B of stack a thread at ffe2aa6, both on the H200 and here).

    pip install nvidia-cuda-nvcc-cu12          # ptxas (or --ptxas PATH)
    python benchmarks/ptx_resources.py [--block-dim 64 128 256] [--gpu sm_90] [--source DIR] [--keep DIR]
    python benchmarks/ptx_resources.py --without motion      # which stage needs the registers (ptx_stages.py)
    python benchmarks/ptx_resources.py --only wall_contacts  # that stage alone in the kernel's frame

--source DIR compiles the engine of another checkout (a git worktree of an older commit: old against new).
Prints, per block size: registers a thread, stack (local memory: the spills' slots) a thread, the spill stores and
loads ptxas counts, static shared memory, and what follows for an SM of 65,536 registers, 2,048 threads and 32
blocks (the H100's and H200's): blocks an SM by registers, theoretical occupancy, worlds resident on 132 SMs.
Nothing is run: speed is not measured here (benchmarks/gpu_session.sh on a lent GPU).
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ptx_stages import STAGES, strip

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KERNEL = "advance_blocks"
# an SM of compute capability 9.0 (H100, H200): the limits the occupancy follows from (CUDA's occupancy calculator)
SM_REGISTERS = 65536
SM_THREADS = 2048
SM_BLOCKS = 32
REGISTER_UNIT = 256  # registers are given to a warp in units of 256
SMS = 132  # H100 SXM and H200


def find_ptxas(given: str | None) -> str:
    """The ptxas to use: `given`, the PATH's, or the one of the nvidia-cuda-nvcc-cu12 wheel; SystemExit if none."""
    if given:
        return given
    found = shutil.which("ptxas")
    if found:
        return found
    try:
        import nvidia.cuda_nvcc as nv  # noqa: PLC0415 — optional: only this tool needs it

        for base in list(getattr(nv, "__path__", [])):
            cand = Path(base) / "bin" / "ptxas"
            if cand.exists():
                cand.chmod(cand.stat().st_mode | 0o111)
                return str(cand)
    except ImportError:
        pass
    raise SystemExit("ptx_resources: error: no ptxas (pip install nvidia-cuda-nvcc-cu12, or --ptxas PATH)")


def build_stub(work: Path) -> Path:
    """libcuda.so (and .so.1) from cuda_stub.c in `work`; returns the directory."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("ptx_resources: error: no C compiler (cc or gcc) to build the stand-in driver")
    lib = work / "libcuda.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(lib), str(HERE / "cuda_stub" / "cuda_stub.c")],
                   check=True)
    shutil.copy(lib, work / "libcuda.so.1")
    return work


def compile_ptx(source: Path, stub: Path, out: Path, block_dim: int, implicit: bool, timeout: float) -> Path:
    """Compile the step kernel of the engine at `source` for CUDA against the stub, in a child process with a kernel
    cache of its own; returns the PTX module that holds it."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update(LD_LIBRARY_PATH=f"{stub}:{env.get('LD_LIBRARY_PATH', '')}", DEM_PTX_DIR=str(out),
               DEM_PTX_STOP_AT=f".entry {KERNEL}", PYTHONPATH=str(source),
               TI_OFFLINE_CACHE_FILE_PATH=str(out / "ticache"), XDG_CACHE_HOME=str(out / "cache"))
    code = ("import dem\nfrom dem.run.precompile import small_model\n"
            "dem.init('cuda')\n"
            f"dem.Simulation(small_model(), dt=1e-5, history_every=10, parallel=True, block_dim={block_dim},"
            f" implicit_damping={implicit}).compile()\n"
            "raise SystemExit('the step kernel was not compiled')\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=str(source), env=env, timeout=timeout,
                       capture_output=True, text=True)
    mods = [p for p in sorted(out.glob("module_*.ptx")) if f".entry {KERNEL}" in p.read_text()]
    if r.returncode != 0 or not mods:
        raise SystemExit(f"ptx_resources: error: the CUDA compile failed (status {r.returncode}):\n"
                         f"{r.stdout[-2000:]}{r.stderr[-4000:]}")
    return mods[-1]


def assemble(ptxas: str, ptx: Path, gpu: str) -> dict:
    """ptxas -v of the PTX module that holds the step kernel, read by :func:`parse_report`."""
    r = subprocess.run([ptxas, "-v", "--gpu-name", gpu, str(ptx), "-o", os.devnull], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"ptx_resources: error: ptxas failed:\n{r.stderr[-4000:]}")
    info = parse_report(r.stderr)
    if "registers" not in info:
        raise SystemExit(f"ptx_resources: error: no {KERNEL} task in ptxas's report:\n{r.stderr[-3000:]}")
    return info


def parse_report(text: str) -> dict:
    """What ptxas -v reports of the step kernel's task: its range-for entry (registers, stack, static shared memory
    [B]) and the loop body the entry calls (``function_body``: its spills are the task's); spill stores and loads [B]
    summed over both. Other entries (the launch's serial prologue) are left out."""
    info, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Function properties for (\S+)", line) or re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            continue
        if current is None or not (current.startswith(KERNEL) and "range_for" in current or current == "function_body"):
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            frame, stores, loads = map(int, m.groups())
            info["spill_stores"] = info.get("spill_stores", 0) + stores
            info["spill_loads"] = info.get("spill_loads", 0) + loads
            info["stack"] = max(info.get("stack", 0), frame)
        m = re.search(r"Used (\d+) registers", line)
        if m and current != "function_body":
            info["registers"] = int(m.group(1))
            m = re.search(r"(\d+) bytes cumulative stack size", line)
            info["stack"] = max(info.get("stack", 0), int(m.group(1)) if m else 0)
            m = re.search(r"(\d+) bytes smem", line)
            info["smem"] = int(m.group(1)) if m else 0
    return info


def occupancy(registers: int, block_dim: int) -> tuple[int, float]:
    """Blocks an SM (by registers, threads and the block limit) and the theoretical occupancy that follows."""
    warps = math.ceil(block_dim / 32)
    per_warp = math.ceil(registers * 32 / REGISTER_UNIT) * REGISTER_UNIT
    blocks = min(SM_REGISTERS // (per_warp * warps), SM_THREADS // (warps * 32), SM_BLOCKS)
    return blocks, blocks * warps / (SM_THREADS // 32)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--block-dim", type=int, nargs="+", default=[128], help="threads a world's block (default 128)")
    ap.add_argument("--gpu", default="sm_90", help="ptxas target (default sm_90: H100, H200)")
    ap.add_argument("--source", default=str(ROOT), help="checkout whose engine is compiled (default this one)")
    ap.add_argument("--ptxas", default=None, help="ptxas binary (default: PATH, then nvidia-cuda-nvcc-cu12's)")
    ap.add_argument("--explicit", action="store_true", help="the explicit-dashpot variant (implicit_damping=False)")
    ap.add_argument("--without", nargs="+", default=[], metavar="STAGE",
                    help=f"compile a copy with these stages taken out of the step ({', '.join(STAGES)})")
    ap.add_argument("--only", nargs="*", default=None, metavar="STAGE",
                    help="compile a copy with all other stages taken out (no name: the kernel's frame alone)")
    ap.add_argument("--keep", default=None, help="keep the PTX modules under this directory")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds a compile may take (default 900)")
    a = ap.parse_args()
    for bd in a.block_dim:
        if bd < 1 or bd > 1024 or bd & (bd - 1):
            ap.error(f"--block-dim must be a power of two from 1 to 1024, got {bd}")
    ptxas = find_ptxas(a.ptxas)
    source = Path(a.source).resolve()
    with tempfile.TemporaryDirectory(prefix="dem_ptx_") as tmp:
        work = Path(a.keep).resolve() if a.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        stub = build_stub(work)
        without = list(a.without) if a.only is None else [k for k in STAGES if k not in a.only]
        if without:
            source = strip(source, work / "stripped", without)
        ver = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        print(f"{KERNEL} of {a.source} for {a.gpu} ({ver}); occupancy for 132 SMs of 65,536 registers, 2,048 threads")
        if without:
            print(f"stages taken out (a copy, for the compiler's report only): {', '.join(without)}")
        print(f"{'block':>5s} {'registers':>9s} {'stack B':>8s} {'spill st/ld B':>14s} {'smem B':>7s} "
              f"{'blocks/SM':>9s} {'occupancy':>9s} {'worlds resident':>15s}")
        for bd in a.block_dim:
            ptx = compile_ptx(source, stub, work / f"bd{bd}", bd, not a.explicit, a.timeout)
            r = assemble(ptxas, ptx, a.gpu)
            blocks, occ = occupancy(r["registers"], bd)
            spills = f"{r.get('spill_stores', 0)}/{r.get('spill_loads', 0)}"
            print(f"{bd:5d} {r['registers']:9d} {r.get('stack', 0):8d} {spills:>14s} {r.get('smem', 0):7d} "
                  f"{blocks:9d} {occ:9.1%} {blocks * SMS:15d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
