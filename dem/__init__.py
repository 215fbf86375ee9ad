"""dem: a discrete element engine for rocking structures.

Rigid bodies are clumps of overlapping spheres; contacts follow Hertz–Mindlin with viscous dashpots and
Coulomb slip; integration is the PFC-style centred scheme (seed 004 §2). Kernels are Taichi: call
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

from .box_clump import box_clump
from .clump import Box, ClumpTemplate, single_sphere, spheres
from .materials import ContactLaw, Material
from .model import Model, ModelBuilder
from .run import RunResult, SimulationUnstable, run_scene
from .runtime import init
from .scene import Param, Scene, build_scene
from .solver import Simulation
from .timestep import estimate_critical_timestep
from .walls import WallMotion

__version__ = "0.1.0"

__all__ = [
    "Box", "ClumpTemplate", "ContactLaw", "Material", "Model", "ModelBuilder", "Param", "RunResult", "Scene",
    "Simulation", "SimulationUnstable", "WallMotion", "box_clump", "build_scene", "estimate_critical_timestep",
    "init", "run_scene", "single_sphere", "spheres",
]
