"""The dashpot mass option ``damping_mass = "body" | "shared"`` (issue 15, item 2; docs/damping.md).

"body" (004, the engine's): a body resting on N equal contacts has the bed damping ratio β√N. "shared" (the
body's mass shared among an interface's contacts in proportion to their normal stiffness): β whatever N. The
host-side coefficients (dem/physics/contact_law.py, beside the kernels' dashpot_mass) are checked against the
derivation's identities here, and the engine's beds against β√N ("body") and β ("shared") from a small free
vibration, on both launch paths.
"""

import math

import numpy as np
import pytest
from scipy.optimize import curve_fit

from dem.cli.main import main
from dem.physics.contact_law import contact_masses, dashpot_coefficients, interface_damping_ratio
from dem.physics.history_rows import C_POS
from tests.builders import block_on_sphere_bed

BETA = 0.02
TOL_ZETA = 5e-2
"""Issue 15's bound on the interface damping ratio from a free vibration (measured 2e-4 to 1.3e-3: the Hertz
bed's stiffening and the δ^{1/4} dashpot, at an amplitude of 1 % of the static overlap)."""


# ------------------------------------------------------------------------------------- host-side identities
def test_shared_masses_give_the_interface_damping_ratio_beta_for_any_bed():
    rng = np.random.default_rng(3)
    mass = 503.0
    for n in (1, 3, 40, 3333):
        k_n = rng.uniform(1e6, 5e7, n)  # unequal contacts, as on a tilted Hertz bed
        shared = contact_masses(k_n, mass, damping_mass="shared")
        body = contact_masses(k_n, mass)
        # the shares add up to the body's mass (D1) and are proportional to the stiffness
        assert math.isclose(shared.sum(), mass, rel_tol=1e-12)
        assert np.allclose(shared / k_n, mass / k_n.sum(), rtol=1e-12)
        # interface damping ratio (D2): β exactly with shared masses; β Σ√k / √Σk (= β√N for equal k) with body
        zeta_shared = interface_damping_ratio(k_n, dashpot_coefficients(k_n, shared, BETA), mass)
        zeta_body = interface_damping_ratio(k_n, dashpot_coefficients(k_n, body, BETA), mass)
        assert math.isclose(zeta_shared, BETA, rel_tol=1e-12)
        assert math.isclose(zeta_body, BETA * np.sqrt(k_n).sum() / math.sqrt(k_n.sum()), rel_tol=1e-12)
        assert zeta_body <= BETA * math.sqrt(n) * (1 + 1e-12)  # Cauchy–Schwarz: equality for equal contacts
    # one contact: "shared" is "body" (D1 with N = 1)
    assert contact_masses([2e7], mass, damping_mass="shared")[0] == mass


def test_shared_masses_with_a_lagged_sum_never_exceed_the_body_mass():
    """A kernel that shares by the last step's K_n (docs/damping.md, D5): on the first step of an impact
    (K_n = 0) each new contact gets the whole mass, as with "body"; a share never exceeds M."""
    k_n = np.array([1e6, 4e6, 9e6])
    first = contact_masses(k_n, 10.0, damping_mass="shared", k_sum=0.0)
    assert np.all(first == 10.0)
    later = contact_masses(k_n, 10.0, damping_mass="shared", k_sum=5e6)
    assert np.allclose(later, [2.0, 8.0, 10.0])


def test_contact_masses_refuse_bad_input():
    with pytest.raises(ValueError, match="damping_mass must be one of body, shared"):
        contact_masses([1.0], 1.0, damping_mass="reduced")
    with pytest.raises(ValueError, match=r"mass must be > 0 \[kg\]"):
        contact_masses([1.0], 0.0)


# ------------------------------------------------------------------------------------ engine: the bed's ζ
def _vertical_damping_ratio(dem, n: int, damping_mass: str, parallel: bool = False) -> float:
    """ζ of the vertical free vibration of a 2 kg body on an n × n bed of Hertz contacts (r = 10 mm,
    G = 1 GPa), from a fit of z(t) = A e^{−ζω t} sin(ω_d t + φ) + z0 over 6 periods (rotations and
    horizontal motion fixed; started at the static overlap with 0.1 mm/s, 1 % of the overlap)."""
    model, delta0, h_n = block_on_sphere_bed(dem, n=n, beta_n=BETA, beta_s=BETA, velocity=(0.0, 0.0, 1e-4),
                                             fixed="x,y,rx,ry,rz", damping_mass=damping_mass)
    omega = math.sqrt(n * n * 1.5 * h_n * math.sqrt(delta0) / 2.0)  # N k_n / M, linearised at δ0
    sim = dem.Simulation(model, dt=2 * math.pi / omega / 400, history_every=1, sleep=False,
                         parallel=True if parallel else None)
    rows = sim.advance(6 * 400)
    t, z = rows[:, 0], sim.layout.clump(rows, 0, C_POS)[:, 2]

    def damped(t, a, sigma, w, phase, z0):
        return a * np.exp(-sigma * t) * np.sin(w * t + phase) + z0

    fit, _ = curve_fit(damped, t, z, p0=[1e-4 / omega, BETA * omega, omega, 0.0, z[0]])
    sigma, w_d = fit[1], fit[2]
    return sigma / math.hypot(w_d, sigma)  # ζ = σ/ω_n, ω_n² = ω_d² + σ²


def test_body_mass_bed_damping_grows_as_beta_sqrt_n(ti_cpu):
    """004's convention: N contacts of stiffness k with dashpots 2β√(M k) each give ζ = β√N (N = 4 and 49:
    0.04 and 0.14), the packing dependence the validation report found (docs/validation)."""
    for n in (2, 7):
        zeta = _vertical_damping_ratio(ti_cpu, n, "body")
        assert abs(zeta / (BETA * n) - 1) < TOL_ZETA, (n, zeta)


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "block"])
def test_shared_mass_bed_damping_is_beta_for_any_n(ti_cpu, parallel):
    """Issue 15's check of the new option: the bed's damping ratio is β within 5 % for N spanning 12×
    (under "body" the same beds give 2β and 7β), on the serial path and the block path."""
    for n in (2, 7):
        zeta = _vertical_damping_ratio(ti_cpu, n, "shared", parallel=parallel)
        assert abs(zeta / BETA - 1) < TOL_ZETA, (n, zeta)


# ------------------------------------------------------------------------------------------- bad input
def test_material_damping_mass_is_checked(ti_cpu):
    dem = ti_cpu
    with pytest.raises(ValueError, match="damping_mass must be one of body, shared, got 'sphere'"):
        dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5, damping_mass="sphere")
    shared = dem.Material.hertz(shear_modulus=1e9, poisson=0.3, friction=0.5, damping_mass="shared")
    assert shared.damping_mass == "shared" and dem.Material().damping_mass == "body"
    # two materials that disagree need an explicit pair, as for the law
    from dem.model.materials import mix

    with pytest.raises(ValueError, match="different damping_mass"):
        mix(shared, shared.with_(damping_mass="body", friction=0.4))


def test_cli_damping_mass_values(ti_cpu, tmp_path, capsys):
    code = main(["run", "pena_block", "--set", "damping_mass=sphere", "--out", str(tmp_path / "a")])
    err = capsys.readouterr().err
    assert code == 2 and "parameter 'damping_mass' must be one of body, shared, got 'sphere'" in err
    code = main(["run", "pier_deck", "--set", "edges=sharp", "--out", str(tmp_path / "c")])
    assert code == 2 and "parameter 'edges' must be one of true, rounded" in capsys.readouterr().err


def test_shared_mass_face_impact_has_one_contacts_restitution(ti_cpu):
    """Two boxes meeting face to face (no gravity) on ~50 sphere pairs: with the shared mass the interface is
    N Hertz springs in parallel with dashpots 2β k_i √(M/K) (D2), i.e. one Hertz contact of the reduced mass
    M damped at β, so the boxes separate with that contact's restitution e(β) (restitution_from_beta_hertz);
    with the body mass each pair has 2β√(M k_i) and the impact is damped as ≈ β√N, nearly critically."""
    from dem.physics.contact_law import restitution_from_beta_hertz
    from dem.physics.history_rows import C_VEL, G_NC
    from tests.builders import colliding_boxes

    dem = ti_cpu
    models = [colliding_boxes(dem), colliding_boxes(dem, damping_mass="shared")]
    sim = dem.Simulation(models, dt=1e-5, history_every=1)
    rows = sim.advance(600)  # they meet after 3 ms at ±1 m/s and separate within 1 ms
    e_body, e_shared = (-sim.layout.clump(r, 0, C_VEL)[-1, 0] / 1.0 for r in rows)
    assert rows[1][:, G_NC].max() > 40  # contacts at the peak of the impact (measured 56)
    # measured 0.7143 against e(0.1) = 0.7074: the lattice's diagonal pairs engage later and at smaller
    # overlap than the face-to-face ones, so the interface is not exactly one Hertz spring (1.0 %)
    assert abs(e_shared / restitution_from_beta_hertz(0.1) - 1) < 0.02
    assert 0.0 < e_body < 0.1  # measured 0.012: β√N ≈ 0.7 per mode
