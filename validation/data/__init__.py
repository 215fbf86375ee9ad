"""Reference values the DEM is validated against, with where each comes from and what kind it is.

One JSON file per test (``<id>.json`` in this folder). Each value records its source in Itiola & El Shamy 2024 (table,
figure, section), its kind (``experiment``: Peña's physical test; ``paper_dem``: an input or result of
the paper's PFC3D model printed as a number; ``paper_text``: an approximate value or statement from the
paper's prose), and a note where the reading needs one. ``not_available`` lists what the paper does not
give (the experimental time history above all), so a report can say what it could not compare.

    from validation.data import load_reference
    ref = load_reference("pena_block1")
    ref.value("peak_theta_deg")          # [2.9, 2.7, 2.3, 2.05, 1.8, 1.5]
    ref["kinetic_energy_peak"].source    # 'Itiola & El Shamy 2024, §4.2, Fig. 8'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent
KINDS = ("experiment", "paper_dem", "paper_text")
"""Closed set of value kinds (see the module docstring)."""


@dataclass(frozen=True)
class ReferenceValue:
    """One reference value: a number or a list of numbers in ``unit`` (SI, angles in deg where the key
    says ``_deg``), its ``source`` in Itiola & El Shamy 2024, its ``kind`` (one of KINDS) and an optional ``note``."""

    key: str
    value: Any
    unit: str
    source: str
    kind: str
    note: str = ""

    def describe(self) -> str:
        """'Itiola & El Shamy 2024, Table 1, experiment' style provenance text."""
        return f"{self.source}, {self.kind.replace('_', ' ')}"


@dataclass(frozen=True)
class Unavailable:
    """Something the paper does not give in a usable form: what, where in Itiola & El Shamy 2024, and why."""

    what: str
    where: str
    why: str


@dataclass(frozen=True)
class ReferenceSet:
    """All reference values of one test."""

    id: str
    title: str
    source: str
    kinds: dict[str, str]
    values: dict[str, ReferenceValue]
    not_available: list[Unavailable] = field(default_factory=list)

    def __getitem__(self, key: str) -> ReferenceValue:
        try:
            return self.values[key]
        except KeyError:
            known = ", ".join(sorted(self.values))
            raise KeyError(f"no reference value {key!r} in {self.id}; known: {known}") from None

    def value(self, key: str) -> Any:
        """The bare value of ``key`` (float or list)."""
        return self[key].value


def available() -> list[str]:
    """Ids of the reference sets in this folder."""
    return sorted(p.stem for p in DATA_DIR.glob("*.json"))


def load_reference(ref_id: str = "pena_block1") -> ReferenceSet:
    """Read ``<ref_id>.json`` from this folder and check every value's kind."""
    path = DATA_DIR / f"{ref_id}.json"
    if not path.exists():
        raise ValueError(f"no reference set {ref_id!r}; available: {', '.join(available())}")
    raw = json.loads(path.read_text(encoding="utf-8"))
    values = {}
    for key, v in raw["values"].items():
        if v["kind"] not in KINDS:
            raise ValueError(f"{ref_id}: value {key!r} has kind {v['kind']!r}, expected one of {KINDS}")
        values[key] = ReferenceValue(key, v["value"], v.get("unit", ""), v["source"], v["kind"], v.get("note", ""))
    missing = [Unavailable(u["what"], u["where"], u["why"]) for u in raw.get("not_available", [])]
    return ReferenceSet(raw["id"], raw["title"], raw["source"], dict(raw.get("kinds", {})), values, missing)
