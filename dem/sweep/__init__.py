"""Sweeps: every (record, intensity, parameter set) of a scene through the DEM or the rigid engine, with
resumable results, on this process or a Dask cluster.

- :mod:`dem.sweep.cases`: the case table (ids, intensity measures);
- :mod:`dem.sweep.engines`: the engine interface (a batch of cases in, one row per case out);
- :mod:`dem.sweep.response`: the result columns, from a DEM history or a rigid solution;
- :mod:`dem.sweep.store`: the output folder (settings, atomic Parquet parts, results.parquet/.csv);
- :mod:`dem.sweep.runner`: planning, batching, in-process or Dask execution, progress;
- :mod:`dem.sweep.cli`: ``dem sweep``.

The names below are imported on first use (pandas, pyarrow and Dask load only when a sweep runs).
"""

_LAZY = {"Batch": "engines", "run_batch": "engines", "SweepSpec": "runner", "run_sweep": "runner",
         "read_results": "store"}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
