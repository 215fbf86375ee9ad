"""Lognormal fragility fits (dem/sweep/fragility.py) and ``dem fragility``.

The fits are checked on outcomes drawn from known lognormal fragilities: the maximum-likelihood estimate
converges to the truth (large samples), the bootstrap intervals over records cover it (IDA-style samples of
40 records × 8 intensities), and the degenerate cases are named.
"""

import argparse
import json
import math

import numpy as np
import pandas as pd
import pytest

from dem.cli.fragility import add_arguments, main
from dem.sweep.fragility import BETA_MIN, fit_lognormal, fit_with_bootstrap, lognormal_cdf
from dem.sweep.store import ResultStore

THETA, BETA = 0.5, 0.4  # the true median [g] and log standard deviation


LEVELS = np.linspace(0.1, 1.2, 8)  # intensities [g]


def ida_outcomes(rng, records=40, levels=LEVELS):
    """Each record has a lognormal capacity C; at intensity x it exceeds when x ≥ C (an IDA: one record's
    outcomes are monotone in x, hence correlated — the reason for bootstrapping by record)."""
    cap = THETA * np.exp(BETA * rng.standard_normal(records))
    im = np.tile(levels, records)
    rec = np.repeat(np.arange(records), levels.size)
    return im, im >= np.repeat(cap, levels.size), rec


def test_mle_converges_to_the_true_parameters():
    rng = np.random.default_rng(0)
    x = np.exp(rng.uniform(math.log(0.05), math.log(2.0), 20_000))
    y = rng.random(x.size) < lognormal_cdf(x, THETA, BETA)
    fit = fit_lognormal(x, y)
    # asymptotic standard errors for 20,000 outcomes spread over the curve: ≈ 0.4 % of θ and 1.3 % of β;
    # 4 standard errors
    assert fit.theta == pytest.approx(THETA, rel=0.016) and fit.beta == pytest.approx(BETA, rel=0.05)
    assert fit.status == "ok"


def test_fit_recovers_known_parameters_within_its_bootstrap_band():
    # One IDA sample (seed 1). A 90 % interval misses the truth in about one sample in ten (seeds 0 and 5 of
    # 0-5 miss the curve at P = 0.84 or θ): the next test checks that rate over 20 samples.
    im, y, rec = ida_outcomes(np.random.default_rng(1))
    fit = fit_with_bootstrap(im, y, rec, samples=500, level=0.90, seed=0)
    print(f"theta {fit.theta:.3f} {fit.theta_ci}, beta {fit.beta:.3f} {fit.beta_ci}")
    assert fit.theta_ci[0] <= THETA <= fit.theta_ci[1] and fit.beta_ci[0] <= BETA <= fit.beta_ci[1]
    x = THETA * np.exp(BETA * np.array([-1.0, 0.0, 1.0]))  # P = 0.16, 0.5, 0.84 on the true curve
    lo, hi = fit.band(x)
    assert np.all((lo <= lognormal_cdf(x, THETA, BETA)) & (lognormal_cdf(x, THETA, BETA) <= hi))


def test_bootstrap_intervals_cover_the_truth_at_about_their_level():
    # Over 100 such samples (measured once, 200 resamples each) the 90 % intervals covered θ 90 times and β
    # 81 times (percentile intervals from 40 records are a little narrow for β; dem/sweep/fragility.py says so).
    # Here 20 samples: for coverages of 0.90 and 0.81, fewer than 15 and 13 hits have probabilities of 1 %
    # and 3 %; a biased fit or too narrow a band falls below.
    hits_theta = hits_beta = 0
    for seed in range(20):
        im, y, rec = ida_outcomes(np.random.default_rng(100 + seed))
        fit = fit_with_bootstrap(im, y, rec, samples=200, level=0.90, seed=seed)
        hits_theta += fit.theta_ci[0] <= THETA <= fit.theta_ci[1]
        hits_beta += fit.beta_ci[0] <= BETA <= fit.beta_ci[1]
        if seed < 5:
            # resampling cases instead of records ignores that one record's outcomes are one path: its θ
            # interval is narrower (measured 1.5-1.9 times; here at least 1.3)
            naive = fit_with_bootstrap(im, y, None, samples=200, level=0.90, seed=seed)
            assert np.diff(fit.theta_ci)[0] > 1.3 * np.diff(naive.theta_ci)[0]
    print(f"coverage of 20: theta {hits_theta}, beta {hits_beta}")
    assert hits_theta >= 15 and hits_beta >= 13


def test_degenerate_outcomes_are_named():
    x = np.array([0.1, 0.2, 0.3, 0.4])
    assert fit_lognormal(x, [False] * 4).status == "none exceeded" and fit_lognormal(x, [False] * 4).theta == math.inf
    assert fit_lognormal(x, [True] * 4).status == "all exceeded"
    sep = fit_lognormal(x, [False, False, True, True])
    assert sep.status == "separated" and sep.beta == BETA_MIN and 0.2 < sep.theta < 0.3
    with pytest.raises(ValueError, match="intensities must be finite and > 0"):
        fit_lognormal([0.0, 0.1], [True, False])


def fake_sweep(folder, engine, theta, rng):
    """A sweep folder whose overturning outcomes follow a lognormal fragility of median theta."""
    im, y, rec = ida_outcomes(rng)
    peak = np.where(y, np.inf, im / theta)
    df = pd.DataFrame({"case_id": [f"{engine}{i}" for i in range(im.size)], "engine": engine,
                       "record": [f"r{r}" for r in rec], "intensity": im, "pga_g": im, "sa_g": 2 * im,
                       "status": "ok", "peak_theta_over_alpha": peak, "overturned": y})
    store = ResultStore(folder)
    store.check_settings({"engine": engine})
    store.append(df)
    return store


def test_cli_writes_fits_and_plots(tmp_path, capsys):
    fake_sweep(tmp_path / "rigid", "rigid", THETA, np.random.default_rng(1))
    fake_sweep(tmp_path / "dem", "dem", THETA, np.random.default_rng(2))
    p = argparse.ArgumentParser()
    add_arguments(p)
    assert main(p.parse_args([str(tmp_path / "rigid"), str(tmp_path / "dem"), "--out", str(tmp_path / "f"),
                              "--bootstrap", "100", "--thresholds", "0.5"])) == 0
    said = capsys.readouterr()
    # (issue 32) it says what it fits while it works, and its table has a header; the median is not called θ
    assert "fitting 4 fragility curves, 100 bootstrap resamples each" in said.err and "4/4 dem" in said.err
    header = said.out.splitlines()[0].split()
    assert header[:4] == ["sweep", "damage", "median", "(PGA,"] and "β" in header
    assert "θ =" not in said.out  # θ is the rocking angle's letter ("peak |θ|/α ≥ 0.5"), not the median's
    doc = json.loads((tmp_path / "f" / "fragility.json").read_text())
    assert set(doc["sweeps"]) == {"rigid", "dem"}
    over = doc["sweeps"]["rigid"]["fits"]["overturned"]
    assert over["n"] == 320 and over["theta_ci"][0] <= over["theta"] <= over["theta_ci"][1]
    assert (tmp_path / "f" / "fragility.png").stat().st_size > 10_000 and (tmp_path / "f" / "ida.png").exists()
    assert main(p.parse_args([str(tmp_path / "nowhere")])) == 2
