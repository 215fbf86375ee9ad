"""Sweeps: every (record, intensity, parameter set) of a scene through the DEM or the rigid engine, with
resumable results, on this process or a Dask cluster.

- :mod:`dem.sweep.cases`: the case table (ids, intensity measures);
- :mod:`dem.sweep.engines`: the engine interface (a batch of cases in, one row per case out);
- :mod:`dem.sweep.response`: the result columns, from a DEM history or a rigid solution;
- :mod:`dem.sweep.store`: the output folder (settings, atomic Parquet parts, results.parquet/.csv);
- :mod:`dem.sweep.runner`: planning, batching, in-process or Dask execution, progress;
- :mod:`dem.sweep.cli`: ``dem sweep``.
"""

from .engines import Batch, run_batch
from .runner import SweepSpec, run_sweep
from .store import read_results

__all__ = ["Batch", "SweepSpec", "read_results", "run_batch", "run_sweep"]
