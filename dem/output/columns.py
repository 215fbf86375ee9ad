"""What each history column is: its unit, its meaning, the family of quantities it belongs to (the
columns a plot puts on one axis) and a short label for legends.

The engine's own columns are described here; each probe (dem.run.probes) describes the columns it writes
through its ``columns()`` method. A run writes the descriptions of every column of its history into
``summary.json`` under ``columns``; ``dem plot`` reads them back for its axes and legends.
Units are SI; "-" marks a dimensionless ratio, "g" a multiple of the gravitational acceleration.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

# families: what goes on one plot axis (and its axis label)
ANGLE = "rocking angle"
ANGLE_ALPHA = "rocking angle ÷ α"
OMEGA = "angular velocity"
OMEGA_P = "angular velocity ÷ p"
DISP_H = "horizontal displacement"
DISP_V = "vertical displacement"
ACC_H = "horizontal acceleration"
ACC_V = "vertical acceleration"
VELOCITY = "velocity"
ACC_G = "acceleration ÷ g"
FORCE_RATIO = "contact force ÷ weight"
FORCE = "contact force"
MOMENT = "contact moment"
IF_H = "interface horizontal resultant H"
IF_V = "interface vertical resultant V"
IF_V_RATIO = "V ÷ static load"
IF_ECC = "eccentricity ÷ width"
IF_FRICTION = "friction ratio |H|/V"
IF_CONTACTS = "sphere contacts"
IF_OPENING = "joint opening (relative rotation)"
IF_SLIP = "joint slip"
BASE_ACC = "base acceleration"
BASE_VEL = "base velocity"
BASE_DISP = "base displacement"
ENERGY = "energy"
ENERGY_ERROR = "energy balance error"
CONTACT_COUNT = "contact count"
OVERLAP = "largest overlap ÷ radius"
DT_CRIT = "critical time step"
TIME = "time"


@dataclass(frozen=True)
class Column:
    """One history column: ``unit`` (SI, "-" dimensionless), ``meaning`` (a sentence), ``family`` (the
    quantity, shared by the columns drawn on one axis) and ``label`` (what distinguishes it from the
    others of its family in a legend: a body, an interface, an energy term)."""

    unit: str
    meaning: str
    family: str
    label: str = ""

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Column:
        return cls(str(d.get("unit", "")), str(d.get("meaning", "")), str(d.get("family", "")),
                   str(d.get("label", "")))


ENGINE_COLUMNS: dict[str, Column] = {
    "t": Column("s", "simulated time of the record", TIME),
    "E_body": Column("J", "work done on the bodies by gravity since t = 0", ENERGY, "body work (gravity)"),
    "E_boundary": Column("J", "work done on the bodies by moving walls since t = 0", ENERGY, "boundary work (walls)"),
    "E_kinetic": Column("J", "kinetic energy of the bodies (translation + rotation)", ENERGY, "kinetic"),
    "E_strain": Column("J", "elastic energy stored in the contacts (normal and shear springs)", ENERGY, "strain"),
    "E_damping": Column("J", "energy dissipated by the contact dashpots since t = 0", ENERGY, "dashpots"),
    "E_friction": Column("J", "energy dissipated by Coulomb slip since t = 0", ENERGY, "friction (slip)"),
    "E_shear_stiffness": Column("J", "work of the Mindlin shear springs' stiffness changes since t = 0 (energy "
                                "their stored force lost as k_s changed; < 0: the springs gave energy to the "
                                "motion; docs/shear_unloading.md)", ENERGY, "shear stiffness work"),
    "contact_count": Column("-", "number of touching sphere–wall and sphere–sphere contacts", CONTACT_COUNT,
                            "contacts"),
    "max_overlap_ratio": Column("-", "largest contact overlap ÷ the sphere's radius", OVERLAP, "largest overlap"),
    "dt_critical": Column("s", "critical time step from the current contact stiffnesses (monitor)", DT_CRIT,
                          "monitored critical Δt"),
    "energy_error": Column("-", "energy balance error: (work in − energy held and dissipated) ÷ energy in play",
                           ENERGY_ERROR, "balance error"),
}


def describe(names, probes=(), model=None) -> dict[str, Column]:
    """Descriptions of the history columns `names`: the engine's, then each probe's ``columns(model)``; a
    column nothing describes (a user's probe without ``columns()``) is described by :func:`guess`."""
    known = dict(ENGINE_COLUMNS)
    for p in probes:
        cols = getattr(p, "columns", None)
        if callable(cols):
            known.update(cols(model))
    return {n: known[n] if n in known else guess(n) for n in names}


def as_json(columns: dict[str, Column]) -> dict[str, dict]:
    return {k: c.as_dict() for k, c in columns.items()}


def from_json(d: dict | None) -> dict[str, Column]:
    return {k: Column.from_dict(v) for k, v in (d or {}).items()}


def guess(name: str) -> Column:
    """A description from the name alone, for history files written before columns were described (or by
    a user's probe): the suffix conventions of dem.run.probes."""
    if name in ENGINE_COLUMNS:
        return ENGINE_COLUMNS[name]
    rules = [
        ("_opening_deg", "deg", IF_OPENING), ("_over_alpha", "-", ANGLE_ALPHA), ("_deg", "deg", ANGLE),
        ("_over_p", "-", OMEGA_P), ("_V_ratio", "-", IF_V_RATIO), ("_ecc", "-", IF_ECC),
        ("_friction", "-", IF_FRICTION), ("_contacts", "-", IF_CONTACTS), ("_slip", "m", IF_SLIP), ("_H", "N", IF_H),
        ("_V", "N", IF_V), ("_ux", "m", DISP_H), ("_uz", "m", DISP_V), ("_ax", "m/s²", ACC_H), ("_az", "m/s²", ACC_V),
        ("_acc", "m/s²", BASE_ACC), ("_vel", "m/s", BASE_VEL), ("_disp", "m", BASE_DISP), ("_G", "g", ACC_G),
    ]
    for suffix, unit, family in rules:
        if name.endswith(suffix):
            return Column(unit, name, family, name[: -len(suffix)])
    if name.startswith("omega") or name.endswith("_omega"):
        return Column("rad/s", name, OMEGA, name)
    if name.startswith("force_ratio"):
        return Column("-", name, FORCE_RATIO, name)
    return Column("?", name, name, name)
