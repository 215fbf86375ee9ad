"""The probes of an assembly (dem.model.assembly): for each block its rotation, angular velocity and
motion, for each joint its interface resultants (H, V, V ÷ the weight it carries, eccentricity ÷ the
contact face's width, |H|/V, sphere contacts), named after the blocks and joints."""

from __future__ import annotations

import numpy as np

from .probes import AngularVelocity, BodyMotion, Interface, RockingAngle


def assembly_probes(assembly, *, horizontal=(1.0, 0.0, 0.0), axis=(0.0, 1.0, 0.0)) -> list:
    """Columns ``<block>_theta_deg`` (rotation about `axis` [deg]), ``<block>_omega`` [rad/s],
    ``<block>_ux, _uz, _ax, _az`` (dem.run.probes.BodyMotion) per block, and ``<joint>_H, _V, _V_ratio, _ecc,
    _friction, _contacts`` (dem.run.probes.Interface) per joint: for a horizontal joint H along `horizontal`
    and V vertical; for an inclined one (an arch's) V along its normal and H and the eccentricity along its
    tangent (dem.model.assembly.Joint)."""
    probes: list = []
    for c, name in zip(assembly.bodies, assembly.body_names):
        probes += [RockingAngle(f"{name}_theta_deg", c, axis=tuple(axis)),
                   AngularVelocity(f"{name}_omega", c, axis=tuple(axis)),
                   BodyMotion(name, c, horizontal=tuple(horizontal))]
    for j in assembly.joints:
        flat = bool(np.allclose(j.normal, (0.0, 0.0, 1.0)))  # horizontal: resolved along the shaking direction
        probes.append(Interface(j.name, j.slot, j.upper, j.center_body, j.width, j.load,
                                horizontal=tuple(horizontal) if flat else tuple(j.tangent), up=tuple(j.normal)))
    return probes
