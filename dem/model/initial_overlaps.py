"""Checks made before any step runs: bodies starting inside walls or inside each other."""

from __future__ import annotations

import numpy as np

from .model import Model

# A hull sphere overlapping a wall by more than this fraction of its radius at t = 0 is an error: such a
# start releases a burst of strain energy (the tolerance admits bodies placed exactly on a wall).
INITIAL_OVERLAP_TOLERANCE = 0.01


def check_initial_overlaps(model: Model) -> None:
    """Raise ValueError naming the clump and wall if a body starts inside a wall."""
    for cs in model.clumps:
        h = cs.template.hull
        x = cs.position + cs.offsets[h] @ cs.rotation.T
        r = cs.template.radii[h]
        for wall in model.walls:
            rel = x - wall.origin
            d = rel @ wall.normal
            inside = np.ones(len(r), bool)
            if wall.half_extents is not None:
                a = np.abs(rel @ wall.u_axis)
                b = np.abs(rel @ wall.v_axis)
                inside = (a <= wall.half_extents[0]) & (b <= wall.half_extents[1])
            overlap = np.where(inside, r - d, -np.inf)
            k = int(np.argmax(overlap / r))
            if overlap[k] > INITIAL_OVERLAP_TOLERANCE * r[k]:
                raise ValueError(
                    f"clump '{cs.name}' starts inside wall '{wall.name}': a sphere of radius {r[k]:.4g} m overlaps it "
                    f"by {overlap[k]:.4g} m (more than {INITIAL_OVERLAP_TOLERANCE:.0%} of its radius); "
                    f"move the body at least {overlap[k]:.4g} m along the wall normal {wall.normal.round(6).tolist()}")


def check_initial_body_overlaps(model: Model) -> None:
    """Raise ValueError naming both clumps if a body starts inside another: a hull sphere overlapping a
    sphere of another body by more than INITIAL_OVERLAP_TOLERANCE of the smaller radius (bodies placed
    just touching, as ModelBuilder.place_on does, pass)."""
    from scipy.spatial import cKDTree

    if getattr(model, "joints", "spheres") == "solid" and any(s is not None for s in model.contact_solids):
        _check_solid_overlaps(model)
        return
    specs = list(model.clumps)
    hulls = []
    for cs in specs:
        h = cs.template.hull
        hulls.append((cs.position + cs.offsets[h] @ cs.rotation.T, cs.template.radii[h]))
    for a in range(len(specs)):
        xa, ra = hulls[a]
        for b in range(a + 1, len(specs)):
            xb, rb = hulls[b]
            if np.linalg.norm(specs[a].position - specs[b].position) > model.bound_radius[a] + model.bound_radius[b]:
                continue  # bounding spheres apart
            pairs = cKDTree(xa).query_ball_tree(cKDTree(xb), float(ra.max() + rb.max()))
            worst, where = 0.0, None
            for i, js in enumerate(pairs):
                if not js:
                    continue
                js = np.asarray(js)
                ovl = ra[i] + rb[js] - np.linalg.norm(xb[js] - xa[i], axis=1)
                ratio = ovl / np.minimum(ra[i], rb[js])
                k = int(np.argmax(ratio))
                if ratio[k] > worst:
                    worst, where = float(ratio[k]), (float(ovl[k]), xa[i])
            if worst > INITIAL_OVERLAP_TOLERANCE:
                ovl, x = where
                raise ValueError(
                    f"clump '{specs[b].name}' starts inside clump '{specs[a].name}': spheres overlap by {ovl:.4g} m "
                    f"near {np.round(x, 4).tolist()} m (more than {INITIAL_OVERLAP_TOLERANCE:.0%} of the smaller "
                    f"radius); move them apart, or put one on the other with ModelBuilder.place_on")


def _check_solid_overlaps(model: Model) -> None:
    """check_initial_body_overlaps under joints "solid": a hull sphere reaching more than INITIAL_OVERLAP_TOLERANCE of
    its radius into another body's solid (or a sphere of another body, between bodies without solids) is refused,
    naming both bodies and the face (its outward normal, world frame)."""
    from .body_contacts import all_between

    specs = list(model.clumps)
    for (a, b), c in all_between(model, gap=0.0).items():
        ratio = c.overlaps / c.radii
        k = int(np.argmax(ratio))
        if ratio[k] > INITIAL_OVERLAP_TOLERANCE:
            n = np.round(c.normals[k], 3).tolist()
            where = np.round(c.points[k], 4).tolist()
            raise ValueError(
                f"clump '{specs[b].name}' starts inside clump '{specs[a].name}': at {where} m a sphere reaches "
                f"{c.overlaps[k]:.4g} m into a face (normal {n} from '{specs[b].name}' to '{specs[a].name}'; more "
                f"than {INITIAL_OVERLAP_TOLERANCE:.0%} of its radius); move them apart, or put one on the other with "
                f"ModelBuilder.place_on")
