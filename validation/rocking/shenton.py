"""Shenton's criteria for the initiation of rest, slide, rock and slide-rock modes (Shenton 1996).

H. W. Shenton III, "Criteria for initiation of slide, rock, and slide-rock rigid-body modes",
J. Eng. Mech. 122 (1996) 690–693 (cited by Itiola & El Shamy 2024, §5.1). A block of width 2b, height 2h at rest on a
base with horizontal acceleration ü_g and friction coefficient μ, effective gravity g + ü_v:

- rest        |ü_g| <= μ g and |ü_g| <= (b/h) g;
- slide       μ < b/h and |ü_g| > μ g (the base slips before the block can tip);
- rock        μ > b/h and (b/h) g < |ü_g| <= A_sr g: tipping about a corner that friction holds;
- slide-rock  μ > b/h and |ü_g| > A_sr g: the corner slips as the block tips.

A_sr follows from the corner reactions at the onset of rocking (θ = θ̇ = 0, I_O = (4/3) m R²):
θ̈ = 3(A h − b) g/(4R²), F = m(A g − h θ̈), N = m(g + b θ̈), and |F| <= μ N gives, with r = b/h,
A <= [μ(r² + 4) − 3r]/(4r² + 1 − 3μr) (no limit when the denominator is <= 0); at μ = r it equals r.
"""

from __future__ import annotations

import enum
import math

from validation.rocking._checks import finite, non_negative, positive
from validation.rocking.closed_form import STANDARD_GRAVITY


class InitiationMode(enum.Enum):
    """Mode a block at rest enters under a base acceleration (Shenton 1996)."""

    REST = "rest"
    SLIDE = "slide"
    ROCK = "rock"
    SLIDE_ROCK = "slide-rock"


def slide_rock_limit(mu: float, width: float, height: float) -> float:
    """Largest |ü_g|/g [-] for pure rocking (no corner slip) at the onset, A_sr; inf if none (μ > b/h)."""
    m = non_negative("mu", mu)
    r = positive("width", width) / positive("height", height)
    den = 4.0 * r * r + 1.0 - 3.0 * m * r
    if den <= 0.0:
        return math.inf
    return (m * (r * r + 4.0) - 3.0 * r) / den


def initiation_mode(
    mu: float,
    width: float,
    height: float,
    accel: float,
    *,
    g: float = STANDARD_GRAVITY,
    accel_vertical: float = 0.0,
) -> InitiationMode:
    """Shenton's mode for friction μ [-], block width × height [m], base acceleration accel [m/s²].

    accel_vertical [m/s²]: upward base acceleration (effective gravity g + ü_v, which must stay > 0).
    At the boundary μ = b/h sliding is assumed (the rocking threshold is not exceeded first).
    """
    m = non_negative("mu", mu)
    r = positive("width", width) / positive("height", height)
    g_eff = positive("g + accel_vertical", positive("g", g) + finite("accel_vertical", accel_vertical))
    a = abs(finite("accel", accel)) / g_eff
    if a <= min(m, r):
        return InitiationMode.REST
    if m <= r:
        return InitiationMode.SLIDE
    return InitiationMode.ROCK if a <= slide_rock_limit(m, width, height) else InitiationMode.SLIDE_ROCK
