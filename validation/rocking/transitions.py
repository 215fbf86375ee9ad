"""Where the rigid block's motion changes state, shared by the step-by-step solvers (solver.py, adaptive.py)
and the batched one (batch.py): the first uplift inside a step, and when a chattering block is put to rest.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from validation.rocking.block import RockingBlock
from validation.rocking.equations import angular_acceleration
from validation.rocking.impact_time import chatter_duration

CHATTER_WINDOW = 0.1
"""A chattering block (ü_g pushing it back to θ = 0 on both sides) is put to rest once its remaining
impacts would accumulate within CHATTER_WINDOW/p [s] (checked at every impact, whatever the method or
step; and, for a bounce that returns within one step, also once they fit in that step). Such bounces are
tiny: a sequence lasting T under a deceleration θ̈ <= 2 p² sin α starts at |θ̇| <= T θ̈ (1 − e)/2, so its
amplitude is below T² θ̈ (1 − e)²/8 <= 0.0025 (1 − e)² α for T = 0.1/p (1e-4 α at e = 0.8)."""


def uplift_time(acc, thr: float, t0: float, t1: float, a0: float, a1: float) -> float:
    """First t [s] in (t0, t1] with |ü_g(t)| = thr [m/s²], given |a0| <= thr < |a1| at the ends.

    The root of the linear interpolant first (exact for sampled records, and the same arithmetic as
    the batched solver), Brent's method when ü_g is not linear on the step.
    """
    target = math.copysign(thr, a1)
    t_lin = t0 + (t1 - t0) * (target - a0) / (a1 - a0)
    if abs(abs(float(acc(t_lin))) - thr) <= 1e-13 * thr:
        return t_lin
    return brentq(lambda s: abs(float(acc(s))) - thr, t0, t1, xtol=1e-14, rtol=1e-15)


def chatter_settles(block: RockingBlock, linear: bool, accel, side, speed):
    """True where a block leaving θ = 0 on `side` (±1) at |θ̇| = speed [rad/s] under ü_g = accel [m/s²]
    is chattering — |ü_g| <= g tan α pushes it back to θ = 0 on both sides — and its impacts would
    accumulate within CHATTER_WINDOW/p (impact_time.chatter_duration). Floats or arrays."""
    kw = {"p": block.p, "alpha": block.alpha, "g": block.g, "linear": linear}
    here = np.abs(angular_acceleration(0.0, side, accel, **kw))
    other = np.abs(angular_acceleration(0.0, -side, accel, **kw))
    t_acc = chatter_duration(speed, here, other, block.restitution)
    return (np.abs(accel) <= block.uplift_acceleration) & (t_acc <= CHATTER_WINDOW / block.p)
