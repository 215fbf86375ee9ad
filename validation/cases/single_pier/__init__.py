"""Single rocking pier at 0.5 g (Itiola & El Shamy 2024, §5.1, Fig. 12): the DEM pier against the rigid block under the
same base acceleration (Itiola & El Shamy 2024, Eq. 42, validation.rocking.ramped_sine).

Runs (scene ``single_pier``, Itiola & El Shamy 2024, Table 3: 1.6 × 9.6 × 5 m, β = 0.015, r1 = 80 mm):
- shaken at 0.5 g with Δt = 1e-4 s (the scene's default) and, in the full version, 5e-5, 2.5e-5 and
  1.25e-5 s: a convergence series that turned out to be a bifurcation study;
- free rocking of the same pier on a fixed base, released from rest at ½ α', which measures the DEM pier's
  restitution (constant, common.fit_restitution) and checks its swing against the exact rolling block.

Rigid references (validation.rocking.solver.solve with a RockingBlock):
- nominal: the sharp-cornered 1.6 × 9.6 m block, α = 9.46°, p = 1.23 rad/s, Housner's e = 1 − 1.5 sin²α
  (Itiola & El Shamy 2024, Fig. 12's analytical curve, Zhang & Makris [46]);
- effective: the DEM pier's α' = atan(b'/h') and p, rolling on its edge spheres (validation.rocking.pivot; with
  the builder's default true edges b' = 0.8 m, h' = 4.72 m, α' = 1.017 α, uplift at g tan α; with
  ``edges=rounded`` b' = 0.72 m, α' = 0.917 α), with Housner's e(α') and with the restitution measured on the
  DEM pier.

What can be compared. 0.5 g is three times g tan α, and a pier this size under 10 s of 1 Hz shaking sits on
the overturning boundary: the rigid block's largest excursion jumps between ≈ 0.3 α and overturning as e
changes by 0.005 (figure 3), and the DEM's between 0.82 α and overturning as Δt changes. Whole trajectories
therefore cannot be compared beyond the first few swings. What is compared instead: the rocking onset
(time and direction, against g tan α'), the convergence in Δt before the large excursions, and swing by swing
the rigid block's prediction of the DEM's next peak when started from the DEM's own state at a peak: this
tests the mechanics (rolling on the edge spheres, impact restitution) without the chaos of the whole history.

Stages: settings (tolerances, FULL and QUICK), simulate (the DEM runs), analyse (the rigid references and what is
derived), metrics, report.
"""

from validation.cases.single_pier.analyse import analyse
from validation.cases.single_pier.metrics import metrics
from validation.cases.single_pier.report import report
from validation.cases.single_pier.settings import FULL, NAME, QUICK, TITLE, Settings
from validation.cases.single_pier.simulate import simulate

__all__ = ["FULL", "NAME", "QUICK", "TITLE", "Settings", "analyse", "metrics", "report", "simulate"]
