"""Energy ledger (Itiola & El Shamy 2024, §4.2, Eq. 38 with the boundary work added).

Work terms accumulate step by step inside the kernels; state terms are evaluated at the record time.
Balance, measured from the initial state:  E_body + E_boundary = ΔE_kinetic + E_strain + E_damping + E_friction.

Timing. Forces are known at t_n, velocities at t_{n±½}. The kinetic energy reported at t_n is the mean of
K(t_{n−½}) and K(t_{n+½}); each work term reported at t_n adds only half of step n's increment
(trapezoidal). With these choices the translational part of the balance holds to round-off, and what
remains measures the contact law's own consistency (strain evaluated at t_n against work along the
centred path), the rotation solve's convergence, and the O(Δt²) error of the scheme.

Layout of the device array ``ledger`` (real, length LEDGER_SIZE):
    [0:4)   cumulative body, boundary, damping, friction work through the last completed step [J]
    [4:8)   the last step's increments [J]
    [8:12)  the current step's increments (accumulated by the kernels) [J]
    12      strain energy at t_n [J]
    13      kinetic energy at t_n (record steps) [J]
    14      contacts at t_n
    15      largest overlap ÷ radius since the last record
"""

from __future__ import annotations

import numpy as np

BODY, BOUNDARY, DAMPING, FRICTION = range(4)
LAST = 4
STEP = 8
STRAIN = 12
KINETIC = 13
CONTACTS = 14
MAX_OVERLAP = 15
LEDGER_SIZE = 16

ENERGY_COLUMNS = ("E_body", "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction")


def energy_floor(model) -> float:
    """Smallest energy scale of a model [J]: 1e-6 of Σ m g R_bound (lifting each body by its own size),
    so that round-off in the first records of a run starting at rest is not read as an error."""
    g = float(np.linalg.norm(model.gravity))
    return max(1e-6 * float(np.sum(model.mass * g * model.bound_radius)), 1e-12)


def balance_error(e: dict[str, np.ndarray], kinetic0: float, floor: float = 1e-12) -> np.ndarray:
    """Relative balance error per record.

    residual = E_body + E_boundary − (E_kinetic − E_kinetic(0)) − E_strain − E_damping − E_friction, divided
    by the energy in play so far: the running maximum of |E_body| + |E_boundary| + E_kinetic + E_strain
    (at least E_kinetic(0) and `floor` [J], see :func:`energy_floor`), so a run that starts with kinetic
    energy and one that starts with potential energy are judged alike.
    """
    res = e["E_body"] + e["E_boundary"] - (e["E_kinetic"] - kinetic0) - e["E_strain"] - e["E_damping"] - e["E_friction"]
    scale = np.abs(e["E_body"]) + np.abs(e["E_boundary"]) + e["E_kinetic"] + e["E_strain"]
    scale = np.maximum.accumulate(np.maximum(scale, max(kinetic0, floor)))
    return res / scale


def initial_kinetic_energy(model) -> float:
    """Σ ½ m v₀² + ½ ω₀·I ω₀ [J] of the initial velocities (the values at t = −Δt/2 of the centred scheme)."""
    k = 0.0
    for c, cs in enumerate(model.clumps):
        iw = cs.rotation @ model.inertia[c] @ cs.rotation.T
        k += 0.5 * model.mass[c] * cs.velocity @ cs.velocity + 0.5 * cs.angular_velocity @ iw @ cs.angular_velocity
    return float(k)


class BalanceTracker:
    """:func:`balance_error` computed chunk by chunk (keeps the running maximum of the energy scale)."""

    def __init__(self, kinetic0: float, floor: float):
        self.kinetic0 = kinetic0
        self.scale = max(kinetic0, floor)

    def update(self, e: dict[str, np.ndarray]) -> np.ndarray:
        res = e["E_body"] + e["E_boundary"] - (e["E_kinetic"] - self.kinetic0) - e["E_strain"] - e["E_damping"] \
            - e["E_friction"]
        scale = np.abs(e["E_body"]) + np.abs(e["E_boundary"]) + e["E_kinetic"] + e["E_strain"]
        scale = np.maximum.accumulate(np.maximum(scale, self.scale))
        if len(scale):
            self.scale = float(scale[-1])
        return res / scale
