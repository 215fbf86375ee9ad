"""The contacts two bodies of a builder make at t = 0, as the step will see them (host side, NumPy): a body's
hull spheres against the other's solid (joints "solid", dem.model.contact_solid; the kernels' pair_entry.py), or
hull sphere against hull sphere. The start-up checks (bodies starting inside each other, bodies resting on a few
points: dem.model.initial_overlaps, dem.model.placement.support_notes), the critical time step of an assembly
(dem.model.timestep) and the seating of a body on another (placement.place) all count the same contacts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .contact_solid import SAME_AREA, ContactSolid, contact_solid
from .placement import MIN_SUPPORT_CONTACTS, SUPPORT_GAP, on_wall, touching_sphere_pairs, world_hull

HALF = 0.5  # the stiffness share of each side's spheres when two faces of one size meet (docs/joints.md)


@dataclass(frozen=True)
class BodyPairContacts:
    """The contacts between two bodies a and b at t = 0 (host side): points [m], unit normals from b towards a,
    effective radii [m] (R̄), stiffness shares [-] and overlaps [m] (< 0: a gap), one entry each. (Not
    dem.device.contacts.ContactArrays, the device arrays of a running simulation's contacts.)"""

    points: np.ndarray
    normals: np.ndarray
    radii: np.ndarray
    shares: np.ndarray
    overlaps: np.ndarray

    def __len__(self) -> int:
        return len(self.radii)


def solid_of(spec, joints: str) -> ContactSolid | None:
    """The solid other bodies' spheres meet on body `spec` (a dem.model.ClumpSpec) under `joints`, or None."""
    if joints != "solid":
        return None
    return contact_solid(spec.template.solid)


def sphere_solid_distance(sph, sol, solid: ContactSolid):
    """Hull spheres of body `sph` against body `sol`'s solid: their world centres [m], radii [m], the signed
    distance of each centre to the solid [m] and the unit normal (world) from the solid towards it."""
    x, r = world_hull(sph)
    local = (x - sol.position) @ sol.rotation + sol.mass_props.center  # the solid's template frame
    d, n = solid.signed_distance(local)
    return x, r, d, n @ sol.rotation.T


def between(a, b, solid_a: ContactSolid | None, solid_b: ContactSolid | None, *, gap: float) -> BodyPairContacts:
    """Contacts between builder bodies a and b (dem.model.ClumpSpec) whose surfaces are closer than `gap` × the
    sphere's radius (or overlap): with a solid on either, each side's hull spheres against the other's solid (when
    both have one, each contact with its share of the stiffness: the smaller face's spheres alone, a's between faces
    of one size (a stands for the body of lower index, as in the kernels), :func:`side_shares`); else hull sphere
    against hull sphere."""
    if solid_a is None and solid_b is None:
        xa, ra = world_hull(a)
        xb, rb = world_hull(b)
        i, j = touching_sphere_pairs(xa, ra, xb, rb, gap=gap)
        d = xa[i] - xb[j]
        dist = np.linalg.norm(d, axis=1)
        n = d / np.where(dist > 0, dist, 1.0)[:, None]
        return BodyPairContacts(0.5 * (xa[i] + xb[j]), n, ra[i] * rb[j] / (ra[i] + rb[j]), np.ones(len(i)),
                                ra[i] + rb[j] - dist)
    both = solid_a is not None and solid_b is not None
    parts = []
    for sph, sol, own_solid, solid, sign, first in ((a, b, solid_a, solid_b, 1.0, True),
                                                    (b, a, solid_b, solid_a, -1.0, False)):
        if solid is None:
            continue
        x, r, d, n = sphere_solid_distance(sph, sol, solid)
        near = d - r <= gap * r
        pts, n, r, d = x[near] - n[near] * r[near, None], n[near], r[near], d[near]
        share = np.ones(len(r))
        if both:  # by the two faces that meet (pair_entry.entry_share): the sphere's own looks along −n
            share = side_shares(face_area(sph, own_solid, pts, -n), face_area(sol, solid, pts, n), first)
        keep = share > 0.0
        parts.append((pts[keep], sign * n[keep], r[keep], d[keep], share[keep]))
    pts, nrm, rad, dist, share = (np.concatenate([p[k] for p in parts]) for k in range(5))
    return BodyPairContacts(pts, nrm, rad, share, rad - dist)


def face_area(spec, solid: ContactSolid, points, directions) -> np.ndarray:
    """Area [m²] of the flat face of body `spec`'s solid at each world point whose outward normal is the world
    direction (ContactSolid.face_area; −1: no flat face there)."""
    local = (np.asarray(points, float) - spec.position) @ spec.rotation + spec.mass_props.center
    return solid.face_area(local, np.asarray(directions, float) @ spec.rotation)


def side_shares(own, other, first: bool) -> np.ndarray:
    """The share [-] of the stiffness of a sphere's contact against another body's face, from the areas [m²] of its
    own body's face and the other's (physics/contact_solid.sphere_side_share, the kernels' rule): 1 for the smaller
    face, 0 for the larger; for two of one size 1 when the sphere's body is the first of the two (`first`), else 0;
    ½ for anything not face on face."""
    own, other = np.asarray(own, float), np.asarray(other, float)
    flat = (own > 0) & (other > 0)
    out = np.full(own.shape, HALF)
    out[flat] = 1.0 if first else 0.0
    out[flat & (own < other * (1.0 - SAME_AREA))] = 1.0
    out[flat & (own > other * (1.0 + SAME_AREA))] = 0.0
    return out


def all_between(model_or_builder, *, gap: float) -> dict:
    """{(a, b): BodyPairContacts} for every two bodies a < b whose bounding spheres come within reach and that touch."""
    specs = list(model_or_builder.clumps)
    joints = getattr(model_or_builder, "joints", "spheres")
    solids = [solid_of(cs, joints) if len(specs) > 1 else None for cs in specs]
    bound = [cs.template.bounding_radius(cs.mass_props.center) for cs in specs]
    out = {}
    for a in range(len(specs)):
        reach_a = bound[a] + 2.0 * gap * float(specs[a].template.radii.max())
        for b in range(a + 1, len(specs)):
            if np.linalg.norm(specs[a].position - specs[b].position) > reach_a + bound[b]:
                continue
            found = between(specs[a], specs[b], solids[a], solids[b], gap=gap)
            if len(found):
                out[(a, b)] = found
    return out


def support_notes(model, *, min_contacts: int = MIN_SUPPORT_CONTACTS, gap: float = SUPPORT_GAP) -> list[str]:
    """One sentence per body that touches walls or other bodies at t = 0 through fewer than `min_contacts`
    contacts (gap ≤ `gap` × the sphere's radius: sphere on wall, sphere on another body's solid or sphere); bodies
    with fewer hull spheres than that, and bodies touching nothing (falling), are not judged."""
    specs = list(model.clumps)
    found = all_between(model, gap=gap)
    notes = []
    for c, cs in enumerate(specs):
        x, r = world_hull(cs)
        if len(r) < min_contacts:
            continue
        n_wall = sum(int(np.count_nonzero(on_wall(x, r, wall, gap=gap))) for wall in model.walls)
        n_body = sum(len(v) for k, v in found.items() if c in k)
        n = n_wall + n_body
        if 0 < n < min_contacts:
            advice = ("its face is probably out of register with what it stands on, and it will carry its weight "
                      "on a few points; ModelBuilder.place_on puts a body on another with the lattices in register"
                      if getattr(model, "joints", "spheres") == "spheres" else
                      "it will carry its weight on a few points (a body on an edge or a corner?)")
            notes.append(f"body '{cs.name}' rests on only {n} contact(s) at t = 0 ({n_wall} with walls, {n_body} with "
                         f"other bodies): {advice}")
    return notes


def seat(lower, upper, up, solid_lower: ContactSolid | None, solid_upper: ContactSolid | None, *,
         gap: float = 0.0, iterations: int = 20) -> np.ndarray:
    """Move builder body `upper` (changed in place) along `up` until its contacts with `lower` (:func:`between`:
    its spheres on `lower`'s solid, `lower`'s spheres on its solid) just close, then by `gap` [m] more; returns the
    shift [m]. Moving `upper` by t·up changes a contact's overlap by −t (−n·up), n its normal from `upper` to
    `lower`: the first contact closes at t = max (overlap / (−n·up)) over the contacts that a move up opens (exact
    for flat faces; repeated for edges, whose normals turn as the body moves)."""
    up = np.asarray(up, float) / np.linalg.norm(up)
    start = upper.position.copy()
    for _ in range(iterations):
        c = between(lower, upper, solid_lower, solid_upper, gap=np.inf)
        w = -(c.normals @ up)
        use = w > 1e-9
        if not np.any(use):
            raise ValueError(f"body '{upper.name}' does not lie above body '{lower.name}': move it over it first")
        t = float(np.max(c.overlaps[use] / w[use]))
        upper.position = upper.position + t * up
        if abs(t) <= 1e-12 * max(1.0, float(np.max(np.abs(upper.position)))):
            break
    upper.position = upper.position + gap * up
    return upper.position - start
