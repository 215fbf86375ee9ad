"""Instability checks on the history rows: where a run must stop, and why.

A run stops at the first history row that holds NaN, an overlap above RUNAWAY_OVERLAP of a sphere's radius,
an energy balance error above ENERGY_BLOWUP beyond what round-off can explain, or a body turning more
than MAX_STEP_ROTATION rad in one step. A balance error above ENERGY_WARNING only warns.

Round-off. Each step rounds every body's position and orientation to the precision's ε (2⁻⁵² in f64,
2⁻²³ in f32) relative to their size: a displacement error up to ε(|x| + R) (R: the body's bounding
radius), through which the forces on the body (its contact force and weight) do work that the ledger,
which integrates F·v Δt, does not see. Over n steps this is at most ε n Σ_c (|F_c| + m_c g)(|x_c| + R_c)
[J]; the check allows that on top of ENERGY_BLOWUP × the energy in play. In f64 it is ~1e-9 J over a
million steps of the Peña block, nothing; in f32 it is what makes the ledger of a block released from
rest wander by tens of per cent of the little energy in play in its first hundredths of a second (the
f32 Peña block: −0.25 at 0.02 s while θ agrees with f64 to 2e-4°), which is not an instability.
"""

from __future__ import annotations

import numpy as np

from ..physics.history_rows import C_FORCE, C_OMEGA, C_POS

RUNAWAY_OVERLAP = 0.3  # overlap ÷ radius: Hertz theory is far outside its range well before this
ENERGY_BLOWUP = 0.25  # relative balance error
ENERGY_WARNING = 0.01  # relative balance error above which a finished run carries a warning
MAX_STEP_ROTATION = 0.2  # rad per step (the rotation update is exact to round-off below 0.5 rad)
EPSILON = {"f64": float(np.finfo(np.float64).eps), "f32": float(np.finfo(np.float32).eps)}


class RoundoffBound:
    """Running bound [J] on the energy error that rounding positions to the precision can cause (module
    notes), evaluated on the history rows (each row stands for the history_every steps before it)."""

    def __init__(self, model, layout, precision: str, history_every: int):
        self.eps = EPSILON[precision]
        self.model, self.layout, self.history_every = model, layout, int(history_every)
        self.weight = np.asarray(model.mass, float) * float(np.linalg.norm(model.gravity))
        self.radius = np.asarray(model.bound_radius, float)
        self.total = 0.0

    def update(self, rows: np.ndarray) -> np.ndarray:
        """The bound [J] at each row."""
        per_row = np.zeros(len(rows))
        for c in range(self.model.clump_count):
            f = np.linalg.norm(self.layout.clump(rows, c, C_FORCE), axis=1)
            x = np.linalg.norm(self.layout.clump(rows, c, C_POS), axis=1)
            per_row += (f + self.weight[c]) * (x + self.radius[c])
        per_row = np.nan_to_num(per_row, nan=0.0, posinf=0.0)
        bound = self.total + self.eps * self.history_every * np.cumsum(per_row)
        if len(bound):
            self.total = float(bound[-1])
        return bound


def diagnose(rows: np.ndarray, cols: dict, err: np.ndarray, scale: np.ndarray, bound: np.ndarray,
             sim) -> tuple[int, str] | None:
    """(row index, diagnosis) of the first unstable history row in `rows`, or None. `err`: relative balance
    errors, `scale`: the energy in play [J] they are relative to, `bound`: :class:`RoundoffBound` [J]."""
    found = []
    finite = np.all(np.isfinite(rows[:, : sim.layout.slot_base]), axis=1)
    if not finite.all():
        k = int(np.argmax(~finite))
        found.append((k, f"non-finite state at t = {rows[k, 0]:.6g} s (NaN or inf in positions, velocities or "
                         "energies)"))
    ovl = cols["max_overlap_ratio"]
    if np.any(ovl > RUNAWAY_OVERLAP):
        k = int(np.argmax(ovl > RUNAWAY_OVERLAP))
        found.append((k, f"runaway overlap at t = {cols['t'][k]:.6g} s: a contact overlaps {ovl[k]:.3g} of its "
                         f"sphere's radius (limit {RUNAWAY_OVERLAP}): the time step ({sim.dt:.3g} s) is too large "
                         "for the contact, a body hits something very fast (a collapse), or it is driven into a wall"))
    bad = np.abs(err) * scale > ENERGY_BLOWUP * scale + bound
    if np.any(bad):
        k = int(np.argmax(bad))
        found.append((k, f"energy blow-up at t = {cols['t'][k]:.6g} s: the energy balance is off by {err[k]:.3g} of "
                         f"the energy in play (limit {ENERGY_BLOWUP} plus the round-off bound "
                         f"{bound[k] / scale[k]:.2g}); reduce the time step (now {sim.dt:.3g} s, monitored "
                         f"critical {np.min(cols['dt_critical']):.3g} s)"))
    for c in range(sim.model.clump_count):
        w = np.linalg.norm(sim.layout.clump(rows, c, C_OMEGA), axis=1)
        if np.any(w * sim.dt > MAX_STEP_ROTATION):
            k = int(np.argmax(w * sim.dt > MAX_STEP_ROTATION))
            found.append((k, f"clump '{sim.model.clumps[c].name}' turns {w[k] * sim.dt:.3g} rad in one step at "
                             f"t = {cols['t'][k]:.6g} s (limit {MAX_STEP_ROTATION}); reduce the time step"))
    return min(found, key=lambda f: f[0]) if found else None
