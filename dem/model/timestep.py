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
proportional to the stiffness, so the same mode has ζ = β √(m/k) ω. With the solver's implicit
dashpots (the default) only the undamped limit 2/ω applies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigh

from .materials import PAIR_BN, PAIR_HFAC, PAIR_KN, PAIR_KS, PAIR_KSRATIO, PAIR_LAW, ContactLaw
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
    load_factor: float = LOAD_FACTOR

    def describe(self, model: Model) -> str:
        if not math.isfinite(self.dt):
            return "critical time step: unbounded (no contacts possible)"
        return (f"critical time step ≈ {self.dt:.3g} s (clump '{model.clumps[self.clump].name}' resting on its "
                f"{self.face} face: {self.contacts} contacts at {self.load_factor:g}× its weight, highest mode "
                f"ω = {self.omega:.4g} rad/s, damping ratio {self.zeta:.3g})")


def estimate_critical_timestep(model: Model, *, load_factor: float = LOAD_FACTOR,
                               implicit_damping: bool = True) -> TimestepEstimate:
    """A-priori critical time step of `model` (module docstring). With implicit dashpots (the solver's
    default) the limit is the undamped 2/ω; with explicit ones, (2/ω)(√(1+ζ²) − ζ)."""
    g = float(np.linalg.norm(model.gravity)) or 9.81
    best = TimestepEstimate(math.inf, 0, "", 0.0, 0.0, 0)
    faces = {"-x": (0, -1), "+x": (0, 1), "-y": (1, -1), "+y": (1, 1), "-z": (2, -1), "+z": (2, 1)}
    surface_mats = sorted({model.materials.index(w.material) for w in model.walls} | {c.material for c in model.clumps})
    for ci, cs in enumerate(model.clumps):
        m = model.mass[ci]
        off = cs.offsets[cs.template.hull]
        rad = cs.template.radii[cs.template.hull]
        mass_matrix = np.zeros((6, 6))
        mass_matrix[:3, :3] = m * np.eye(3)
        mass_matrix[3:, 3:] = model.inertia[ci]
        for face, (axis, sign) in faces.items():
            support = sign * off[:, axis] + rad
            bed = support > support.max() - 0.5 * rad.min()
            n_bed = int(bed.sum())
            r_p, rp = off[bed], rad[bed]
            d = np.zeros(3)
            d[axis] = -sign  # the contact normal pushes the body back from that face
            tangents = [e for e in np.eye(3) if abs(e @ d) < 0.5]
            load = load_factor * m * g / n_bed
            for mj in surface_mats:
                pair = model.pair_np[cs.material, mj]
                ks_kn = np.array([_contact_stiffness(pair, float(r), load) for r in np.unique(rp)])
                idx = np.searchsorted(np.unique(rp), rp)
                kn, ks = ks_kn[idx, 0], ks_kn[idx, 1]
                stiff = np.zeros((6, 6))
                for direction, k in ((d, kn), (tangents[0], ks), (tangents[1], ks)):
                    jac = np.hstack([np.broadcast_to(direction, r_p.shape), np.cross(r_p, direction)])
                    stiff += np.einsum("i,ij,ik->jk", k, jac, jac)
                w2 = eigh(stiff, mass_matrix, eigvals_only=True)[-1]
                omega = math.sqrt(max(w2, 0.0))
                k_ref = float(kn.max())
                zeta = pair[PAIR_BN] * math.sqrt(m / k_ref) * omega if k_ref > 0 else 0.0
                dt = 2.0 / omega if implicit_damping and omega > 0 else damped_limit(omega, zeta)
                if dt < best.dt:
                    best = TimestepEstimate(dt, ci, face, omega, zeta, n_bed, load_factor)
    if not math.isfinite(best.dt):
        best = TimestepEstimate(math.inf, 0, "none", 0.0, 0.0, 0)
    return best


def monitored_timestep(mass: float, inertia_min: float, k_sum, k_rot, c_sum):
    """Critical Δt [s] from the contact sums a run records (Σk_n, Σk_n·lever², Σc_n) for one clump
    (arrays or scalars; pass c_sum = 0 with implicit dashpots). The translational and rotational modes
    are taken apart, so this is a monitor of the trend, less strict than the a-priori estimate's coupled
    modes."""
    k_sum, k_rot, c_sum = (np.asarray(x, float) for x in (k_sum, k_rot, c_sum))
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.sqrt(k_sum / mass)
        zeta = np.where(k_sum > 0, c_sum / (2.0 * np.sqrt(mass * k_sum)), 0.0)
        dt_t = np.where(k_sum > 0, 2.0 / w * (np.sqrt(1.0 + zeta * zeta) - zeta), np.inf)
        dt_r = np.where((k_rot > 0) & (inertia_min > 0), 2.0 / np.sqrt(k_rot / max(inertia_min, 1e-300)), np.inf)
    return np.minimum(dt_t, dt_r)
