"""``dem validate --quick``: the reduced validation cases run once (~60 s on 2 cores with a warm Taichi
cache), and their metrics are asserted here.

The quick versions use coarse packings (base spheres r1 = 10 mm) and short runs, so the numbers differ
from the full report's (docs/validation/report.md), but the same mechanics hold: the DEM block matches the
rigid block rolling on its edge spheres (centred on the side faces: true edges, issue 15) and Housner's sharp
block to 1 %, the ledger balances, the uplift threshold is where the rigid
block puts it, and the restitution falls with β_n and with the packing (the study's findings). The bridge
cases: the single pier (8 s at 0.5 g) rocks as the rigid block on its edge spheres with the DEM's own
restitution, above Housner's; the pier–deck bridge (coarse packing, 2 s at 0.1 g) stands still on its
interfaces with resultants that balance its inertia, and the frame parameters are Itiola & El Shamy's (2024).
"""

import argparse
import json
import math

import pytest

from validation.cases import CASES
from validation.data import KINDS, load_reference

HOUSNER_E = 1 - 1.5 * math.sin(math.atan(0.25)) ** 2  # Peña block, α = atan(0.25/1.0): 0.9118


@pytest.fixture(scope="module")
def report(ti_cpu, tmp_path_factory):
    from dem.cli.validate import add_arguments, main

    out = tmp_path_factory.mktemp("validation")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    status = main(parser.parse_args(["--quick", "--out", str(out)]))
    results = {n: json.loads((out / n / "result.json").read_text()) for n in CASES}
    return status, out, results


def _metric(result, name):
    return next(m for m in result["metrics"] if m["name"].startswith(name))


def test_reference_data():
    ref = load_reference("pena_block1")
    assert ref.value("peak_theta_deg") == [2.9, 2.7, 2.3, 2.05, 1.8, 1.5]  # Itiola & El Shamy 2024, Fig. 7 captions
    assert ref.value("friction") == 0.11 and ref.value("block_mass") == 503.0  # Tables 2 and 1
    assert all(v.kind in KINDS and v.source.startswith("004") for v in ref.values.values())
    assert any("experimental" in u.what for u in ref.not_available)


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_exit_status_and_report(report):
    status, out, results = report
    assert status == 0, {n: r["status"] for n, r in results.items()}
    text = (out / "report.md").read_text()
    assert "| metric | DEM | reference | tolerance | status |" in text
    # structure: header with the commit, the one-page summary before any detail, no "FAIL (reported)"
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections[:2] == ["## Summary", "## How to read the tables"]
    head = text.split("## Summary")[0]
    commit = results["pena"]["commit"]
    assert commit and f"from commit {commit}" in head and "Every section below ran from commit" in head
    assert "FAIL (reported)" not in text
    differs = [m for r in results.values() for m in r["metrics"] if not m["gate"] and m["passed"] is False]
    for m in differs:
        assert m["status"] == ("differs, explained" if m["explained"] else "differs, unexplained"), m
    summary = text.split("## Summary")[1].split("## How to read")[0]
    assert f"of which {sum(1 for m in differs if m['explained'])} explained" in summary
    for r in results.values():
        assert r["mode"] == "quick" and r["status"] == "pass"
        for fig in r["figures"]:
            assert (out / fig["path"]).stat().st_size > 1000
            assert f"]({fig['path']})" in text


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_pena_matches_rigid_mechanics(report):
    pena = report[2]["pena"]
    for m in pena["metrics"]:
        if m["gate"]:
            assert m["passed"] is not False, m
    d = pena["data"]
    # time to first impact vs the block rolling on its 10 mm edges (exact), and the KE it reaches
    first = _metric(pena, "time to first impact")
    assert abs(first["dem"] / first["reference"] - 1) < 5e-4
    # issue 15: with true edges the first impact is Housner's sharp block's to 1 % (measured 0.2 %); the
    # rounded-edge run of the same case (edges="rounded", kept for comparison) is 4.6 % late
    assert d["edges"] == "true" and abs(d["impact_times_s"][0] / d["first_impact_housner_s"] - 1) < 0.01
    assert d["rounded"]["first_impact_s"] / d["first_impact_housner_s"] - 1 > 0.03
    assert abs(d["rounded"]["first_impact_s"] / d["rounded"]["first_impact_rolling_s"] - 1) < 5e-4
    assert abs(d["first_kinetic_peak_J"] / d["release_energy_J"] - 1) < 0.01
    assert d["max_energy_error"] < 1e-3
    # restitution: the ledger's dissipation and the peaks tell the same story
    n = 3
    assert max(abs(a - b) for a, b in zip(d["restitution_peaks"][:n], d["restitution_energy"][:n])) < 5e-3


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_pena_decays_faster_than_the_paper(report):
    """The known disagreement, asserted so that a change in it is noticed: with β = 0.15 on the body mass
    the DEM loses more per impact than Housner's block, which loses more than the paper's."""
    d = report[2]["pena"]["data"]
    e_dem = sum(d["restitution_peaks"][:3]) / 3
    e_paper = sum(d["restitution_paper"][:3]) / 3
    assert 0.85 < e_dem < HOUSNER_E < e_paper < 0.96
    assert d["peaks_deg"][1] < d["paper_peaks_deg"][1] - 0.2


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_pena_table2_friction_slides(report):
    d = report[2]["pena"]["data"]
    assert d["friction_demand_impact"] > 0.11  # Qi & Zhu 2025, Eq. 19–20: 0.185 for the Peña block
    low = d["mu011"]
    assert low["friction_energy_J"] > 1.0 > 10 * d["final_energies_J"]["E_friction"]
    assert low["settling_time_s"] is not None and low["settling_time_s"] < 0.6


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_uplift_side_agrees(report):
    up = report[2]["uplift"]
    runs = {r["level"]: r for r in up["data"]["runs"]}
    assert not runs[0.9]["dem_rocks"] and not runs[0.9]["rigid_rocks"]
    assert runs[1.1]["dem_rocks"] and runs[1.1]["rigid_rocks"]
    assert abs(runs[1.1]["dem_first_s"] - runs[1.1]["rigid_first_s"]) < 0.125  # same half-cycle at 2 Hz
    assert runs[1.1]["dem_sign"] == runs[1.1]["rigid_sign"]


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_sensitivity_findings(report):
    d = report[2]["sensitivity"]["data"]
    assert d["change_dt"] < 2e-3  # converged in Δt
    assert d["change_r_base"] > 5e-3  # not converged in r1 (β√N)
    beta = {v: r["e_mean"] for v, r in d["series"]["β_n"]}
    assert beta[0.02] > d["paper_mean_e"] > beta[0.15]
    assert d["beta_star"] is not None and 0.02 < d["beta_star"] < 0.15


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_damping_measured_picture(report):
    """Issue 15, items 1–2: under the body dashpot mass the restitution falls as the packing refines (more
    contacts on the landing edge: ζ ≈ β√N) and as β rises; under the shared mass it hardly moves with the
    packing, and the same β damps less (each interface at β, not β√N)."""
    d = report[2]["damping"]["data"]
    body = d["analysis"]["options"]["body"]
    assert body["edge_contacts"][0] < body["edge_contacts"][1]  # r1 = 20 → 10 mm: 25 → 50 contacts
    assert body["e_means"][0] > body["e_means"][1] + 0.005  # measured 0.899 → 0.887
    assert body["beta_e_means"][0] > body["beta_e_means"][1]  # β = 0.05 keeps more than 0.15
    shared = d["analysis"]["options"]["shared"]
    # measured 0.962 → 0.965 (|Δe| 0.0034 against body's 0.0127; the full case: within 0.1 % from r1 = 10 mm down)
    assert abs(shared["e_means"][1] - shared["e_means"][0]) < 0.5 * abs(body["e_means"][1] - body["e_means"][0])
    assert min(shared["e_means"]) > max(body["e_means"])  # one interface at β damps less than β√N
    assert shared["beta_e_means"][0] > shared["beta_e_means"][1]  # β still sets the damping
    for m in report[2]["damping"]["metrics"]:
        if m["gate"]:
            assert m["passed"] is not False, m


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_calibration_fits_the_paper_peaks(report):
    """Issue 15, item 4's protocol run with the body dashpot mass: an interior least-squares optimum that
    brings the peaks to within 0.15° RMS of 004 Fig. 7 (measured 0.078° at β = 0.018 on the quick packing,
    against 0.6° at Table 2's β = 0.15)."""
    fit = report[2]["calibration"]["data"]["fits"]["body"]
    assert not fit["at_bound"] and 0.005 < fit["beta"] < 0.05
    assert fit["rms_deg"] < 0.15 and fit["beta_se"] < 0.1 * fit["beta"]
    # under the shared mass the same protocol needs a far larger β (measured 0.478 on the quick packing): one
    # interface damped at β, against β√N with the landing edge's ~50 contacts under "body"
    shared = report[2]["calibration"]["data"]["fits"]["shared"]
    assert not shared["at_bound"] and shared["beta"] > 5 * fit["beta"] and shared["rms_deg"] < 0.15


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_single_pier_rocks_as_the_rigid_block_on_its_edges(report):
    sp = report[2]["single_pier"]
    for m in sp["metrics"]:
        if m["gate"]:
            assert m["passed"] is not False, m
    d = sp["data"]
    # issue 15, updated from the rounded edges' 0.917 (the test is about the physics): with true edges the 80 mm
    # edge spheres are centred on the faces, α' = atan(0.8/4.72) = 1.017 α, and the uplift threshold is g tan α
    assert abs(d["alpha_ratio"] - 1.0166) < 2e-3
    assert abs(d["tan_alpha_uplift"] - 1.6 / 9.6) < 1e-9
    assert abs(d["free_first_impact_s"] / d["free_quarter_exact_s"] - 1) < 2e-3
    # the known finding: with β = 0.015 the DEM pier's impacts keep more than Housner's, for α and for α'
    assert max(d["e_housner"], d["e_housner_eff"]) < d["e_dem_free"] < 0.99
    # same half-cycle of the base motion (a quarter period, single_pier.TOL_ONSET), towards the same edge
    assert abs(d["onset_dem_s"] - d["onset_rigid_s"]) < 0.25 and d["onset_dem_sign"] == d["onset_rigid_sign"]
    single = [s for s in d["swings"] if not s["rest"]]
    assert len(single) >= 3
    assert max(abs(s["rigid_next"] - s["dem_next"]) for s in single) < 0.03


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_pier_deck_statics_and_frame(report):
    pd = report[2]["pier_deck"]
    for m in pd["metrics"]:
        if m["gate"]:
            assert m["passed"] is not False, m
    d = pd["data"]
    # Itiola & El Shamy 2024, §5.2: γ = 612480 / (4 × 178176), p̄ = 1.072 rad/s; frame restitution (Makris & Vassiliou
    # 2013)
    assert abs(d["gamma"] - 0.8594) < 1e-4 and abs(d["p_frame"] - 1.0718) < 1e-4
    assert abs(d["e_frame"] - 0.9497) < 1e-4
    assert d["static_V_error"] < 1e-3 and d["static_ecc"] < 1e-3
    low = d["runs"]["0.1 g"]
    assert max(low["theta_max_over_alpha"]) < 0.01  # no uplift below g tan α
    assert d["moment_balance"] < 0.02
    # the resultants carry the bodies' inertia: at least m × (peak base acceleration), rigid and in phase
    assert max(low["iface"][f"base{n}"]["H_kN"] for n in range(1, 5)) > 0.95 * d["newton_base_kN"]
    assert max(low["iface"][f"top{n}"]["H_kN"] for n in range(1, 5)) > 0.95 * d["newton_top_kN"]
    assert max(s["friction_max"] for s in low["iface"].values()) < 0.59 / 2


def test_default_folder_is_untracked():
    """Without --out the report goes to runs/ (ignored by git), never over the tracked docs/validation."""
    from dem.cli.validate import DEFAULT_OUT, add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args([]).out == DEFAULT_OUT == "runs/validation"


def test_unknown_case_is_refused(ti_cpu, tmp_path, capsys):
    from dem.cli.validate import add_arguments, main

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert main(parser.parse_args(["bridge", "--out", str(tmp_path)])) == 2
    assert "unknown case" in capsys.readouterr().err


@pytest.mark.slow  # the quick report, 2-4 min on 2 cores; CI runs it (.ci/run)
def test_transfer_pier_converges_under_shared_mass(report):
    """Issue 15, item 3: the single pier's free-rocking swings (÷ release) agree within 1 % across r1 = 80 and
    60 mm under the shared mass with the Peña-calibrated β (measured 0.6 % over 8 s), while under the body mass
    with Table 3's β they move more (measured 2.5 %: more landing-edge contacts, more damping)."""
    d = report[2]["transfer"]["data"]
    assert d["changes"]["shared"] < 0.01
    assert d["changes"]["body"] > 2 * d["changes"]["shared"]
    for m in report[2]["transfer"]["metrics"]:
        if m["gate"]:
            assert m["passed"] is not False, m
