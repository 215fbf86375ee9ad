"""Per body of a run: its peak rotation, its residual dislocation and whether it fell (summary.json's ``bodies``).

Every body of the model gets a row, whatever the scene records (the poses come from the record rows, not
from the scene's probes), measured from its pose at the start of the run (t = 0, the model's):

- ``peak_rotation_rad`` [rad], ``peak_rotation_time_s`` [s]: the largest angle of its rotation from its
  attitude at the start (the angle of R(t) R(0)ᵀ, about whatever axis), over the records; for a body rocking
  about one axis, the largest |θ| of its rocking-angle column;
- ``peak_tilt_rad`` [rad]: the largest angle between the axis that was vertical in the body at the start and
  the vertical (rocking, without the twist about the vertical);
- ``residual_displacement_m`` [m, world x y z]: its centre of mass at the end of the run less at the start;
- ``residual_drift_m`` [m, x y z] and ``residual_horizontal_drift_m`` [m]: the same less the displacement of
  the ground (``ground``: the first moving wall with a horizontal face, a shaking table or a vehicle's bed;
  none: the drift is the displacement) — where the body was left on what carries it;
- ``residual_rotation_rad`` [rad] and ``residual_rotation_vector_rad`` [rad, world x y z]: its rotation
  from the start at the end of the run (the rotation vector: axis × angle, angle in [0, π]);
- ``fell`` (true/false), ``fell_time_s`` [s], ``fell_by``: the body fell when, at some record,
  (a) its tilt reached its overturning angle θ_ov (``fell_by`` "tilt"), or
  (b) its centre of mass came lower than at the start, on the ground, by more than ``drop_limit_m``, half
  the body's smallest extent (along x, y or z) at the start (``fell_by`` "drop": it came off what carried it);
  θ_ov (``overturn_angle_rad``) is dem.run.response's (α + π/2)/2, the angle past which a block is taken
  as overturned, with α the scene's slenderness (``info['alpha_rad']``, ``overturn_angle_from`` "scene
  alpha_rad") for the bodies it names as rocking (``info['rocking_bodies']``: the same test as the
  response's ``overturned``) and for the blocks of an assembly that rocks as one (``info['assembly']``,
  dem.run.assembly_response: a column's drums, with the column's α), otherwise the body's own
  (``overturn_angle_from`` "body geometry"): atan(b ÷ h_G) at the start, h_G the height of its centre of
  mass above its lowest point and b the least horizontal distance, along x or y, from the centre of mass
  to the edge of what it stands on (the points of its solid up to FOOT_BAND × its height above its lowest:
  a box's bottom face, a drum's bottom rim); 0 for a body standing on one point or edge (a voussoir), which
  then takes θ_ov = 45°.

Both criteria look at the body alone, not at what it stands on: a drum that falls with the whole column
and one that comes off it both fall. A value that cannot be given is null with its reason in summary.json's
``null_reasons`` (``fell_time_s`` of a body that did not fall; the residuals of a body whose last recorded
pose is not finite, a run that went unstable).
"""

from __future__ import annotations

import math

import numpy as np

from ..model.clump import Box
from ..model.model import matrix_to_quat
from ..model.solids import Composite, Frustum, Prism
from ..physics.recording import C_POS, C_QUAT, CLUMP_WIDTH
from .probes import RockingAngle
from .response import default_overturn_angle

FOOT_BAND = 0.05  # points of a body up to this share of its height above its lowest point are its footing
FELL_BY = ("", "tilt", "drop")  # codes of the tracker's fell_by array
_STATE = ("peak_rotation", "peak_rotation_t", "peak_tilt", "fell_t", "fell_by", "last_t", "last_pos", "last_quat",
          "last_ground")


def _qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of quaternions (w, x, y, z) over the last axis, broadcast."""
    aw, ax, ay, az = np.moveaxis(a, -1, 0)
    bw, bx, by, bz = np.moveaxis(b, -1, 0)
    return np.stack((aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw), axis=-1)


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Vectors v (..., 3) rotated by unit quaternions q (..., 4), broadcast."""
    u, w = q[..., 1:], q[..., :1]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def relative_rotation(q: np.ndarray, q0: np.ndarray) -> np.ndarray:
    """The rotation vectors [rad] (..., 3) of q q0⁻¹ (world frame: the rotation since the attitude q0), the
    angle in [0, π]."""
    conj = q0 * np.array([1.0, -1.0, -1.0, -1.0])
    r = _qmul(q / np.linalg.norm(q, axis=-1, keepdims=True), conj)
    r = np.where(r[..., :1] < 0.0, -r, r)  # the same rotation with w ≥ 0: the angle ≤ π
    s = np.linalg.norm(r[..., 1:], axis=-1)
    angle = 2.0 * np.arctan2(s, r[..., 0])
    with np.errstate(invalid="ignore", divide="ignore"):
        axis = np.where(s[..., None] > 0.0, r[..., 1:] / s[..., None], 0.0)
    return axis * angle[..., None]


def solid_points(solid) -> np.ndarray | None:
    """Points of a template's solid (dem.model.clump.Box, dem.model.solids: its corners, or its rims sampled
    every 11.25°), template frame [m]; None for a solid of another kind."""
    if isinstance(solid, Box):
        half = 0.5 * np.asarray(solid.size, float)
        return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half
    if isinstance(solid, Prism):
        v = np.asarray(solid.vertices, float)
        y = 0.5 * solid.thickness
        return np.array([[x, sy * y, z] for x, z in v for sy in (-1, 1)])
    if isinstance(solid, Frustum):
        a = np.linspace(0.0, 2.0 * math.pi, 32, endpoint=False)
        rims = [(solid.radius, -0.5 * solid.height), (solid.top_radius, 0.5 * solid.height)]
        return np.concatenate([np.column_stack([r * np.cos(a), r * np.sin(a), np.full(a.size, z)]) for r, z in rims])
    if isinstance(solid, Composite):
        parts = [(solid_points(p), np.asarray(o, float)) for p, o in solid.parts]
        return None if any(p is None for p, _o in parts) else np.concatenate([p + o for p, o in parts])
    return None


def body_geometry(model) -> dict[str, np.ndarray]:
    """At the start, per body: its own slenderness α [rad] (module docstring), the drop limit [m], its
    centre of mass [m] and attitude (quaternion) and the body-frame vector that was vertical. The body's
    shape is its solid's (the block the spheres stand for, which rests on its faces and pivots on its
    edges), or its spheres' envelope where the template has no solid."""
    alpha, drop, up = [], [], []
    for cs in model.clumps:
        rot = np.asarray(cs.rotation, float)
        pts = solid_points(cs.template.solid)
        if pts is None:  # the spheres' surfaces along the axes
            c, r = np.asarray(cs.template.centers, float), np.asarray(cs.template.radii, float)[:, None]
            pts = np.concatenate([c + r * e for e in np.vstack([np.eye(3), -np.eye(3)])])
        off = (pts - np.asarray(cs.mass_props.center, float)) @ rot.T  # from the centre of mass, world axes
        lo, hi = np.min(off, axis=0), np.max(off, axis=0)
        h_g = -float(lo[2])
        # what it stands on: its points near its lowest (a block released a few degrees tilted still counts
        # its whole bottom face)
        foot = off[off[:, 2] <= lo[2] + FOOT_BAND * float(hi[2] - lo[2])]
        b = float(min(-np.min(foot[:, 0]), np.max(foot[:, 0]), -np.min(foot[:, 1]), np.max(foot[:, 1])))
        alpha.append(math.atan2(max(b, 0.0), max(h_g, 1e-300)))
        drop.append(0.5 * float(np.min(hi - lo)))
        up.append(rot.T @ np.array([0.0, 0.0, 1.0]))
    return {"alpha": np.array(alpha), "drop": np.array(drop), "up": np.array(up).reshape(-1, 3),
            "pos0": np.array([np.asarray(cs.position, float) for cs in model.clumps]).reshape(-1, 3),
            "quat0": np.array([matrix_to_quat(np.asarray(cs.rotation, float)) for cs in model.clumps]).reshape(-1, 4)}


def overturn_angles(model, info: dict, probes) -> tuple[np.ndarray, list[str]]:
    """θ_ov [rad] per body and where its α came from (module docstring)."""
    geom = body_geometry(model)
    angles = np.array([default_overturn_angle(a) for a in geom["alpha"]])
    source = ["body geometry"] * model.clump_count
    # the scene's rocking bodies, and the blocks of an assembly it rocks as one body (dem.run.assembly_response):
    # by the rocking-angle probe that records each
    named = [b for b in info.get("rocking_bodies") or ()] + list((info.get("assembly") or {}).get("blocks") or ())
    rocking = {b.get("theta_deg") for b in named if isinstance(b, dict)}
    if rocking and "alpha_rad" in info:
        for p in probes:
            if isinstance(p, RockingAngle) and p.name in rocking:
                angles[p.clump] = default_overturn_angle(float(info["alpha_rad"]))
                source[p.clump] = "scene alpha_rad"
    return angles, source


def ground_wall(model) -> int | None:
    """The ground the bodies are measured on: the first wall that moves and faces up or down (module
    docstring), or None."""
    for k, w in enumerate(model.walls):
        if w.motion is not None and abs(float(np.asarray(w.normal, float)[2])) > 0.99:
            return k
    return None


class BodyTracker:
    """Follows every body of one world through its record rows (:meth:`update`) and gives its row of
    summary.json's ``bodies`` (:meth:`summary`). Its state goes into a checkpoint (:meth:`arrays`,
    :meth:`set_arrays`), so that a resumed run goes on with its peaks."""

    def __init__(self, model, layout, info: dict, probes=()):
        self.model, self.layout = model, layout
        geom = body_geometry(model)
        self.pos0, self.quat0, self.up, self.drop = geom["pos0"], geom["quat0"], geom["up"], geom["drop"]
        self.overturn, self.overturn_from = overturn_angles(model, info, probes)
        n = model.clump_count
        self.peak_rotation = np.zeros(n)
        self.peak_rotation_t = np.zeros(n)
        self.peak_tilt = np.zeros(n)
        self.fell_t = np.full(n, np.nan)
        self.fell_by = np.zeros(n, np.int64)
        self.last_t = np.full(1, np.nan)
        self.last_pos = self.pos0.copy()
        self.ground = ground_wall(model)
        self.last_ground = np.zeros(3)
        self.last_quat = self.quat0.copy()

    def update(self, rows: np.ndarray) -> None:
        """Take a chunk of record rows (those the history keeps), in time order."""
        n, c = len(rows), self.model.clump_count
        if n == 0 or c == 0:
            return
        base = self.layout.clump_base
        block = rows[:, base: base + CLUMP_WIDTH * c].reshape(n, c, CLUMP_WIDTH)
        t = rows[:, 0]
        pos, quat = block[:, :, C_POS: C_POS + 3], block[:, :, C_QUAT: C_QUAT + 4]
        with np.errstate(invalid="ignore"):
            angle = np.linalg.norm(relative_rotation(quat, self.quat0), axis=-1)  # (n, c)
            unit = quat / np.linalg.norm(quat, axis=-1, keepdims=True)
            e = _rotate(unit, np.broadcast_to(self.up, quat.shape[:-1] + (3,)))
            tilt = np.arctan2(np.hypot(e[..., 0], e[..., 1]), e[..., 2])
            # NaN (a body gone numerically, the last row of an unstable run) counts for neither peaks nor falls
            angle_f = np.where(np.isfinite(angle), angle, -np.inf)
            k = np.argmax(angle_f, axis=0)
            best = angle_f[k, np.arange(c)]
            higher = best > self.peak_rotation
            self.peak_rotation = np.where(higher, best, self.peak_rotation)
            self.peak_rotation_t = np.where(higher, t[k], self.peak_rotation_t)
            self.peak_tilt = np.fmax(self.peak_tilt, np.max(np.where(np.isfinite(tilt), tilt, -np.inf), axis=0))
            by_tilt = tilt >= self.overturn
            ground = self.layout.wall(rows, self.ground)[0] if self.ground is not None else np.zeros((n, 3))
            by_drop = (pos[..., 2] - ground[:, None, 2] - self.pos0[:, 2]) < -self.drop
        hit = by_tilt | by_drop
        first = np.argmax(hit, axis=0)
        new = hit.any(axis=0) & np.isnan(self.fell_t)
        for b in np.flatnonzero(new):
            self.fell_t[b] = t[first[b]]
            self.fell_by[b] = 1 if by_tilt[first[b], b] else 2
        self.last_t[0] = t[-1]
        self.last_pos, self.last_quat, self.last_ground = pos[-1].copy(), quat[-1].copy(), ground[-1].copy()

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(getattr(self, k)) for k in _STATE}

    def set_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        """The state of :meth:`arrays` (a checkpoint); keys missing (an older checkpoint) leave the start's."""
        for k in _STATE:
            if k in arrays and np.shape(arrays[k]) == np.shape(getattr(self, k)):
                setattr(self, k, np.array(arrays[k]))

    def summary(self) -> tuple[list[dict], dict[str, str]]:
        """summary.json's ``bodies`` (module docstring) and {JSON path: why a value is null}."""
        rows, why = [], {}
        ended = math.isfinite(float(self.last_t[0]))
        rv = relative_rotation(self.last_quat, self.quat0)
        for b, cs in enumerate(self.model.clumps):
            disp = self.last_pos[b] - self.pos0[b]
            drift = disp - self.last_ground
            fell = bool(np.isfinite(self.fell_t[b]))
            row = {"body": b, "name": cs.name, "fixed": bool(self.model.fixed[b]),
                   "peak_rotation_rad": float(self.peak_rotation[b]) if ended else math.nan,
                   "peak_rotation_time_s": float(self.peak_rotation_t[b]) if ended else math.nan,
                   "peak_tilt_rad": float(self.peak_tilt[b]) if ended else math.nan,
                   "residual_displacement_m": [float(v) for v in disp],
                   "residual_drift_m": [float(v) for v in drift],
                   "residual_horizontal_drift_m": float(np.hypot(drift[0], drift[1])),
                   "ground": None if self.ground is None else self.model.walls[self.ground].name,
                   "residual_rotation_rad": float(np.linalg.norm(rv[b])),
                   "residual_rotation_vector_rad": [float(v) for v in rv[b]],
                   "fell": fell, "fell_time_s": float(self.fell_t[b]), "fell_by": FELL_BY[self.fell_by[b]] or None,
                   "overturn_angle_rad": float(self.overturn[b]), "overturn_angle_from": self.overturn_from[b],
                   "drop_limit_m": float(self.drop[b])}
            at = f"bodies[{b}]"
            if not ended:
                for k in ("peak_rotation_rad", "peak_rotation_time_s", "peak_tilt_rad"):
                    why[f"{at}.{k}"] = "no history rows"
            elif not np.all(np.isfinite(self.last_pos[b])) or not np.all(np.isfinite(self.last_quat[b])):
                for k in ("residual_displacement_m", "residual_drift_m", "residual_horizontal_drift_m",
                          "residual_rotation_rad", "residual_rotation_vector_rad"):
                    why[f"{at}.{k}"] = "the body's last recorded pose is not a finite number (the run went unstable)"
            if not fell:
                why[f"{at}.fell_time_s"] = "the body did not fall"
            rows.append(row)
        # a list's items are paths of their own in strict JSON: give the reasons for the vectors' entries too
        for key in list(why):
            if key.endswith(("_vector_rad", "displacement_m", "_drift_m")) and "horizontal" not in key:
                why |= {f"{key}[{i}]": why[key] for i in range(3)}
        return rows, why

