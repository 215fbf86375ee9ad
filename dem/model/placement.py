"""Putting one body on another with their sphere lattices in register, and checking at t = 0 what each body
rests on.

Why register matters. A face of a clump is an egg-crate of spheres: with spheres of radius r spaced 1.5 r
(Itiola & El Shamy 2024's overlap ratio 0.75) it is about 0.18 r deep, and two such faces touch only where
sphere meets sphere. In register (each upper sphere right over a lower one) they share one contact per
column with a vertical normal. With the same lattice at an arbitrary horizontal offset every pair still
touches, but all the normals lean the same way: the interface pushes the upper body sideways by
V·tan(lean) and it slides off unless friction holds it. With different spacings or sphere sizes, or a
yawed body, the lattices drift in and out of register across the face and the upper body rests on its
best-aligned pairs only. :func:`place` shifts the upper body horizontally by less than a lattice spacing
so that its most central bottom sphere stands right over a lower sphere, choosing the lower sphere that
gives the most touching pairs, then lowers it until it just touches: in register wherever the two
lattices can be (same spacing and sphere size; give the lower body a top zone matching the upper body's
base zone). dem.model.body_contacts.support_notes flags, before a run, any body that touches what it stands on
through fewer than MIN_SUPPORT_CONTACTS contacts.

Under joints "solid" (dem.model.ModelBuilder) a body meets another's solid face as it meets a wall, whatever the
two lattices: register does not matter, and ModelBuilder.place_on only lowers the body onto the other's solid
(dem.model.body_contacts.seat).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree

# A pair of spheres closer than this × the smaller radius at t = 0 will carry load once the body settles:
# static overlaps under a body's weight are ~1e-3 of a radius, a misregistered lattice leaves gaps of
# up to ~0.18 r.
SUPPORT_GAP = 0.01
MIN_SUPPORT_CONTACTS = 5  # "a handful": fewer, and the body rests on a few points of its face


@dataclass
class Placement:
    """Where :func:`place` put the upper body.

    shift: translation applied to the upper body [m] (world frame; horizontal part ≤ one lattice spacing);
    contact_count: sphere pairs touching (gap ≤ SUPPORT_GAP × the smaller radius) after the move;
    candidates: horizontal shifts tried.
    """

    shift: np.ndarray
    contact_count: int
    candidates: int


def resting_height(lower: np.ndarray, lower_r: np.ndarray, upper: np.ndarray, upper_r: np.ndarray) -> float:
    """Vertical shift [m] to apply to the `upper` spheres (world centres, radii) so that they just touch the
    `lower` spheres from above: the largest over laterally overlapping pairs of
    z_lower + √((r_l + r_u)² − d²) − z_upper, with d their horizontal distance. Where lattices do not line
    up, the upper body rests on its best-aligned pairs (its interface is "corrugated", Itiola & El Shamy 2024, §5.4)."""
    reach = float(lower_r.max() + upper_r.max())
    k, nb = _pairs_within(cKDTree(lower[:, :2]), upper[:, :2], reach)
    d2 = np.sum((lower[nb, :2] - upper[k, :2]) ** 2, axis=1)
    s = (lower_r[nb] + upper_r[k]) ** 2 - d2
    ok = s > 0
    if not ok.any():
        raise ValueError("the upper body does not lie above the lower one")
    return float(np.max(lower[nb[ok], 2] + np.sqrt(s[ok]) - upper[k[ok], 2]))


def _pairs_within(tree, points: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays (k, j) of every point k and tree point j closer than `reach` [m] (in no particular order)."""
    pairs = cKDTree(points).sparse_distance_matrix(tree, reach, output_type="ndarray")
    return pairs["i"].astype(np.int64), pairs["j"].astype(np.int64)


def world_hull(spec) -> tuple[np.ndarray, np.ndarray]:
    """World centres [m] and radii [m] of a builder clump's (dem.model.ClumpSpec) hull spheres."""
    h = spec.template.hull
    return spec.position + spec.offsets[h] @ spec.rotation.T, spec.template.radii[h]


def _basis(up: np.ndarray) -> np.ndarray:
    """Rows e1, e2, up: an orthonormal frame whose third axis is `up`."""
    up = up / np.linalg.norm(up)
    a = np.array([1.0, 0.0, 0.0]) if abs(up[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    e1 = a - (a @ up) * up
    e1 /= np.linalg.norm(e1)
    return np.stack([e1, np.cross(up, e1), up])


def touching_sphere_pairs(a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray, *,
                          gap: float = SUPPORT_GAP) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays (k of a, j of b) of the sphere pairs whose surfaces are closer than `gap` × the smaller
    radius (or overlap)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    reach = float(ra.max() + rb.max()) * (1.0 + gap)
    k, j = _pairs_within(cKDTree(b), a, reach)
    d = np.linalg.norm(b[j] - a[k], axis=1)
    keep = d - ra[k] - rb[j] <= gap * np.minimum(ra[k], rb[j])
    return k[keep], j[keep]


def touching_pairs(a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray, *, gap: float = SUPPORT_GAP) -> int:
    """Pairs (sphere of a, sphere of b) whose surfaces are closer than `gap` × the smaller radius (or overlap)."""
    return len(touching_sphere_pairs(a, ra, b, rb, gap=gap)[0])


def on_wall(x: np.ndarray, r: np.ndarray, wall, *, gap: float = SUPPORT_GAP) -> np.ndarray:
    """Mask of the spheres (centres x [m], radii r [m]) that touch `wall` (a dem.model.walls.Wall): within
    `gap` × their radius of its plane, not through it, and over the facet when it is one."""
    rel = x - wall.origin
    d = rel @ wall.normal
    hit = (d - r <= gap * r) & (d > -r)
    if wall.half_extents is not None:
        hit &= (np.abs(rel @ wall.u_axis) <= wall.half_extents[0]) & \
               (np.abs(rel @ wall.v_axis) <= wall.half_extents[1])
    return hit



def _face(x: np.ndarray, r: np.ndarray, up: np.ndarray, *, top: bool) -> np.ndarray:
    """Mask of the spheres whose outer surface lies within two radii of the body's top (or bottom) along
    up: the face that touches, and nothing deeper."""
    h = x @ up + (r if top else -r)
    edge = h.max() if top else h.min()
    k = int(np.argmax(h) if top else np.argmin(h))
    band = 2.0 * r[k]
    return h >= edge - band if top else h <= edge + band


def place(lower, upper, up, *, register: bool = True, gap: float = 0.0) -> Placement:
    """Move builder clump `upper` (dem.model.ClumpSpec, changed in place) onto `lower`: horizontally by less
    than a lattice spacing to the position with the most touching sphere pairs (``register``), then along
    `up` until they just touch, plus `gap` [m]. See the module docstring."""
    frame = _basis(np.asarray(up, float))
    xl, rl = world_hull(lower)
    xu, ru = world_hull(upper)
    top, bottom = _face(xl, rl, frame[2], top=True), _face(xu, ru, frame[2], top=False)
    xl, rl, xu, ru = xl[top] @ frame.T, rl[top], xu[bottom] @ frame.T, ru[bottom]  # coordinates (e1, e2, up)
    shifts = [np.zeros(2)]
    if register:
        # candidate shifts: bring the upper face's most central sphere right over one of the lower spheres
        # near it (sphere on sphere, columns aligned, as scenes/pier_deck.py lays its deck)
        centre = xu[:, :2].mean(axis=0)
        k = int(np.argmin(np.linalg.norm(xu[:, :2] - centre, axis=1)))
        near = cKDTree(xl[:, :2]).query_ball_point(xu[k, :2], 1.5 * (ru[k] + rl.max()))
        shifts = [xl[j, :2] - xu[k, :2] for j in near] or shifts
    best = None
    for s in shifts:
        moved = xu + np.r_[s, 0.0]
        try:
            dz = resting_height(xl, rl, moved, ru)
        except ValueError:
            continue  # this shift puts the upper face beside the lower one
        n = touching_pairs(xl, rl, moved + np.r_[0.0, 0.0, dz], ru)
        key = (n, -float(np.linalg.norm(s)))
        if best is None or key > best[0]:
            best = (key, s, dz, n)
    if best is None:
        raise ValueError(f"body '{upper.name}' does not lie above body '{lower.name}': move it over it first "
                         "(place_on adjusts the position by less than a lattice spacing)")
    _, s, dz, n = best
    shift = frame.T @ np.r_[s, dz + gap]
    upper.position = upper.position + shift
    return Placement(shift, n, len(shifts))
