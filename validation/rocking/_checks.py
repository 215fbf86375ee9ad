"""Input checks shared by the rocking solvers: bad input raises ValueError naming the parameter."""

from __future__ import annotations

import math


def positive(name: str, value: float) -> float:
    """Return `value` as float if it is finite and > 0, else raise ValueError naming `name`."""
    v = float(value)
    if not math.isfinite(v) or v <= 0.0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


def non_negative(name: str, value: float) -> float:
    """Return `value` as float if it is finite and >= 0, else raise ValueError naming `name`."""
    v = float(value)
    if not math.isfinite(v) or v < 0.0:
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}")
    return v


def finite(name: str, value: float) -> float:
    """Return `value` as float if it is finite, else raise ValueError naming `name`."""
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return v


def in_range(name: str, value: float, lo: float, hi: float) -> float:
    """Return `value` as float if lo <= value <= hi, else raise ValueError naming `name` and the range."""
    v = float(value)
    if not (lo <= v <= hi):
        raise ValueError(f"{name} must lie in [{lo}, {hi}], got {value!r}")
    return v


def choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    """Return `value` if it is one of `allowed`, else raise ValueError listing the allowed values."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value
