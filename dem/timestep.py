"""Critical time step of the centred scheme for clumps on Hertz or linear contacts.

For one mode of frequency ω and damping ratio ζ, with the dashpot using the lagged velocity v(t−Δt/2)
as the solver does, the update map is stable iff ω²Δt² + 4ζωΔt < 4 (Jury conditions of its 2×2
matrix), i.e.

    Δt < Δt_crit = (2/ω) (√(1 + ζ²) − ζ)            (→ 2/ω undamped, → 1/(ζω) heavily damped)

A priori estimate (:func:`estimate_critical_timestep`). A rigid clump has six modes on its contacts. The
stiffest configuration it meets in a rocking run is at rest on a whole face: every hull sphere of that
face carrying its share of ``load_factor`` × the weight (contact stiffness grows as load^{1/3}; fewer
contacts carrying an impact are softer in total, see the module test). For each clump and each of its
six faces (±x, ±y, ±z of the template frame) the bed's 6×6 stiffness (normal springs along the face
normal, Mindlin springs across it) is taken against the body's 6×6 mass matrix; the largest
generalised eigenvalue gives ω, and since every dashpot is 2β√(m k) the damping matrix is
proportional to the stiffness, so the same mode has ζ = β √(m/k) ω.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigh

from .materials import PAIR_BN, PAIR_HFAC, PAIR_KN, PAIR_KSRATIO, PAIR_KS, PAIR_LAW, ContactLaw
from .model import Model

LOAD_FACTOR = 10.0  # design load of the bed ÷ the static weight (impacts, landings)
AUTO_SAFETY = 0.5  # --dt auto takes this fraction of the estimate


def damped_limit(omega: float, zeta: float) -> float:
    """Δt_crit = (2/ω)(√(1+ζ²) − ζ) [s] for a mode of ω [rad/s] and damping ratio ζ."""
    if omega <= 0:
        return math.inf
    return 2.0 / omega * (math.sqrt(1.0 + zeta * zeta) - zeta)


def _contact_stiffness(pair: np.ndarray, radius: float, load: float) -> tuple[float, float]:
    """Tangent (k_n, k_s) [N/m] of one ball–surface contact carrying `load` [N] (R̄ = R_ball)."""
    if int(pair[PAIR_LAW]) == int(ContactLaw.LINEAR):
        return float(pair[PAIR_KN]), float(pair[PAIR_KS])
    h = pair[PAIR_HFAC] * math.sqrt(2.0 * radius)
    delta = (load / h) ** (2.0 / 3.0)
    kn = 1.5 * h * math.sqrt(delta)
    return kn, kn * pair[PAIR_KSRATIO]


@dataclass(frozen=True)
class TimestepEstimate:
    dt: float  # [s]
    clump: int
    face: str
    omega: float  # [rad/s]
    zeta: float
    contacts: int

    def describe(self, model: Model) -> str:
        return (f"critical time step ≈ {self.dt:.3g} s (clump '{model.clumps[self.clump].name}' resting on its "
                f"{self.face} face: {self.contacts} contacts at {LOAD_FACTOR:g}× its weight, highest mode "
                f"ω = {self.omega:.4g} rad/s, damping ratio {self.zeta:.3g})")


def estimate_critical_timestep(model: Model, *, load_factor: float = LOAD_FACTOR) -> TimestepEstimate:
    """A-priori critical time step of `model` (module docstring)."""
    g = float(np.linalg.norm(model.gravity)) or 9.81
    best = TimestepEstimate(math.inf, 0, "", 0.0, 0.0, 0)
    faces = {"-x": (0, -1), "+x": (0, 1), "-y": (1, -1), "+y": (1, 1), "-z": (2, -1), "+z": (2, 1)}
    surface_mats = sorted({model.materials.index(w.material) for w in model.walls}
                          | {c.material for c in model.clumps})
    for ci, cs in enumerate(model.clumps):
        m = model.mass[ci]
        inertia = model.inertia[ci]
        off = cs.offsets[cs.template.hull]
        rad = cs.template.radii[cs.template.hull]
        mass_matrix = np.zeros((6, 6))
        mass_matrix[:3, :3] = m * np.eye(3)
        mass_matrix[3:, 3:] = inertia
        for face, (axis, sign) in faces.items():
            support = sign * off[:, axis] + rad
            bed = support > support.max() - 0.5 * rad.min()
            n_bed = int(bed.sum())
            d = np.zeros(3)
            d[axis] = -sign  # contact normal pushes the body back from that face
            load = load_factor * m * g / n_bed
            for mj in surface_mats:
                pair = model.pair_np[cs.material, mj]
                stiff = np.zeros((6, 6))
                tangents = [e for e in np.eye(3) if abs(e @ d) < 0.5]
                kn_ref = 0.0
                for r_p, rp in zip(off[bed], rad[bed]):
                    kn, ks = _contact_stiffness(pair, float(rp), load)
                    kn_ref = max(kn_ref, kn)
                    for direction, k in ((d, kn), (tangents[0], ks), (tangents[1], ks)):
                        j = np.concatenate([direction, np.cross(r_p, direction)])
                        stiff += k * np.outer(j, j)
                w2 = eigh(stiff, mass_matrix, eigvals_only=True)[-1]
                omega = math.sqrt(max(w2, 0.0))
                zeta = pair[PAIR_BN] * math.sqrt(m / kn_ref) * omega if kn_ref > 0 else 0.0
                dt = damped_limit(omega, zeta)
                if dt < best.dt:
                    best = TimestepEstimate(dt, ci, face, omega, zeta, n_bed)
    return best


def monitored_timestep(mass: float, inertia_min: float, k_sum: float, k_rot: float, c_sum: float) -> float:
    """Critical Δt [s] from the contact sums a run records (Σk_n, Σk_n·lever², Σc_n) for one clump."""
    dts = [math.inf]
    if k_sum > 0:
        w = math.sqrt(k_sum / mass)
        dts.append(damped_limit(w, c_sum / (2.0 * math.sqrt(mass * k_sum))))
    if k_rot > 0 and inertia_min > 0:
        dts.append(2.0 / math.sqrt(k_rot / inertia_min))
    return min(dts)
