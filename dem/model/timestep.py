"""Critical time step of the centred scheme for clumps on Hertz or linear contacts.

For one mode of frequency ω and damping ratio ζ, with the dashpot using the lagged velocity v(t−Δt/2)
as the solver does, the update map is stable iff ω²Δt² + 4ζωΔt < 4 (Jury conditions of its 2×2
matrix), i.e.

    Δt < Δt_crit = (2/ω) (√(1 + ζ²) − ζ)            (→ 2/ω undamped, → 1/(ζω) heavily damped)

A priori estimate (:func:`estimate_critical_timestep`), the least of two. (1) A rigid clump has six modes on
its contacts. The stiffest configuration it meets in a rocking run is at rest on a whole face: every hull sphere of that
face carrying its share of ``load_factor`` × the weight (contact stiffness grows as load^{1/3}; fewer
contacts carrying an impact are softer in total, see the module test). For each clump and each of its
six faces (±x, ±y, ±z of the template frame) the bed's 6×6 stiffness (normal springs along the face
normal, Mindlin springs across it) is taken against the body's 6×6 mass matrix; the largest
generalised eigenvalue gives ω, and since every dashpot is 2β√(m k) the damping matrix is
proportional to the stiffness, so the same mode has ζ = β √(m/k) ω. With the solver's implicit
dashpots (the default) only the undamped limit 2/ω applies. (2) Bodies resting on bodies (a stack, a
column, a wall, a deck on piers): the highest mode of them all together on their contacts at t = 0
(:func:`assembly_mode`), stiffer than any body on a fixed bed since neighbours move against each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigh

from .body_contacts import all_between
from .materials import PAIR_BN, PAIR_BS, PAIR_HFAC, PAIR_KN, PAIR_KS, PAIR_KSRATIO, PAIR_LAW, PAIR_SHARED, ContactLaw
from .model import Model
from .placement import SUPPORT_GAP, on_wall, world_hull

LOAD_FACTOR = 10.0  # design load of the bed ÷ the static weight (impacts, landings)
AUTO_SAFETY = 0.5  # --dt auto takes this fraction of the estimate
ASSEMBLY = "assembly"  # TimestepEstimate.face of the mode of all bodies together (assembly_mode)


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
        if self.face == ASSEMBLY:
            return (f"critical time step ≈ {self.dt:.3g} s (the highest mode of the {model.clump_count} bodies "
                    f"together on their {self.contacts} contacts at t = 0, at {self.load_factor:g}× their static "
                    f"loads: ω = {self.omega:.4g} rad/s, damping ratio {self.zeta:.3g})")
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
            # (≥: the outermost sphere stays in even where a body far larger than its spheres rounds r away)
            bed = support >= support.max() - 0.5 * rad.min()
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
    # bodies resting on bodies: the highest mode of them all together (assembly_mode)
    mode = assembly_mode(model, load_factor=load_factor) if model.clump_count > 1 else None
    if mode is not None:
        omega, zeta, contacts = mode
        dt = 2.0 / omega if implicit_damping else damped_limit(omega, zeta)
        if dt < best.dt:
            best = TimestepEstimate(dt, 0, ASSEMBLY, omega, zeta, contacts, load_factor)
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


def _assembly_contacts(model: Model, gap: float):
    """The contacts of every body at t = 0: (body a, body b or -1 for a wall, point [m], normal from b to a,
    effective radius [m], material pair) for each sphere on a wall, and each contact between two bodies as the step
    makes it (dem.model.body_contacts: a sphere on the other's solid, its pair's stiffness scaled by its share, or
    a sphere pair)."""
    hulls = [world_hull(cs) for cs in model.clumps]
    out = []
    for c, (x, r) in enumerate(hulls):
        for wall in model.walls:
            pair = model.pair_np[model.clumps[c].material, model.materials.index(wall.material)]
            out += [(c, -1, x[k] - r[k] * wall.normal, wall.normal, r[k], pair)
                    for k in np.flatnonzero(on_wall(x, r, wall, gap=gap))]
    for (a, b), found in all_between(model, gap=gap).items():
        pair = model.pair_np[model.clumps[a].material, model.clumps[b].material]
        for k in range(len(found)):
            share = found.shares[k]
            scaled = pair.copy()
            scaled[[PAIR_HFAC, PAIR_KN, PAIR_KS]] *= share
            out.append((a, b, found.points[k], found.normals[k], found.radii[k], scaled))
    return out


def _interface_loads(model: Model, contacts, g: float) -> dict:
    """Static load [N] of each interface (body, other body or -1): every body's weight and what it carries go
    down to the interfaces below its centre of mass (a wall, or a body whose centre is lower), split by their
    contact counts; an interface that carries nothing (side by side) gets the lighter body's weight."""
    count: dict = {}
    for a, b, *_ in contacts:
        count[(a, b)] = count.get((a, b), 0) + 1
    z = np.array([cs.position[2] for cs in model.clumps])
    carried = np.array([model.mass[c] * g for c in range(model.clump_count)])
    load: dict = {}
    for c in np.argsort(-z):
        below = {k: n for k, n in count.items() if (k[0] == c and (k[1] < 0 or z[k[1]] < z[c] - 1e-12))
                 or (k[1] == c and z[k[0]] < z[c] - 1e-12)}
        total = sum(below.values())
        for k, n in below.items():
            load[k] = load.get(k, 0.0) + carried[c] * n / total
            lower = k[1] if k[0] == c else k[0]
            if lower >= 0:
                carried[lower] += carried[c] * n / total
    for (a, b) in count:
        if (a, b) not in load:
            load[(a, b)] = g * min(model.mass[a], model.mass[b] if b >= 0 else model.mass[a])
    return load, count


def assembly_mode(model: Model, *, load_factor: float = LOAD_FACTOR, gap: float = SUPPORT_GAP):
    """(ω [rad/s], ζ, contacts) of the highest mode of all bodies together on their contacts at t = 0, or None
    when no two bodies touch (then :func:`estimate_critical_timestep`'s body-on-a-bed modes are the whole story).

    In a stack the highest mode has neighbours moving against each other, stiffer than one body on a fixed bed
    (up to 2√(k/m) for a chain of equal bodies and springs). The 6N × 6N stiffness of every contact (normal
    and two shear springs at the contact point, Hertz–Mindlin at ``load_factor`` × the static load of its
    interface shared by its contacts) against the bodies' mass matrices gives ω_max, the undamped limit 2/ω_max;
    ζ is that mode's damping ratio from the dashpots (the dashpot mass of each material pair).
    Measured on five 0.1 m boxes stacked (1 kg, G = 1 GPa, 64 contacts a joint, β = 0): stable at 1.2 × 2/ω_max,
    unstable at 1.6 ×, where the body-on-a-bed estimate (1.67 × 2/ω_max) allowed it (tests/run/test_instability.py).
    With damping the body-to-body dashpots lower the limit further (explicit in the other body's velocity); how
    much is not settled (a damped limit with this ζ is 2.6 × too strict for the shared dashpot mass and fits the
    body's on five boxes, but not on two): not applied with the solver's implicit dashpots."""
    contacts = _assembly_contacts(model, gap)
    if not any(b >= 0 for _a, b, *_ in contacts):
        return None
    g = float(np.linalg.norm(model.gravity)) or 9.81
    load, count = _interface_loads(model, contacts, g)
    n6 = 6 * model.clump_count
    stiff, damp = np.zeros((n6, n6)), np.zeros((n6, n6))
    for (a, b), rows in _group(contacts).items():
        p = np.array([c[2] for c in rows])
        n = np.array([c[3] for c in rows])
        rad = np.array([c[4] for c in rows])
        pair = rows[0][5]
        kn, ks = np.array([_contact_stiffness(pair, float(r), load_factor * load[(a, b)] / count[(a, b)])
                           for r in rad]).T
        # the dashpots' mass (docs/damping.md): the body's (the reduced mass between two bodies) at every
        # contact, or shared over the interface by normal stiffness (c = 2β k √(M_I/K_I))
        m_i = model.mass[a] if b < 0 else model.mass[a] * model.mass[b] / (model.mass[a] + model.mass[b])
        share = kn / kn.sum() if pair[PAIR_SHARED] and kn.sum() > 0 else np.ones_like(kn)
        helper = np.where(np.abs(n[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
        t1 = np.cross(n, helper)
        t1 /= np.linalg.norm(t1, axis=1, keepdims=True)
        idx = np.r_[6 * a:6 * a + 6, (6 * b + np.arange(6)) if b >= 0 else np.array([], int)]
        for d, k, beta in ((n, kn, pair[PAIR_BN]), (t1, ks, pair[PAIR_BS]), (np.cross(n, t1), ks, pair[PAIR_BS])):
            jac = np.hstack([d, np.cross(p - model.clumps[a].position, d)])
            if b >= 0:
                jac = np.hstack([jac, -d, -np.cross(p - model.clumps[b].position, d)])
            stiff[np.ix_(idx, idx)] += np.einsum("i,ij,ik->jk", k, jac, jac)
            damp[np.ix_(idx, idx)] += np.einsum("i,ij,ik->jk", 2.0 * beta * np.sqrt(share * m_i * k), jac, jac)
    mass = np.zeros((n6, n6))
    for c, cs in enumerate(model.clumps):
        mass[6 * c:6 * c + 3, 6 * c:6 * c + 3] = model.mass[c] * np.eye(3)
        mass[6 * c + 3:6 * c + 6, 6 * c + 3:6 * c + 6] = cs.rotation @ model.inertia[c] @ cs.rotation.T
    w2, modes = eigh(stiff, mass, subset_by_index=[n6 - 1, n6 - 1])
    if w2[0] <= 0:
        return None
    omega = math.sqrt(w2[0])
    zeta = float(modes[:, 0] @ damp @ modes[:, 0]) / (2.0 * omega)  # the mode is M-normalised
    return omega, zeta, len(contacts)


def _group(contacts) -> dict:
    """Contacts grouped by interface (body, other body or -1)."""
    out: dict = {}
    for c in contacts:
        out.setdefault((c[0], c[1]), []).append(c)
    return out


def body_dashpot_notes(model: Model, *, gap: float = SUPPORT_GAP) -> list[str]:
    """One sentence for a model whose bodies touch each other at t = 0 through dashpots with the body's own mass
    (``damping_mass="body"``, β_n > 0) on an interface of N contacts with β_n √N > 1: such an interface is
    overdamped (ζ = β√N), the dashpots between two bodies act on the other body's velocity explicitly, and
    stacks of them have gone unstable far below the undamped limit of :func:`estimate_critical_timestep` (the
    15 mm 12-drum column at 2e-5 s, a seventh of it). Nothing to say for "shared" (ζ = β per interface)."""
    if model.clump_count < 2:
        return []
    pairs = model.pair_np
    if not np.any((pairs[..., PAIR_SHARED] < 0.5) & (pairs[..., PAIR_BN] > 0.0)):
        return []
    count: dict = {}
    for a, b, _x, _n, _r, pair in _assembly_contacts(model, gap):
        if b >= 0 and pair[PAIR_SHARED] < 0.5 and pair[PAIR_BN] > 0.0:
            n, beta = count.get((a, b), (0, 0.0))
            count[(a, b)] = (n + 1, max(beta, float(pair[PAIR_BN])))
    worst = max(count.items(), key=lambda kv: kv[1][1] * math.sqrt(kv[1][0]), default=None)
    if worst is None:
        return []
    (a, b), (n, beta) = worst
    zeta = beta * math.sqrt(n)
    if zeta <= 1.0:
        return []
    names = model.clumps[a].name, model.clumps[b].name
    return [f"damping_mass='body' between bodies: the interface of '{names[0]}' and '{names[1]}' has {n} contacts "
            f"at t = 0, a damping ratio β√N = {zeta:.3g}; dashpots between two bodies act on the other body's "
            "velocity explicitly, and stacks so damped have gone unstable far below the critical time step "
            "estimate (the 15 mm 12-drum column at a seventh of it); damping_mass='shared' gives each interface "
            "ζ = β whatever its contacts (docs/damping.md)"]
