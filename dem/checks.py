"""Checks made before any step runs: bodies starting inside walls."""

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
