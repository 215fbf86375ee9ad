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
    sim = dem.Simulation(b.finalize(), dt=1e-5, record_every=100)
    rows = sim.advance(10_000)
"""

import os as _os
from importlib import import_module as _import_module

# Taichi and quadrants print a banner when they are imported; dem's commands and scripts say what they run
# themselves (ENABLE_TAICHI_HEADER_PRINT=1 or ENABLE_QUADRANTS_HEADER_PRINT=1 restores it).
_os.environ.setdefault("ENABLE_TAICHI_HEADER_PRINT", "False")
_os.environ.setdefault("ENABLE_QUADRANTS_HEADER_PRINT", "False")

from .box_clump import box_clump  # noqa: E402  (after the environment default above)
from .clump import Box, ClumpTemplate, single_sphere, spheres  # noqa: E402
from .materials import ContactLaw, Material  # noqa: E402
from .scene import Param, Scene, build_scene  # noqa: E402
from .walls import WallMotion  # noqa: E402

# The names whose modules import Taichi are loaded on first use (PEP 562), so that `import dem`,
# `dem --help`, `dem scenes` and the post-processing modules do not import Taichi (about a second, and its
# banner). The names above come from modules without Taichi; box_clump must be imported eagerly anyway:
# importing the submodule dem.box_clump would otherwise bind the module, not the function, to the name.
_LAZY = {
    "Model": "model", "ModelBuilder": "model", "RunResult": "run", "SimulationUnstable": "run", "run_scene": "run",
    "init": "runtime", "Simulation": "solver", "estimate_critical_timestep": "timestep",
    "Worlds": "worlds", "build_worlds": "worlds", "run_worlds": "worlds",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(_import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'dem' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "Box", "ClumpTemplate", "ContactLaw", "Material", "Model", "ModelBuilder", "Param", "RunResult", "Scene",
    "Simulation", "SimulationUnstable", "WallMotion", "Worlds", "box_clump", "build_scene", "build_worlds",
    "estimate_critical_timestep", "init", "run_scene", "run_worlds", "single_sphere", "spheres",
]
