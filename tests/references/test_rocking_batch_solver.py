"""Batched solver (validation/rocking/batch.py) against the step-by-step solver, record by record."""

import math

import numpy as np
import pytest

from validation.rocking import MotionState, base_excited, base_excited_batch
from validation.rocking import closed_form as cf
from validation.rocking.frame import frame_base_excited, frame_base_excited_batch

WIDTH, HEIGHT = 2 * 0.6 * math.sin(math.radians(20)), 2 * 0.6 * math.cos(math.radians(20))
G = 9.81
DT = 0.01

# Batch and scalar runs do the same floating-point operations in the same order (batch.py), so they
# agree bitwise; a non-zero difference means the two paths have drifted apart.
BATCH_VS_SCALAR_TOL = 0.0


def records(n: int, seed: int = 7) -> np.ndarray:
    """Smooth random base accelerations [m/s²], shape (n, 801), every DT over 8 s."""
    rng = np.random.default_rng(seed)
    t = np.arange(801) * DT
    f = rng.uniform(0.5, 4.0, (n, 8, 1))
    ph = rng.uniform(0, 2 * math.pi, (n, 8, 1))
    x = (rng.rayleigh(1.0, (n, 8, 1)) * np.sin(2 * math.pi * f * t + ph)).sum(axis=1)
    x *= np.interp(t, [0, 1, 5, 7, 8], [0, 1, 1, 0, 0])
    return x * (rng.uniform(0.25, 0.6, n) * G / np.abs(x).max(axis=1))[:, None]


@pytest.mark.parametrize("substeps", [1, 2])
@pytest.mark.parametrize("method", ["time_transform", "rk4"])
def test_batch_equals_scalar_solver_record_by_record(method, substeps):
    acc = records(6)
    batch = base_excited_batch(WIDTH, HEIGHT, acc, DT, 8.0, method=method, substeps=substeps)
    assert batch.theta.shape == acc.shape and batch.overturned.shape == (6,)
    for r in range(6):
        one = base_excited(WIDTH, HEIGHT, acc[r], 8.0, accel_dt=DT, dt=DT / substeps, method=method)
        assert len(one.impact_times) == batch.impact_count[r]
        assert bool(one.overturned) == batch.overturned[r]
        k = slice(None, None, substeps)
        np.testing.assert_allclose(batch.theta[r], one.theta[k], atol=BATCH_VS_SCALAR_TOL, rtol=0)
        np.testing.assert_allclose(batch.omega[r], one.omega[k], atol=BATCH_VS_SCALAR_TOL, rtol=0)
        np.testing.assert_array_equal(batch.states[r], one.states[k])
    assert (batch.impact_count > 0).sum() >= 3  # the records do rock


def test_overturning_records_are_flagged_and_nan_afterwards():
    acc = records(3)
    thr = cf.uplift_threshold(cf.slenderness(WIDTH, HEIGHT))
    acc[1] = 0.0
    acc[1, 100:300] = 2.0 * thr  # a long strong pulse (2 s at twice the uplift acceleration)
    res = base_excited_batch(WIDTH, HEIGHT, acc, DT, 8.0)
    assert res.overturned[1] and np.isfinite(res.overturn_time[1])
    k = int(np.ceil(res.overturn_time[1] / DT))
    assert np.all(np.isnan(res.theta[1, k:])) and np.all(res.states[1, k:] == MotionState.OVERTURNED)
    assert np.isnan(res.overturn_time[~res.overturned]).all()


def test_record_shorter_than_t_end_continues_as_free_rocking():
    acc = records(2)[:, :301]  # 3 s of motion, then a fixed base
    res = base_excited_batch(WIDTH, HEIGHT, acc, DT, 6.0)
    one = base_excited(WIDTH, HEIGHT, acc[0], 6.0, accel_dt=DT)
    assert res.theta.shape == (2, 601)
    np.testing.assert_allclose(res.theta[0], one.theta, atol=BATCH_VS_SCALAR_TOL, rtol=0)


def test_below_threshold_records_stay_at_rest():
    thr = cf.uplift_threshold(cf.slenderness(WIDTH, HEIGHT))
    t = np.arange(501) * DT
    acc = np.stack([0.99 * thr * np.sin(2 * math.pi * t), -0.99 * thr * np.sin(3 * t)])
    res = base_excited_batch(WIDTH, HEIGHT, acc, DT, 5.0, linear=True)
    assert np.all(res.theta == 0.0) and np.all(np.isnan(res.uplift_time))
    assert np.all(res.states == MotionState.REST)


def test_mirrored_records_give_mirrored_responses():
    acc = records(4)
    a = base_excited_batch(WIDTH, HEIGHT, acc, DT, 8.0)
    b = base_excited_batch(WIDTH, HEIGHT, -acc, DT, 8.0)
    np.testing.assert_array_equal(a.theta, -b.theta)


def test_frame_batch_reuses_the_block_solver():
    acc = records(2)
    batch = frame_base_excited_batch(1.6, 9.6, 0.86, acc * 3, DT, 8.0)
    one = frame_base_excited(1.6, 9.6, 0.86, acc[1] * 3, 8.0, accel_dt=DT)
    np.testing.assert_allclose(batch.theta[1], one.theta, atol=BATCH_VS_SCALAR_TOL, rtol=0)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"method": "adaptive"}, "method"), ({"substeps": 0}, "substeps"), ({"dt": -1.0}, "dt")],
)
def test_bad_input_names_the_parameter(kwargs, name):
    args = {"dt": DT, **kwargs}
    dt = args.pop("dt")
    with pytest.raises(ValueError, match=name):
        base_excited_batch(WIDTH, HEIGHT, records(1), dt, 1.0, **args)
    with pytest.raises(ValueError, match="accels"):
        base_excited_batch(WIDTH, HEIGHT, np.full((2, 3), np.nan), DT, 1.0)
