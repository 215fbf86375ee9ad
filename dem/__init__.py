"""dem: a discrete element engine for rocking structures.

Rigid bodies are clumps of overlapping spheres; contacts follow Hertz–Mindlin with viscous dashpots and
Coulomb slip; integration is the PFC-style centred scheme (Itiola & El Shamy 2024, §2). Kernels are Taichi: call
:func:`dem.init` once (or use the ``dem`` command line) before building a model; importing ``dem`` does
not start Taichi.

    import dem
    dem.init("cpu")
    b = dem.ModelBuilder()
    granite = dem.Material.hertz(young=50.7e9, poisson=0.28, friction=0.7, damping_normal=0.15)
    block = dem.box_clump(0.25, 1.0, 0.754, r_core=0.025, r_base=0.005, base_zone=0.15)
    b.add_clump(block, material=granite, mass=503.0, position=(0, 0, 0.5))
    b.add_wall((0, 0, 0), (0, 0, 1), material=granite)
    sim = dem.Simulation(b.finalize(), dt=1e-5, history_every=100)
    rows = sim.advance(10_000)
"""

import os as _os
from importlib import import_module as _import_module

# Taichi and quadrants print a banner when they are imported; dem's commands and scripts say what they run
# themselves (ENABLE_TAICHI_HEADER_PRINT=1 or ENABLE_QUADRANTS_HEADER_PRINT=1 restores it).
_os.environ.setdefault("ENABLE_TAICHI_HEADER_PRINT", "False")
_os.environ.setdefault("ENABLE_QUADRANTS_HEADER_PRINT", "False")

from .model.arch import arch  # noqa: E402  (after the environment default above)
from .model.assembly import Capital, Piece, column, stack  # noqa: E402
from .model.box_clump import box_clump  # noqa: E402
from .model.clump import Box, ClumpTemplate, single_sphere, spheres  # noqa: E402
from .model.drum_clump import drum_clump  # noqa: E402
from .model.masonry_wall import masonry_wall  # noqa: E402
from .model.materials import ContactLaw, Material  # noqa: E402
from .model.mesh_clump import mesh_clump  # noqa: E402
from .model.prism_clump import prism_clump  # noqa: E402
from .model.walls import WallMotion  # noqa: E402
from .run.options import RunOptions  # noqa: E402
from .scenes.scene import Param, Scene, build_scene  # noqa: E402

# The names whose modules import Taichi are loaded on first use (PEP 562), so that `import dem`,
# `dem --help`, `dem scenes` and the post-processing modules do not import Taichi (about a second, and its
# banner). The names above come from modules without Taichi. The layers, bottom to top (docs/architecture.md):
# model, records, device, physics, output, scenes, run, sweep, cli; this module re-exports the public API.
_LAZY = {
    "Model": "model.model", "ModelBuilder": "model.model", "RunResult": "run.driver",
    "SimulationUnstable": "run.driver", "run_scene": "run.driver", "init": "device.runtime",
    "Simulation": "physics.simulation", "estimate_critical_timestep": "model.timestep",
    "WorldBatch": "run.worlds", "build_worlds": "run.worlds", "run_worlds": "run.worlds",
}
# Old public spellings, kept working for a release with a DeprecationWarning (README, "Names"): dem.wall built a
# masonry wall while every other "wall" is a plane boundary; dem.Worlds was one of four classes called World.
_RENAMED = {"wall": "masonry_wall", "Worlds": "WorldBatch"}


def __getattr__(name: str):
    if name in _RENAMED:
        _warn_renamed(f"dem.{name}", f"dem.{_RENAMED[name]}")
        name = _RENAMED[name]
        if name in globals():
            return globals()[name]
    if name in _LAZY:
        value = getattr(_import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'dem' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


from .version import __version__ as __version__  # noqa: E402
from .version import warn_renamed as _warn_renamed  # noqa: E402

__all__ = [
    "Box", "Capital", "ClumpTemplate", "ContactLaw", "Material", "Model", "ModelBuilder", "Param", "Piece",
    "RunOptions", "RunResult", "Scene", "Simulation", "SimulationUnstable", "WallMotion", "WorldBatch", "arch",
    "box_clump", "build_scene", "build_worlds", "column", "drum_clump", "estimate_critical_timestep", "init",
    "masonry_wall", "mesh_clump", "prism_clump", "run_scene", "run_worlds", "single_sphere", "spheres", "stack",
]
