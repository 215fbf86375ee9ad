"""One GPU per Dask worker on a machine with several (``dem sweep --engine dem --arch cuda --workers N``)."""

from __future__ import annotations

import os

from distributed import WorkerPlugin


class OneGpuPerWorker(WorkerPlugin):
    """Worker k of a local cluster sees only GPU k (CUDA_VISIBLE_DEVICES), set when the worker starts, before
    its first task initialises Taichi (dem.sweep.engines.ensure_runtime). Not tested here: this machine has
    no GPU."""

    idempotent = True

    def setup(self, worker) -> None:
        try:
            k = int(worker.name)
        except (TypeError, ValueError):
            return
        os.environ["CUDA_VISIBLE_DEVICES"] = str(k)
