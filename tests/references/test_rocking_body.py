"""The rigid rocking solvers take any rigid body as m, R, α and I_O (issue 31, item 5:
validation.rocking.RockingBlock.from_body, body_free_rocking, body_base_excited): a rectangle given so is the
rectangle of free_rocking and base_excited, to round-off; a body of more inertia about its pivot than the
rectangle of its R rocks slower, as p² = m g R / I_O says (Housner 1963)."""

import math

import numpy as np
import pytest

from validation.rocking import (
    RockingBlock,
    base_excited,
    body_base_excited,
    body_free_rocking,
    body_restitution,
    free_rocking,
    sine_pulse,
)

W, H, M = 0.4, 1.2, 250.0
R = 0.5 * math.hypot(W, H)
ALPHA = math.atan2(W, H)


def test_a_rectangle_given_as_a_body_is_the_rectangle():
    body = RockingBlock.from_body(M, R, ALPHA, 4.0 / 3.0 * M * R * R)
    rect = RockingBlock.rectangle(W, H)
    assert body.p == pytest.approx(rect.p, rel=1e-15) and body.restitution == pytest.approx(rect.restitution, rel=1e-14)
    a = body_free_rocking(body, 0.1, 3.0, dt=1e-3)
    b = free_rocking(W, H, 0.1, 3.0, dt=1e-3)
    assert np.allclose(a.theta, b.theta, rtol=0, atol=1e-9) and len(a.impact_times) == len(b.impact_times) > 3
    pulse = sine_pulse(0.6 * 9.81, 0.3)  # a 0.3 s pulse of 0.6 g: it rocks, with impacts, and stands
    c = body_base_excited(body, pulse, 2.0, dt=1e-3)
    d = base_excited(W, H, pulse, 2.0, dt=1e-3)
    assert np.allclose(c.theta, d.theta, rtol=0, atol=1e-9) and len(c.impact_times) > 3 and not c.overturned


def test_more_inertia_rocks_slower():
    """I_O twice the rectangle's: p smaller by √2, the quarter period (θ0 ≪ α: (1/p) arccosh(1/(1 − θ0/α)))
    longer by √2, and the impact loses more (e = 1 − (2 m R²/I_O) sin²α nearer 1: less of I_O is in the arm)."""
    i_o = 2 * 4.0 / 3.0 * M * R * R
    body = RockingBlock.from_body(M, R, ALPHA, i_o)
    rect = RockingBlock.rectangle(W, H)
    assert body.p == pytest.approx(rect.p / math.sqrt(2), rel=1e-14)
    t_body = body_free_rocking(body, 0.01, 2.0, dt=1e-4).impact_times[0]
    t_rect = body_free_rocking(rect, 0.01, 2.0, dt=1e-4).impact_times[0]
    assert t_body == pytest.approx(math.sqrt(2) * t_rect, rel=1e-6)
    assert body.restitution == pytest.approx(body_restitution(M, R, ALPHA, i_o)) and body.restitution > rect.restitution
