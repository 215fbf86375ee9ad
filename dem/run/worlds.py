"""Batches of worlds: one scene built W times with per-world parameters, stepped together.

    import dem
    dem.init("cpu")
    worlds = dem.build_worlds("pena_block", [{"theta0_deg": a} for a in (1.0, 2.0, 3.0)],
                              common={"r_base": 0.01, "r_core": 0.04})
    results = dem.run_worlds(worlds, t_end=1.0, out_dir="runs/pena_theta0")
    # runs/pena_theta0/world_000 … world_002: the files of `dem run`; runs/pena_theta0/worlds.csv

Each world is an independent simulation — its own bodies, walls, base motion, energy ledger, probes, sleep
and body-pair search — laid end to end with the others in one set of device arrays (dem.device.model_arrays) and
stepped by the same kernel launches (dem.physics.simulation): W worlds cost one launch, not W. Worlds never interact. On
the serial (CPU) path each world runs in one thread, bit for bit as it would alone; on the block (GPU) path
each world is one thread block. A world that goes unstable or meets a stopping event stops; the others go on.

The command line: ``dem run SCENE --vary KEY=V1,V2,... [--vary ...] [--worlds N]`` (the Cartesian product of
the ``--vary`` lists; ``--worlds N`` alone: N copies of the scene, to measure throughput).
"""

from __future__ import annotations

import contextlib
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..model.sizing import allow_large
from ..output.files import atomic_write
from ..scenes.scene import Scene, build_scene, load_scene_module, resolve_params
from ..version import warn_renamed
from .assembly_response import ASSEMBLY_COLUMNS, assembly_response
from .options import RunOptions
from .response import merge_falls, run_response

WORLDS_TABLE = "worlds.csv"


@dataclass
class WorldBatch:
    """Scenes built to run as one batch of worlds: ``scenes[k]`` built with ``overrides[k]`` (on top of
    ``common``), world k named ``names[k]`` (its output folder). ``dem.Worlds`` before."""

    scenes: list[Scene]
    overrides: list[dict]
    common: dict = field(default_factory=dict)
    names: list[str] = field(default_factory=list)

    def __post_init__(self):
        if not self.names:
            self.names = [f"world_{k:03d}" for k in range(len(self.scenes))]

    def __len__(self) -> int:
        return len(self.scenes)

    @property
    def models(self):
        return [s.model for s in self.scenes]


def __getattr__(name: str):
    """``Worlds``, the old name of :class:`WorldBatch`, with a DeprecationWarning."""
    if name == "Worlds":
        warn_renamed("dem.run.worlds.Worlds", "dem.run.worlds.WorldBatch")
        return WorldBatch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def vary_grid(vary: dict[str, list]) -> list[dict]:
    """Every combination of the values in `vary` ({key: [values]}), the first key varying slowest."""
    if not vary:
        return [{}]
    keys = list(vary)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(vary[k] for k in keys))]


def parse_vary(items: list[str]) -> dict[str, list[str]]:
    """['theta0_deg=1,2,3', 'mu=0.5,0.7'] → {'theta0_deg': ['1', '2', '3'], 'mu': ['0.5', '0.7']} (--vary)."""
    out: dict[str, list[str]] = {}
    for item in items or []:
        if "=" not in item:
            raise ValueError(f"--vary expects KEY=V1,V2,..., got {item!r}")
        key, values = item.split("=", 1)
        key = key.strip()
        vals = [v.strip() for v in values.split(",")]
        if not key or not all(vals):
            raise ValueError(f"--vary expects KEY=V1,V2,... with no empty value, got {item!r}")
        if key in out:
            raise ValueError(f"--vary names {key!r} twice; give all its values in one --vary")
        out[key] = vals
    return out


def world_overrides(*, vary: dict[str, list] | None = None, count: int | None = None) -> list[dict]:
    """Per-world parameter overrides: the grid of `vary`, or `count` identical worlds. ValueError when
    count disagrees with the grid or is < 1."""
    if count is not None and (int(count) != count or count < 1):
        raise ValueError(f"--worlds must be a whole number >= 1, got {count}")
    grid = vary_grid(vary or {})
    if vary and count is not None and count != len(grid):
        sizes = " × ".join(str(len(v)) for v in vary.values())
        raise ValueError(f"--worlds {count} does not match the --vary values ({sizes} = {len(grid)} worlds); "
                         "give one or the other, or make them agree")
    if not vary:
        grid = [{} for _ in range(int(count or 1))]
    return grid


def build_worlds(scene, overrides: list[dict] | None = None, *, common: dict | None = None,
                 count: int | None = None) -> WorldBatch:
    """Build one scene once per world.

    Args:
        scene: a scene module, its file path or its name in scenes/ (as for ``dem run``).
        overrides: one dict of parameters per world (None: ``count`` identical worlds).
        common: parameters every world takes (``--set``), under its own overrides.
    Every world's parameters are checked (names and ranges, with the allowed range in the message) before
    any world is built."""

    module = load_scene_module(scene) if isinstance(scene, (str, Path)) else scene
    name = getattr(module, "NAME", Path(getattr(module, "__file__", "scene")).stem)
    if overrides is None:
        overrides = world_overrides(count=1 if count is None else count)
    elif count is not None and count != len(overrides):
        raise ValueError(f"count={count} does not match the {len(overrides)} sets of overrides")
    if len(overrides) < 1:
        raise ValueError("a batch needs at least one world")
    common = dict(common or {})
    params = [{**common, **ov} for ov in overrides]
    for k, p in enumerate(params):
        try:
            resolve_params(module.PARAMS, p, scene=name)
        except ValueError as e:
            raise ValueError(f"world {k} ({_describe(overrides[k]) or 'no overrides'}): {e}") from None
    scenes = [build_scene(module, p) for p in params]
    return WorldBatch(scenes, [dict(ov) for ov in overrides], common)


def _describe(ov: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in ov.items())


def run_worlds(worlds, overrides: list[dict] | None = None, options: RunOptions | None = None, *, resume=None,
               check_memory: bool = True, **settings):
    """Run a batch of worlds (:class:`WorldBatch`, or a scene and ``overrides`` for :func:`build_worlds`) and,
    with ``options.out_dir``, write one folder per world (the files of ``dem run``) and ``worlds.csv`` (one row per
    world: its parameters, status, peak |θ|/α, overturning, residual tilt, slip, uplift, energy error).

    The worlds share Δt, the history interval and the duration (their scenes' own, which must agree, or the
    ones given). Returns the list of dem.run.RunResult, one per world; a world's ``summary["status"]`` says
    how it ended (``ok``, ``stopped``, ``unstable``). ``options`` and ``settings``: the run's settings, as for
    :func:`dem.run_scene` (:class:`~dem.run.options.RunOptions`, or its fields as keywords); ``frame_dt`` is
    for single runs. A batch whose device arrays would not fit in the backend's free memory is refused before
    any is allocated (dem.physics.batch_memory.BatchTooLarge, naming how many worlds fit), unless
    ``check_memory`` is False."""
    from .driver import Run

    if not isinstance(worlds, WorldBatch):
        worlds = build_worlds(worlds, overrides)
    opts = RunOptions.of(options, **settings)
    with contextlib.nullcontext() if check_memory else allow_large(True):
        results = Run(worlds.scenes, opts, resume=resume, batch=True, world_names=worlds.names).run()
    if opts.out_dir is not None:
        write_world_table(opts.out_dir / WORLDS_TABLE, worlds, results)
    return results


# ---------------------------------------------------------------------------------------------- results
def world_row(scene: Scene, result) -> dict:
    """The worlds.csv figures of one world: status, peak |θ|/α, overturning, residual tilt, slip, uplift,
    energy error (dem.run.response.run_response: from the scene's rocking bodies where it names them, else
    from its ``*_over_alpha`` columns and the overturn events; each world's summary.json holds the same
    figures under ``response``, with the reason for each NaN in ``null_reasons``), and how many bodies fell
    and which first (summary.json's ``bodies``, dem.run.bodies)."""

    s = result.summary
    row, _why = run_response(result.history, scene.info, s.get("max_energy_error"), s.get("events", []),
                             s.get("bodies"))
    if "assembly" in scene.info and "alpha_rad" in scene.info:  # every block of it (dem.run.assembly_response)
        energy = s.get("max_energy_error")
        row = assembly_response(result.history, scene.info, energy_error=math.nan if energy is None else energy)
        row = merge_falls(row, s.get("bodies"), s.get("events", []))  # any body's fall (dem.run.bodies)
    # every body (dem.run.bodies, summary.json's bodies): how many fell, and the first
    fell = sorted((b for b in s.get("bodies") or [] if b.get("fell")), key=lambda b: b["fell_time_s"])
    bodies = {"bodies_fell": len(fell), "first_fell_body": fell[0]["name"] if fell else ""}
    return {"status": s["status"], "t_end": s["t_end"]} | row | bodies


def world_table(worlds: WorldBatch, results):
    """worlds.csv as a pandas DataFrame, one row per world: its index, each varied parameter (as given), the
    status (``ok``, ``stopped``, ``unstable``, ``interrupted``, ``failed``) and the figures of
    :func:`world_row` (overturned as true/false; units in the column names: s, m)."""
    import pandas as pd

    rows = [world_row(sc, r) for sc, r in zip(worlds.scenes, results)]
    keys = list(dict.fromkeys(k for ov in worlds.overrides for k in ov))
    if not keys:  # (a resumed batch) the parameters whose values differ between the worlds
        first = worlds.scenes[0].params
        keys = [k for k in first if len({repr(sc.params.get(k)) for sc in worlds.scenes}) > 1]
    table = {"world": list(range(len(rows)))}
    for k in keys:
        table[k] = [sc.params.get(k) for sc in worlds.scenes]
    table["status"] = [r["status"] for r in rows]
    for name in ("t_end", "peak_theta_over_alpha", "overturned", "overturn_time_s", "residual_theta_over_alpha",
                 "max_slip_m", "max_uplift_m", "energy_error"):
        table[name] = [bool(r[name]) if name == "overturned" else float(r[name]) for r in rows]
    table["bodies_fell"] = [int(r["bodies_fell"]) for r in rows]
    table["first_fell_body"] = [r["first_fell_body"] for r in rows]
    for name in ASSEMBLY_COLUMNS:  # scenes of assemblies (a column of drums): dislocations, residual rotations
        if any(name in r for r in rows):
            table[name] = [r.get(name, "") if name.endswith(("_body", "_joint")) else float(r.get(name, math.nan))
                           for r in rows]
    return pd.DataFrame(table)


def write_world_table(path: Path, worlds: WorldBatch, results) -> None:
    """Write worlds.csv atomically (an interrupted write leaves the old file or none, never half of one)."""

    text = world_table(worlds, results).to_csv(index=False, float_format="%.10g", na_rep="nan")
    atomic_write(Path(path), lambda fh: fh.write(text.encode("utf-8")))
