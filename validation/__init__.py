"""Reference solutions for `dem`: analytical and independent numerical solvers.

Subpackages are plain NumPy/SciPy and do not depend on the DEM engine, so that the engine can be
judged against them.
"""
