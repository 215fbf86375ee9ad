"""The single pier's DEM runs: shaken at 0.5 g for each Δt, and rocking freely on a fixed base."""

from __future__ import annotations

from validation.cases.runs import pier_free_rocking, run_dem
from validation.cases.single_pier.settings import Settings


def simulate(cfg: Settings) -> dict:
    """{"runs": [{"dt", "h", "summary", "status"}] (the scene's Δt first), "scene": the last shaken Scene,
    "free": the free-rocking run (runs.pier_free_rocking)}."""
    runs = []
    for dt in cfg.dts:
        scene, h, summ, status = run_dem("single_pier", {"dt": dt, "t_end": cfg.t_end})
        runs.append({"dt": dt, "h": h, "summary": summ, "status": status})
    return {"runs": runs, "scene": scene, "free": pier_free_rocking(cfg.free_theta0, cfg.free_t_end)}
