"""Planar deformable rocking body with one assumed mode (the deformable rocking body paper, docs/references.md).

:class:`DeformableBody` holds the mode integrals, :func:`simulate_rocking` integrates uplift, rocking,
impacts (momentum conditions), overturning and chatter, and reports the energy lost per impact and the
friction ratio needed to prevent sliding. :func:`shear_block` builds a uniform block with a linear
shear mode.
"""

from .body import DeformableBody, shear_block
from .dynamics import (
    contact_acceleration,
    kinetic_energy,
    overturning_angle,
    potential_energy,
    reaction_force,
    rocking_accelerations,
    uplift_margin,
)
from .impact import ImpactOutcome, impact
from .solver import DeformableRockingResult, ImpactRecord, simulate_rocking, static_deflection

__all__ = [
    "DeformableBody",
    "DeformableRockingResult",
    "ImpactOutcome",
    "ImpactRecord",
    "contact_acceleration",
    "impact",
    "kinetic_energy",
    "overturning_angle",
    "potential_energy",
    "reaction_force",
    "rocking_accelerations",
    "shear_block",
    "simulate_rocking",
    "static_deflection",
    "uplift_margin",
]
