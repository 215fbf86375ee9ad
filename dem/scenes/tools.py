"""Helpers that scenes share: base shaking tables (the 004 Eq. 42 sine or a ground-motion record), what a
sweep needs to know about a rocking body, and resting one body on another."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..model.base_motion import STANDARD_G, BaseMotion, RampedSine
from ..model.materials import SHEAR_UNLOADINGS
from ..model.walls import WallMotion
from ..records.files import load_record
from .scene import Param

SINE_KEYS = ("pga_g", "frequency", "ramp_end", "hold_end", "stop")
"""Parameters of the 004 Eq. 42 ramped sine (the default base motion of the shaking scenes)."""

SHEAR_UNLOADING = Param("incremental", "stored shear force when a contact unloads: kept (004, PFC) or scaled by "
                        "k_s/k_s⁰ (docs/shear_unloading.md)", choices=SHEAR_UNLOADINGS)
"""The scenes' ``shear_unloading`` parameter (dem.model.materials.Material.shear_unloading)."""


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
    record_keys = [k for k in RECORD_PARAMS if k not in ("record", "direction_deg")]
    if not p["record"]:
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

    rec = load_record(p["record"], units=p["record_units"], column=p["record_column"])
    factor = factor_for(rec, scale=p["scale"], target_pga_g=p["target_pga_g"], target_sa_g=p["target_sa_g"],
                        sa_period=p["sa_period"])
    sig = rec if factor == 1.0 else rec.scaled(factor)
    return sig, {"base_motion": f"record {Path(p['record']).name}", "record_path": str(p["record"]),
                 "record_scale_factor": factor, "base_pga_g": pga_g(sig), "record_duration_s": sig.duration}


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


def shaking(signal: BaseMotion, *, direction=(1.0, 0.0, 0.0), t_end: float, delay: float = 0.0,
            dt: float | None = None) -> WallMotion:
    """A wall velocity table [m/s] that is still for `delay` [s] (bodies settle), then follows `signal`
    shifted by the delay, sampled every ``dt`` (default: the signal's table step) up to t_end [s]."""
    if delay < 0:
        raise ValueError(f"delay must be >= 0 [s], got {delay}")
    if not t_end > 0:
        raise ValueError(f"t_end must be > 0 [s], got {t_end}")
    step = float(dt or signal.table_dt)
    t = np.arange(0.0, t_end + 2 * step, step)
    return WallMotion.along(direction, np.asarray(signal.velocity(t - delay), float), step)
