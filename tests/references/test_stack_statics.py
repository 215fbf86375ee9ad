"""Statics of a centred stack of rigid blocks (validation/stack) against hand-computed thresholds.

Joint k opens at a/g = b_k / z_k (half-width of its contact face ÷ height above it of the centre of mass of
the blocks it carries); it slides at a/g = μ. Cross-checked against the arch package's LP on the same stack.
"""

import math

import numpy as np
import pytest

from validation.arch import GROUND, Assembly, Block, Joint, collapse_load_factor
from validation.stack import Box, Drum, stack_thresholds

# Hand values are ratios of a few products of decimal inputs, computed again by the module in double
# precision: they agree to a few ulps.
ROUNDING = 1e-12
# The LP's simplex vertex on weights scaled to 1: ~1e-15 measured (tests/references/test_arch_limit.py).
LP_ROUNDING = 1e-10


def test_one_box_opens_at_b_over_h():
    # A box 2b = 0.4 m wide, 1.5 m tall: uplift at a/g = b/(H/2) = 0.2/0.75 (Housner 1963: tan α).
    th = stack_thresholds([Box(0.2, 1.5)])
    assert th.rocking[0] == pytest.approx(0.2 / 0.75, rel=ROUNDING)
    assert th.first_joint == 0


def test_two_equal_boxes_open_at_the_base():
    # Two 0.4 × 1.0 m boxes: joint 0 carries both, centre of mass 1.0 m up: 0.2/1.0; joint 1 carries the top
    # box, centre of mass 0.5 m up: 0.2/0.5. The base joint opens first.
    th = stack_thresholds([Box(0.2, 1.0), Box(0.2, 1.0)])
    np.testing.assert_allclose(th.rocking, [0.2, 0.4], rtol=ROUNDING)
    np.testing.assert_allclose(th.com_height, [1.0, 0.5], rtol=ROUNDING)
    assert th.first_joint == 0


def _three_boxes():
    # Tapering stack, depth 1 m for all, so masses ∝ 2b·H: 0.36, 0.32, 0.10 (× ρ·1 m).
    return [Box(0.3, 0.6, depth=1.0), Box(0.2, 0.8, depth=1.0), Box(0.1, 0.5, depth=1.0)]


def test_three_boxes_open_at_the_middle_joint():
    # Centroids at z = 0.3, 1.0, 1.65 m; joints at z = 0, 0.6, 1.4 m.
    # joint 0: b = 0.3, z = (0.36·0.3 + 0.32·1.0 + 0.10·1.65)/0.78 = 0.593/0.78 → 0.3·0.78/0.593 = 0.394604
    # joint 1: b = min(0.2, 0.3), z = (0.32·1.0 + 0.10·1.65)/0.42 − 0.6 = 0.233/0.42 → 0.2·0.42/0.233 = 0.360515
    # joint 2: b = min(0.1, 0.2), z = 0.25 → 0.4
    th = stack_thresholds(_three_boxes(), density=2400.0)
    np.testing.assert_allclose(th.rocking, [0.3 * 0.78 / 0.593, 0.2 * 0.42 / 0.233, 0.1 / 0.25], rtol=ROUNDING)
    np.testing.assert_allclose(th.contact_half_width, [0.3, 0.2, 0.1], rtol=ROUNDING)
    np.testing.assert_allclose(th.mass_above, 2400.0 * np.array([0.78, 0.42, 0.10]), rtol=ROUNDING)
    assert th.first_joint == 1
    assert th.first_event == ("rock", 1, pytest.approx(0.084 / 0.233, rel=ROUNDING))


def test_sliding_before_rocking_when_mu_below_b_over_h():
    # Sliding needs a/g > μ at any joint (Shenton 1996 for one block: slide first when μ < b/h).
    boxes = _three_boxes()
    assert stack_thresholds(boxes, mu=0.3).first_event == ("slide", 0, 0.3)
    assert stack_thresholds(boxes, mu=0.5).first_event[:2] == ("rock", 1)
    # A rougher base only: the upper joints still slide at their own μ.
    th = stack_thresholds(boxes, mu=[0.8, 0.35, 0.35])
    assert th.first_event == ("slide", 1, 0.35)


def test_drums_pivot_on_their_rims():
    # One drum R = 0.25 m, h = 1 m: a/g = R/(h/2) = 0.5. Two drums R0 = 0.3, h0 = 0.5 and R1 = 0.25, h1 = 1:
    # masses ∝ R²h = 0.045, 0.0625; joint 0: z = (0.045·0.25 + 0.0625·1.0)/0.1075 → 0.3·0.1075/0.07375;
    # joint 1: contact face min(0.25, 0.3) = 0.25, z = 0.5 → 0.5.
    assert stack_thresholds([Drum(0.25, 1.0)]).rocking[0] == pytest.approx(0.5, rel=ROUNDING)
    th = stack_thresholds([Drum(0.3, 0.5), Drum(0.25, 1.0)])
    np.testing.assert_allclose(th.rocking, [0.3 * 0.1075 / 0.07375, 0.5], rtol=ROUNDING)
    assert th.first_joint == 0


def test_tapered_drum_centroid_and_volume():
    # Frustum R1 = 0.3, R2 = 0.2, h = 1: V = π(0.09 + 0.06 + 0.04)/3, z_G = (0.09 + 0.12 + 0.12)/(4·0.19);
    # a cone (R2 → 0) has z_G = h/4.
    d = Drum(0.3, 1.0, top_radius=0.2)
    assert d.volume == pytest.approx(math.pi * 0.19 / 3, rel=ROUNDING)
    assert d.centroid_height == pytest.approx(0.33 / 0.76, rel=ROUNDING)
    assert Drum(0.3, 1.0, top_radius=1e-12).centroid_height == pytest.approx(0.25, rel=1e-9)
    # On a tapered drum the joint above is the narrower top face: a drum of R = 0.25 on it pivots at 0.2.
    th = stack_thresholds([d, Drum(0.25, 1.0)])
    assert th.contact_half_width[1] == pytest.approx(0.2, rel=ROUNDING)


def test_stack_agrees_with_the_limit_analysis_lp():
    # The stack is statically determinate, so the static theorem's λ is the least joint threshold: the
    # arch package's LP on the same three boxes (plane blocks with the same weights) must find 0.360515 at
    # joint 1, and with μ = 0.3 at every joint, λ = μ.
    boxes, g, rho = _three_boxes(), 9.81, 2400.0
    blocks, joints, z = [], [], 0.0
    for k, bx in enumerate(boxes):
        b, h = bx.half_width, bx.height
        outline = np.array([[-b, z], [b, z], [b, z + h], [-b, z + h]])
        blocks.append(Block(f"box{k}", rho * bx.volume * g, np.array([0.0, z + h / 2]), outline))
        face = min(b, boxes[k - 1].half_width) if k else b
        joints.append(Joint(f"joint{k}", np.array([-face, z]), np.array([face, z]), k - 1 if k else GROUND, k))
        z += h
    asm = Assembly(tuple(blocks), tuple(joints))
    res = collapse_load_factor(asm)
    th = stack_thresholds(boxes, density=rho)
    assert res.load_factor == pytest.approx(th.rocking.min(), rel=LP_ROUNDING)
    assert res.hinges == (th.first_joint,)
    assert collapse_load_factor(asm, mu=0.3).load_factor == pytest.approx(0.3, rel=LP_ROUNDING)


@pytest.mark.parametrize("make", [lambda: Box(0.0, 1.0), lambda: Box(0.2, -1.0), lambda: Drum(0.2, 1.0, top_radius=0.0),
                                  lambda: stack_thresholds([]), lambda: stack_thresholds([Box(0.2, 1.0)], mu=-0.1),
                                  lambda: stack_thresholds([Box(0.2, 1.0)], density=0.0)])
def test_bad_input_is_refused(make):
    with pytest.raises(ValueError):
        make()
