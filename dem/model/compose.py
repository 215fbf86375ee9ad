"""One rigid body from several clump templates: a capital carved in one block (an echinus drum under an
abacus slab), a column whose joints are glued (its drums as one body).
"""

from __future__ import annotations

import numpy as np

from .clump import ClumpTemplate
from .solids import Composite


def compose(parts) -> ClumpTemplate:
    """The template of one body made of `parts`, a sequence of (template, offset (3,) [m]): each template's
    spheres shifted by its offset into the common frame, its hull flags and zone labels kept, its solid
    a part of a :class:`dem.model.solids.Composite` (mass and inertia of the whole solid, one density; the
    parts' solids must not overlap). Spheres at a face that two parts share stay hull spheres: they touch
    nothing outside, and cost only their place in the contact search."""
    parts = list(parts)
    if not parts:
        raise ValueError("compose needs at least one part (template, offset)")
    centers, radii, hull, zone, solids = [], [], [], [], []
    for k, (tpl, offset) in enumerate(parts):
        o = np.asarray(offset, float).reshape(3)
        if not isinstance(tpl, ClumpTemplate) or not np.all(np.isfinite(o)):
            raise ValueError(f"part {k} must be (ClumpTemplate, finite offset (3,) [m]), got {tpl!r}, {offset!r}")
        if tpl.solid is None:
            raise ValueError(f"part {k} has no solid shape: compose needs the solids for the mass properties")
        centers.append(tpl.centers + o)
        radii.append(tpl.radii)
        hull.append(tpl.hull)
        zone.append(tpl.zone)
        solids.append((tpl.solid, tuple(o)))
    return ClumpTemplate(np.concatenate(centers), np.concatenate(radii), np.concatenate(hull),
                         Composite(tuple(solids)), np.concatenate(zone))
