"""Events of a run found in its history rows on the host: a body overturning, a body leaving the domain (a
bounding box the scene declares), and sustained sliding on a base. They go in summary.json with their times,
and a run can stop on them (``dem run --stop-on overturn``).

Overturning is a body's fall as dem.run.bodies decides it, for every body whatever the scene declares: its
tilt reached its overturning angle (α + π/2)/2 or it dropped off what carried it; the event's time is the
body's ``fell_time_s`` (:class:`EventDetector` takes the falls from the run's dem.run.bodies.BodyTracker).

What a scene declares (:class:`EventSpec`, ``Scene.events``): the domain box, and for each body to watch for
sliding a :class:`Watch`: the wall it stands on and the rounded corners of its footprint (for the slip speed).
Without a declaration the domain is the initial bounding box of the bodies and finite walls, grown by its own
size on every side.

:func:`overturn_angle` is the tilt past which a rigid block on a base whose acceleration never exceeds A cannot
come back (Housner 1963, eq. 3; Zhang & Makris 2001, eq. 1: θ'' = −p²[sin(α sgnθ − θ) + (ü_g/g) cos(α sgnθ −
θ)], past α only |ü_g| > g tan(|θ| − α) turns it back): α + atan(A/g). Runs no longer use it to decide a fall
(issue 32: it gave a second time for one collapse); it stays for scripts that use it.

Sliding: the slip speed of a body is the smallest horizontal speed, relative to its base, of the lowest
points of its footprint's rounded corners (sphere centre minus radius along the vertical): a body rocking
on a corner rolls on it and that point is at rest, a sliding body's corners all move. Sliding is
"sustained" when the slip speed stays above ``slide_speed`` while the body touches something for at least
``slide_duration``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..physics.history_rows import C_KT, C_OMEGA, C_POS, C_QUAT, C_VEL
from .event_kinds import KINDS
from .probes import cross3

MAX_SLIDES_LISTED = 100  # sliding intervals listed per body in summary.json (the count is always given)


@dataclass(frozen=True)
class Watch:
    """What to watch on one body.

    Attributes:
        body: the clump's name.
        overturn_angle: no longer used (a body falls at its own overturning angle, dem.run.bodies); a value
            other than None warns.
        axis: world axis of the rocking (the tilt is then the signed rotation about it, as
            dem.run.probes.RockingAngle); None: the tilt is the angle between ``up`` and the vertical.
        up: template-frame axis that is vertical at rest.
        base: name of the wall the body stands on (the slip speed is relative to it); None: a still ground.
        feet: template-frame centres [m] of the footprint's rounded corners, shape (k, 3); () : no slip check.
        foot_radius: their radius [m].
    """

    body: str
    overturn_angle: float | None = None
    axis: tuple | None = (0.0, 1.0, 0.0)
    up: tuple = (0.0, 0.0, 1.0)
    base: str | None = None
    feet: tuple = ()
    foot_radius: float = 0.0

    def __post_init__(self):
        if self.overturn_angle is not None:
            warnings.warn(f"Watch({self.body!r}): overturn_angle is no longer used; a body falls at its own "
                          "overturning angle (dem.run.bodies)", DeprecationWarning, stacklevel=3)


@dataclass(frozen=True)
class EventSpec:
    """The events a scene watches.

    Attributes:
        domain: ((x, y, z) low, (x, y, z) high) corners of the box [m] the bodies' centres of mass must stay in.
        watches: bodies to watch for overturning and sliding.
        stop_on: event kinds that end the run (a subset of KINDS); ``dem run --stop-on`` replaces it.
        slide_speed: slip speed [m/s] above which a body slides.
        slide_duration: time [s] the slip must last to count as sustained sliding.
    """

    domain: tuple | None = None
    watches: tuple = ()
    stop_on: tuple = ("left_domain",)
    slide_speed: float = 1e-3
    slide_duration: float = 0.05

    def __post_init__(self):
        bad = [k for k in self.stop_on if k not in KINDS]
        if bad:
            raise ValueError(f"stop_on must hold event kinds from {KINDS}, got {bad}")
        if self.domain is not None:
            lo, hi = (np.asarray(c, float) for c in self.domain)
            if lo.shape != (3,) or hi.shape != (3,) or not np.all(lo < hi):
                raise ValueError(f"domain must be ((x, y, z) low, (x, y, z) high) with low < high, got {self.domain}")
        if not (self.slide_speed > 0 and self.slide_duration >= 0):
            raise ValueError("slide_speed must be > 0 [m/s] and slide_duration >= 0 [s]")


def tipping_angle(half_width: float, com_height: float, edge_radius: float = 0.0) -> float:
    """Tipping angle [rad] of a block on a rounded edge: its centre of mass over the edge's centre of
    curvature, tan α = (b − r)/(h − r), b the half-width, h the height of the centre of mass [m] above the
    base, r the edge radius [m] (a clump pivots on its edge spheres; README, 'What the sphere model implies')."""
    return math.atan2(half_width - edge_radius, com_height - edge_radius)


def overturn_angle(tipping: float, pga_g: float = 0.0) -> float:
    """Tilt [rad] past which a block with tipping angle `tipping` [rad], on a base whose acceleration never
    exceeds pga_g × g, overturns if still moving outward: α + atan(pga_g) (module notes)."""
    return tipping + math.atan(abs(pga_g))


def block_watch(body: str, width: float, thickness: float, height: float, edge_radius: float, *,
                base: str | None = None, pga_g: float = 0.0, axis=(0.0, 1.0, 0.0), edges: str = "true") -> Watch:
    """The :class:`Watch` of a box clump (width along x, thickness along y, height along z in its template
    frame, centred) of edge spheres `edge_radius` [m], standing on the wall `base` and rocking about `axis`:
    its footprint's four corner spheres, for its slip speed. ``edges`` as in :func:`dem.box_clump`: "true" puts
    the edge spheres' centres on the side faces, "rounded" r inside. ``pga_g``: no longer used (it set an
    overturning angle; a body falls at its own, dem.run.bodies)."""
    r = edge_radius
    inset = r if edges == "rounded" else 0.0
    feet = tuple((sx * (width / 2 - inset), sy * (thickness / 2 - inset), -height / 2 + r)
                 for sx in (-1, 1) for sy in (-1, 1))
    return Watch(body, None, tuple(axis), base=base, feet=feet, foot_radius=r)


def default_domain(model) -> tuple:
    """The bodies' and finite walls' initial bounding box, grown by its size on every side [m]."""
    pts = [cs.position + s * cs.template.bounding_radius(cs.mass_props.center) for cs in model.clumps for s in (-1, 1)]
    for w in model.walls:
        if w.half_extents is not None:
            for a in (-1, 1):
                for b in (-1, 1):
                    pts.append(w.origin + a * w.half_extents[0] * w.u_axis + b * w.half_extents[1] * w.v_axis)
        else:
            pts.append(np.asarray(w.origin, float))
    pts = np.array(pts, float)
    lo, hi = pts.min(0), pts.max(0)
    size = np.maximum(hi - lo, 1e-3)
    return tuple((lo - size).tolist()), tuple((hi + size).tolist())


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rotate body vectors v (k, 3) by quaternions q (n, 4) (w, x, y, z) → (n, k, 3)."""
    w, u = q[:, 0], q[:, 1:]
    t = 2.0 * cross3(u[:, None, :], v[None, :, :])
    return v[None] + w[:, None, None] * t + cross3(u[:, None, :], t)


@dataclass
class _Body:
    clump: int
    watch: Watch
    offsets: np.ndarray  # feet relative to the centre of mass, body frame [m]
    up_body: np.ndarray
    wall: int | None


@dataclass
class EventDetector:
    """Finds the events of :class:`EventSpec` in history rows, chunk after chunk (see :meth:`update`)."""

    spec: EventSpec
    model: object
    layout: object
    events: list = field(default_factory=list)
    bodies: object = None  # the run's dem.run.bodies.BodyTracker: its falls are the overturn events

    def __post_init__(self):
        m = self.model
        names = {cs.name: c for c, cs in enumerate(m.clumps)}
        walls = {w.name: k for k, w in enumerate(m.walls)}
        self.domain = self.spec.domain or default_domain(m)
        self._bodies = []
        for w in self.spec.watches:
            if w.body not in names:
                raise ValueError(f"events: no body named {w.body!r} (bodies: {', '.join(names)})")
            if w.base is not None and w.base not in walls:
                raise ValueError(f"events: no wall named {w.base!r} (walls: {', '.join(walls)})")
            c = names[w.body]
            feet = np.asarray(w.feet, float).reshape(-1, 3) - m.clumps[c].mass_props.center
            up = np.asarray(w.up, float)
            self._bodies.append(_Body(c, w, feet, up / np.linalg.norm(up), walls.get(w.base)))
        g = np.asarray(m.gravity, float)
        self.up = -g / np.linalg.norm(g) if np.linalg.norm(g) > 0 else np.array([0.0, 0.0, 1.0])
        self.state = {"flagged": [], "prev_tilt": {}, "slides": {}, "slide_counts": {}, "last_t": {}}

    # ------------------------------------------------------------------ checkpoint
    def get_state(self) -> dict:
        return {"events": self.events, "state": self.state}

    def set_state(self, saved: dict) -> None:
        self.events = list(saved["events"])
        self.state = saved["state"]

    # ------------------------------------------------------------------ detection
    def _flag(self, kind: str, body: str) -> bool:
        key = f"{kind}:{body}"
        if key in self.state["flagged"]:
            return False
        self.state["flagged"].append(key)
        return True

    def update(self, rows: np.ndarray) -> list[tuple[int, dict]]:
        """Events that begin in `rows` (history rows in time order, after those of earlier calls), each as
        (row index in `rows`, event dict), in row order; they are also appended to :attr:`events`."""
        if not len(rows):
            return []
        lay, t = self.layout, rows[:, 0]
        found: list[tuple[int, dict]] = []
        lo, hi = (np.asarray(c, float) for c in self.domain)
        for c, cs in enumerate(self.model.clumps):
            x = lay.clump(rows, c, C_POS)
            out = np.any((x < lo) | (x > hi), axis=1) | ~np.all(np.isfinite(x), axis=1)
            if out.any():
                k = int(np.argmax(out))
                if self._flag("left_domain", cs.name):
                    found.append((k, {"event": "left_domain", "body": cs.name, "t": float(t[k]),
                                      "detail": f"centre of mass at {np.round(x[k], 4).tolist()} m, outside the "
                                                f"domain {lo.tolist()} .. {hi.tolist()} m"}))
        if self.bodies is not None:
            found += self.bodies.falls(rows)
        for b in self._bodies:
            found += self._sliding(b, rows, t)
        found.sort(key=lambda e: e[0])
        self.events += [e for _k, e in found if e["event"] != "sliding"]
        return found

    def slip_speed(self, b: _Body, rows) -> np.ndarray:
        """Smallest horizontal speed [m/s] of the lowest points of the body's rounded corners relative to its
        base (module notes), per row."""
        lay = self.layout
        v, om = lay.clump(rows, b.clump, C_VEL), lay.clump(rows, b.clump, C_OMEGA)
        arm = _rotate(lay.clump(rows, b.clump, C_QUAT, 4), b.offsets) - b.watch.foot_radius * self.up  # (n, k, 3)
        vp = v[:, None, :] + cross3(om[:, None, :], arm)
        if b.wall is not None:
            vp = vp - lay.wall(rows, b.wall)[1][:, None, :]
        vh = vp - (vp @ self.up)[..., None] * self.up
        return np.min(np.linalg.norm(vh, axis=2), axis=1)

    def _sliding(self, b: _Body, rows, t) -> list:
        if not len(b.offsets):
            return []
        name = self.model.clumps[b.clump].name
        spec, st = self.spec, self.state
        speed = self.slip_speed(b, rows)
        slipping = (speed > spec.slide_speed) & (self.layout.clump(rows, b.clump, C_KT, 1)[:, 0] > 0)
        # slip distance: the speed at each row times the interval since the previous row
        dt = np.diff(t, prepend=st["last_t"].get(name, t[0]))
        st["last_t"][name] = float(t[-1])
        found = []
        run = st["slides"].get(name)  # [t_start, slip so far [m], confirmed]
        for k in range(len(t)):
            if slipping[k]:
                if run is None:
                    run = [float(t[k]), 0.0, False]
                else:
                    run[1] += float(speed[k] * dt[k])
                if not run[2] and t[k] - run[0] >= spec.slide_duration:
                    run[2] = True
                    n = st["slide_counts"].get(name, 0) + 1
                    st["slide_counts"][name] = n
                    ev = {"event": "sliding", "body": name, "t": run[0], "t_end": None, "slip_m": None,
                          "detail": f"slip speed above {spec.slide_speed:g} m/s for {spec.slide_duration:g} s"}
                    if n <= MAX_SLIDES_LISTED:
                        self.events.append(ev)
                    found.append((k, ev))
            elif run is not None:
                self._close(name, run, float(t[k]))
                run = None
        st["slides"][name] = run
        return found

    def _close(self, name: str, run: list, t_end: float) -> None:
        if not run[2]:
            return
        for ev in reversed(self.events):
            if ev["event"] == "sliding" and ev["body"] == name and ev["t"] == run[0]:
                ev["t_end"], ev["slip_m"] = t_end, run[1]
                return

    def finish(self) -> None:
        """Close sliding that lasts to the end of the run (t_end stays None: it had not stopped)."""
        for name, run in self.state["slides"].items():
            if run is not None and run[2]:
                for ev in reversed(self.events):
                    if ev["event"] == "sliding" and ev["body"] == name and ev["t"] == run[0]:
                        ev["slip_m"] = run[1]

    def summary(self) -> dict:
        """What goes in summary.json: the events in time order and the number of sliding intervals."""
        return {"events": sorted(self.events, key=lambda e: e["t"]),
                "sliding_count": dict(self.state["slide_counts"])}
