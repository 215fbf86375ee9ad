"""Sweeps: every (record, intensity, parameter set) of a scene through the DEM or the rigid engine, with
resumable results, on this process or a Dask cluster.

- :mod:`dem.sweep.cases`: the case table (ids, intensity measures);
- :mod:`dem.sweep.engines`: the engine interface (a batch of cases in, one row per case out);
- :mod:`dem.sweep.fragility`: lognormal fragility curves fitted to a sweep's results;
- :mod:`dem.sweep.store`: the output folder (settings, atomic Parquet parts, results.parquet/.csv);
- :mod:`dem.sweep.runner`: planning, batching, in-process or Dask execution, progress;
(The result columns, from a DEM history or a rigid solution, are :mod:`dem.run.response`; the command
line ``dem sweep`` and ``dem fragility`` are :mod:`dem.cli.sweep` and :mod:`dem.cli.fragility`.)

The names below are imported on first use (pandas, pyarrow and Dask load only when a sweep runs).
"""
import importlib

_LAZY = {"Batch": "engines", "run_batch": "engines", "SweepSpec": "runner", "run_sweep": "runner",
         "read_results": "store"}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
