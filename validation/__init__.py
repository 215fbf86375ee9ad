"""Reference solutions for `dem`: analytical and independent numerical solvers, and the validation that uses them.

The solver subpackages (rocking, drop_shock, impact, deformable, ...) are plain NumPy/SciPy and do not depend on
the DEM engine, so that the engine can be judged against them. Apart from them: ``cases`` (the validation cases:
DEM runs compared with the solvers and the paper, run by ``dem validate``) and ``data`` (the paper's reference
values).
"""
