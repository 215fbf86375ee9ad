"""Rigid block sliding (no rocking) with Coulomb friction on a base that moves: closed form and numerical.

`closed_form.trapezoid_slip` integrates the slip under a trapezoidal pulse (ramp up, hold, ramp down: a
vehicle braking) piece by piece in closed form; `numerical.slip_history` integrates any sampled a_g(t)
with SciPy's `solve_ivp` and event location. The two must agree (tests/references). Independent of the
DEM engine. Units: times [s], accelerations [m/s²], displacements [m], velocities [m/s]; μ [-].

Modules: pulse (TrapezoidPulse), closed_form (trapezoid_slip), numerical (slip_history).
"""

from validation.sliding.closed_form import SlipSolution, trapezoid_slip
from validation.sliding.numerical import SlipHistory, slip_history
from validation.sliding.pulse import TrapezoidPulse

__all__ = ["SlipHistory", "SlipSolution", "TrapezoidPulse", "slip_history", "trapezoid_slip"]
