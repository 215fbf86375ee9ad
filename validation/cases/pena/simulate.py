"""The Peña block's DEM runs: μ = 0.7, its first impact recorded every step, μ = 0.11, and rounded edges."""

from __future__ import annotations

from validation.cases.pena.settings import Settings


def simulate(cfg: Settings) -> dict:
    """{"scene", "main": the μ = 0.7 run, "impact": its first impact recorded every step, "low": the μ = 0.11 run,
    "scene_rd", "rounded": the μ = 0.7 run with ``edges=rounded``} (RunResults, with their Scenes)."""
    scene, main = _run(cfg.overrides | {"mu": 0.7}, cfg.t_end)
    _, impact = _run(cfg.overrides | {"mu": 0.7}, cfg.t_impact, history_dt=scene.dt)
    _, low = _run(cfg.overrides | {"mu": 0.11}, cfg.t_end_mu)
    scene_rd, rounded = _run(cfg.overrides | {"mu": 0.7, "edges": "rounded"}, cfg.t_end)
    return {"scene": scene, "main": main, "impact": impact, "low": low, "scene_rd": scene_rd, "rounded": rounded}


def _run(overrides: dict, t_end: float, *, history_dt: float | None = None):
    """Build and run the Peña scene with a centre-of-mass probe added (for sliding)."""
    import dem
    from dem.run.driver import run_scene
    from dem.run.probes import BodyMotion
    from dem.scenes.scene import build_scene

    dem.device.runtime.ensure_init()
    scene = build_scene("pena_block", overrides)
    scene.probes.append(BodyMotion("block", 0))
    return scene, run_scene(scene, t_end=t_end, history_dt=history_dt, progress=False, plots=False)
