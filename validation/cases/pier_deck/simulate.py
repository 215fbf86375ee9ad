"""The pier–deck bridge's DEM runs: 0.1 g, and (full version) 0.5 g at the scene's defaults and its variants."""

from __future__ import annotations

from validation.cases.pier_deck.settings import Settings
from validation.cases.runs import run_dem


def simulate(cfg: Settings) -> dict:
    """{"low": (scene, history, summary, status) of the 0.1 g run, "high": [(spec, scene, history, summary, status)]
    of the 0.5 g runs, the scene's defaults first (empty in the quick version)}. A run that overturns is stopped
    by the engine ("runaway overlap") once the deck falls; run_dem returns what it recorded."""
    low = run_dem("pier_deck", cfg.base | cfg.low.overrides, t_end=cfg.low.t_end)
    high = []
    for spec in ([cfg.high] if cfg.high else []) + list(cfg.variants):
        high.append((spec, *run_dem("pier_deck", cfg.base | spec.overrides, t_end=spec.t_end)))
    return {"low": low, "high": high}
