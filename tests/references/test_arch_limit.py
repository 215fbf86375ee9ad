"""Limit analysis of voussoir arches (validation/arch) against hand results, the literature and virtual work.

The LP (collapse_load_factor) is checked: on one block, against λ = b/h by hand; on arches, against
equilibrium recomputed block by block, against the virtual work of the four-hinge mechanism it finds,
and against Milankovitch's least thickness t/R = 0.1075 of the semicircular arch (radial joints, n → ∞).
"""

import math

import numpy as np
import pytest

from validation.arch import (
    MILANKOVITCH_T_OVER_R,
    arch,
    chain_hinge_load_factor,
    collapse_load_factor,
    equilibrium_residual,
    minimum_thickness,
    pier,
)

# The LP's answer is a simplex vertex: a basis solve in double precision on forces scaled to the total
# weight, so results that are exact in exact arithmetic come out within ~1e-15 (measured: 3e-16 for the
# pier, ≤ 1e-15 for the arches' residuals); 1e-12 and 1e-9 leave room for ill-conditioned bases.
LP_ROUNDING = 1e-12
EQUILIBRIUM_TOL = 1e-9
# Published least thickness 0.1075 is given to 4 decimals: ±5e-5 is its rounding.
PUBLISHED_ROUNDING = 5e-5
# Bisection on t/R stops at this interval width [-].
BISECT_TOL = 1e-7


def _chain(asm):
    return np.array([b.centroid for b in asm.blocks]), np.array([b.weight for b in asm.blocks])


def test_one_block_pier_tips_at_b_over_h():
    # A 0.4 m × 1.5 m block (b = 0.2 m, centroid h = 0.75 m above the base) tips about its right edge when
    # λ W h = W b: λ = b/h = 0.26667 (Housner 1963's uplift threshold tan α). The LP must find exactly that
    # and the hinge at the right base edge (+x side, where the thrust goes under a +x load).
    b, height = 0.2, 1.5
    asm = pier(b, height)
    res = collapse_load_factor(asm)
    assert res.feasible
    assert res.load_factor == pytest.approx(b / (height / 2), rel=LP_ROUNDING)
    assert res.hinges == (0,)
    np.testing.assert_allclose(res.hinge_points[0], [b, 0.0], atol=LP_ROUNDING)
    assert res.normal[0] == pytest.approx(asm.total_weight, rel=LP_ROUNDING)
    assert res.shear[0] == pytest.approx(-res.load_factor * asm.total_weight, rel=LP_ROUNDING)


def test_pier_with_friction_slides_at_mu():
    # Coulomb joint: the block slides when λ W > μ W, before it tips if μ < b/h (Shenton 1996).
    res = collapse_load_factor(pier(0.2, 1.5), mu=0.15)
    assert res.load_factor == pytest.approx(0.15, rel=LP_ROUNDING)


@pytest.mark.parametrize("t_over_r", [0.11, 0.15, 0.2, 0.3])
@pytest.mark.parametrize("abutments", [False, True])
def test_equilibrium_and_virtual_work(t_over_r, abutments):
    # At the optimum, every block is in equilibrium (recomputed from the joint resultants, not the LP's
    # matrix), the thrust stays inside every joint, four hinges form, and the virtual work of that
    # four-hinge mechanism gives the same λ (static = kinematic load factor: Heyman 1966, uniqueness theorem).
    kw = {"abutment_width": 0.6, "abutment_height": 1.0} if abutments else {}
    asm = arch(2.0, 2.0 * t_over_r, 32, depth=0.5, density=2200.0, **kw)
    res = collapse_load_factor(asm)
    assert res.feasible and res.load_factor > 0.0
    assert equilibrium_residual(asm, res) < EQUILIBRIUM_TOL
    half = np.array([j.half_length for j in asm.joints])
    assert np.all(np.abs(res.moment) <= res.normal * half * (1 + LP_ROUNDING) + LP_ROUNDING * asm.total_weight)
    assert len(res.hinges) == 4
    centroids, weights = _chain(asm)
    lam_kin = chain_hinge_load_factor(centroids, weights, res.hinges, res.hinge_points)
    assert lam_kin == pytest.approx(res.load_factor, rel=1e-9)


def test_abutments_never_raise_the_load_factor():
    # Abutment piers add joints (and weight that must itself stand), so any thrust line admissible with
    # them is admissible with the springings on the ground: λ(abutments) ≤ λ(ground), equal when the piers
    # are stocky enough. Measured, n = 32, R = 1 m: t/R = 0.2: 0.2842 on the ground, 0.2842 on
    # 0.6 m × 1 m piers, 0.1097 on 0.6 m × 3 m piers.
    ground = collapse_load_factor(arch(1.0, 0.2, 32)).load_factor
    stocky = collapse_load_factor(arch(1.0, 0.2, 32, abutment_width=0.6, abutment_height=1.0)).load_factor
    tall = collapse_load_factor(arch(1.0, 0.2, 32, abutment_width=0.6, abutment_height=3.0)).load_factor
    assert stocky == pytest.approx(ground, rel=1e-9)
    assert tall < 0.5 * ground


def test_load_factor_shrinks_with_thickness_to_zero_at_the_minimum():
    # n = 64, R = 1 m. Measured λ: t/R = 0.3: 0.5182, 0.25: 0.4059, 0.2: 0.2839, 0.15: 0.1447, 0.12: 0.0462,
    # 0.11: 0.0098, 0.108: 0.0023; λ = 0 at the least thickness t/R = 0.107394.
    n = 64
    ratios = [0.3, 0.25, 0.2, 0.15, 0.12, 0.11, 0.108]
    lams = [collapse_load_factor(arch(1.0, r, n)).load_factor for r in ratios]
    assert np.all(np.diff(lams) < 0.0)
    m = minimum_thickness(n, tol=BISECT_TOL)
    assert m.t_over_r < ratios[-1]
    # Just above the minimum λ is ~ dλ/d(t/R) × BISECT_TOL ≈ 4 × 1e-7 (slope ≈ 3.8 from the last two points);
    # just below, no thrust line fits at all.
    at_min = collapse_load_factor(arch(1.0, m.t_over_r, n))
    assert at_min.feasible and 0.0 <= at_min.load_factor < 1e-5
    assert not collapse_load_factor(arch(1.0, m.bracket[0], n)).feasible


def test_least_thickness_converges_to_milankovitch():
    # Least t/R under own weight (λ = 0), radial joints, measured (bisection to 1e-8):
    #   n =   4: 0.100861   n =  16: 0.107237   n =  64: 0.107394   n = 128: 0.107468
    #   n =   8: 0.100861   n =  32: 0.107237   n =  96: 0.107477   n = 512: 0.107478
    # With n finite the thrust line need only fit the joints, so t_min(n) ≤ t_min(∞) = 0.1075 (Milankovitch
    # 1907); the gap shrinks as joints come nearer the continuous arch's haunch hinge (not monotonically in n:
    # it depends on how near a joint falls). Along n = 16, 64, 128 the gap is 2.6e-4, 1.1e-4, 3.2e-5.
    gaps = []
    for n in (16, 64, 128):
        m = minimum_thickness(n, tol=BISECT_TOL)
        assert m.t_over_r <= MILANKOVITCH_T_OVER_R + PUBLISHED_ROUNDING
        gaps.append(MILANKOVITCH_T_OVER_R - m.t_over_r)
    assert gaps[0] > gaps[1] > gaps[2]
    assert abs(gaps[-1]) < PUBLISHED_ROUNDING
    # Five hinges at the limit: extrados at the crown and springings, intrados at the haunches, the latter
    # within one voussoir (180°/128) of the continuous solution's ≈ 54.5° from the crown (measured 54.84°).
    haunch = [90.0 - math.degrees(math.atan2(p[1], abs(p[0]))) for p in m.limit.hinge_points]
    assert min(abs(h - 54.5) for h in haunch) < 180.0 / 128


def test_segmental_arch_is_stiffer_than_semicircular():
    # A flatter arch (embrace 2 rad < π) carries the thrust more directly to its springings: at the same
    # t/R it stands a larger λ (measured, n = 30, t/R = 0.15: 1.058 vs 0.1455), and still satisfies
    # virtual work.
    semi = collapse_load_factor(arch(1.0, 0.15, 30)).load_factor
    asm = arch(1.0, 0.15, 30, embrace=2.0)
    seg = collapse_load_factor(asm)
    assert seg.load_factor > 5.0 * semi
    centroids, weights = _chain(asm)
    assert chain_hinge_load_factor(centroids, weights, seg.hinges, seg.hinge_points) == pytest.approx(
        seg.load_factor, rel=1e-9)


@pytest.mark.parametrize("kwargs", [
    {"radius": 1.0, "thickness": 2.0, "n_voussoirs": 8},
    {"radius": 1.0, "thickness": 0.1, "n_voussoirs": 0},
    {"radius": 1.0, "thickness": 0.1, "n_voussoirs": 8, "embrace": 4.0},
    {"radius": 1.0, "thickness": 0.2, "n_voussoirs": 8, "abutment_width": 0.1, "abutment_height": 1.0},
    {"radius": 1.0, "thickness": 0.2, "n_voussoirs": 8, "abutment_width": 0.5},
])
def test_bad_geometry_is_refused(kwargs):
    with pytest.raises(ValueError):
        arch(**kwargs)
