"""Helpers that scenes share: base shaking tables (the 004 Eq. 42 sine or a ground-motion record), what a
sweep needs to know about a rocking body, and resting one body on another."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np

from ..model.base_motion import STANDARD_G, BaseMotion, RampedSine
from ..model.materials import SHEAR_UNLOADINGS
from ..model.model import JOINTS as _JOINTS
from ..model.motion_set import MotionSet
from ..model.walls import WallMotion
from ..records.files import is_record_set, load_record, read_record_set
from .scene import Param

SINE_KEYS = ("pga_g", "frequency", "ramp_end", "hold_end", "stop")
"""Parameters of the 004 Eq. 42 ramped sine (the default base motion of the shaking scenes)."""

SHEAR_UNLOADING = Param("incremental", "stored shear force when a contact unloads: kept (004, PFC) or scaled by "
                        "k_s/k_s⁰ (docs/shear_unloading.md)", choices=SHEAR_UNLOADINGS)
"""The scenes' ``shear_unloading`` parameter (dem.model.materials.Material.shear_unloading)."""


JOINTS = Param("solid", "how bodies meet: each body's spheres against the other's solid (its box, prism or drum), "
               "whatever the two packings, or sphere against sphere (the joint before issue 29, to compare; "
               "docs/joints.md)", choices=_JOINTS)


def joint_stiffness_params(reference_radius: float) -> dict[str, Param]:
    """``E`` [Pa] and ``stiffness_radius`` [m] of a scene whose blocks meet on faces of spheres: the contacts of
    joint spheres of radius r take E (r/stiffness_radius)^1.5, so that the joints close alike on any packing
    (dem.model.joint_modulus); ``reference_radius`` [m] is the default of stiffness_radius."""
    return {"E": Param(50e9, "Young's modulus of the contacts between joint spheres of radius stiffness_radius "
                       "(G = E/(2(1+ν)))", "Pa", low=0, low_open=True),
            "stiffness_radius": Param(reference_radius, "joint sphere radius at which the contacts take E: other "
                                      "joint spheres take E (r/stiffness_radius)^1.5, so that the joints close alike "
                                      "on any packing (dem.model.joint_modulus)", "m", low=0, low_open=True)}


RECORD_PARAMS = {
    "record": Param("", "ground-motion record file: .AT2 (PEER, in g) or CSV (t [s], a); empty: the Eq. 42 sine"),
    "record_h2": Param("", "second horizontal component of the record set (a file as record=), 90° from the "
                       "first, towards +y from +x; empty: none"),
    "record_v": Param("", "vertical component of the record set (a file as record=; + up); empty: none"),
    "record_units": Param("g", "acceleration units of a CSV record", choices=("g", "m/s2")),
    "record_column": Param("1", "acceleration column of a CSV record, index or header name (the component)"),
    "scale": Param(1.0, "factor on the record's accelerations", "", low=0, low_open=True),
    "target_pga_g": Param(0.0, "scale the record to this peak acceleration ÷ g (0: off)", "", low=0),
    "target_sa_g": Param(0.0, "scale the record to this 5 %-damped Sa(sa_period) ÷ g (0: off)", "", low=0),
    "sa_period": Param(1.0, "period of target_sa_g", "s", low=0, low_open=True),
    "direction_deg": Param(0.0, "shaking direction in the horizontal plane, from +x towards +y (180: reversed)",
                           "deg", low=-360, high=360),
}
"""Parameters every scene with a shaking table takes for a recorded base motion (see :func:`base_signal`).

A record set: ``record`` (the first horizontal component, along ``direction_deg``), ``record_h2`` (the second,
90° from it) and ``record_v`` (the vertical), any subset of them; the scale factor (``scale``, or the one that
brings the first given of record, record_h2, record_v to ``target_pga_g`` or ``target_sa_g``) applies to all
three, keeping their ratios (dem.model.motion_set).

Why ``target_pga_g`` and not ``pga_g``: ``pga_g`` is the Eq. 42 sine's amplitude b with a default of 0.5, so
reusing it for records would scale every record to 0.5 g unless told otherwise. A record is therefore used
as it is (``scale`` = 1) unless ``scale``, ``target_pga_g`` or ``target_sa_g`` says otherwise, and changing a
sine parameter while a record is given is an error, not silently ignored."""


def shaking_params(sine: dict[str, Param]) -> dict[str, Param]:
    """A scene's shaking-table parameters: its Eq. 42 sine parameters ``sine`` and :data:`RECORD_PARAMS`."""
    missing = [k for k in SINE_KEYS if k not in sine]
    if missing:
        raise ValueError(f"the sine parameters lack {missing}")
    return dict(sine) | RECORD_PARAMS


def base_signal(p: dict, spec: dict[str, Param]) -> tuple[BaseMotion, dict]:
    """The base motion a scene's parameters ``p`` ask for (``spec``: the scene's PARAMS, for the defaults)
    and facts for its summary: the Eq. 42 sine (``pga_g``, ``frequency``, ``ramp_end``, ``hold_end``,
    ``stop``) when ``record`` is empty; else the record file, scaled by ``scale`` or to ``target_pga_g`` or
    ``target_sa_g`` at ``sa_period`` (dem.records.scaling). ValueError (naming the file and line for a bad
    file, or the parameter) for a record that cannot be read or for parameters that do not apply."""
    files = {k: p.get(k, "") for k in ("record", "record_h2", "record_v")}
    if files["record"] and is_record_set(files["record"]):  # a record-set file (dem.records.files)
        if files["record_h2"] or files["record_v"]:
            raise ValueError(f"record={files['record']} is a record set: it names its components itself; give "
                             "record_h2 and record_v only with a single record")
        files = {k: "" for k in files} | {k: str(v) for k, v in read_record_set(files["record"]).items()}
    record_keys = [k for k in RECORD_PARAMS if k not in ("direction_deg", *files)]
    if not any(files.values()):
        given = [k for k in record_keys if p[k] != spec[k].default]
        if given:
            raise ValueError(f"parameter {given[0]!r} applies to a record: give record=PATH too")
        sig = RampedSine(pga_g=p["pga_g"], frequency=p["frequency"], ramp_end=p["ramp_end"],
                         hold_end=p["hold_end"], stop=p["stop"])
        return sig, {"base_motion": "004 Eq. 42 ramped sine", "base_pga_g": p["pga_g"]}
    given = [k for k in SINE_KEYS if p[k] != spec[k].default]
    if given:
        raise ValueError(f"parameter {given[0]!r} belongs to the Eq. 42 sine and does not apply with record=; "
                         "scale a record with scale=, target_pga_g= or target_sa_g=")
    from ..records.scaling import factor_for, pga_g

    recs = {k: load_record(f, units=p["record_units"], column=p["record_column"]) for k, f in files.items() if f}
    first = next(iter(recs.values()))
    factor = factor_for(first, scale=p["scale"], target_pga_g=p["target_pga_g"], target_sa_g=p["target_sa_g"],
                        sa_period=p["sa_period"])
    scaled = {k: r if factor == 1.0 else r.scaled(factor) for k, r in recs.items()}
    for k, r in scaled.items():
        _check_intensity(k, files[k], pga_g(r), p["record_units"])
    if set(recs) == {"record"}:  # one horizontal component, as before record sets
        sig = scaled["record"]
        return sig, {"base_motion": f"record {Path(p['record']).name}", "record_path": str(p["record"]),
                     "record_scale_factor": factor, "base_pga_g": pga_g(sig), "record_duration_s": sig.duration}
    sig = MotionSet(scaled.get("record"), scaled.get("record_h2"), scaled.get("record_v"))
    names = ", ".join(f"{_COMPONENT[k]} {Path(files[k]).name}" for k in recs)
    info = {"base_motion": f"record set: {names}", "record_path": str(p["record"]) or None,
            "record_set": {k: str(files[k]) for k in recs}, "record_scale_factor": factor,
            "base_pga_g": pga_g(scaled["record"]) if "record" in scaled else 0.0,
            "record_duration_s": sig.duration}
    info |= {f"base_pga_{_SUFFIX[k]}_g": pga_g(r) for k, r in scaled.items() if k != "record"}
    return sig, info


_COMPONENT = {"record": "H1", "record_h2": "H2", "record_v": "V"}
_SUFFIX = {"record_h2": "h2", "record_v": "v"}
RECORD_PGA_WARNING_G = 5.0  # [g]: no recorded earthquake has reached this; past it, units are the likely mistake


def _check_intensity(key: str, path: str, peak_g: float, units: str) -> None:
    """Warn (issue 32) when a record's peak acceleration is above RECORD_PGA_WARNING_G: a record in cm/s² (gal)
    or m/s² read as g gives 100 or 10 times its intensity."""
    if peak_g > RECORD_PGA_WARNING_G:
        likely = ("in cm/s² (gal) read as g: 100 times too strong" if peak_g > 50 * RECORD_PGA_WARNING_G
                  else "in m/s² read as g: 9.81 times too strong")
        how = "record_units=m/s2 (and divide cm/s² by 100)" if units == "g" else "check the file's units"
        warnings.warn(f"{key}={path}: peak acceleration {peak_g:.3g} g, above {RECORD_PGA_WARNING_G:g} g, more than "
                      f"any earthquake recorded; is the file {likely}? ({how})", stacklevel=3)


def shaking_direction(p: dict) -> tuple[float, float, float]:
    """Unit vector of the shaking in the horizontal plane from ``direction_deg`` [deg] (0: +x)."""
    d = math.radians(p.get("direction_deg", 0.0))
    return (math.cos(d), math.sin(d), 0.0)


def rocking_body(theta: str, prefix: str, *, width: float, height: float, edge_radius: float,
                 edges: str = "true", ground_disp: str | None = "base_disp") -> dict:
    """What a batch's worlds.csv and a sweep read about a box rocking about y on its bottom edges
    (dem.run.response): the history columns of its rocking angle [deg] and of its centre's displacement
    (``<prefix>_ux``, ``_uz``), the body-frame position of its edge spheres' centres (± half_width,
    −half_height) [m], radius edge_radius [m] (on the side faces with ``edges="true"``, dem.model.box_clump;
    edge_radius inside them with "rounded"), and the ground it stands on, for its slip: ``ground_disp``, the
    history column of the ground's horizontal displacement [m] (a shaking table's WallMotionProbe
    ``<prefix>_disp``), or None for a wall that does not move."""
    inset = edge_radius if edges == "rounded" else 0.0
    return {"theta_deg": theta, "ux": f"{prefix}_ux", "uz": f"{prefix}_uz", "edge_radius": float(edge_radius),
            "half_width": width / 2.0 - inset, "half_height": height / 2.0 - edge_radius, "ground_disp": ground_disp}


def rigid_reference(alpha: float, p: float, *, restitution: float | None = None, width: float, height: float,
                    g: float = STANDARD_G) -> dict:
    """The rigid body a sweep's ``--engine rigid`` puts in a scene's place (validation.rocking.RockingBlock):
    slenderness α [rad], frequency parameter p [rad/s], restitution (None: Housner's), full width and
    height [m] of the block (for the corner uplift b sin|θ|)."""
    return {"alpha": float(alpha), "p": float(p), "restitution": restitution, "width": float(width),
            "height": float(height), "g": float(g)}


def shaking(signal: BaseMotion | MotionSet, *, direction=(1.0, 0.0, 0.0), t_end: float, delay: float = 0.0,
            dt: float | None = None) -> WallMotion:
    """A wall velocity table [m/s] that is still for `delay` [s] (bodies settle), then follows `signal`
    shifted by the delay, sampled every ``dt`` (default: the signal's table step) up to t_end [s]. A record set
    (dem.model.motion_set.MotionSet) moves the table in 3D: its first horizontal component along `direction`,
    the second 90° from it, the vertical up."""
    if delay < 0:
        raise ValueError(f"delay must be >= 0 [s], got {delay}")
    if not t_end > 0:
        raise ValueError(f"t_end must be > 0 [s], got {t_end}")
    if isinstance(signal, MotionSet):
        return signal.wall_motion(direction, dt=dt, t_end=t_end, delay=delay)
    step = float(dt or signal.table_dt)
    t = np.arange(0.0, t_end + 2 * step, step)
    return WallMotion.along(direction, np.asarray(signal.velocity(t - delay), float), step)
