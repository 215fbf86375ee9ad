"""Peña block 1 in free rocking (Itiola & El Shamy 2024, §3–4, Tables 1–2, Figs. 3–9): the DEM against exact rigid-block
mechanics, Housner's block and the paper's numbers.

Runs (scene ``pena_block``, released from rest at θ0 = 2.9°):
- μ = 0.7 (the validation's friction, scenes/pena_block.py: Table 2's 0.11 lets the pivot slide), 6 s, records every
  0.1 ms; and its first impact again with a record every step, for the force spike (Itiola & El Shamy 2024, Fig. 4–6);
- μ = 0.11 (Table 2 literally), 6 s;
- μ = 0.7 with ``edges=rounded`` (the envelope before issue 15: edge spheres r1 inside the box), 6 s.
Quick mode: base spheres r1 = 10 mm (19,380 balls), 2 s and 0.6 s.

References:
- exact: the rigid block rolling on the DEM block's edge spheres (validation.rocking.pivot; centred on the side
  faces with the scene's default true edges): time to the first impact, half-period of each swing from its
  own amplitude, kinetic energy at the first impact (the potential energy released), contact force at the
  peaks;
- Housner: the sharp-cornered 0.25 × 1.0 m block with e = 1 − 1.5 sin²α (Itiola & El Shamy 2024,
  Fig. 3's analytical curve [46]), validation.rocking.free_rocking; with true edges the DEM's first
  impact is within 1 % of it (issue 15, gated);
- rigid block fitted to the DEM: the DEM block's α' and p (equivalent rectangle) with the constant
  restitution that fits the DEM's first six peaks, validation.rocking.free_rocking;
- the paper: validation/data/pena_block1.json.

Stages: settings (tolerances, FULL and QUICK), simulate (the DEM runs), analyse (the references and what is
derived), metrics, report.
"""

from validation.cases.pena.analyse import analyse
from validation.cases.pena.metrics import metrics
from validation.cases.pena.report import report
from validation.cases.pena.settings import FULL, NAME, QUICK, TITLE, Settings
from validation.cases.pena.simulate import simulate

__all__ = ["FULL", "NAME", "QUICK", "TITLE", "Settings", "analyse", "metrics", "report", "simulate"]
