"""The probes of an assembly (dem.model.assembly): for each block its rotation, angular velocity and
motion, for each joint its interface resultants (H, V, V ÷ the weight it carries, eccentricity ÷ the
contact face's width, |H|/V, sphere contacts) and its opening and slip (:class:`JointMotion`), named after
the blocks and joints."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.model import matrix_to_quat
from ..output import columns as K
from ..output.columns import Column
from ..physics.history_rows import C_POS, C_QUAT
from .bodies import relative_rotation
from .probes import AngularVelocity, BodyMotion, Interface, RockingAngle, quat_rotate


@dataclass
class JointMotion:
    """How a joint moves: ``<joint>_opening_deg``, the rotation of block `upper` relative to the block below
    (`lower`; None: the base, which does not turn) about `axis` since t = 0 [deg] — 0 while the joint stays
    shut, whatever the two blocks do together; its opening angle when the upper block rocks on the lower one's
    edge (the gap at the far edge is the face's width × sin of it) — and ``<joint>_slip``, the offset along
    the joint's `tangent` since t = 0 [m] between the centre of the upper block's face (``center_body``, from
    its centre of mass, body frame) and the point of the face below that it stood on at t = 0, each carried
    by its block, the base's by the base wall's displacement (the model's interface of the joint's name on a
    wall; a base that is not a wall does not move). Rocking moves the face centre too, by half the width ×
    (1 − cos) of the opening: second order, 0.4 mm for a 0.6 m face opened by 2°."""

    prefix: str
    upper: int
    lower: int | None
    center_body: tuple
    axis: tuple = (0.0, 1.0, 0.0)
    tangent: tuple = (1.0, 0.0, 0.0)

    def _start(self, model, c: int):
        return np.asarray(model.clumps[c].position, float), np.asarray(model.clumps[c].rotation, float)

    def evaluate(self, rows, ctx):
        lay, model = ctx.layout, ctx.model
        axis, tangent = _unit(self.axis), _unit(self.tangent)
        x_u0, r_u0 = self._start(model, self.upper)
        face0 = x_u0 + r_u0 @ np.asarray(self.center_body, float)  # the face centre at t = 0, world
        q_u = lay.clump(rows, self.upper, C_QUAT, 4)
        face_u = lay.clump(rows, self.upper, C_POS) + quat_rotate(q_u, np.asarray(self.center_body, float))
        turn = relative_rotation(q_u, matrix_to_quat(r_u0)) @ axis
        if self.lower is None:
            wall = next((w for name, _c, kind, w in model.interfaces if name == self.prefix and kind == "wall"), None)
            face_l = face0 + (lay.wall(rows, wall)[0] if wall is not None else 0.0)
        else:
            x_l0, r_l0 = self._start(model, self.lower)
            q_l = lay.clump(rows, self.lower, C_QUAT, 4)
            face_l = lay.clump(rows, self.lower, C_POS) + quat_rotate(q_l, r_l0.T @ (face0 - x_l0))
            turn = turn - relative_rotation(q_l, matrix_to_quat(r_l0)) @ axis
        return {f"{self.prefix}_opening_deg": np.degrees(turn), f"{self.prefix}_slip": (face_u - face_l) @ tangent}

    def columns(self, model=None):
        p = self.prefix
        below = "the base" if self.lower is None or model is None else model.clumps[self.lower].name
        above = str(self.upper) if model is None else model.clumps[self.upper].name
        return {f"{p}_opening_deg": Column("deg", f"rotation of {above} relative to {below} about "
                                           f"{tuple(round(float(v), 3) for v in _unit(self.axis))} since t = 0 "
                                           f"(joint {p}'s opening angle)", K.IF_OPENING, p),
                f"{p}_slip": Column("m", f"offset along the joint's tangent of {above}'s face centre from the point "
                                    f"of {below} it stood on at t = 0 (joint {p}'s slip)", K.IF_SLIP, p)}


def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def assembly_probes(assembly, *, horizontal=(1.0, 0.0, 0.0), axis=(0.0, 1.0, 0.0)) -> list:
    """Columns ``<block>_theta_deg`` (rotation about `axis` [deg]), ``<block>_omega`` [rad/s],
    ``<block>_ux, _uz, _ax, _az`` (dem.run.probes.BodyMotion) per block, and ``<joint>_H, _V, _V_ratio, _ecc,
    _friction, _contacts`` (dem.run.probes.Interface) and ``<joint>_opening_deg, _slip`` (:class:`JointMotion`:
    the rotation about `axis` of the block above relative to the one below, the slip along H) per joint: for
    a horizontal joint H along `horizontal` and V vertical; for an inclined one (an arch's) V along its normal
    and H, the eccentricity and the slip along its tangent (dem.model.assembly.Joint)."""
    probes: list = []
    for c, name in zip(assembly.bodies, assembly.body_names):
        probes += [RockingAngle(f"{name}_theta_deg", c, axis=tuple(axis)),
                   AngularVelocity(f"{name}_omega", c, axis=tuple(axis)),
                   BodyMotion(name, c, horizontal=tuple(horizontal))]
    for j in assembly.joints:
        flat = bool(np.allclose(j.normal, (0.0, 0.0, 1.0)))  # horizontal: resolved along the shaking direction
        along = tuple(horizontal) if flat else tuple(j.tangent)
        probes.append(Interface(j.name, j.slot, j.upper, j.center_body, j.width, j.load,
                                horizontal=along, up=tuple(j.normal)))
        probes.append(JointMotion(j.name, j.upper, j.lower, j.center_body, axis=tuple(axis), tangent=along))
    return probes
