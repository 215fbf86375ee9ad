"""dem: a discrete element engine for rocking structures.

Rigid bodies are clumps of overlapping spheres; contacts follow Hertz-Mindlin with viscous dashpots and
Coulomb slip; integration is the PFC-style centred scheme. Kernels are Taichi; call
:func:`dem.init` (or use the ``dem`` command line) once before building a model.
"""

__version__ = "0.1.0"
