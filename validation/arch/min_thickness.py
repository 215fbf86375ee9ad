"""Least thickness of a circular arch of voussoirs that stands under its own weight (λ = 0), by bisection.

The literature value for the semicircular arch with radial joints is t/R = 0.1075 (Milankovitch 1907,
"Theorie der Druckkurven", Zeitschrift für Mathematik und Physik 55, 1–27; the first complete solution, as
Makris & Alexakis 2013, Archive of Applied Mechanics 83, 1511–1533, abstract, state). Milankovitch's arch is
continuous: a hinge may open at any radial section, i.e. n → ∞ voussoirs. Heyman's (1969, "The safety of
masonry arches", Int. J. Mech. Sci. 11, 363–385) closed form gives the slightly lower t/R ≈ 0.106, an
approximation (Cocchetti, Colasante & Rizzi 2011, Applied Mechanics Reviews 64, 050802). With vertical
instead of radial joints the least thickness is 0.1095 (Makris & Alexakis 2013); it depends on the cuts.

With n finite, the thrust line need only lie inside the n + 1 joints, not inside every section between
them, so t_min(n) ≤ t_min(∞), approached as n grows, not monotonically: what matters is how near a joint
falls to the continuous arch's haunch hinge. Measured here (bisection to 1e-8): n = 4 and 8: 0.100861,
16: 0.107237, 64: 0.107394, 96: 0.107477, 128: 0.107468, 256: 0.107469, 512: 0.107478 (haunch hinges at
54.49° from the crown at n = 512; the literature quotes ≈ 54.5° for the continuous arch, e.g. Cocchetti
et al. 2011, not checked against a copy here). With n ≤ 3 the symmetric funicular polygon through the
joint centres exists, and the arch stands at any thickness.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from validation.arch.builders import arch
from validation.arch.limit_analysis import LimitResult, collapse_load_factor

MILANKOVITCH_T_OVER_R = 0.1075
"""Least t/R [-] of the semicircular arch with radial joints, n → ∞ (Milankovitch 1907; Makris & Alexakis 2013)."""

HEYMAN_T_OVER_R = 0.106
"""Heyman's (1969) approximate least t/R [-] of the semicircular arch."""


@dataclass(frozen=True)
class MinThickness:
    """t_over_r: least thickness ÷ centre-line radius [-] found (feasible side of the bracket);
    bracket: (infeasible, feasible) t/R [-] at the end of the bisection; limit: the LP at t_over_r (λ = 0)."""

    t_over_r: float
    bracket: tuple[float, float]
    limit: LimitResult


def stands(t_over_r: float, n_voussoirs: int, *, embrace: float = math.pi, load_factor: float = 0.0) -> bool:
    """Whether the arch of centre-line radius 1 m, thickness t/R [-], n voussoirs, embrace [rad] stands at λ [-]."""
    return collapse_load_factor(arch(1.0, t_over_r, n_voussoirs, embrace=embrace), load_factor=load_factor).feasible


def minimum_thickness(n_voussoirs: int, *, embrace: float = math.pi, load_factor: float = 0.0,
                      lo: float = 1e-3, hi: float = 1.0, tol: float = 1e-7) -> MinThickness:
    """Least t/R [-] of a circular arch of n voussoirs with radial joints standing at λ [-] (0: own weight).

    Bisection on feasibility of the LP (`collapse_load_factor` with λ fixed) between t/R = lo (must fail) and
    hi (must stand), to an interval width tol [-]. Radius R and depth drop out: the weights scale together.
    """
    if stands(lo, n_voussoirs, embrace=embrace, load_factor=load_factor):
        raise ValueError(f"the arch already stands at t/R = lo = {lo!r}: lower lo")
    if not stands(hi, n_voussoirs, embrace=embrace, load_factor=load_factor):
        raise ValueError(f"the arch does not stand at t/R = hi = {hi!r}: raise hi (t/R < 2)")
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if stands(mid, n_voussoirs, embrace=embrace, load_factor=load_factor):
            hi = mid
        else:
            lo = mid
    limit = collapse_load_factor(arch(1.0, hi, n_voussoirs, embrace=embrace), load_factor=load_factor)
    return MinThickness(hi, (lo, hi), limit)
