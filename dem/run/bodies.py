"""Per body of a run: its peak rotation, whether and when it fell, its slip and uplift, and its residual
dislocation (summary.json's ``bodies``). This is the one place a run decides that a body fell: the summary line,
summary.json's ``response``, a batch's worlds.csv, the ``overturn`` event and ``--stop-on overturn`` all take it
from here (issue 32), for every body of every scene, whatever the scene declares.

Every body of the model gets a row (the poses come from the history rows, not from the scene's probes),
measured from its pose at the start of the run (t = 0, the model's):

- ``peak_rotation_rad`` [rad], ``peak_rotation_time_s`` [s]: the largest angle of its rotation from its
  attitude at the start (the angle of R(t) R(0)ᵀ, about whatever axis), over the records;
- ``peak_tilt_rad`` [rad], ``residual_tilt_rad`` [rad]: the largest and the last angle between the body's up
  axis and the vertical (rocking, without the twist about the vertical). The up axis is the body axis that was
  vertical at the start, or, for a body the scene declares as rocking (below), its rocking probe's upright
  axis (a block released tilted, as the Peña block at 2.9°, then reads 2.9° at the start, not 0);
- ``tipping_angle_rad`` [rad] (α) and ``overturn_angle_rad`` [rad] (θ_ov = (α + π/2)/2, dem.run.response's):
  α is the body's own slenderness, atan(b ÷ h_G) at the start, h_G the height of its centre of mass above its
  lowest point and b the least horizontal distance, along x or y, from the centre of mass to the edge of what
  it stands on (the points of its solid up to FOOT_BAND × its height above its lowest: a box's bottom face, a
  drum's bottom rim; 0 for a body standing on one point or edge, a voussoir, which then takes θ_ov = 45°);
  ``overturn_angle_from`` "body geometry". A scene refines it for the bodies it declares as rocking
  (``info['rocking_bodies']``, dem.scenes.tools.rocking_body) and for the blocks of an assembly that rocks as
  one (``info['assembly']``, dem.run.assembly_response: a column's drums): α is then the scene's
  ``info['alpha_rad']`` ("scene alpha_rad");
- ``fell`` (true/false), ``fell_time_s`` [s], ``fell_by``: **the body fell** at the first history row where
  (a) its tilt reached θ_ov (``fell_by`` "tilt"), or
  (b) its centre of mass came lower, on the ground, than where it first rested by more than ``drop_limit_m``,
  half the body's smallest extent (``fell_by`` "drop": it came off what carried it); where it first rested is
  its height at the first history row where it touches something (t = 0 for a body that starts on its support; a
  body dropped from a height is measured from where it lands).
  ``fell_time_s`` is the body's one time of collapse; a run reports no other;
- ``max_slip_m`` [m]: the largest horizontal slip of the body over the ground before it fell: at each history row,
  the least, among its footprint spheres (its lowest spheres at t = 0, up to 16 of them on the footprint's
  outline, where any pivot lies), of the horizontal displacement of the sphere's centre since t = 0, less the
  ground's and less rolling on the sphere (r φ × ẑ, φ the body's rotation vector since t = 0): a body that
  starts upright and rocks on an edge or a corner reads 0, a sliding body's spheres all move. A body released
  tilted by θ0 reads up to about W(1 − cos θ0) (its other edge was not on the ground at t = 0; 0.16 mm for
  the Peña block's 2.9°): for a body the scene declares as rocking, both figures are its rocking body's
  (dem.run.response.dem_response, from upright: ``slip_from`` "scene rocking_body");
- ``max_uplift_m`` [m]: the largest rise of those spheres above their place at t = 0, less the ground's
  rise, before it fell: a block rocking on an edge lifts its far edge by about its width × sin θ;
- ``residual_displacement_m`` [m, world x y z]: its centre of mass at the end of the run less at the start;
- ``residual_drift_m`` [m, x y z] and ``residual_horizontal_drift_m`` [m]: the same less the displacement of
  the ground (``ground``: the first moving wall with a horizontal face, a shaking table or a vehicle's bed;
  none: the drift is the displacement): where its centre was left on what carries it (a block left tilted by
  θ has its centre moved by about h_G sin θ without any slip);
- ``residual_rotation_rad`` and ``residual_rotation_vector_rad`` [rad, world x y z]: its rotation from the
  start at the end of the run (the rotation vector: axis × angle, angle in [0, π]);
- ``past_tipping_at_end``: at the last history row its tilt exceeds α and grows (a body still falling when the run
  ended: it did not fall by then, but would have without a base acceleration to bring it back).

The ground for slip and uplift is the whole table, not what the body stands on: a statue on a rocking plinth
is lifted with the plinth. Both criteria look at the body alone: a drum that falls with the whole column and
one that comes off it both fall. A fixed body never falls. A value that cannot be given is null with its reason
in summary.json's ``null_reasons`` (``fell_time_s`` of a body that did not fall; the residuals of a body whose
last recorded pose is not finite, a run that went unstable).
"""

from __future__ import annotations

import math

import numpy as np

from ..model.clump import Box
from ..model.model import matrix_to_quat
from ..model.solids import Composite, Frustum, Prism
from ..physics.history_rows import C_KT, C_POS, C_QUAT, CLUMP_WIDTH
from .probes import RockingAngle
from .response import default_overturn_angle

FOOT_BAND = 0.05  # points of a body up to this share of its height above its lowest point are its footing
FOOT_DIRECTIONS = 16  # footprint points kept: the furthest along each of these horizontal directions
FELL_BY = ("", "tilt", "drop")  # codes of the tracker's fell_by array
_STATE = ("peak_rotation", "peak_rotation_t", "peak_tilt", "fell_t", "fell_by", "last_t", "last_pos", "last_quat",
          "last_ground", "max_slip", "max_uplift", "rest_z", "prev_tilt", "last_tilt")


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
    every 11.25°; a mesh's vertices), template frame [m]; None for a solid of another kind."""
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
    if hasattr(solid, "vertices") and hasattr(solid, "faces"):  # a body from a mesh (dem.model.mesh_mass.MeshSolid)
        return np.asarray(solid.vertices, float)
    return None


def footprint(template, center, rot) -> tuple[np.ndarray, np.ndarray]:
    """A body's footprint spheres (module docstring): their centres, body-frame offsets from its centre of mass
    [m], shape (k, 3), and radii [m], k ≤ FOOT_DIRECTIONS: among its lowest spheres at the start (those whose
    bottoms are within FOOT_BAND of its height of the lowest), the furthest along each of FOOT_DIRECTIONS
    horizontal directions. `center`: the centre of mass in the template frame; `rot`: the attitude at t = 0."""
    c = np.asarray(template.centers, float) - np.asarray(center, float)
    r = np.asarray(template.radii, float)
    world = c @ rot.T  # offsets at t = 0, world axes
    bottom = world[:, 2] - r
    tall = float(np.max(world[:, 2] + r) - np.min(bottom))
    low = np.flatnonzero(bottom <= np.min(bottom) + FOOT_BAND * tall)
    a = np.linspace(0.0, 2.0 * math.pi, FOOT_DIRECTIONS, endpoint=False)
    reach = world[low, :2] @ np.vstack([np.cos(a), np.sin(a)])
    picked = low[np.unique(np.argmax(reach, axis=0))]
    return c[picked], r[picked]


def body_geometry(model) -> dict[str, np.ndarray]:
    """At the start, per body: its own slenderness α [rad] (module docstring), the drop limit [m], its
    centre of mass [m] and attitude (quaternion) and the body-frame vector that was vertical. The body's
    shape is its solid's (the block the spheres stand for, which rests on its faces and pivots on its
    edges), or its spheres' envelope where the template has no solid."""
    alpha, drop, up, feet = [], [], [], []
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
        feet.append(footprint(cs.template, cs.mass_props.center, rot))
    return {"alpha": np.array(alpha), "drop": np.array(drop), "up": np.array(up).reshape(-1, 3), "feet": feet,
            "pos0": np.array([np.asarray(cs.position, float) for cs in model.clumps]).reshape(-1, 3),
            "quat0": np.array([matrix_to_quat(np.asarray(cs.rotation, float)) for cs in model.clumps]).reshape(-1, 4)}


def overturn_angles(model, info: dict, probes, geom: dict | None = None) -> tuple[np.ndarray, list[str], np.ndarray,
                                                                                   np.ndarray]:
    """θ_ov [rad] per body, where its α came from, α [rad] and the body-frame up axis (module docstring)."""
    geom = body_geometry(model) if geom is None else geom
    alpha = np.array(geom["alpha"], float)
    up = np.array(geom["up"], float).reshape(-1, 3)
    source = ["body geometry"] * model.clump_count
    # the scene's rocking bodies, and the blocks of an assembly it rocks as one body (dem.run.assembly_response):
    # by the rocking-angle probe that records each
    named = [b for b in info.get("rocking_bodies") or ()] + list((info.get("assembly") or {}).get("blocks") or ())
    rocking = {b.get("theta_deg") for b in named if isinstance(b, dict)}
    if rocking and "alpha_rad" in info:
        for p in probes:
            if isinstance(p, RockingAngle) and p.name in rocking:
                alpha[p.clump] = float(info["alpha_rad"])
                source[p.clump] = "scene alpha_rad"
                e = np.asarray(p.body_up, float)
                up[p.clump] = e / np.linalg.norm(e)  # upright as the probe reads it (0 when upright)
    angles = np.array([default_overturn_angle(a) for a in alpha])
    return angles, source, alpha, up


def ground_wall(model) -> int | None:
    """The ground the bodies are measured on: the first wall that moves and faces up or down (module
    docstring), or None."""
    for k, w in enumerate(model.walls):
        if w.motion is not None and abs(float(np.asarray(w.normal, float)[2])) > 0.99:
            return k
    return None


class BodyTracker:
    """Follows every body of one world through its history rows (:meth:`update`) and gives its row of
    summary.json's ``bodies`` (:meth:`summary`); :meth:`falls` gives the falls a chunk of rows holds before they
    are taken (the run's ``overturn`` events and its stop on them). Its state goes into a checkpoint
    (:meth:`arrays`, :meth:`set_arrays`), so that a resumed run goes on with its peaks."""

    def __init__(self, model, layout, info: dict, probes=()):
        self.model, self.layout = model, layout
        geom = body_geometry(model)
        self.pos0, self.quat0, self.drop = geom["pos0"], geom["quat0"], geom["drop"]
        self.overturn, self.overturn_from, self.alpha, self.up = overturn_angles(model, info, probes, geom)
        n = model.clump_count
        self.feet = geom["feet"]
        self.movable = ~np.asarray(model.fixed, bool).reshape(n) if n else np.zeros(0, bool)
        self.peak_rotation = np.zeros(n)
        self.peak_rotation_t = np.zeros(n)
        self.peak_tilt = np.zeros(n)
        self.fell_t = np.full(n, np.nan)
        self.fell_by = np.zeros(n, np.int64)
        self.max_slip = np.zeros(n)
        self.max_uplift = np.zeros(n)
        self.rest_z = np.full(n, np.nan)  # height on the ground where it first touched something
        self.prev_tilt = np.full(n, np.nan)
        self.last_tilt = np.full(n, np.nan)
        self.last_t = np.full(1, np.nan)
        self.last_pos = self.pos0.copy()
        self.ground = ground_wall(model)
        self.last_ground = np.zeros(3)
        self.last_quat = self.quat0.copy()
        self._cache = None

    def measure(self, rows: np.ndarray) -> dict:
        """Per history row and body: the tilt [rad], the rotation angle [rad], the ground's displacement [m], and
        whether the body is past its overturning angle or has dropped (module docstring); kept for the rows'
        prefixes (a chunk cut at a stop is measured once)."""
        t0 = float(rows[0, 0]) if len(rows) else 0.0
        key = (rows.__array_interface__["data"][0], rows.shape[1], rows.strides, t0)
        if self._cache is not None and self._cache[0] == key and len(rows) <= self._cache[1]:
            return {k: v[:len(rows)] for k, v in self._cache[2].items()}
        n, c = len(rows), self.model.clump_count
        base = self.layout.clump_base
        block = rows[:, base: base + CLUMP_WIDTH * c].reshape(n, c, CLUMP_WIDTH)
        pos, quat = block[:, :, C_POS: C_POS + 3], block[:, :, C_QUAT: C_QUAT + 4]
        with np.errstate(invalid="ignore"):
            angle = np.linalg.norm(relative_rotation(quat, self.quat0), axis=-1)  # (n, c)
            unit = quat / np.linalg.norm(quat, axis=-1, keepdims=True)
            e = _rotate(unit, np.broadcast_to(self.up, quat.shape[:-1] + (3,)))
            tilt = np.arctan2(np.hypot(e[..., 0], e[..., 1]), e[..., 2])
            ground = self.layout.wall(rows, self.ground)[0] if self.ground is not None else np.zeros((n, 3))
            z = pos[..., 2] - ground[:, None, 2]  # height on the ground, as at t = 0 (its displacement removed)
            slip, uplift = np.zeros((n, c)), np.zeros((n, c))
            turn = relative_rotation(quat, self.quat0)  # (n, c, 3): rotation vectors since t = 0
            for b, (feet, radii) in enumerate(self.feet):  # footprint spheres: displacement since t = 0, less
                if not len(feet):  # the ground's, less rolling on the sphere (r φ × ẑ)
                    continue
                now = pos[:, b, None, :] + _rotate(unit[:, b, None, :], np.broadcast_to(feet, (n,) + feet.shape))
                start = self.pos0[b] + _rotate(self.quat0[b], feet)
                d = now - start - ground[:, None, :]
                roll = radii[None, :, None] * np.cross(turn[:, b, None, :], [0.0, 0.0, 1.0])
                slip[:, b] = np.min(np.hypot(d[..., 0] - roll[..., 0], d[..., 1] - roll[..., 1]), axis=1)
                uplift[:, b] = np.max(d[..., 2], axis=1)
        out = {"t": rows[:, 0], "pos": pos, "quat": quat, "angle": angle, "tilt": tilt, "ground": ground, "z": z,
               "touch": block[:, :, C_KT] > 0, "slip": slip, "uplift": uplift}
        self._cache = (key, n, out)
        return out

    def _rest(self, m: dict) -> np.ndarray:
        """Height on the ground where each body first rested (module docstring), per row: NaN before."""
        first = np.where(m["touch"].any(axis=0), np.argmax(m["touch"], axis=0), len(m["t"]))
        rest = np.where(np.isnan(self.rest_z), np.take_along_axis(
            m["z"], np.minimum(first, len(m["t"]) - 1)[None], axis=0)[0], self.rest_z)
        known = ~np.isnan(self.rest_z)
        rows = np.arange(len(m["t"]))[:, None]
        return np.where(known | (rows >= first), rest, np.nan)

    def _hits(self, m: dict) -> tuple[np.ndarray, np.ndarray]:
        with np.errstate(invalid="ignore"):
            by_tilt = (m["tilt"] >= self.overturn) & self.movable
            by_drop = (m["z"] - self._rest(m) < -self.drop) & self.movable
        return by_tilt, by_drop

    def falls(self, rows: np.ndarray) -> list[tuple[int, dict]]:
        """The falls that `rows` (the next history rows, in time order) hold, as (row index, ``overturn`` event)
        in row order, without taking the rows (:meth:`update` does)."""
        if len(rows) == 0 or self.model.clump_count == 0:
            return []
        m = self.measure(rows)
        by_tilt, by_drop = self._hits(m)
        hit = (by_tilt | by_drop) & np.isnan(self.fell_t)
        out = []
        for b in np.flatnonzero(hit.any(axis=0)):
            k = int(np.argmax(hit[:, b]))
            name = self.model.clumps[b].name
            if by_tilt[k, b]:
                a, ov = math.degrees(self.alpha[b]), math.degrees(self.overturn[b])
                detail = (f"tilt {math.degrees(m['tilt'][k, b]):.3g}° reached its overturning angle {ov:.3g}° "
                          f"((α + 90°)/2, α = {a:.3g}°)")
            else:
                detail = f"its centre of mass dropped more than {self.drop[b]:.3g} m below where it rested"
            out.append((k, {"event": "overturn", "body": name, "t": float(m["t"][k]), "detail": detail}))
        return sorted(out, key=lambda e: e[0])

    def update(self, rows: np.ndarray) -> None:
        """Take a chunk of history rows (those the history keeps), in time order."""
        n, c = len(rows), self.model.clump_count
        if n == 0 or c == 0:
            return
        m = self.measure(rows)
        t, angle, tilt = m["t"], m["angle"], m["tilt"]
        by_tilt, by_drop = self._hits(m)
        with np.errstate(invalid="ignore"):
            # NaN (a body gone numerically, the last row of an unstable run) counts for neither peaks nor falls
            angle_f = np.where(np.isfinite(angle), angle, -np.inf)
            k = np.argmax(angle_f, axis=0)
            best = angle_f[k, np.arange(c)]
            higher = best > self.peak_rotation
            self.peak_rotation = np.where(higher, best, self.peak_rotation)
            self.peak_rotation_t = np.where(higher, t[k], self.peak_rotation_t)
            self.peak_tilt = np.fmax(self.peak_tilt, np.max(np.where(np.isfinite(tilt), tilt, -np.inf), axis=0))
        hit = by_tilt | by_drop
        first = np.argmax(hit, axis=0)
        new = hit.any(axis=0) & np.isnan(self.fell_t)
        for b in np.flatnonzero(new):
            self.fell_t[b] = t[first[b]]
            self.fell_by[b] = 1 if by_tilt[first[b], b] else 2
        # slip and uplift before the fall (rows up to the fall's included)
        standing = np.isnan(self.fell_t)[None] | (t[:, None] <= self.fell_t[None])
        for name, arr in (("max_slip", m["slip"]), ("max_uplift", m["uplift"])):
            vals = np.where(standing & np.isfinite(arr), arr, 0.0)
            setattr(self, name, np.fmax(getattr(self, name), np.max(vals, axis=0)))
        rest = self._rest(m)[-1]
        self.rest_z = np.where(np.isnan(self.rest_z), rest, self.rest_z)
        self.prev_tilt = tilt[-2].copy() if n > 1 else self.last_tilt.copy()
        self.last_tilt = tilt[-1].copy()
        self.last_t[0] = t[-1]
        self.last_pos, self.last_quat, self.last_ground = m["pos"][-1].copy(), m["quat"][-1].copy(), \
            m["ground"][-1].copy()

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(getattr(self, k)) for k in _STATE}

    def set_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        """The state of :meth:`arrays` (a checkpoint); keys missing (an older checkpoint) leave the start's."""
        for k in _STATE:
            if k in arrays and np.shape(arrays[k]) == np.shape(getattr(self, k)):
                setattr(self, k, np.array(arrays[k]))
        self._cache = None

    def summary(self) -> tuple[list[dict], dict[str, str]]:
        """summary.json's ``bodies`` (module docstring) and {JSON path: why a value is null}."""
        rows, why = [], {}
        ended = math.isfinite(float(self.last_t[0]))
        rv = relative_rotation(self.last_quat, self.quat0)
        for b, cs in enumerate(self.model.clumps):
            disp = self.last_pos[b] - self.pos0[b]
            drift = disp - self.last_ground
            fell = bool(np.isfinite(self.fell_t[b]))
            tipping = bool(not fell and self.last_tilt[b] > self.alpha[b] and self.last_tilt[b] > self.prev_tilt[b])
            row = {"body": b, "name": cs.name, "fixed": bool(self.model.fixed[b]),
                   "peak_rotation_rad": float(self.peak_rotation[b]) if ended else math.nan,
                   "peak_rotation_time_s": float(self.peak_rotation_t[b]) if ended else math.nan,
                   "peak_tilt_rad": float(self.peak_tilt[b]) if ended else math.nan,
                   "residual_tilt_rad": float(self.last_tilt[b]) if ended else math.nan,
                   "fell": fell, "fell_time_s": float(self.fell_t[b]), "fell_by": FELL_BY[self.fell_by[b]] or None,
                   "tipping_angle_rad": float(self.alpha[b]),
                   "overturn_angle_rad": float(self.overturn[b]), "overturn_angle_from": self.overturn_from[b],
                   "drop_limit_m": float(self.drop[b]),
                   "max_slip_m": float(self.max_slip[b]) if ended else math.nan,
                   "max_uplift_m": float(self.max_uplift[b]) if ended else math.nan, "slip_from": "body footprint",
                   "past_tipping_at_end": tipping,
                   "residual_displacement_m": [float(v) for v in disp],
                   "residual_drift_m": [float(v) for v in drift],
                   "residual_horizontal_drift_m": float(np.hypot(drift[0], drift[1])),
                   "ground": None if self.ground is None else self.model.walls[self.ground].name,
                   "residual_rotation_rad": float(np.linalg.norm(rv[b])),
                   "residual_rotation_vector_rad": [float(v) for v in rv[b]]}
            at = f"bodies[{b}]"
            if not ended:
                for k in ("peak_rotation_rad", "peak_rotation_time_s", "peak_tilt_rad", "residual_tilt_rad",
                          "max_slip_m", "max_uplift_m"):
                    why[f"{at}.{k}"] = "no history rows"
            elif not np.all(np.isfinite(self.last_pos[b])) or not np.all(np.isfinite(self.last_quat[b])):
                for k in ("residual_displacement_m", "residual_drift_m", "residual_horizontal_drift_m",
                          "residual_rotation_rad", "residual_rotation_vector_rad", "residual_tilt_rad"):
                    why[f"{at}.{k}"] = "the body's last recorded pose is not a finite number (the run went unstable)"
            if not fell:
                why[f"{at}.fell_time_s"] = "the body did not fall"
            rows.append(row)
        # a list's items are paths of their own in strict JSON: give the reasons for the vectors' entries too
        for key in list(why):
            if key.endswith(("_vector_rad", "displacement_m", "_drift_m")) and "horizontal" not in key:
                why |= {f"{key}[{i}]": why[key] for i in range(3)}
        return rows, why
