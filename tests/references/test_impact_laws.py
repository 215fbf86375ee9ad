"""Verification of the five impact laws of Xu et al. 2022, Table 2 (validation.impact.laws).

Pure-function checks: closed-form values, derivatives, and the exact restitution of the family
F = K δ^n (1 + D δ̇/δ̇⁻), which is independent of mass, stiffness and speed.
"""

from __future__ import annotations

import math

import pytest

from validation.impact import (
    ImpactLaw,
    damping_factor,
    flores_force,
    gonthier_force,
    hertz_force,
    hunt_crossley_force,
    impact_force,
    impact_force_gradient,
    lankarani_nikravesh_force,
    separation_ratio_exact,
    separation_ratio_of_factor,
    sphere_contact_stiffness,
)

FD_TOL = 1e-6
"""Relative tolerance of the central-difference derivative check (step 1e-6 relative: O(h²) ≈ 1e-12
truncation, rounding ≈ 1e-16/1e-6 = 1e-10; 1e-6 leaves room for the δ^{1/2} curvature)."""

K, CE, V = 1.5e11, 0.5, 0.3  # Xu et al. 2022, §2.2 magnitudes


def test_damping_factors_follow_003_with_gonthier_over_c_e():
    assert damping_factor(ImpactLaw.HERTZ, CE) == 0.0
    assert damping_factor(ImpactLaw.HUNT_CROSSLEY, CE) == pytest.approx(1.5 * 0.5)  # Xu et al. 2022, Eq. 6
    assert damping_factor(ImpactLaw.LANKARANI_NIKRAVESH, CE) == pytest.approx(0.75 * 0.75)  # Eq. 8
    # Gonthier: (1 − c_e²)/c_e = 1.5 (Xu et al. 2022, Eq. 10, docs/references.md), not Eq. 9's (1 − c_e²)/c_e² = 3.
    assert damping_factor(ImpactLaw.GONTHIER, CE) == pytest.approx(1.5)
    assert damping_factor(ImpactLaw.FLORES, CE) == pytest.approx(1.6)  # Xu et al. 2022, Eq. 12
    for law in ImpactLaw:
        assert damping_factor(law, 1.0) == 0.0  # perfectly elastic: all reduce to Hertz


@pytest.mark.parametrize("law", list(ImpactLaw))
def test_named_functions_agree_with_dispatcher_and_are_unilateral(law):
    named = {
        ImpactLaw.HERTZ: lambda d, dd: hertz_force(d, K),
        ImpactLaw.HUNT_CROSSLEY: lambda d, dd: hunt_crossley_force(d, dd, K, CE, V),
        ImpactLaw.LANKARANI_NIKRAVESH: lambda d, dd: lankarani_nikravesh_force(d, dd, K, CE, V),
        ImpactLaw.GONTHIER: lambda d, dd: gonthier_force(d, dd, K, CE, V),
        ImpactLaw.FLORES: lambda d, dd: flores_force(d, dd, K, CE, V),
    }[law]
    for delta, delta_dot in [(2e-6, 0.3), (2e-6, -0.1), (1e-6, 0.0), (0.0, 0.3), (-1e-6, 0.3)]:
        f = impact_force(law, delta, delta_dot, K, CE, V)
        assert f == pytest.approx(named(delta, delta_dot), rel=1e-14, abs=0.0)
        assert f >= 0.0
        if delta <= 0.0:
            assert f == 0.0
    # At δ̇ = 0 every law is the Hertz force.
    assert impact_force(law, 1e-6, 0.0, K, CE, V) == pytest.approx(K * 1e-6**1.5, rel=1e-14)
    # A law that would pull (restitution fast enough) is clipped to zero.
    expected = K * 1e-9 if law is ImpactLaw.HERTZ else 0.0
    assert impact_force(law, 1e-6, -100.0, K, CE, V) == pytest.approx(expected, rel=1e-14, abs=0.0)


@pytest.mark.parametrize("law", list(ImpactLaw))
def test_gradient_matches_central_differences(law):
    delta, delta_dot = 2e-6, 0.12
    f, df_dd, df_dv = impact_force_gradient(law, delta, delta_dot, K, CE, V)
    h1, h2 = 1e-6 * delta, 1e-6 * abs(delta_dot)
    fd_dd = (impact_force(law, delta + h1, delta_dot, K, CE, V)
             - impact_force(law, delta - h1, delta_dot, K, CE, V)) / (2 * h1)
    fd_dv = (impact_force(law, delta, delta_dot + h2, K, CE, V)
             - impact_force(law, delta, delta_dot - h2, K, CE, V)) / (2 * h2)
    assert df_dd == pytest.approx(fd_dd, rel=FD_TOL)
    assert df_dv == pytest.approx(fd_dv, rel=FD_TOL, abs=1e-12 * f)


def test_sphere_contact_stiffness_of_003_eq4():
    # E* = E / (2(1 − ν²)) for equal materials, K = (4/3) E* √R with R = R1R2/(R1 − R2) = 0.99 m.
    e_star = 207e9 / (2 * (1 - 0.3**2))
    k = sphere_contact_stiffness(207e9, 0.3, 0.010, 207e9, 0.3, 0.0099)
    assert k == pytest.approx(4 / 3 * e_star * math.sqrt(0.010 * 0.0099 / 0.0001), rel=1e-14)
    assert k == pytest.approx(1.509e11, rel=1e-3)
    k_ext = sphere_contact_stiffness(207e9, 0.3, 0.010, 207e9, 0.3, 0.0099, conformal=False)
    assert k_ext == pytest.approx(4 / 3 * e_star * math.sqrt(0.010 * 0.0099 / 0.0199), rel=1e-14)


def test_exact_restitution_behaviour_of_the_five_laws():
    # Hertz conserves energy.
    assert separation_ratio_exact(ImpactLaw.HERTZ, 0.5) == 1.0
    # Gonthier's (1 − c_e²)/c_e stays within 4.5 % of c_e over (0, 1] (model error, not numerics).
    for ce in (0.1, 0.3, 0.5, 0.7, 0.9, 0.99):
        assert abs(separation_ratio_exact(ImpactLaw.GONTHIER, ce) / ce - 1) < 0.045
    # Flores' law is accurate near 1 and under-restitutes at low c_e (−5.9 % at 0.5, −31 % at 0.1).
    assert abs(separation_ratio_exact(ImpactLaw.FLORES, 0.9) / 0.9 - 1) < 0.01
    assert separation_ratio_exact(ImpactLaw.FLORES, 0.1) < 0.75 * 0.1
    # Hunt–Crossley and Lankarani–Nikravesh were derived for c_e → 1: they over-restitute at low c_e
    # and their error falls like (1 − c_e)² (halving 1 − c_e divides it by ~4).
    for law in (ImpactLaw.HUNT_CROSSLEY, ImpactLaw.LANKARANI_NIKRAVESH):
        assert separation_ratio_exact(law, 0.5) > 1.3 * 0.5
        e1 = separation_ratio_exact(law, 0.90) / 0.90 - 1
        e2 = separation_ratio_exact(law, 0.95) / 0.95 - 1
        assert 0 < e2 < e1 < 0.015
        assert 3.5 < e1 / e2 < 4.5
    # Xu et al. 2022, Eq. 9 as printed, (1 − c_e²)/c_e², would give 0.092 m/s at v = 0.3 m/s, not Xu et al.'s (2022)
    # 0.15.
    assert separation_ratio_of_factor(3.0) * 0.3 == pytest.approx(0.092, abs=5e-4)


def test_bad_input_raises_value_error_naming_the_parameter():
    with pytest.raises(ValueError, match="c_e"):
        damping_factor(ImpactLaw.FLORES, 0.0)
    with pytest.raises(ValueError, match="v_impact"):
        impact_force(ImpactLaw.GONTHIER, 1e-6, 0.1, K, 0.5, 0.0)
    with pytest.raises(ValueError, match="r1 > r2"):
        sphere_contact_stiffness(207e9, 0.3, 0.01, 207e9, 0.3, 0.02)
    with pytest.raises(ValueError, match="nu1"):
        sphere_contact_stiffness(207e9, 0.6, 0.01, 207e9, 0.3, 0.005)
    with pytest.raises(ValueError):
        ImpactLaw("kelvin_voigt")


def test_engine_damping_factors_agree_with_the_reference():
    # The engine keeps its own copy of the factors (dem.model.materials.impact_damping_factor, read by its
    # Taichi normal-force function); both must follow the same reading of Xu et al. 2022 (docs/references.md).
    from dem.model import materials

    for law in ImpactLaw:
        if law is ImpactLaw.HERTZ:
            continue
        engine_law = getattr(materials.ContactLaw, law.name)
        for ce in (0.3, 0.5, 0.9, 1.0):
            assert materials.impact_damping_factor(engine_law, ce) == pytest.approx(damping_factor(law, ce),
                                                                                   rel=1e-15)
