"""The two-sphere single impact of Xu et al. 2022, §2.2 under the five laws (validation.impact.two_sphere).

Xu et al. 2022 reports separation speeds read off its Fig. 4: Hertz 0.3 m/s, Hunt–Crossley and
Lankarani–Nikravesh "close to 0.2 m/s", Gonthier and Flores 0.15 m/s = c_e·v.
"""

from __future__ import annotations

import numpy as np
import pytest

from validation.impact import ImpactLaw, hertz_contact_time, separation_ratio_exact, two_sphere_impact

V, CE = 0.3, 0.5

INTEGRATION_TOL = 1e-8
"""Relative error allowed between the DOP853 result (rtol 1e-11, ~200 steps, 8th order) and the
closed-form restitution: local errors of 1e-11 summed over the steps stay well below 1e-9."""


@pytest.fixture(scope="module")
def impacts():
    return {law: two_sphere_impact(law, v_impact=V, c_e=CE) for law in ImpactLaw}


@pytest.mark.parametrize("law", list(ImpactLaw))
def test_separation_speed_matches_the_exact_restitution(impacts, law):
    r = impacts[law]
    assert r.separation_speed == pytest.approx(V * separation_ratio_exact(law, CE), rel=INTEGRATION_TOL)


def test_hertz_keeps_the_impact_speed_and_the_closed_form_contact_time(impacts):
    r = impacts[ImpactLaw.HERTZ]
    assert r.separation_speed == pytest.approx(0.3, rel=INTEGRATION_TOL)
    assert r.contact_time == pytest.approx(hertz_contact_time(r.stiffness, 0.02, V), rel=INTEGRATION_TOL)
    # Largest overlap from energy: ½ m v² = K δ^{5/2} / (5/2). max_delta is the largest of 400 samples:
    # near the peak δ ≈ δ_max (1 − (ω Δt)²/2) with ω Δt ≈ π/400, a shortfall of up to ~3e-5.
    assert r.max_delta == pytest.approx((1.25 * 0.02 * V**2 / r.stiffness) ** 0.4, rel=1e-4)


def test_gonthier_and_flores_give_c_e_times_v(impacts):
    # Xu et al. 2022: 0.15 m/s "completely consistent with the recovery coefficient". The laws themselves are
    # approximate: exact restitution 0.4877 (Gonthier) and 0.4704 (Flores) at c_e = 0.5, i.e. 2.5 %
    # and 5.9 % below c_e, which bounds the tolerance; both agree with Xu et al.'s (2022) figure to 2 digits.
    assert impacts[ImpactLaw.GONTHIER].separation_speed == pytest.approx(CE * V, rel=0.03)
    assert impacts[ImpactLaw.FLORES].separation_speed == pytest.approx(CE * V, rel=0.065)
    assert impacts[ImpactLaw.GONTHIER].separation_speed == pytest.approx(0.146, abs=5e-4)  # docs/references.md


def test_hunt_crossley_and_lankarani_nikravesh_are_close_to_0_2(impacts):
    # Measured 0.1989 (HC) and 0.2176 (LN): both restitute more than c_e = 0.5 asks (their damping is
    # calibrated for c_e → 1), within 10 % of the 0.2 m/s that Xu et al. 2022, Fig. 4 shows.
    for law in (ImpactLaw.HUNT_CROSSLEY, ImpactLaw.LANKARANI_NIKRAVESH):
        s = impacts[law].separation_speed
        assert s == pytest.approx(0.2, rel=0.10)
        assert s > CE * V * 1.3


@pytest.mark.parametrize("law", list(ImpactLaw))
def test_hysteresis_loop_area_is_the_lost_kinetic_energy(impacts, law):
    # ∮ F dδ over the loop = ½ m_eff (v² − v_sep²) (work–energy). Trapezoid on 400 samples: the
    # O(Δδ²) quadrature error with the δ^{1/2} edge behaviour is ~1e-4 of the loop area.
    r = impacts[law]
    loop = np.trapezoid(r.force, r.delta) if hasattr(np, "trapezoid") else np.trapz(r.force, r.delta)
    lost = 0.5 * 0.02 * (V**2 - r.separation_speed**2)
    assert loop == pytest.approx(lost, abs=1e-3 * 0.5 * 0.02 * V**2)
