"""Ground-motion records (dem/records): AT2 files, synthetic suites, response spectra, scaling, and the
record parameters of the shaking scenes.

References: the response spectrum against SciPy's independent linear-system solver (scipy.signal.lsim, exact
for piecewise-linear input) and the resonance closed form; the synthetic records against the model's own
expected periodogram (dem.records.synth); exact arithmetic for files and scaling. No Taichi kernels run.
"""

import math
import subprocess
import sys

import numpy as np
import pytest
from scipy import signal

from dem.cli.records import main as records_main
from dem.model.base_motion import STANDARD_G, Recorded
from dem.records import (
    SuiteRanges,
    SyntheticModel,
    factor_for,
    pga_g,
    read_at2,
    response_spectrum,
    sa_g,
    suite_record,
    write_at2,
)
from dem.records.synth import record_rng
from dem.scenes.scene import build_scene

SPECTRUM_TOL = 1e-9
"""Two exact solutions of the same piecewise-linear problem (matrix exponentials by different routes):
they agree to rounding, 1e-12 relative observed; 1e-9 leaves room for other BLAS/expm builds."""
TARGET_TOL = 0.15
"""Octave-band share of a 40-record suite's mean periodogram against the model's expectation. The bands
(0.25–16 Hz) hold tens to hundreds of frequency lines; with random phases the observed standard errors of
the means are 2–5 %, so 15 % is over 3 standard errors, while a model with f_g off by 20 % misses by 22–31 %
(checked below, so the test can fail)."""


def test_at2_write_read_round_trip_is_exact(tmp_path):
    rng = np.random.default_rng(1)
    values = rng.normal(size=1003) * 10.0 ** rng.integers(-12, 3, size=1003)  # 15 decades of magnitude
    path = write_at2(tmp_path / "r.AT2", 0.005, values, description="round trip")
    rec = read_at2(path)
    assert rec.dt == 0.005 and rec.npts == values.size
    assert np.array_equal(rec.values_g, values)  # 17 significant digits: every double comes back exactly
    assert rec.header[1] == "round trip"
    r = Recorded.from_at2(path)
    assert np.array_equal(r.samples, values * STANDARD_G)
    assert np.array_equal(r.time, np.arange(values.size) * 0.005)
    # the database's usual 8 digits: 0.5 ulp of the 8th digit
    short = read_at2(write_at2(tmp_path / "s.AT2", 0.005, values, digits=8))
    np.testing.assert_allclose(short.values_g, values, rtol=5e-8, atol=0)


@pytest.mark.parametrize("body, match", [
    ("0.1 0.2 0.3 0.4\n0.5 x 0.6\n", r"bad\.AT2:6: not a number: 'x'"),
    ("0.1 0.2 0.3\n", r"bad\.AT2:5: NPTS = 6 in the header but 3 values"),
    ("0.1 0.2 0.3 0.4 0.5 0.6 0.7\n", r"bad\.AT2:5: more values than NPTS = 6"),
])
def test_malformed_at2_names_file_and_line(tmp_path, body, match):
    (tmp_path / "bad.AT2").write_text("T\nD\nACCELERATION TIME SERIES IN UNITS OF G\nNPTS= 6, DT= 0.01 SEC\n" + body)
    with pytest.raises(ValueError, match=match):
        read_at2(tmp_path / "bad.AT2")


def test_missing_or_malformed_record_is_a_one_line_cli_error(tmp_path):
    (tmp_path / "bad.AT2").write_text("T\nD\nU\nNPTS= 3, DT= 0.01 SEC\n0.1 0.2\n0.3 oops\n")
    for rec, expect in ((tmp_path / "missing.AT2", "missing.AT2: cannot read the record file"),
                        (tmp_path / "bad.AT2", "bad.AT2:6: not a number: 'oops'")):
        out = subprocess.run([sys.executable, "-m", "dem.cli", "run", "single_pier", "--set", f"record={rec}",
                              "--t-end", "0.01", "--out", str(tmp_path / "o")], capture_output=True, text=True)
        lines = [ln for ln in out.stderr.splitlines() if not ln.startswith("[Taichi]")]
        assert out.returncode == 2 and len(lines) == 1, out.stderr
        assert lines[0].startswith("dem: error:") and expect in lines[0]


def test_synthetic_suite_is_bit_reproducible_and_independent_of_its_size(tmp_path):
    def synth(out, count):
        args = ["synth", "--count", str(count), "--seed", "11", "--out", str(out), "--duration", "5:8",
                "--freq", "1:3", "--pga", "0.1:0.4"]
        import argparse

        from dem.cli.records import add_arguments

        p = argparse.ArgumentParser()
        add_arguments(p)
        assert records_main(p.parse_args(args)) == 0
        return sorted(out.glob("*.AT2"))

    a, b, c = synth(tmp_path / "a", 4), synth(tmp_path / "b", 4), synth(tmp_path / "c", 2)
    assert [f.read_bytes() for f in a] == [f.read_bytes() for f in b]  # same seed: same bytes
    assert [f.read_bytes() for f in a[:2]] == [f.read_bytes() for f in c]  # record i does not depend on --count
    assert a[0].read_bytes() != a[1].read_bytes()
    ranges = SuiteRanges(duration=(5, 8), f_g=(1, 3), pga_g=(0.1, 0.4))
    for i, f in enumerate(a):
        model, acc = suite_record(11, i, ranges)
        rec = read_at2(f)
        assert np.array_equal(rec.values_g, acc) and rec.dt == 0.01
        assert 5 <= model.duration <= 8 and 1 <= model.f_g <= 3
        assert np.max(np.abs(acc)) == pytest.approx(model.pga_g, rel=1e-15)  # scaled to its drawn PGA


def _octave_shares(model, records):
    """Octave-band shares (0.25–16 Hz) of the mean normalised periodogram of `records` and of the model's
    expected periodogram."""
    edges = 0.25 * 2.0 ** np.arange(7)
    f, expect = model.expected_periodogram()
    expect = expect / expect.sum()
    target = np.array([expect[(f >= lo) & (f < hi)].sum() for lo, hi in zip(edges[:-1], edges[1:])])
    shares = []
    for a in records:
        x = np.abs(np.fft.rfft(a, n=model.fft_size)) ** 2
        x /= x.sum()
        shares.append([x[(f >= lo) & (f < hi)].sum() for lo, hi in zip(edges[:-1], edges[1:])])
    return np.mean(shares, axis=0), target


def test_synthetic_spectra_match_the_model_target():
    model = SyntheticModel(duration=15.0, dt=0.01, f_g=2.5, zeta_g=0.6, pga_g=0.3)
    records = [model.generate(record_rng(7, i)) for i in range(40)]
    mean, target = _octave_shares(model, records)
    print("octave-band ratio suite/target:", np.round(mean / target, 3))
    assert np.all(np.abs(mean / target - 1.0) < TARGET_TOL)
    _, wrong = _octave_shares(SyntheticModel(duration=15.0, dt=0.01, f_g=3.0, zeta_g=0.6), records)
    assert np.max(np.abs(mean / wrong - 1.0)) > 1.3 * TARGET_TOL  # the check sees a 20 % error in f_g
    # the Saragoni–Hart envelope of Boore (2003): 1 at ε t_η, η at t_η, 0 at t = 0
    assert model.envelope([0.0, model.eps * model.duration, model.duration]) == pytest.approx([0, 1, model.eta])


def test_response_spectrum_matches_scipy_lsim():
    dt, zeta = 0.01, 0.05
    t = np.arange(1500) * dt
    acc = np.random.default_rng(3).normal(size=(2, t.size))
    periods = np.array([0.05, 0.2, 1.0, 4.0])
    s = response_spectrum(acc, dt, periods, damping=zeta, substeps=1)
    for r in range(2):
        for j, T in enumerate(periods):
            w = 2 * math.pi / T
            sys_ = signal.lti([[0, 1], [-w * w, -2 * zeta * w]], [[0], [-1]], [[1, 0]], [[0]])
            _, u, _ = signal.lsim(sys_, acc[r], t, interp=True)  # also exact for linear input between samples
            assert s.sd[r, j] == pytest.approx(np.max(np.abs(u)), rel=SPECTRUM_TOL)
            assert s.psa[r, j] == pytest.approx(w * w * s.sd[r, j], rel=1e-15)


def test_response_spectrum_resonance_and_rigid_limit():
    # a sine at the oscillator's own period: steady amplitude a0/(2ζω²), PSA = a0/(2ζ) (Chopra §3.2)
    T, zeta, a0 = 0.5, 0.05, 2.0
    dt = T / 200
    t = np.arange(int(60 * T / dt)) * dt  # 60 cycles: the transient has decayed by e^{−2πζ·60} = 7e-9
    s = response_spectrum(a0 * np.sin(2 * math.pi * t / T), dt, [0.0, T], damping=zeta)
    # piecewise-linear sampling at 200 points a period changes the forcing's amplitude by ~(ω dt)²/12 = 8e-5
    assert s.psa[1] == pytest.approx(a0 / (2 * zeta), rel=1e-3)
    assert s.psa[0] == pytest.approx(a0, rel=1e-12)  # T = 0: PSA = PGA


def test_scaling_to_pga_and_sa_targets(tmp_path):
    model, acc = suite_record(5, 0, SuiteRanges(duration=(8, 8)))
    rec = Recorded(np.arange(acc.size) * model.dt, acc * STANDARD_G)
    assert pga_g(rec) == pytest.approx(model.pga_g, rel=1e-14)
    f = factor_for(rec, target_pga_g=0.7)
    assert pga_g(rec.scaled(f)) == pytest.approx(0.7, rel=1e-14)
    f = factor_for(rec, target_sa_g=0.9, sa_period=0.8)
    assert sa_g(rec.scaled(f), 0.8) == pytest.approx(0.9, rel=1e-12)  # the spectrum is linear in the record
    # many records of different lengths in one padded pass: each value is the record's own, exactly
    from dem.records.scaling import sa_g_many

    short = Recorded(rec.time[:301], rec.samples[:301])
    assert list(sa_g_many([rec, short, rec.scaled(3.0)], 0.8)) == [sa_g(rec, 0.8), sa_g(short, 0.8),
                                                                   sa_g(rec.scaled(3.0), 0.8)]
    tt = np.linspace(0, 10, 101)
    np.testing.assert_allclose(rec.scaled(2.5).displacement(tt), 2.5 * rec.displacement(tt), rtol=1e-13, atol=1e-15)
    for kw, match in (({"scale": 2.0, "target_pga_g": 0.3}, "either scale or target_pga_g"),
                      ({"target_pga_g": 0.3, "target_sa_g": 0.3}, "at most one"),
                      ({"scale": -1.0}, "scale must be")):
        with pytest.raises(ValueError, match=match):
            factor_for(rec, **kw)


def test_scenes_take_a_record_and_never_rescale_it_silently(tmp_path):
    model, acc = suite_record(3, 1, SuiteRanges(duration=(6, 6), pga_g=(0.25, 0.25)))
    path = write_at2(tmp_path / "q.AT2", model.dt, acc)
    for scene in ("single_pier", "pier_deck"):
        plain = build_scene(scene, {"record": str(path), "t_end": 7.0, "r_base": 0.2, "r_core": 0.4, "zone": 0.5})
        assert plain.info["record_scale_factor"] == 1.0 and plain.info["base_pga_g"] == pytest.approx(0.25)
        scaled = build_scene(scene, {"record": str(path), "target_pga_g": 0.5, "t_end": 7.0, "r_base": 0.2,
                                     "r_core": 0.4, "zone": 0.5})
        assert scaled.info["base_pga_g"] == pytest.approx(0.5, rel=1e-14)
        # the wall's velocity table is the scaled record's velocity, along the chosen direction
        wall = scaled.model.walls[0].motion
        rec = Recorded.from_at2(path).scaled(2.0)
        delay = scaled.info.get("shaking_delay_s", 0.0)
        tt = np.arange(0.0, 6.0, 0.5)
        np.testing.assert_allclose(wall.at(tt + delay)[:, 0], rec.velocity(tt), atol=1e-6)
    turned = build_scene("single_pier", {"record": str(path), "direction_deg": 90.0, "r_base": 0.2,
                                         "r_core": 0.4, "zone": 0.5})
    v = turned.model.walls[0].motion.velocity
    assert np.max(np.abs(v[:, 0])) < 1e-15 * np.max(np.abs(v[:, 1])) + 1e-300
    with pytest.raises(ValueError, match="'pga_g' belongs to the Eq. 42 sine"):
        build_scene("single_pier", {"record": str(path), "pga_g": 0.3})
    with pytest.raises(ValueError, match="'target_pga_g' applies to a record"):
        build_scene("single_pier", {"target_pga_g": 0.3})


def test_synthetic_records_end_at_rest_where_they_started():
    """(Issue 32: a suite's record scaled to 0.6 g moved the table 2.16 m, at 1.2 m/s, and left it there.) Each
    record of a suite, at any scale, ends with the table's velocity and displacement at 0 — as integrated by the
    base motion (dem.model.base_motion.Recorded) and by the wall's velocity table the kernels step — and its
    baseline correction has nothing left to do."""
    from dem.model.base_motion import Recorded
    from dem.records.synth import SuiteRanges, suite_record
    from dem.scenes.tools import shaking

    G = 9.81
    for i in range(6):
        model, acc = suite_record(1, i, SuiteRanges())
        rec = Recorded(np.arange(acc.size) * model.dt, acc / np.max(np.abs(acc)) * 0.6 * G)
        end = rec.duration
        peak_v = float(np.max(np.abs(rec.velocity(np.linspace(0.0, end, 4001)))))
        # round-off of sums over ~2,000 samples of O(1 m/s) velocities: 1e-12 of them
        assert abs(rec.velocity(end)) < 1e-12 * peak_v and abs(rec.displacement(end)) < 1e-12 * peak_v * end
        assert abs(rec.baseline_acceleration) < 1e-12
        table = shaking(rec, t_end=end + 1.0)
        # the table: the trapezoid rule on its velocity samples, within dt² max|a| of d(t) (base_motion.py)
        travel = float(np.sum(0.5 * (table.velocity[1:, 0] + table.velocity[:-1, 0])) * table.dt)
        assert abs(travel) < table.dt ** 2 * 0.6 * G
