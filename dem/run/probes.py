"""Probes: named quantities computed from the history rows (vectorised, on the host).

Each probe's ``evaluate(rows, ctx)`` returns columns for the history. ``ctx`` gives the model and the
history-row layout. ``columns(model)`` describes those columns (unit, meaning, family, legend label; see
dem.output.columns), for summary.json and the plots. Angles are in degrees where the name says ``_deg``;
everything else is SI.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..output import columns as K
from ..output.columns import Column
from ..physics.history_rows import C_FORCE, C_OMEGA, C_POS, C_QUAT, C_TORQUE, C_VEL, HistoryRowLayout


@dataclass
class ProbeContext:
    model: object
    layout: HistoryRowLayout


def cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a × b over the last axis (length 3), broadcast as arithmetic broadcasts: the numbers of np.cross (the same
    products and differences in the same order, so the same bits) without its generic set-up, which took half
    of the host's time checking a chunk of history rows."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack((a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0), axis=-1)


def quat_rotate(q: np.ndarray, v) -> np.ndarray:
    """Rotate body vector v by quaternions q (n, 4) (w, x, y, z) → (n, 3)."""
    v = np.asarray(v, float)
    w, x, y, z = q.T
    u = np.stack([x, y, z], axis=1)
    t = 2.0 * cross3(u, np.broadcast_to(v, u.shape))
    return v + w[:, None] * t + cross3(u, t)


def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def _body(model, c: int) -> str:
    """A clump's name for legends."""
    try:
        return model.clumps[c].name
    except (AttributeError, IndexError, TypeError):
        return f"body {c}"


def _axis(v) -> str:
    """A direction for text: 'x', '−z' or '(0.6, 0, 0.8)'."""
    v = _unit(v)
    for k, name in enumerate("xyz"):
        if abs(abs(v[k]) - 1.0) < 1e-12:
            return name if v[k] > 0 else "−" + name
    return "(" + ", ".join(f"{x:.3g}" for x in v) + ")"


@dataclass
class RockingAngle:
    """Rotation of a body about a horizontal world axis [deg] (and ÷ α when ``alpha`` [rad] is given).

    θ = atan2(e·(a × up), e·up), e the body's ``body_up`` axis in the world, a the rocking axis: a positive
    rotation about a gives a positive θ.
    """

    name: str
    clump: int
    axis: tuple = (0.0, 1.0, 0.0)
    up: tuple = (0.0, 0.0, 1.0)
    body_up: tuple = (0.0, 0.0, 1.0)
    alpha: float | None = None

    def evaluate(self, rows, ctx):
        q = ctx.layout.clump(rows, self.clump, C_QUAT, 4)
        e = quat_rotate(q, _unit(self.body_up))
        a, up = _unit(self.axis), _unit(self.up)
        th = np.arctan2(e @ cross3(a, up), e @ up)
        out = {self.name: np.degrees(th)}
        if self.alpha:
            out[self.name.replace("_deg", "") + "_over_alpha"] = th / self.alpha
        return out

    def columns(self, model=None):
        b = _body(model, self.clump)
        out = {self.name: Column("deg", f"rotation of {b} about {_axis(self.axis)}: its body axis "
                                 f"{_axis(self.body_up)} from the vertical (0 upright as built, not at t = 0)", K.ANGLE,
                                 b)}
        if self.alpha:
            out[self.name.replace("_deg", "") + "_over_alpha"] = Column(
                "-", f"rotation of {b} ÷ its slenderness α = {np.degrees(self.alpha):.4g}° (1: tipping point)",
                K.ANGLE_ALPHA, b)
        return out


@dataclass
class AngularVelocity:
    """ω·a [rad/s] of a body about a world axis (and ÷ p when ``p`` [rad/s] is given)."""

    name: str
    clump: int
    axis: tuple = (0.0, 1.0, 0.0)
    p: float | None = None

    def evaluate(self, rows, ctx):
        w = ctx.layout.clump(rows, self.clump, C_OMEGA) @ _unit(self.axis)
        out = {self.name: w}
        if self.p:
            out[self.name + "_over_p"] = w / self.p
        return out

    def columns(self, model=None):
        b = _body(model, self.clump)
        out = {self.name: Column("rad/s", f"angular velocity of {b} about {_axis(self.axis)}", K.OMEGA, b)}
        if self.p:
            out[self.name + "_over_p"] = Column("-", f"angular velocity of {b} ÷ p = {self.p:.4g} rad/s", K.OMEGA_P, b)
        return out


@dataclass
class BodyMotion:
    """Displacement from the start [m] and acceleration [m/s²] of a body's centre of mass along the
    horizontal and the vertical: columns ``<prefix>_ux, _uz, _ax, _az`` (acceleration = F/m + g)."""

    prefix: str
    clump: int
    horizontal: tuple = (1.0, 0.0, 0.0)
    up: tuple = (0.0, 0.0, 1.0)

    def evaluate(self, rows, ctx):
        lay, m = ctx.layout, ctx.model
        x = lay.clump(rows, self.clump, C_POS)
        x0 = m.clumps[self.clump].position
        acc = lay.clump(rows, self.clump, C_FORCE) / m.mass[self.clump] + m.gravity
        h, up = _unit(self.horizontal), _unit(self.up)
        return {f"{self.prefix}_ux": (x - x0) @ h, f"{self.prefix}_uz": (x - x0) @ up,
                f"{self.prefix}_ax": acc @ h, f"{self.prefix}_az": acc @ up}

    def columns(self, model=None):
        b = _body(model, self.clump)
        h, v = _axis(self.horizontal), _axis(self.up)
        return {f"{self.prefix}_ux": Column("m", f"displacement of {b}'s centre of mass along {h} since t = 0",
                                            K.DISP_H, b),
                f"{self.prefix}_uz": Column("m", f"displacement of {b}'s centre of mass along {v} since t = 0",
                                            K.DISP_V, b),
                f"{self.prefix}_ax": Column("m/s²", f"acceleration of {b}'s centre of mass along {h}", K.ACC_H, b),
                f"{self.prefix}_az": Column("m/s²", f"acceleration of {b}'s centre of mass along {v} (−g in free fall)",
                                            K.ACC_V, b)}


@dataclass
class BodyVelocity:
    """Centre-of-mass velocity of a body along a direction [m/s]."""

    name: str
    clump: int
    direction: tuple = (0.0, 0.0, 1.0)

    def evaluate(self, rows, ctx):
        return {self.name: ctx.layout.clump(rows, self.clump, C_VEL) @ _unit(self.direction)}

    def columns(self, model=None):
        b = _body(model, self.clump)
        return {self.name: Column("m/s", f"velocity of {b}'s centre of mass along {_axis(self.direction)}",
                                  K.VELOCITY, b)}


@dataclass
class ContactForceRatio:
    """|total contact force on a body| ÷ ``weight`` [N]."""

    name: str
    clump: int
    weight: float

    def evaluate(self, rows, ctx):
        f = ctx.layout.clump(rows, self.clump, C_FORCE)
        return {self.name: np.linalg.norm(f, axis=1) / self.weight}

    def columns(self, model=None):
        b = _body(model, self.clump)
        return {self.name: Column("-", f"|total contact force on {b}| ÷ {self.weight:.4g} N", K.FORCE_RATIO,
                                  f"{b}: total")}


@dataclass
class ContactMoment:
    """Contact moment on a body about its centre of mass along a world axis [N·m]."""

    name: str
    clump: int
    axis: tuple = (0.0, 1.0, 0.0)

    def evaluate(self, rows, ctx):
        return {self.name: ctx.layout.clump(rows, self.clump, C_TORQUE) @ _unit(self.axis)}

    def columns(self, model=None):
        b = _body(model, self.clump)
        return {self.name: Column("N·m", f"contact moment on {b} about its centre of mass along {_axis(self.axis)}",
                                  K.MOMENT, b)}


@dataclass
class GroupForceRatio:
    """|contact force summed over a sphere group (a probe slot)| ÷ ``weight`` [N]."""

    name: str
    slot: int
    weight: float

    def evaluate(self, rows, ctx):
        s = ctx.layout.slot(rows, self.slot)
        return {self.name: np.linalg.norm(s[:, 0:3], axis=1) / self.weight}

    def columns(self, model=None):
        return {self.name: Column("-", f"|contact force on the sphere group {self.name}| ÷ {self.weight:.4g} N",
                                  K.FORCE_RATIO, "spheres: " + self.name.removeprefix("force_ratio_"))}


@dataclass
class GroupForce:
    """Contact force summed over a sphere group (a probe slot) along a direction [N]."""

    name: str
    slot: int
    direction: tuple = (0.0, 0.0, 1.0)

    def evaluate(self, rows, ctx):
        return {self.name: ctx.layout.slot(rows, self.slot)[:, 0:3] @ _unit(self.direction)}

    def columns(self, model=None):
        return {self.name: Column("N", f"contact force on the sphere group {self.name} along "
                                       f"{_axis(self.direction)}", K.FORCE, self.name)}


@dataclass
class AccelerationMagnitude:
    """|F_contact/m + g| ÷ |g| of a body: its centre's acceleration in units of g (1 in free fall)."""

    name: str
    clump: int

    def evaluate(self, rows, ctx):
        m = ctx.model
        acc = ctx.layout.clump(rows, self.clump, C_FORCE) / m.mass[self.clump] + m.gravity
        return {self.name: np.linalg.norm(acc, axis=1) / np.linalg.norm(m.gravity)}

    def columns(self, model=None):
        b = _body(model, self.clump)
        return {self.name: Column("g", f"|acceleration of {b}'s centre of mass| ÷ |g| (1 in free fall)", K.ACC_G, b)}


@dataclass
class Interface:
    """Resultant of the contact forces a body receives across an interface (a probe slot).

    Columns: ``<prefix>_H`` horizontal resultant along ``horizontal`` [N]; ``_V`` vertical resultant [N];
    ``_V_ratio`` = V ÷ ``static_load``; ``_ecc`` = eccentricity of V along ``horizontal`` from the
    interface centre ÷ ``width`` (|e| ≤ 1/6: resultant in the middle third); ``_friction`` = |H_total| ÷ V
    (H_total: both horizontal components); ``_contacts`` = number of contacts. The interface centre is the
    body-frame point ``center_body`` [m] (relative to the body's centre of mass) carried by the body.
    """

    prefix: str
    slot: int
    clump: int
    center_body: tuple
    width: float
    static_load: float
    horizontal: tuple = (1.0, 0.0, 0.0)
    up: tuple = (0.0, 0.0, 1.0)

    def evaluate(self, rows, ctx):
        lay = ctx.layout
        s = lay.slot(rows, self.slot)
        f, m_o, count = s[:, 0:3], s[:, 3:6], s[:, 6]
        h, up = _unit(self.horizontal), _unit(self.up)
        q = lay.clump(rows, self.clump, C_QUAT, 4)
        center = lay.clump(rows, self.clump, C_POS) + quat_rotate(q, np.asarray(self.center_body, float))
        m_p = m_o - cross3(center, f)  # moment about the interface centre
        v = f @ up
        a = cross3(up, h)  # horizontal axis about which V's offset along h makes a moment
        with np.errstate(divide="ignore", invalid="ignore"):
            # a vertical force V at offset e·h from the centre has moment (e h) × (V up) = −e V (up × h)·…
            ecc = np.where(np.abs(v) > 0, -(m_p @ a) / v, 0.0) / self.width
            h_all = np.linalg.norm(f - np.outer(v, up), axis=1)
            fric = np.where(v > 0, h_all / v, 0.0)
        return {f"{self.prefix}_H": f @ h, f"{self.prefix}_V": v, f"{self.prefix}_V_ratio": v / self.static_load,
                f"{self.prefix}_ecc": ecc, f"{self.prefix}_friction": fric, f"{self.prefix}_contacts": count}

    def columns(self, model=None):
        p, b, h = self.prefix, _body(model, self.clump), _axis(self.horizontal)
        on = f"on {b} across interface {p}"
        return {f"{p}_H": Column("N", f"horizontal resultant along {h} of the contact forces {on}", K.IF_H, p),
                f"{p}_V": Column("N", f"vertical resultant of the contact forces {on}", K.IF_V, p),
                f"{p}_V_ratio": Column("-", f"vertical resultant {on} ÷ its static load {self.static_load:.4g} N",
                                       K.IF_V_RATIO, p),
                f"{p}_ecc": Column("-", f"eccentricity of the vertical resultant along {h} from the interface centre ÷ "
                                        f"the width {self.width:.4g} m (±1/6: middle third)", K.IF_ECC, p),
                f"{p}_friction": Column("-", f"|horizontal resultant| ÷ vertical resultant {on} (slides at μ)",
                                        K.IF_FRICTION, p),
                f"{p}_contacts": Column("-", f"number of sphere contacts {on}", K.IF_CONTACTS, p)}


@dataclass
class WallMotionProbe:
    """A wall's velocity and displacement along a direction [m/s, m], and its acceleration [m/s²]
    (the derivative of the prescribed velocity at the rows' times)."""

    prefix: str
    wall: int
    direction: tuple = (1.0, 0.0, 0.0)

    def evaluate(self, rows, ctx):
        d = _unit(self.direction)
        disp, vel = ctx.layout.wall(rows, self.wall)
        t = rows[:, 0]
        wm = ctx.model.walls[self.wall].motion
        if wm is None:
            acc = np.zeros(len(t))
        else:
            h = 0.5 * wm.dt
            acc = (wm.at(t + h) - wm.at(np.maximum(t - h, 0.0))) @ d / np.where(t > h, 2 * h, h)
        return {f"{self.prefix}_vel": vel @ d, f"{self.prefix}_disp": disp @ d, f"{self.prefix}_acc": acc}

    def columns(self, model=None):
        try:
            w = model.walls[self.wall].name
        except (AttributeError, IndexError, TypeError):
            w = f"wall {self.wall}"
        d = _axis(self.direction)
        return {f"{self.prefix}_vel": Column("m/s", f"velocity of {w} along {d} (prescribed)", K.BASE_VEL, w),
                f"{self.prefix}_disp": Column("m", f"displacement of {w} along {d} since t = 0", K.BASE_DISP, w),
                f"{self.prefix}_acc": Column("m/s²", f"acceleration of {w} along {d} (derivative of the prescribed "
                                                     "velocity)", K.BASE_ACC, w)}


@dataclass
class ForceProfile:
    """Contact force of each bin of a binned sphere group ÷ ``weight`` (normal component along ``up``),
    written to its own file ``profile_<name>.csv`` (columns: t, then one per bin centre)."""

    name: str
    slot: int
    centers: np.ndarray  # bin centres [m]
    weight: float
    up: tuple = (0.0, 0.0, 1.0)

    def table(self, rows, ctx) -> np.ndarray:
        up = _unit(self.up)
        cols = [ctx.layout.slot(rows, self.slot + b)[:, 0:3] @ up for b in range(len(self.centers))]
        return np.column_stack(cols) / self.weight

    def evaluate(self, rows, ctx):
        return {}

    def columns(self, model=None):
        return {}
