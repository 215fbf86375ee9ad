"""A rigid block sliding on a moving base (validation/sliding): closed form vs hand vs solve_ivp.

Model: stick while |a_g| ≤ μg, slide with ü = −a_g − μg sign(u̇), stop at u̇ = 0 (u relative to the base).
"""

import numpy as np
import pytest

from validation.sliding import TrapezoidPulse, slip_history, trapezoid_slip

G = 9.81
# Closed form evaluated in double precision, against the same algebra by hand: a few ulps.
ROUNDING = 1e-12
# solve_ivp (DOP853, rtol 1e-11, atol 1e-13) over a few hundred steps, with kinks of a_g at the samples:
# the slip accumulates ≲ 1e-11 per step; measured |Δ|/slip ≤ 2e-10 on the pulses below. 1e-8 leaves room.
SOLVER_REL = 1e-8
# Same, absolute on u(t) [m] and u̇(t) [m/s] along the history (measured ≤ 3e-10 m, 5e-10 m/s).
SOLVER_ABS = 1e-8


def test_rectangular_pulse_by_hand():
    # Base acceleration −A for T, then 0 (rise = fall = 0). The block slides forwards from t = 0 with
    # ü = A − μg for T (u = (A − μg)T²/2, u̇ = (A − μg)T), then decelerates at μg for (A − μg)T/(μg),
    # adding u̇²/(2μg): slip = A(A − μg)T²/(2μg) (Newmark 1965), stop at t = A T/(μg).
    amp, dur, mu = 6.0, 0.5, 0.3
    sol = trapezoid_slip(TrapezoidPulse(-amp, 0.0, dur, 0.0), mu)
    assert sol.slip == pytest.approx(amp * (amp - mu * G) * dur**2 / (2 * mu * G), rel=ROUNDING)
    assert sol.start == 0.0
    assert sol.stop == pytest.approx(amp * dur / (mu * G), rel=ROUNDING)
    assert sol.peak_speed == pytest.approx((amp - mu * G) * dur, rel=ROUNDING)
    assert sol.displacement(dur) == pytest.approx((amp - mu * G) * dur**2 / 2, rel=ROUNDING)
    assert sol.velocity(dur) == pytest.approx((amp - mu * G) * dur, rel=ROUNDING)


def test_no_slip_below_friction():
    # |a_g| ≤ μg throughout: friction holds the block (Shenton 1996's rest).
    pulse = TrapezoidPulse(-2.0, 0.1, 0.5, 0.2)
    assert trapezoid_slip(pulse, 0.3).slip == 0.0
    assert slip_history(*pulse.samples(1e-3), 0.3).slip == 0.0


PULSES = [
    (TrapezoidPulse(-6.0, 0.1, 0.5, 0.2), 0.3),  # stops after the pulse
    (TrapezoidPulse(-6.0, 0.3, 0.0, 0.4), 0.3),  # triangle
    (TrapezoidPulse(4.0, 0.05, 1.0, 0.05, start=0.2), 0.2),  # forward pulse: slips backwards
    (TrapezoidPulse(-6.0, 0.1, 0.5, 2.0), 0.3),  # long ramp-down, stops after it
    (TrapezoidPulse(-6.0, 0.1, 0.1, 2.0), 0.5),  # stops during the ramp-down
]


@pytest.mark.parametrize(("pulse", "mu"), PULSES)
def test_closed_form_matches_the_numerical_solution(pulse, mu):
    closed = trapezoid_slip(pulse, mu)
    num = slip_history(*pulse.samples(1e-3), mu)
    assert num.slip == pytest.approx(closed.slip, rel=SOLVER_REL)
    assert len(num.slides) == 1
    assert num.slides[0][0] == pytest.approx(closed.start, abs=1e-12)  # the exact crossing |a_g| = μg
    assert num.slides[0][1] == pytest.approx(closed.stop, rel=SOLVER_REL)
    np.testing.assert_allclose(num.u, closed.displacement(num.t), atol=SOLVER_ABS)
    np.testing.assert_allclose(num.v, closed.velocity(num.t), atol=SOLVER_ABS)


def test_stop_inside_the_ramp_down():
    # With a long ramp-down the block stops while |a_g| is still > 0 but below μg.
    pulse, mu = PULSES[4]
    sol = trapezoid_slip(pulse, mu)
    assert pulse.knots[2] < sol.stop < pulse.knots[3]
    assert 0.0 < abs(pulse(sol.stop)) < mu * G


def test_two_opposite_pulses_slide_back_and_forth():
    # A braking pulse, then, after the block has stopped, an accelerating one: two slides in opposite
    # directions, each as the closed form of its own pulse gives it.
    mu = 0.3
    first, second = TrapezoidPulse(-6.0, 0.1, 0.3, 0.1), TrapezoidPulse(5.0, 0.1, 0.2, 0.1, start=2.0)
    assert trapezoid_slip(first, mu).stop < second.start
    t1, a1 = first.samples(1e-3, t_end=1.999)
    t2, a2 = second.samples(1e-3)
    num = slip_history(np.concatenate([t1, t2]), np.concatenate([a1, a2]), mu)
    expected = trapezoid_slip(first, mu).slip + trapezoid_slip(second, mu).slip
    assert trapezoid_slip(first, mu).slip > 0.0 > trapezoid_slip(second, mu).slip
    assert len(num.slides) == 2
    assert num.slip == pytest.approx(expected, rel=SOLVER_REL)
