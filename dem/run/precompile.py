"""Compile ahead: every kernel an entry point of the engine needs, before any run needs it (``dem compile``).

For a cluster image, a CI cache or a Dask worker's start-up: after ``dem compile`` the kernels are in the kernel
cache (Taichi's offline cache, ``~/.cache/taichi`` unless ``TI_OFFLINE_CACHE_FILE_PATH`` says otherwise), and a
run loads them in seconds. A kernel's compiled form depends on the backend, the precision and its compile-time
arguments, not on the model: the kernels are compiled against a small model of two stacked blocks on a floor
(body pairs and walls: every stage of the step runs).

Entry points (ENTRY_POINTS):
    run       the serial step (``dem run``, the CPU's default launch path); batches of worlds on the serial path
              (``dem run --vary``, ``dem.run_worlds``) launch the same compiled kernel
    blocks    the block path's step (the GPU default; ``--parallel`` on the CPU), for batches of up to 8 worlds
              on SPIR-V backends (one more compile per power of two beyond, solver.world_slots)
    frames    the contact export of ParaView frames and snapshots (``--vtk``, dem.output.snapshot)
    explicit  the serial step with explicit dashpots (``implicit_damping=False``)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..device import startup
from ..model.box_clump import box_clump
from ..model.materials import Material
from ..model.model import ModelBuilder

ENTRY_POINTS = {
    "run": "serial step: single runs and batches of worlds",
    "blocks": "block-path step (GPU default; --parallel)",
    "frames": "contact export of frames and snapshots (--vtk)",
    "explicit": "serial step with explicit dashpots",
}


def default_entries(arch: str) -> list[str]:
    """What a run on `arch` needs by default: the serial step and the frames on the CPU, the block path and the
    frames elsewhere."""
    return ["run", "frames"] if arch == "cpu" else ["blocks", "frames"]


@dataclass
class Compiled:
    """One entry point ready: its name, the kernel variant (startup.compile_notice's key), the wall time [s] and
    whether it was a compile (else a load from the cache)."""

    entry: str
    variant: str
    seconds: float
    compiled: bool


def small_model():
    """Two stacked blocks on a floor (body pairs, walls and an interface probe: every stage of a step)."""

    mat = Material.hertz(shear_modulus=1e9, poisson=0.25, friction=0.5, damping_normal=0.2, damping_shear=0.2)
    tpl = box_clump(0.1, 0.1, 0.1, r_core=0.02)
    low = float(np.min(tpl.centers[:, 2] - tpl.radii))
    b = ModelBuilder()
    lower = b.add_clump(tpl, material=mat, mass=2.0, position=(0, 0, -low), name="lower")
    upper = b.add_clump(tpl, material=mat, mass=1.0, position=(0, 0, -low + 0.1), name="upper")
    floor = b.add_wall((0, 0, 0), (0, 0, 1), material=mat, name="floor")
    b.add_interface("top", upper, other=lower)
    b.add_interface("base", lower, wall=floor)
    return b.finalize()


def _simulation(entry: str):
    from ..physics.simulation import Simulation

    return Simulation(small_model(), dt=1e-5, history_every=10, parallel=(entry == "blocks"),
                      implicit_damping=(entry != "explicit"))


def compile_entry(entry: str) -> Compiled:
    """Compile (or load from the cache) the kernels of one entry point, with the start-up notice's record of
    what this machine has compiled kept up to date."""

    if entry not in ENTRY_POINTS:
        raise ValueError(f"entry point must be one of {sorted(ENTRY_POINTS)}, got {entry!r}")
    sim = _simulation(entry)
    variant = sim.kernel_variant() + ("-frames" if entry == "frames" else "")
    cache_dir = startup.kernel_cache_dir()
    c0, t0 = startup.compile_clock(), time.perf_counter()
    if entry == "frames":
        from ..output.snapshot import snapshot

        snapshot(sim)
    else:
        sim.compile()
    took, c1 = time.perf_counter() - t0, startup.compile_clock()
    # what the toolchain's compile clock says (dem.device.startup): only compiles are kept as estimates
    compiled = startup.was_compiled(took, None if c0 is None or c1 is None else c1 - c0)
    startup.remember(variant, cache_dir, took if compiled else None)
    return Compiled(entry, variant, took, compiled)


def compile_entries(entries: list[str], *, progress: bool = True) -> list[Compiled]:
    """Compile the kernels of several entry points in turn, with a progress bar (entry points done / to do)."""
    bad = [e for e in entries if e not in ENTRY_POINTS]
    if bad:
        raise ValueError(f"entry point must be one of {sorted(ENTRY_POINTS)}, got {bad[0]!r}")
    done = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(entries), unit="entry", desc="compiling kernels", leave=True)
    try:
        for e in entries:
            if bar is not None:
                bar.set_postfix_str(f"{e}: {ENTRY_POINTS[e]}")
            done.append(compile_entry(e))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return done
