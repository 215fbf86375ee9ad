"""Base-motion signals of validation/rocking/signals.py: shapes and exact integrals."""

import math

import numpy as np
import pytest

from validation.rocking.signals import (
    ExponentialSine,
    SampledRecord,
    as_acceleration,
    cosine_pulse,
    ramped_sine,
    sine_pulse,
)

G = 9.81
# Central differences of the closed-form integrals at step 1e-5 s: truncation (1e-5)² × |a'''|/6 plus
# rounding 1e-16 × |v| / 1e-5; both below 1e-6 of the signal's scale.
DERIVATIVE_TOL = 1e-6
# Closed-form integrals evaluated in double precision: a few hundred ulps of the values (~1 m/s).
ROUNDING_TOL = 1e-12


def central_difference(f, t, h=1e-5):
    return (f(t + h) - f(t - h)) / (2 * h)


SIGNALS = {
    "eq42": ramped_sine(),
    "eq42_other": ramped_sine(b=0.1, frequency=1.3, ramp_end=3.0, plateau_end=8.0, stop=11.0),
    "eq44": ExponentialSine(2.0 * G, 1.76, 2 * math.pi * 1.1, duration=6.0),
    "sine_pulse": sine_pulse(3.0, 0.8, start=0.5),
    "cosine_pulse": cosine_pulse(-2.0, 1.2, start=0.3),
}


@pytest.mark.parametrize("name", SIGNALS)
def test_velocity_and_displacement_are_the_integrals(name):
    sig = SIGNALS[name]
    t = np.linspace(0.013, 19.9, 997)
    scale = np.max(np.abs(sig(t)))
    np.testing.assert_allclose(central_difference(sig.velocity, t), sig(t), atol=DERIVATIVE_TOL * scale)
    vscale = np.max(np.abs(sig.velocity(t)))
    np.testing.assert_allclose(central_difference(sig.displacement, t), sig.velocity(t), atol=DERIVATIVE_TOL * vscale)
    assert sig.velocity(0.0) == 0.0 and sig.displacement(0.0) == 0.0


def test_ramped_sine_reading_of_004_eq42():
    sig = ramped_sine()  # b = 0.5, f = 1 Hz, T = 4.5 s, L1 = 14.5 s, L2 = 16 s
    t = np.array([1.125, 2.25, 4.5 + 0.25, 10.25, 15.25])
    env = np.array([0.25, 0.5, 1.0, 1.0, 0.5])
    np.testing.assert_allclose(sig(t), 0.5 * G * env * np.sin(2 * math.pi * t), atol=ROUNDING_TOL)
    assert sig(16.5) == 0.0
    # Itiola & El Shamy 2024 prints the velocity: on the plateau −b g cos(ωt)/ω (zero mean), 0 after L2
    # (dem/model/base_motion.py's reading)
    tp = np.linspace(5.0, 14.0, 50)
    np.testing.assert_allclose(sig.velocity(tp), -0.5 * G * np.cos(2 * math.pi * tp) / (2 * math.pi), atol=ROUNDING_TOL)
    assert abs(sig.velocity(16.0)) < ROUNDING_TOL and abs(sig.velocity(25.0)) < ROUNDING_TOL
    assert sig.displacement(25.0) == pytest.approx(sig.displacement(16.0), abs=ROUNDING_TOL)


def test_ramped_sine_baseline_correction_brings_the_base_to_rest():
    sig = SIGNALS["eq42_other"]  # ωT, ωL1 not multiples of π: the raw integral ends with v ≠ 0
    assert abs(sig.velocity(11.0)) < ROUNDING_TOL and abs(sig.velocity(30.0)) < ROUNDING_TOL


def test_exponential_sine_is_000_eq44():
    sig = ExponentialSine(2.0 * G, 1.76, 7.0)
    t = np.linspace(0, 5, 11)
    np.testing.assert_allclose(sig(t), 2.0 * G * (1 - np.exp(-1.76 * t)) * np.sin(7.0 * t), rtol=ROUNDING_TOL)


def test_pulses_return_the_base_to_rest():
    for sig in (SIGNALS["sine_pulse"], SIGNALS["cosine_pulse"]):
        end = sig.start + sig.period
        assert sig(end + 0.01) == 0.0 and sig(sig.start - 0.01) == 0.0
        assert abs(sig.velocity(end + 1.0)) < ROUNDING_TOL
    assert abs(SIGNALS["cosine_pulse"].displacement(5.0)) < ROUNDING_TOL  # the cosine pulse also returns


def test_sampled_record_interpolates_and_integrates_exactly():
    dt = 0.02
    samples = np.sin(np.arange(51) * dt * 3.0)
    rec = SampledRecord(samples, dt)
    np.testing.assert_allclose(rec(np.arange(51) * dt), samples, atol=ROUNDING_TOL)
    assert rec(0.5 * dt) == pytest.approx(0.5 * (samples[0] + samples[1]))
    assert rec(1.0 + dt + 1e-9) == 0.0  # ramps to 0 over one interval after the last sample
    # exact integrals of the interpolant vs fine trapezoid integration
    t = np.linspace(0, 1.2, 120001)
    v = np.concatenate(([0], np.cumsum(0.5 * np.diff(t) * (rec(t)[1:] + rec(t)[:-1]))))
    np.testing.assert_allclose(rec.velocity(t), v, atol=1e-9)
    assert rec.acceleration(0.33) == rec.acceleration(np.array([0.33]))[0]


def test_as_acceleration_accepts_every_form():
    sig = sine_pulse(1.0, 1.0)
    assert as_acceleration(sig)(0.25) == pytest.approx(1.0)
    assert as_acceleration(lambda t: 2.0 * t)(0.5) == 1.0
    assert as_acceleration(3.0)(7.0) == 3.0
    assert as_acceleration(None)(1.0) == 0.0
    assert as_acceleration([0.0, 1.0], accel_dt=0.1)(0.05) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="accel_dt"):
        as_acceleration([0.0, 1.0])


@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda: ramped_sine(frequency=0.0), "frequency"),
        (lambda: ramped_sine(ramp_end=5.0, plateau_end=4.0), "plateau_end"),
        (lambda: ExponentialSine(1.0, -1.0, 1.0), "beta"),
        (lambda: sine_pulse(1.0, -2.0), "period"),
        (lambda: SampledRecord(np.array([1.0, np.nan]), 0.1), "samples"),
        (lambda: SampledRecord(np.ones(3), 0.0), "dt"),
    ],
)
def test_bad_input_names_the_parameter(build, name):
    with pytest.raises(ValueError, match=name):
        build()
