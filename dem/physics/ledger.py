"""Energy ledger (Itiola & El Shamy 2024, §4.2, Eq. 38 with the boundary work and the shear springs' stiffness
work added; docs/shear_unloading.md).

Work terms accumulate step by step inside the kernels; state terms are evaluated at the row's time.
Balance, measured from the initial state:
    E_body + E_boundary = ΔE_kinetic + E_strain + E_damping + E_friction + E_shear_stiffness.

E_shear_stiffness is the work W_k of the Mindlin springs' stiffness changes: k_s ∝ √δ changes at constant
shear force, so the stored |F_s|²/(2k_s) changes without the bodies doing work (contact_law.shear_force, Eq.
S3). It is signed: negative when the springs have given energy to the motion (under the default
``shear_unloading = "incremental"`` they do, as the contacts unload), ≥ 0 under ``"rescale"``.

Timing. Forces are known at t_n, velocities at t_{n±½}. The kinetic energy reported at t_n is the mean of
K(t_{n−½}) and K(t_{n+½}), which holds half of the work F_n·v̄_n Δt of the forces at t_n. Body, boundary and
dashpot work are of that kind: the work reported at t_n adds half of step n's increment (trapezoidal). The
spring's terms of step n (slip D, stiffness work W_k) belong to its update from t_{n−1} to t_n, whose work the
kinetic energy at t_n already holds in full: they are reported in full. With these choices the translational
part of the balance holds to round-off, and what remains measures the rotation solve's convergence, the
normal spring's trapezoidal work against its closed-form energy, and the O(Δt²) error of the scheme.

Layout of the device array ``ledger`` (real, length LEDGER_SIZE), with W = WORK_TERMS:
    [0:W)     cumulative body, boundary, damping, friction, stiffness work through the last completed step [J]
    [W:2W)    the last step's increments [J]
    [2W:3W)   the current step's increments (accumulated by the kernels) [J]
    3W        strain energy at t_n [J]
    3W + 1    kinetic energy at t_n (observed steps) [J]
    3W + 2    contacts at t_n
    3W + 3    largest overlap ÷ radius since the last history row
"""

from __future__ import annotations

import numpy as np

BODY, BOUNDARY, DAMPING, FRICTION, STIFFNESS = range(5)
WORK_TERMS = 5
REPORTED_SHARE = (0.5, 0.5, 0.5, 1.0, 1.0)  # of step n's increment in the value reported at t_n (Timing)
LAST = WORK_TERMS
STEP = 2 * WORK_TERMS
STRAIN = 3 * WORK_TERMS
KINETIC = STRAIN + 1
CONTACTS = STRAIN + 2
MAX_OVERLAP = STRAIN + 3
LEDGER_SIZE = STRAIN + 4

ENERGY_COLUMNS = ("E_body", "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction", "E_shear_stiffness")


def energy_floor(model) -> float:
    """Smallest energy scale of a model [J]: 1e-6 of Σ m g R_bound (lifting each body by its own size),
    so that round-off in the first records of a run starting at rest is not read as an error."""
    g = float(np.linalg.norm(model.gravity))
    return max(1e-6 * float(np.sum(model.mass * g * model.bound_radius)), 1e-12)


def balance_error(e: dict[str, np.ndarray], kinetic0: float, floor: float = 1e-12) -> np.ndarray:
    """Relative balance error per history row.

    residual = E_body + E_boundary − (E_kinetic − E_kinetic(0)) − E_strain − E_damping − E_friction
    − E_shear_stiffness (:func:`residual`), divided by the energy in play so far: the running maximum of
    |E_body| + |E_boundary| + E_kinetic + E_strain (at least E_kinetic(0) and `floor` [J], see
    :func:`energy_floor`), so a run that starts with kinetic energy and one that starts with potential energy
    are judged alike.
    """
    res = residual(e, kinetic0)
    scale = np.abs(e["E_body"]) + np.abs(e["E_boundary"]) + e["E_kinetic"] + e["E_strain"]
    scale = np.maximum.accumulate(np.maximum(scale, max(kinetic0, floor)))
    return res / scale


def residual(e: dict[str, np.ndarray], kinetic0: float) -> np.ndarray:
    """Work in minus the energy held and dissipated [J] per history row (0 for an exact ledger). A history written
    before the stiffness work was booked (no ``E_shear_stiffness``) is read with that term 0."""
    res = e["E_body"] + e["E_boundary"] - (e["E_kinetic"] - kinetic0) - e["E_strain"] - e["E_damping"] - e["E_friction"]
    if "E_shear_stiffness" in e:
        res = res - e["E_shear_stiffness"]
    return res


def initial_kinetic_energy(model) -> float:
    """Σ ½ m v₀² + ½ ω₀·I ω₀ [J] of the initial velocities (the values at t = −Δt/2 of the centred scheme)."""
    k = 0.0
    for c, cs in enumerate(model.clumps):
        iw = cs.rotation @ model.inertia[c] @ cs.rotation.T
        k += 0.5 * model.mass[c] * cs.velocity @ cs.velocity + 0.5 * cs.angular_velocity @ iw @ cs.angular_velocity
    return float(k)


STIFFNESS_WARNING = 0.01  # |E_shear_stiffness| ÷ the work done on the bodies above which a run warns


def stiffness_work(e: dict[str, np.ndarray]) -> tuple[dict, str | None]:
    """The shear springs' stiffness work over a run: (summary.json's ``shear_stiffness_work``, the run's warning
    or None). The first holds its value at the end and its largest magnitude [J], the work done on the bodies
    (the largest |E_body| + |E_boundary|) [J] and the ratio of the two; a run warns when the ratio is above
    STIFFNESS_WARNING."""
    wk = np.asarray(e.get("E_shear_stiffness", np.zeros(0)), float)
    work_in = np.abs(np.asarray(e.get("E_body", np.zeros(0)), float)) + \
        np.abs(np.asarray(e.get("E_boundary", np.zeros(0)), float))
    if not len(wk) or not np.any(np.isfinite(wk)):
        return {"final_J": 0.0, "largest_J": 0.0, "work_in_J": 0.0, "ratio": 0.0}, None
    k = int(np.nanargmax(np.abs(wk)))
    w_in = float(np.nanmax(work_in)) if len(work_in) else 0.0
    s = {"final_J": float(wk[-1]), "largest_J": float(wk[k]), "work_in_J": w_in,
         "ratio": float(abs(wk[k]) / w_in) if w_in > 0 else 0.0}
    if not s["ratio"] > STIFFNESS_WARNING:
        return s, None
    gave = s["largest_J"] < 0
    return s, (f"the Mindlin shear springs {'gave' if gave else 'took'} {abs(s['largest_J']):.3g} J "
               f"{'to' if gave else 'from'} the motion through their stiffness changes ({s['ratio']:.1%} of the "
               f"{s['work_in_J']:.3g} J of work done on the bodies; E_shear_stiffness)"
               + ("; shear_unloading='rescale' stops the springs from giving energy (docs/shear_unloading.md)"
                  if gave else ""))


class BalanceTracker:
    """:func:`balance_error` computed chunk by chunk (keeps the running maximum of the energy scale)."""

    def __init__(self, kinetic0: float, floor: float):
        self.kinetic0 = kinetic0
        self.scale = max(kinetic0, floor)

    def update(self, e: dict[str, np.ndarray]) -> np.ndarray:
        res = residual(e, self.kinetic0)
        scale = np.abs(e["E_body"]) + np.abs(e["E_boundary"]) + e["E_kinetic"] + e["E_strain"]
        scale = np.maximum.accumulate(np.maximum(scale, self.scale))
        if len(scale):
            self.scale = float(scale[-1])
        return res / scale
