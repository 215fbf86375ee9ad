"""Limit analysis of masonry arches of rigid voussoirs (no tension, no sliding), independent of the DEM engine.

Heyman's (1966) three assumptions make the static theorem exact: the collapse load factor λ (held horizontal
base acceleration ÷ g) is the largest λ for which a thrust line in equilibrium with gravity and λ × the
weights lies inside every joint. `limit_analysis` solves that as a linear program (SciPy `linprog`,
HiGHS dual simplex; Livesley 1978); `mechanism` gives the same λ by virtual work on the four-hinge
mechanism the LP finds (Oppenheim 1992); `min_thickness` bisects for the least t/R that stands under its
own weight (Milankovitch 1907: 0.1075 for the semicircular arch with radial joints as n → ∞).

Horizontal load: Alexakis & Makris (2014, Archive of Applied Mechanics 84) give the least t/R of circular
arches for a given λ = ε; their numbers were not available here, so the tests check λ by equilibrium, by
virtual work and by its limits (λ = b/h for one block; λ → 0 at the least thickness) instead. Their
abstract notes that with vertical instead of radial cuts the arch fails at a slightly lower λ: the
joints here are radial.

Units: lengths [m], angles [rad], weights and forces [N], moments [N·m], density [kg/m³], g [m/s²];
λ dimensionless. The arch lies in the x–z plane, z up, the load λW acts along +x.

Modules: sections (areas and centroids), assembly (blocks and joints), builders (`arch`, `pier`),
limit_analysis, mechanism, min_thickness.
"""

from validation.arch.assembly import GROUND, Assembly, Block, Joint
from validation.arch.builders import arch, pier
from validation.arch.limit_analysis import LimitResult, collapse_load_factor, equilibrium_residual
from validation.arch.mechanism import chain_hinge_load_factor
from validation.arch.min_thickness import (
    HEYMAN_T_OVER_R,
    MILANKOVITCH_T_OVER_R,
    MinThickness,
    minimum_thickness,
    stands,
)

__all__ = [
    "GROUND",
    "HEYMAN_T_OVER_R",
    "MILANKOVITCH_T_OVER_R",
    "Assembly",
    "Block",
    "Joint",
    "LimitResult",
    "MinThickness",
    "arch",
    "chain_hinge_load_factor",
    "collapse_load_factor",
    "equilibrium_residual",
    "minimum_thickness",
    "pier",
    "stands",
]
