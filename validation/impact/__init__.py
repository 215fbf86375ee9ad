"""Impact references from Xu et al. 2022 (Xu et al. 2022, vibro-impact with clearance).

- :mod:`.laws`: the five normal impact laws of Xu et al. 2022, Table 2 as pure scalar functions (the form the
  engine mirrors in Taichi), the sphere contact stiffness of Xu et al. 2022, Eq. 4 and the exact restitution of
  the law family.
- :mod:`.two_sphere`: the single two-sphere impact of Xu et al. 2022, §2.2.
- :mod:`.oscillator`: the 1-DOF oscillator with bilateral clearance of Xu et al. 2022, §3.1 and a tight reference.
- :mod:`.newmark`, :mod:`.generalized_alpha`, :mod:`.precise_integration`: the three integrators of
  Xu et al. 2022, §2.3.
"""

from .generalized_alpha import generalized_alpha, generalized_alpha_parameters
from .laws import (
    ImpactLaw,
    damped_power_law_gradient,
    damping_factor,
    flores_force,
    gonthier_force,
    hertz_force,
    hunt_crossley_force,
    impact_force,
    impact_force_gradient,
    lankarani_nikravesh_force,
    separation_ratio_exact,
    separation_ratio_of_factor,
    sphere_contact_stiffness,
)
from .newmark import newmark_newton
from .oscillator import (
    XU2022_CONTACT_STIFFNESS,
    ClearanceOscillator,
    ContactMemory,
    OscillatorResult,
    approach_speed,
    reference_solution,
)
from .precise_integration import duhamel_matrices, expm_2n, precise_integration
from .two_sphere import TwoSphereImpact, hertz_contact_time, two_sphere_impact

__all__ = [
    "XU2022_CONTACT_STIFFNESS",
    "ClearanceOscillator",
    "ContactMemory",
    "ImpactLaw",
    "OscillatorResult",
    "TwoSphereImpact",
    "approach_speed",
    "damped_power_law_gradient",
    "damping_factor",
    "duhamel_matrices",
    "expm_2n",
    "flores_force",
    "generalized_alpha",
    "generalized_alpha_parameters",
    "gonthier_force",
    "hertz_contact_time",
    "hertz_force",
    "hunt_crossley_force",
    "impact_force",
    "impact_force_gradient",
    "lankarani_nikravesh_force",
    "newmark_newton",
    "precise_integration",
    "reference_solution",
    "separation_ratio_exact",
    "separation_ratio_of_factor",
    "sphere_contact_stiffness",
    "two_sphere_impact",
]
