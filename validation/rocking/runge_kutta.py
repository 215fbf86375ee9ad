"""Explicit Runge–Kutta steps on tuples of state components (Qi & Zhu 2025, Eq. 33 and 34).

A state is a tuple of components (here θ [rad], θ̇ [rad/s], t [s]), each a float or a NumPy array
with one entry per record, so the same step serves the scalar and the batched solver. The step size
may be an array too (per-record partial steps after an impact).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

State = tuple  # tuple[float | np.ndarray, ...]


@dataclass(frozen=True)
class Tableau:
    """Butcher tableau of an explicit Runge–Kutta method: a (lower triangular), b, c; order p."""

    name: str
    order: int
    a: tuple[tuple[float, ...], ...]
    b: tuple[float, ...]
    c: tuple[float, ...]


# Explicit midpoint rule, order 2.
RK2 = Tableau("rk2", 2, ((), (0.5,)), (0.0, 1.0), (0.0, 0.5))
# Kutta's third-order method.
RK3 = Tableau("rk3", 3, ((), (0.5,), (-1.0, 2.0)), (1 / 6, 2 / 3, 1 / 6), (0.0, 0.5, 1.0))
# Classical fourth-order method (Qi & Zhu 2025, §4.2: p = q = 4).
RK4 = Tableau("rk4", 4, ((), (0.5,), (0.0, 0.5), (0.0, 0.0, 1.0)), (1 / 6, 1 / 3, 1 / 3, 1 / 6), (0.0, 0.5, 0.5, 1.0))

TABLEAUS: dict[int, Tableau] = {2: RK2, 3: RK3, 4: RK4}
"""Tableaux by order."""


def rk_step(rate: Callable[[State], State], y: State, h: float | np.ndarray, tab: Tableau) -> State:
    """One explicit RK step y_{k+1} = y_k + h Σ b_i k_i with k_i = rate(y_k + h Σ_j a_ij k_j) (Qi & Zhu 2025, Eq.
    33)."""
    ks: list[State] = []
    for a_i in tab.a:
        yi = y
        for j, aij in enumerate(a_i):
            if aij != 0.0:
                ha = h * aij
                yi = tuple([yc + ha * kc for yc, kc in zip(yi, ks[j])])
        ks.append(rate(yi))
    out = y
    for bi, k in zip(tab.b, ks, strict=True):
        if bi != 0.0:
            hb = h * bi
            out = tuple([oc + hb * kc for oc, kc in zip(out, k)])
    return out
