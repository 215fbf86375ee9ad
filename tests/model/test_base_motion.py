"""Base-motion signals of dem/model/base_motion.py: Itiola & El Shamy 2024, Eq. 42, Qi & Zhu 2025, Eq. 44, recorded
accelerograms, wall tables.

Plain NumPy, no Taichi kernels. References: the closed forms are checked against fine composite-midpoint
integration of a(t) (for v) and of the closed-form v(t) (for d), error h²/24 · Σ over smooth pieces of
|change of the integrand's derivative| ≤ h² · max|derivative| (≤ 4 pieces); a step of the integrand at
a grid node costs nothing with midpoints (the trapezoid rule would smear it over one interval).
"""

import math

import numpy as np
import pytest

from dem.model.base_motion import TABLE_DT, ExponentialSine, RampedSine, Recorded
from dem.model.walls import WallMotion
from validation.rocking.signals import ramped_sine

G = 9.81
H = 1e-4  # fine grid [s] for the numerical integrals; every knot of the signals below lies on it
# Two implementations of the same closed forms in double precision: rounding of values ~1 m/s, 0.1 m.
ROUNDING_TOL = 1e-12


def cumtrapz(y, h):
    """Integral of the piecewise-linear interpolant of samples y every h, at the samples."""
    return np.concatenate(([0.0], np.cumsum(0.5 * h * (y[1:] + y[:-1]))))


def cummid(f, t):
    """Composite-midpoint integral of f from t[0] at the points t (uniform spacing)."""
    h = t[1] - t[0]
    return np.concatenate(([0.0], np.cumsum(h * f(t[:-1] + 0.5 * h))))


SIGNALS = {
    "eq42": RampedSine(),
    "eq42_low": RampedSine(pga_g=0.1),
    "eq42_prose": RampedSine(hold_end=16.0, stop=20.0),
    "eq42_odd": RampedSine(pga_g=0.3, frequency=1.3, ramp_end=3.0, hold_end=8.0, stop=11.0),  # v_raw(L2) ≠ 0
    "eq42_step_on": RampedSine(ramp_end=0.0, hold_end=2.0, stop=3.0),
    "eq42_no_hold": RampedSine(ramp_end=2.0, hold_end=2.0, stop=3.7),
    "eq44": ExponentialSine(2.0 * G, 2 * math.pi * 1.1, 1.76, duration=6.0),
    "eq44_corrected": ExponentialSine(2.0 * G, 7.0, 1.76, duration=6.0, baseline_correct=True),
}


def max_jerk(sig):
    """Bound on |ȧ| [m/s³] away from the steps of a: A (ω + env slope) for Itiola & El Shamy 2024, Eq. 42, A0 (ω + β)
    for Qi & Zhu 2025, Eq. 44, the largest sample slope for a record."""
    if isinstance(sig, RampedSine):
        ramps = [r for r in (sig.ramp_end, sig.stop - sig.hold_end) if r > 0]
        return sig.pga_g * G * (sig.omega + 1.0 / min(ramps))
    if isinstance(sig, ExponentialSine):
        return sig.amplitude * (sig.omega + sig.beta)
    return np.max(np.abs(np.diff(sig.samples) / np.diff(sig.time)))


@pytest.mark.parametrize("name", SIGNALS)
def test_closed_form_integrals_match_numerical_integration(name):
    sig = SIGNALS[name]
    t = np.arange(0, round((sig.duration + 2.0) / H) + 1) * H
    a, v, d = sig.acceleration(t), sig.velocity(t), sig.displacement(t)
    # v: midpoints of a, error ≤ h² max|ȧ|; d: midpoints of the closed-form v, error ≤ h² max|a|
    tol_v = H**2 * max_jerk(sig)
    tol_d = H**2 * np.max(np.abs(a))
    err_v = np.max(np.abs(cummid(sig.acceleration, t) - v))
    err_d = np.max(np.abs(cummid(sig.velocity, t) - d))
    print(f"{name}: |v − ∫a| = {err_v:.1e} m/s (bound {tol_v:.1e}), |d − ∫v| = {err_d:.1e} m (bound {tol_d:.1e})")
    assert err_v < tol_v and err_d < tol_d, (err_v, tol_v, err_d, tol_d)
    assert sig.velocity(0.0) == 0.0 and sig.displacement(0.0) == 0.0
    assert sig.acceleration(-1.0) == sig.velocity(-1.0) == sig.displacement(-1.0) == 0.0


def test_eq42_envelope_and_acceleration():
    sig = RampedSine()  # b = 0.5, f = 1 Hz, T = 4.5 s, L1 = 14.5 s, L2 = 16 s (Itiola & El Shamy 2024, Eq. 42)
    t = np.array([-0.5, 0.0, 1.125, 2.25, 4.5, 10.0, 14.5, 15.25, 16.0, 17.0])
    env = np.array([0.0, 0.0, 0.25, 0.5, 1.0, 1.0, 1.0, 0.5, 0.0, 0.0])
    np.testing.assert_allclose(sig.envelope(t), env, atol=ROUNDING_TOL)
    tt = np.linspace(0.0, 20.0, 4001)
    expect = 0.5 * G * np.interp(tt, [0, 4.5, 14.5, 16.0], [0, 1, 1, 0], right=0.0) * np.sin(2 * math.pi * tt)
    np.testing.assert_allclose(sig.acceleration(tt), expect, atol=ROUNDING_TOL)
    assert sig.duration == 16.0 and sig.table_dt == TABLE_DT
    # plateau velocity −b g cos(ωt)/ω: Eq. 42's printed "ü_max cos ωt" with ü_max = −b g/ω
    tp = np.linspace(4.5, 14.5, 101)
    np.testing.assert_allclose(sig.velocity(tp), -0.5 * G * np.cos(2 * math.pi * tp) / (2 * math.pi),
                               atol=ROUNDING_TOL)
    # ramp: A (ωt cos ωt − sin ωt), A = −b g/(T ω²) (Eq. 42's first piece)
    w, tr = 2 * math.pi, np.linspace(0.0, 4.5, 101)
    np.testing.assert_allclose(sig.velocity(tr), -0.5 * G / (4.5 * w**2) * (w * tr * np.cos(w * tr) - np.sin(w * tr)),
                               atol=ROUNDING_TOL)


@pytest.mark.parametrize("b", [0.5, 0.1])
def test_eq42_ends_at_rest_with_the_documented_displacement(b):
    sig = RampedSine(pga_g=b)
    raw = RampedSine(pga_g=b, baseline_correct=False)
    assert abs(raw.velocity(16.0)) < ROUNDING_TOL  # ωT, ωL1, ωL2 multiples of π: 0 without correction
    assert abs(sig.baseline_acceleration) < ROUNDING_TOL
    w = 2 * math.pi
    d_end = 4 * b * G * (1 / 4.5 + 1 / 1.5) / w**3  # ramp-up and fade drifts, module docstring
    for t in (16.0, 20.0, 80.0):
        assert sig.velocity(t) == 0.0
        assert sig.displacement(t) == pytest.approx(d_end, abs=ROUNDING_TOL)
    assert d_end == pytest.approx({0.5: 0.0703083, 0.1: 0.0140617}[b], abs=1e-7)
    prose = RampedSine(pga_g=b, hold_end=16.0, stop=20.0)  # §5.1's prose reading
    assert abs(prose.velocity(20.0)) < ROUNDING_TOL
    assert prose.displacement(25.0) == pytest.approx(4 * b * G / (4.5 * w**3), abs=ROUNDING_TOL)


def test_baseline_correction_brings_the_base_to_rest():
    sig, raw = SIGNALS["eq42_odd"], RampedSine(pga_g=0.3, frequency=1.3, ramp_end=3.0, hold_end=8.0, stop=11.0,
                                                baseline_correct=False)
    v_raw = raw.velocity(11.0)
    assert abs(v_raw) > 1e-3
    c = v_raw / 11.0  # the documented constant acceleration over [0, L2]
    assert sig.baseline_acceleration == pytest.approx(c, rel=1e-12)
    t = np.linspace(0.0, 15.0, 301)
    np.testing.assert_allclose(sig.acceleration(t), raw.acceleration(t) - np.where(t <= 11.0, c, 0.0),
                               atol=ROUNDING_TOL)
    assert abs(sig.velocity(11.0)) < ROUNDING_TOL and abs(sig.velocity(30.0)) < ROUNDING_TOL
    assert sig.displacement(30.0) == pytest.approx(raw.displacement(11.0) - c * 11.0**2 / 2, abs=ROUNDING_TOL)
    eq44 = SIGNALS["eq44_corrected"]
    assert abs(eq44.velocity(6.0)) < ROUNDING_TOL and abs(eq44.velocity(9.0)) < ROUNDING_TOL


@pytest.mark.parametrize("kw", [
    dict(),
    dict(pga_g=0.1),
    dict(pga_g=0.3, frequency=1.3, ramp_end=3.0, hold_end=8.0, stop=11.0),
    dict(frequency=0.7, ramp_end=2.2, hold_end=2.2, stop=5.1),
])
def test_agrees_with_validation_ramped_sine(kw):
    """Same reading (dem/model/base_motion.py's reading) and same correction (constant acceleration over [0, L2]) as the
    independent implementation in validation/rocking/signals.py (parameters b, plateau_end there)."""
    ours = RampedSine(**kw)
    theirs = ramped_sine(b=kw.get("pga_g", 0.5), frequency=kw.get("frequency", 1.0), ramp_end=kw.get("ramp_end", 4.5),
                         plateau_end=kw.get("hold_end", 14.5), stop=kw.get("stop", 16.0))
    t = np.linspace(-1.0, 25.0, 26001)
    for f in ("acceleration", "velocity", "displacement"):
        np.testing.assert_allclose(getattr(ours, f)(t), getattr(theirs, f)(t), atol=ROUNDING_TOL, err_msg=f)


def test_eq44_acceleration_and_drift():
    a0, w, beta = 2.0 * G, 7.0, 1.76
    sig = ExponentialSine(a0, w, beta)  # Qi & Zhu 2025, Eq. 44, never stops
    t = np.linspace(0.0, 40.0, 4001)
    np.testing.assert_allclose(sig.acceleration(t), a0 * (1 - np.exp(-beta * t)) * np.sin(w * t), atol=ROUNDING_TOL)
    # late times: v = A0 (1 − cos ωt)/ω − A0 ω/(β² + ω²) + O(e^{−βt}), mean A0 β²/(ω(β² + ω²))
    tl = np.linspace(30.0, 40.0, 101)
    np.testing.assert_allclose(sig.velocity(tl), a0 * ((1 - np.cos(w * tl)) / w - w / (beta**2 + w**2)), atol=1e-12)
    assert math.isinf(sig.duration)
    with pytest.raises(ValueError, match="t_end"):
        sig.wall_motion()


def table_error(sig, motion: WallMotion):
    t = np.arange(motion.velocity.shape[0]) * motion.dt
    v_tab = motion.velocity @ np.array([1.0, 0.0, 0.0])
    return np.max(np.abs(v_tab - sig.velocity(t))), np.max(np.abs(cumtrapz(v_tab, motion.dt) - sig.displacement(t)))


@pytest.mark.parametrize("name", ["eq42", "eq42_odd", "eq44_corrected"])
def test_wall_table_velocity_and_its_integral(name):
    sig = SIGNALS[name]
    motion = sig.wall_motion((1, 0, 0))
    n = motion.velocity.shape[0]
    assert sig.table_dt * (1 - 1e-3) < motion.dt <= sig.table_dt and (n - 1) * motion.dt == pytest.approx(sig.duration)
    err_v, err_d = table_error(sig, motion)
    assert err_v < ROUNDING_TOL
    t = np.linspace(0.0, sig.duration, 200001)
    bound = motion.dt**2 * np.max(np.abs(sig.acceleration(t)))  # module docstring: ≤ dt² max|a|
    assert err_d < bound, (err_d, bound)
    # between samples the kernels' linear interpolation: ≤ dt²/8 · max|ȧ| (+ a kink at a step of a)
    err_mid = np.max(np.abs(motion.at(t)[:, 0] - sig.velocity(t)))
    print(f"{name} table dt={motion.dt:.3e}: |v_tab − v| = {err_v:.1e}, |∫v_tab − d| = {err_d:.1e} (bound {bound:.1e}),"
          f" between samples {err_mid:.1e} (bound {motion.dt**2 / 8 * max_jerk(sig):.1e})")
    assert err_mid < motion.dt**2 / 8 * max_jerk(sig) + ROUNDING_TOL  # steps of a at 0 and t_end are samples
    assert np.all(motion.at([sig.duration + 5.0])[:, 0] == motion.velocity[-1, 0])


def test_wall_table_direction_and_options():
    sig = RampedSine(pga_g=0.2)
    m = sig.wall_motion((0.0, 3.0, 4.0), dt=0.01, t_end=20.0)
    assert m.dt == 0.01 and m.velocity.shape == (2001, 3)
    t = np.arange(2001) * 0.01
    np.testing.assert_allclose(m.velocity, sig.velocity(t)[:, None] * np.array([0.0, 0.6, 0.8]), atol=1e-15)
    assert RampedSine(frequency=4.0).table_dt == pytest.approx(0.25e-3)


def piecewise_linear_record():
    rng = np.random.default_rng(4)
    steps = np.concatenate(([300], rng.integers(5, 21, 799)))  # irregular, starts at 0.3 s, on the 1e-4 s grid
    t = np.cumsum(steps) * 1e-3
    return t, rng.normal(0.0, 2.0, t.size)


@pytest.mark.parametrize("options", [dict(baseline_correct=False), dict(), dict(detrend_degree=6)])
def test_recorded_integrals_are_exact_for_the_interpolant(options):
    t, a = piecewise_linear_record()
    rec = Recorded(t, a, **options)
    tf = np.arange(0, round(14.0 / H) + 1) * H
    acc = rec.acceleration(tf)
    # every kink and step of a lies on the grid: midpoints on a are exact up to rounding (sum of 1.4e5
    # terms ~1e-4 m/s each); on v (C¹ between the steps of a at t_0, t_n): ≤ h² max|a| as above
    err_v = np.max(np.abs(cummid(rec.acceleration, tf) - rec.velocity(tf)))
    err_d = np.max(np.abs(cummid(rec.velocity, tf) - rec.displacement(tf)))
    print(f"record {options}: |v − ∫a| = {err_v:.1e} m/s, |d − ∫v| = {err_d:.1e} m")
    # the detrend's polynomial correction is smooth, not piecewise linear: add h² max|ȧ_corr|
    inner = (tf > t[0]) & (tf < t[-1])
    a_corr = Recorded(t, a, baseline_correct=False).acceleration(tf[inner]) - acc[inner]
    tol_v = 1e-10 + H * np.max(np.abs(np.diff(a_corr)))
    assert err_v < tol_v and err_d < H**2 * np.max(np.abs(acc)), (err_v, tol_v, err_d)
    assert rec.velocity(0.2) == 0.0 and rec.displacement(0.2) == 0.0 and rec.acceleration(t[-1] + 0.1) == 0.0
    if "detrend_degree" not in options:  # the samples, less the constant correction
        np.testing.assert_allclose(rec.acceleration(t), a - rec.baseline_acceleration, atol=1e-12)
    if options.get("baseline_correct", True):
        assert abs(rec.velocity(t[-1])) < 1e-12 and abs(rec.velocity(t[-1] + 3.0)) < 1e-12
        assert rec.displacement(t[-1] + 3.0) == pytest.approx(rec.displacement(t[-1]), abs=1e-12)


def test_detrend_reduces_the_displacement_and_keeps_the_ends_at_rest():
    t, a = piecewise_linear_record()
    const, detr = Recorded(t, a), Recorded(t, a, detrend_degree=6)
    rms_c, rms_d = (np.sqrt(np.mean(r.displacement(t) ** 2)) for r in (const, detr))
    assert rms_d < rms_c
    assert detr.velocity(t[0]) == 0.0 and detr.displacement(t[0]) == 0.0 and abs(detr.velocity(t[-1])) < 1e-12


def test_baseline_correction_removes_a_constant_offset():
    t, a = piecewise_linear_record()
    clean, offset = Recorded(t, a), Recorded(t, a + 0.37)
    assert offset.baseline_acceleration == pytest.approx(clean.baseline_acceleration + 0.37, rel=1e-12)
    tt = np.linspace(0.0, 16.0, 1601)
    for f in ("acceleration", "velocity", "displacement"):
        np.testing.assert_allclose(getattr(offset, f)(tt), getattr(clean, f)(tt), atol=1e-11, err_msg=f)


def test_sampled_eq42_reproduces_the_closed_form():
    sig = RampedSine()
    dt = 0.005  # a typical record interval
    t = np.arange(0, round(16.0 / dt) + 1) * dt
    rec = Recorded(t, sig.acceleration(t))
    tt = np.linspace(0.0, 18.0, 3601)
    # linear interpolation of a: error ≤ err = dt²/8 max|ä| ≈ 6e-4 m/s² (max|ä| ≈ b g ω²); over 16 s the
    # velocity is off by ≤ 16 err and the record's baseline correction c by ≤ err, so |Δv| ≤ 2 · 16 err
    err = dt**2 / 8 * 0.5 * G * (2 * math.pi) ** 2
    ev = np.max(np.abs(rec.velocity(tt) - sig.velocity(tt)))
    ed = np.max(np.abs(rec.displacement(tt) - sig.displacement(tt)))
    print(f"Eq. 42 sampled every {dt} s: |Δv| = {ev:.1e} m/s, |Δd| = {ed:.1e} m")
    assert ev < 2 * err * 16.0 and ed < err * 16.0**2


def write_at2(path, dt, a_g, *, per_line=5, old_header=False, touching=False):
    head = [
        "PEER NGA STRONG MOTION DATABASE RECORD",
        "TEST EVENT 1/1/00, TEST STATION, 090",
        "ACCELERATION TIME SERIES IN UNITS OF G",
        f"{len(a_g)}   {dt:.4f}   NPTS, DT" if old_header else f"NPTS=  {len(a_g)}, DT=   {dt:.4f} SEC",
    ]
    body = []
    for i in range(0, len(a_g), per_line):
        # touching: fixed 14-character fields, so a minus sign fills the separating blank (old PEER files)
        body.append("".join(f"{x:14.7E}" if touching else f"{x:15.7E}" for x in a_g[i:i + per_line]))
    path.write_text("\n".join(head + body) + "\n")


def test_at2_and_csv_round_trips_give_the_same_wall_velocity(tmp_path):
    dt = 0.01
    t = np.arange(1500) * dt
    a_g = RampedSine(pga_g=0.3, ramp_end=3.0, hold_end=12.0, stop=14.99).acceleration(t) / G
    a_g = np.array([float(f"{x:.7E}") for x in a_g])  # the precision written to the files
    write_at2(tmp_path / "rec.AT2", dt, a_g)
    write_at2(tmp_path / "old.at2", dt, a_g, per_line=8, old_header=True, touching=True)
    lines = ["# written by test_base_motion", "time_s,acc_g,acc_ms2"]
    lines += [f"{float(ti)!r},{x:.7E},{float(x * G)!r}" for ti, x in zip(t, a_g)]
    (tmp_path / "rec.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "plain.txt").write_text("\n".join(f"{float(ti)!r} {x:.7E}" for ti, x in zip(t, a_g)) + "\n")
    ref = Recorded(t, a_g * G)
    recs = [
        Recorded.from_at2(tmp_path / "rec.AT2"),
        Recorded.from_at2(tmp_path / "old.at2"),
        Recorded.from_csv(tmp_path / "rec.csv", units="g", time_column="time_s", accel_column="acc_g"),
        Recorded.from_csv(tmp_path / "rec.csv", time_column=0, accel_column=2),
        Recorded.from_csv(tmp_path / "plain.txt", units="g"),
    ]
    v_ref = ref.wall_motion((1, 0, 0)).velocity
    assert ref.table_dt == TABLE_DT and v_ref.shape == (round(t[-1] / TABLE_DT) + 1, 3)
    for rec in recs:
        np.testing.assert_allclose(rec.time, t, rtol=1e-15, atol=1e-15)
        np.testing.assert_allclose(rec.wall_motion((1, 0, 0)).velocity, v_ref, rtol=0, atol=1e-12)


def test_at2_errors(tmp_path):
    dt, a_g = 0.01, np.linspace(-0.1, 0.1, 23)
    write_at2(tmp_path / "ok.AT2", dt, a_g)
    text = (tmp_path / "ok.AT2").read_text().splitlines()
    (tmp_path / "short.AT2").write_text("\n".join(text[:-1]) + "\n")  # drops the last 3 values
    with pytest.raises(ValueError, match="NPTS = 23 in the header but 20 values"):
        Recorded.from_at2(tmp_path / "short.AT2")
    (tmp_path / "nohead.AT2").write_text("\n".join(text[:3] + ["NO NUMBERS HERE"] + text[4:]) + "\n")
    with pytest.raises(ValueError, match="NPTS and DT"):
        Recorded.from_at2(tmp_path / "nohead.AT2")
    (tmp_path / "tiny.AT2").write_text("\n".join(text[:2]) + "\n")
    with pytest.raises(ValueError, match="4 header lines"):
        Recorded.from_at2(tmp_path / "tiny.AT2")


@pytest.mark.parametrize("make, match", [
    (lambda: RampedSine(pga_g=-0.1), "pga_g must be finite and >= 0"),
    (lambda: RampedSine(frequency=0.0), "frequency must be finite and > 0"),
    (lambda: RampedSine(ramp_end=-1.0), "ramp_end must be finite and >= 0"),
    (lambda: RampedSine(ramp_end=5.0, hold_end=4.0), "0 <= ramp_end <= hold_end <= stop"),
    (lambda: RampedSine(hold_end=17.0), "0 <= ramp_end <= hold_end <= stop"),
    (lambda: RampedSine(ramp_end=0.0, hold_end=0.0, stop=0.0), "stop must be finite and > 0"),
    (lambda: RampedSine(g=math.nan), "g must be finite"),
    (lambda: ExponentialSine(-1.0, 7.0, 1.76), "amplitude must be finite and >= 0"),
    (lambda: ExponentialSine(1.0, 0.0, 1.76), "omega must be finite and > 0"),
    (lambda: ExponentialSine(1.0, 7.0, -1.0), "beta must be finite and >= 0"),
    (lambda: ExponentialSine(1.0, 7.0, 1.0, duration=0.0), "duration must be > 0"),
    (lambda: ExponentialSine(1.0, 7.0, 1.0, baseline_correct=True), "duration must be finite"),
    (lambda: Recorded([0.0, 0.1, 0.1], [0, 1, 2]), r"t must increase strictly .*t\[2\]"),
    (lambda: Recorded([0.0, 0.2, 0.1], [0, 1, 2]), "t must increase strictly"),
    (lambda: Recorded([-0.1, 0.2], [0, 1]), "t must start at >= 0"),
    (lambda: Recorded([0.0, 0.1], [0, 1, 2]), "same length"),
    (lambda: Recorded([0.0, 0.1], [0, np.nan]), "finite"),
    (lambda: Recorded([0.0, 0.1, 0.2, 0.3], [0, 1, 2, 3], detrend_degree=2), "detrend_degree must be an int in"),
    (lambda: Recorded([0.0, 0.1, 0.2], [0, 1, 2], baseline_correct=False, detrend_degree=3), "needs baseline"),
    (lambda: RampedSine().wall_motion(dt=0.0), "dt must be finite and > 0"),
    (lambda: RampedSine().wall_motion(t_end=-1.0), "t_end must be finite and >= 0"),
    (lambda: RampedSine().wall_motion((0, 0, 0)), "direction must be a finite nonzero 3-vector"),
])
def test_bad_input_names_the_parameter(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_csv_errors(tmp_path):
    p = tmp_path / "a.csv"
    p.write_text("t,a\n0,1\n0.1,2\n")
    with pytest.raises(ValueError, match="units must be 'm/s2' or 'g'"):
        Recorded.from_csv(p, units="cm/s2")
    with pytest.raises(ValueError, match="accel_column 'acc' not found"):
        Recorded.from_csv(p, accel_column="acc")
    with pytest.raises(ValueError, match="accel_column must be a column index"):
        Recorded.from_csv(p, accel_column=5)
    p.write_text("t,a\n0,1\n0.1,x\n")
    with pytest.raises(ValueError, match=r"a.csv:3: cannot read"):
        Recorded.from_csv(p)
    p.write_text("t,a\n")
    with pytest.raises(ValueError, match="no data rows"):
        Recorded.from_csv(p)
