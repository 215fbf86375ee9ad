"""The pier–deck bridge at 0.1 g and 0.5 g (Itiola & El Shamy 2024, §5.2–5.5, Figs. 13–35): the DEM against the rocking
frame (Makris & Vassiliou 2013, validation.rocking.frame) and the paper's statements.

Runs (scene ``pier_deck``: four Itiola & El Shamy 2024, Table 3 piers under a 612,480 kg deck, γ = 0.86; β = 0.015, r1 =
80 mm; the deck settles 1 s, then the base moves with Itiola & El Shamy 2024, Eq. 42):
- 0.1 g, to the end of the shaking (nothing moves after it: the piers never uplift);
- 0.5 g at the scene's defaults, to 18 s (a run that overturns is stopped by the engine with a "runaway
  overlap" diagnosis once the deck falls, which runs.run_dem catches);
- full version only, the sensitivity of the 0.5 g response (Itiola & El Shamy 2024, Table 3's β and r1 are not
  changed in the scene):
  β_n = β_s = 0.15 (the Peña block's value) to 30 s, β = 0.05 to 18 s, and r1 = 61.5 mm (126,368 balls with
  true edges) to 20 s.
Quick version: a coarse packing (r1 = 0.2 m, r2 = 0.4 m, 6,766 balls with true edges), 0.1 g, 0.5 s settling
and 2 s of shaking: the static state, no uplift, the equilibrium of the interface resultants, the energy balance and
the frame parameters.

References:
- the rocking frame: α, p̄ = √((1+2γ)/(1+3γ)) p = 1.07 rad/s, e = [1 − 1.5 sin²α + 3γ cos 2α]/(1 + 3γ)
  (nominal), the same with the DEM piers' geometry, rolling on their edge spheres (α' = atan(b'/h'): 1.017 α
  with the builder's default true edges, 0.917 α with ``edges=rounded``; p̄' from their I_O, see
  :func:`frame_p_effective`), and with the restitution fitted to the DEM's swings
  (rigid.fit_swing_restitution); uplift from rest at g tan α; before uplift the frame moves with
  the base;
- statics: each pier's interface resultants must balance its inertia (moment balance about G), so the
  eccentricities follow from the accelerations;
- Itiola & El Shamy's (2024) statements (§5.2–5.5), quoted in the tables; the paper publishes no time
  histories as numbers.

Stages: settings (tolerances, 004's statements, FULL and QUICK), simulate (the DEM runs), analyse (the frame
tools, the runs' statistics, the rigid frames), metrics, report.
"""

from validation.cases.pier_deck.analyse import analyse
from validation.cases.pier_deck.metrics import metrics
from validation.cases.pier_deck.report import report
from validation.cases.pier_deck.settings import FULL, NAME, QUICK, TITLE, Settings
from validation.cases.pier_deck.simulate import simulate

__all__ = ["FULL", "NAME", "QUICK", "TITLE", "Settings", "analyse", "metrics", "report", "simulate"]
