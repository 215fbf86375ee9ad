"""Collapse load factor of rigid blocks with no-tension joints by the static theorem, as a linear program.

Heyman (1966), "The stone skeleton", §2–3: masonry of rigid blocks with no tensile strength, unlimited
compressive strength and no sliding is safe if a thrust line in equilibrium with the loads lies inside the
masonry; the largest load factor with such a thrust line is the collapse load factor (the static, or lower
bound, theorem of plastic limit analysis, which Heyman's three assumptions make exact). Livesley (1978),
"Limit analysis of structures formed from rigid blocks", Int. J. Numer. Meth. Eng. 12, writes it as a
linear program, as here:

  unknowns    per joint j: normal force N_j [N], shear V_j [N], moment M_j [N·m] about the joint centre c_j
              (the resultant acts at eccentricity e_j = M_j/N_j [m] along the joint); the load factor λ [-];
  equilibrium per block: Σ_j ±(N_j n_j + V_j s_j) + W (λ, −1) = 0 and
              Σ_j ±(M_j + (c_j − G) × (N_j n_j + V_j s_j)) = 0 about its centroid G
              (+ where the block is the joint's `plus` side, − where it is `minus`; gravity −W ẑ and the
              horizontal body force λ W x̂ of a held base acceleration λ g act at G);
  yield       |M_j| ≤ N_j ℓ_j (ℓ_j the joint's half-length: the resultant inside the joint, so N_j ≥ 0);
              optionally |V_j| ≤ μ N_j (Coulomb; omitted, the default, means no sliding);
  objective   maximise λ.

Forces are scaled by the total weight and lengths by the assembly's extent before the solve, so that HiGHS'
tolerances are relative.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from validation.arch.assembly import GROUND, Assembly

HINGE_TOL = 1e-8
"""A joint is a hinge where N ℓ − |M| ≤ HINGE_TOL × W_total × L (the LP's vertex is exact to ~1e-12 of that)."""

_HIGHS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    """z-component of a × b for plane vectors (x, z): positive counter-clockwise when z is up."""
    return float(a[0] * b[1] - a[1] * b[0])


@dataclass(frozen=True)
class LimitResult:
    """Outcome of the LP.

    feasible: whether a thrust line inside every joint exists (at the requested λ, or at λ = λ_min).
    load_factor: λ [-], the largest horizontal body force ÷ weight with such a thrust line (NaN if infeasible).
    normal, shear, moment: N [N], V [N], M [N·m] (about the joint centre) at each joint, shape (joint_count,).
    eccentricity: e = M/N [m] along the joint's tangent from its centre (NaN where N = 0).
    hinges: joints where the resultant reaches an edge (|M| = N ℓ, N > 0), ascending.
    hinge_points: (x, z) [m] of those edges, shape (len(hinges), 2).
    thrust_points: where the thrust line crosses each joint, (x, z) [m], shape (joint_count, 2).
    message: the solver's status text.
    """

    feasible: bool
    load_factor: float
    normal: np.ndarray
    shear: np.ndarray
    moment: np.ndarray
    eccentricity: np.ndarray
    hinges: tuple[int, ...]
    hinge_points: np.ndarray
    thrust_points: np.ndarray
    message: str


def _equilibrium_matrix(asm: Assembly, length: float) -> sparse.csr_matrix:
    """Rows (Fx, Fz, M about G) per block, columns (N, V, M) per joint, in units of W_total and `length`."""
    rows, cols, vals = [], [], []
    for j, jt in enumerate(asm.joints):
        n, s, c = jt.normal, jt.tangent, jt.centre
        for side, sign in ((jt.plus, 1.0), (jt.minus, -1.0)):
            if side == GROUND:
                continue
            d = (c - asm.blocks[side].centroid) / length
            r0 = 3 * side
            for k, vec in ((0, n), (1, s)):  # N and V columns
                rows += [r0, r0 + 1, r0 + 2]
                cols += [3 * j + k] * 3
                vals += [sign * vec[0], sign * vec[1], sign * _cross(d, vec)]
            rows.append(r0 + 2)
            cols.append(3 * j + 2)
            vals.append(sign)
    return sparse.csr_matrix((vals, (rows, cols)), shape=(3 * len(asm.blocks), 3 * len(asm.joints)))


def collapse_load_factor(asm: Assembly, *, mu: float | None = None, load_factor: float | None = None,
                         min_load_factor: float = 0.0) -> LimitResult:
    """Largest λ [-] for which the blocks of `asm` stand under gravity plus λ × their weight horizontally (+x).

    mu: Coulomb friction coefficient [-] at every joint; None (default) for no sliding (Heyman 1966).
    load_factor: if given, only check feasibility at this λ (the thrust line returned is one of many).
    min_load_factor: lower bound on λ [-] (0: the structure must at least stand under its own weight).
    """
    w_tot, length = asm.total_weight, asm.length_scale
    nj, nb = len(asm.joints), len(asm.blocks)
    a_eq = _equilibrium_matrix(asm, length)
    weights = np.array([b.weight for b in asm.blocks]) / w_tot
    lam_col = sparse.csr_matrix((weights, (3 * np.arange(nb), np.zeros(nb, dtype=int))), shape=(3 * nb, 1))
    a_eq = sparse.hstack([a_eq, lam_col]).tocsr()
    b_eq = np.zeros(3 * nb)
    b_eq[3 * np.arange(nb) + 1] = weights  # Σ(±F_z) = W: gravity moved to the right-hand side

    # |M| ≤ ℓ N, and |V| ≤ μ N if friction is finite: two rows per joint each.
    half = np.array([jt.half_length for jt in asm.joints]) / length
    rows, cols, vals = [], [], []
    pairs = [(2, half)] + ([(1, np.full(nj, float(mu)))] if mu is not None else [])
    r = 0
    for k, bound in pairs:
        for j in range(nj):
            for sign in (1.0, -1.0):
                rows += [r, r]
                cols += [3 * j + k, 3 * j]
                vals += [sign, -bound[j]]
                r += 1
    a_ub = sparse.csr_matrix((vals, (rows, cols)), shape=(r, 3 * nj + 1))
    b_ub = np.zeros(r)

    bounds = [(0.0, None), (None, None), (None, None)] * nj
    if load_factor is not None:
        bounds.append((float(load_factor), float(load_factor)))
        cost = np.zeros(3 * nj + 1)
    else:
        bounds.append((float(min_load_factor), None))
        cost = np.zeros(3 * nj + 1)
        cost[-1] = -1.0
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs-ds",
                  options=_HIGHS)
    if res.status == 3:
        raise ValueError("the load factor is unbounded: some block is not held by any joint")
    nan = np.full(nj, np.nan)
    if res.status != 0:
        return LimitResult(False, float("nan"), nan, nan, nan, nan, (), np.empty((0, 2)),
                           np.full((nj, 2), np.nan), res.message)

    x = res.x
    normal, shear, moment = x[0:-1:3] * w_tot, x[1:-1:3] * w_tot, x[2:-1:3] * w_tot * length
    with np.errstate(invalid="ignore", divide="ignore"):
        ecc = np.where(normal > 0.0, moment / np.where(normal > 0.0, normal, 1.0), np.nan)
    slack = half * x[0:-1:3] - np.abs(x[2:-1:3])
    hinges = tuple(int(j) for j in np.flatnonzero((slack <= HINGE_TOL) & (x[0:-1:3] > HINGE_TOL)))
    hinge_points = np.array([asm.joints[j].end if moment[j] > 0.0 else asm.joints[j].start for j in hinges])
    thrust = np.array([jt.centre + e * jt.tangent for jt, e in zip(asm.joints, ecc)])
    return LimitResult(True, float(x[-1]), normal, shear, moment, ecc, hinges,
                       hinge_points.reshape(-1, 2), thrust, res.message)


def equilibrium_residual(asm: Assembly, result: LimitResult) -> float:
    """Largest out-of-balance force [N] or moment ÷ length scale [N] on any block, ÷ the total weight [-].

    Computed from the joint resultants block by block, not from the LP's matrix: Σ forces + W (λ, −1), and
    about the origin Σ (M_j + c_j × F_j) + G × W (λ, −1), with F_j = N_j n_j + V_j s_j.
    """
    length = asm.length_scale
    force = np.zeros((len(asm.blocks), 2))
    torque = np.zeros(len(asm.blocks))
    for j, jt in enumerate(asm.joints):
        f = result.normal[j] * jt.normal + result.shear[j] * jt.tangent
        for side, sign in ((jt.plus, 1.0), (jt.minus, -1.0)):
            if side != GROUND:
                force[side] += sign * f
                torque[side] += sign * (result.moment[j] + _cross(jt.centre, f))
    for k, b in enumerate(asm.blocks):
        body = b.weight * np.array([result.load_factor, -1.0])
        force[k] += body
        torque[k] += _cross(b.centroid, body)
    return float(max(np.abs(force).max(), np.abs(torque).max() / length) / asm.total_weight)
