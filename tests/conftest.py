"""Shared fixture: Taichi on the CPU (f64) once per test session."""

import pytest


@pytest.fixture(scope="session")
def ti_cpu():
    import dem

    dem.init("cpu", "f64")
    return dem
