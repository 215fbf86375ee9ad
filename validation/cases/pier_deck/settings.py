"""Settings, tolerances and the paper's statements for the pier–deck case (validation/cases/pier_deck/__init__.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

NAME = "pier_deck"
TITLE = "Pier–deck bridge at 0.1 g and 0.5 g: rocking frame and 004's statements (004 §5.2–5.5, Figs. 13–35)"

PIERS = 4
FILTER_HZ = 5.0
"""Low-pass cut-off [Hz] for the acceleration peaks (4th-order Butterworth, forward and backward): the
recorded accelerations carry impact spikes a few ms wide whose height depends on the record interval; the
rocking response of a 1 Hz excitation lies below 5 Hz. Raw peaks are reported too."""

NO_UPLIFT = 0.01
"""|θ| ÷ α below which a pier has not uplifted (elastic tilt on its contacts: 0.0034 α measured at 0.1 g)."""

TOL_STATIC = 1e-3
"""After settling: interface V ÷ static load within this of 1, |ecc| below it (exact statics; the deck
rests on 4 × 546 contacts)."""

TOL_MOMENT = 0.02
"""Moment balance of each pier about its centre of mass, I_G θ̈ = Σ interface moments, relative to the
largest h·(|H_base| + |H_top|): the resultants, eccentricities and θ̈ are sampled every 5 ms (θ̈ by
differencing ω) from different stages of the step; measured 0.8 % at 0.1 g."""

TOL_INPUT = 1e-3
"""Recorded base acceleration vs Itiola & El Shamy 2024, Eq. 42 [÷ g]: the base follows a velocity table
(dem.scenes.tools.shaking)."""

TOL_ENERGY = 2e-3
"""Largest relative energy-balance error before any overturning (Itiola & El Shamy 2024, §4.2; 60,000 spheres at Δt =
1e-4 s with impacts of a 612 t deck: measured 1.3e-3)."""

TOL_FRAME_E = 1e-9
"""Frame parameters from the scene vs validation.rocking.frame (same formulas, independent code)."""

TOL_SWING = 0.03
"""One swing ahead [÷ α] with the restitution fitted to the DEM frame's swings (see single_pier.settings.TOL_SWING)."""

PAPER = {
    "0.1g_acc_reduction": (0.0, 0.10, "004 §5.2, Fig. 13: piers and deck at or slightly below 0.1 g (0–10 %)"),
    "0.1g_base_H_kN": (120.0, "004 §5.3, Fig. 18: ≈ 120 kN per pier"),
    "0.1g_top_H_kN": (30.0, "004 §5.3, Fig. 22: between ≈ −30 and 30 kN"),
    "0.1g_top_V": (0.99, 1.025, "004 §5.3, Fig. 23"),
    "0.1g_base_ecc": (0.1, "004 §5.3, Fig. 20: within ±0.1"),
    "0.1g_top_ecc": (0.05, "004 §5.3, Fig. 24: ≈ ±0.05"),
    "0.1g_friction": (0.1, "004 §5.3, Figs. 21, 25: below 0.1"),
    "0.5g_pier_reduction": (0.60, 0.70, "004 §5.4, Fig. 26: 60–70 %"),
    "0.5g_deck_reduction": (0.60, "004 §5.4 and §6: ≈ 60 %"),
    "0.5g_deck_slide_m": (0.06, "004 §5.4, Fig. 30: ≈ 6 cm at the end"),
    "0.5g_pier_slide_m": ((0.06, 0.01, 0.01, 0.06), "004 §5.4, Fig. 30: piers 1, 4 ≈ 6 cm, 2, 3 ≈ 1 cm"),
    "0.5g_deck_uplift_m": (0.04, "004 §5.4, Fig. 31: ≈ 40 mm during shaking"),
    "0.5g_base_H_kN": (1000.0, "004 §5.5, Fig. 32: up to ≈ 1000 kN"),
    "0.5g_base_V": (0.5, 2.2, "004 §5.5, Fig. 33: 0.5–2.2 (piers 2, 3)"),
    "0.5g_top_V": (3.2, "004 §5.5, Fig. 35: spikes up to ≈ 3.2, and 0 (separation)"),
}
"""Itiola & El Shamy's (2024) statements about the bridge, with where they are."""


R1_FINE = 1.6 / 26
"""r1 [m] of the finer interface packing, 61.5 mm. Before issue 15 the scene could put the piers in register
with the deck's bottom lattice only when (1.6 m − 2 r1) was a whole number of spacings 1.5 r1 (r1 = 80 mm and
1.6/26 m, not 60, 100 or 120 mm, for which the deck rested on two piers only); the deck's bottom lattice now
takes the piers' top spacing exactly (box_clump's zone_step), for any r1. 1.6/26 m is kept for continuity."""


@dataclass(frozen=True)
class RunSpec:
    """One DEM run: label, scene overrides, t_end [s]."""

    label: str
    overrides: dict
    t_end: float
    gate_swings: bool = False


@dataclass(frozen=True)
class Settings:
    """base: overrides of every run (packing, settling); low: the 0.1 g run; high: the 0.5 g run (None: not
    run); variants: 0.5 g runs with other parameters (the overturning investigation); fit_swings: fit the
    frame restitution to the DEM's swings."""

    base: dict
    low: RunSpec
    high: RunSpec | None
    variants: tuple[RunSpec, ...] = field(default=())
    fit_swings: bool = True


FULL = Settings(
    {},
    RunSpec("0.1 g", {"pga_g": 0.1}, 18.0),
    RunSpec("0.5 g", {"pga_g": 0.5}, 18.0, gate_swings=True),
    (RunSpec("0.5 g, β = 0.15", {"pga_g": 0.5, "beta_n": 0.15, "beta_s": 0.15}, 30.0, gate_swings=True),
     RunSpec("0.5 g, β = 0.05", {"pga_g": 0.5, "beta_n": 0.05, "beta_s": 0.05}, 18.0),
     RunSpec("0.5 g, r1 = 61.5 mm", {"pga_g": 0.5, "r_base": R1_FINE}, 20.0)),
)
QUICK = Settings({"r_base": 0.2, "r_core": 0.4, "zone": 0.4, "settle": 0.5}, RunSpec("0.1 g", {"pga_g": 0.1}, 2.5),
                 None, (), False)
