"""The case table of a sweep: every (record, intensity, parameter set), with its id and intensity measures.

A case's id is a hash of what defines it — the record's content (not its path, so a moved folder still
matches), how and how much it is scaled, and the varied parameters — so re-running a sweep, or extending it
with more records or intensities, finds the cases already done. Intensity measures are those of the record
as given times the case's factor: PGA [g] and the 5 %-damped Sa(T) [g] at the sweep's period.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..records.files import first_component, load_record

SCALE_BY = ("factor", "pga", "sa")
"""How ``--scale`` values are read: factors on the records, target PGAs [g], or target Sa(T) [g]."""
RESERVED = ("record", "record_h2", "record_v", "record_units", "record_column", "scale", "target_pga_g", "target_sa_g",
            "sa_period", "t_end")
"""Scene parameters the sweep sets itself (cannot be varied or fixed by --vary/--set)."""


@dataclass(frozen=True)
class RecordInfo:
    """A record file and its intensity measures as given: PGA [g], Sa(T) [g] at the sweep's period,
    duration [s], sample interval dt [s]; digest: hash of the file's bytes."""

    path: Path
    digest: str
    pga_g: float
    sa_g: float
    duration: float
    dt: float


@dataclass(frozen=True)
class Case:
    """One simulation of a sweep.

    case_id: stable id (module docstring); record: the record file; intensity: the swept value (a factor,
    a PGA [g] or an Sa [g], as ``scale_by`` says); scale: the factor applied to the record [-]; pga_g, sa_g:
    the scaled record's intensity measures [g]; params: the varied scene parameters (name → value).
    """

    case_id: str
    record: Path
    intensity: float
    scale_by: str
    scale: float
    pga_g: float
    sa_g: float
    params: dict = field(default_factory=dict)

    def overrides(self) -> dict:
        """The scene parameters of this case (the sweep's fixed ones come on top)."""
        return {"record": str(self.record), "scale": self.scale} | self.params

    def group(self) -> str:
        """Cases with the same group share one model (same parameters, different base motions)."""
        return json.dumps(self.params, sort_keys=True)


def parse_scale(text: str) -> list[float]:
    """'LO:HI:N' (N values evenly spaced, ends included), a comma list, or one number; each > 0."""
    try:
        if ":" in text:
            lo, hi, n = text.split(":")
            n = int(n)
            if n < 1:
                raise ValueError
            vals = np.linspace(float(lo), float(hi), n).tolist() if n > 1 else [float(lo)]
        else:
            vals = [float(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--scale must be LOW:HIGH:N, a comma list or a number, got {text!r}") from None
    if not vals or not all(math.isfinite(v) and v > 0 for v in vals):
        raise ValueError(f"--scale values must be finite and > 0, got {text!r}")
    return [float(v) for v in vals]


def parse_vary(items: list[str], spec: dict) -> dict[str, list]:
    """['mu=0.4,0.59', ...] → {'mu': [0.4, 0.59]}, each value converted and range-checked by the scene's
    Param (ValueError names the key and range)."""
    out: dict[str, list] = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"--vary expects KEY=V1,V2,..., got {item!r}")
        key, vals = (s.strip() for s in item.split("=", 1))
        if key in RESERVED:
            raise ValueError(f"--vary {key}: the sweep sets {key} itself (use --records, --scale, --scale-by)")
        if key not in spec:
            raise ValueError(f"--vary: unknown parameter {key!r}; valid keys: {', '.join(sorted(spec))}")
        values = [spec[key].convert(key, v.strip()) for v in vals.split(",") if v.strip()]
        if not values:
            raise ValueError(f"--vary {key}: no values")
        out[key] = values
    return out


def file_digest(path: Path) -> str:
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def case_id(digest: str, scale_by: str, intensity: float, params: dict) -> str:
    key = json.dumps([digest, scale_by, repr(float(intensity)), sorted(params.items())], default=str)
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def record_infos(paths: list[Path], *, im_period: float, units: str = "g", column: str = "1") -> list[RecordInfo]:
    """Read each record once (errors name the file and line) and compute its PGA and Sa(im_period) [g]."""
    from ..records.scaling import pga_g, sa_g_many, sampled

    recs = [load_record(first_component(p), units=units, column=column) for p in paths]  # a set: its first
    sa = sa_g_many(recs, im_period)  # one vectorised pass, not one Python loop per record
    return [RecordInfo(Path(p), file_digest(p), pga_g(r), float(s), r.duration, sampled(r)[1])
            for p, r, s in zip(paths, recs, sa)]


def build_cases(records: list[RecordInfo], intensities: list[float], *, scale_by: str = "factor",
                vary: dict[str, list] | None = None) -> list[Case]:
    """Every (record, intensity, parameter set), ordered by parameter set, record, intensity."""
    if scale_by not in SCALE_BY:
        raise ValueError(f"--scale-by must be one of {SCALE_BY}, got {scale_by!r}")
    vary = vary or {}
    keys = sorted(vary)
    cases = []
    for combo in itertools.product(*(vary[k] for k in keys)):
        params = dict(zip(keys, combo))
        for rec in records:
            for x in intensities:
                if scale_by == "factor":
                    f = x
                else:
                    now = rec.pga_g if scale_by == "pga" else rec.sa_g
                    if not now > 0:
                        raise ValueError(f"{rec.path}: zero {scale_by.upper()}, cannot scale it to {x:g} g")
                    f = x / now
                cases.append(Case(case_id(rec.digest, scale_by, x, params), rec.path, float(x), scale_by, float(f),
                                  rec.pga_g * f, rec.sa_g * f, params))
    ids = [c.case_id for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate cases: the same record file appears twice, or a --scale value repeats")
    return cases
