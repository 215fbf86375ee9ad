"""The history rows a launch wrote, copied to the host: those rows only, not the whole history buffer (issue 30).

The device's history buffer holds ``rows`` rows of every world (simulation.Diagnostics: world w's from row
w × rows); a launch writes a prefix of each world's, often far fewer than it holds (a launch cut short by a host
pair search, a world that stopped, the last launch of a run). Copying the whole buffer (Taichi copies an ndarray
whole) moved up to HISTORY_BUFFER_BYTES (256 MiB) across PCIe a launch on a GPU; here a small kernel gathers the
rows written into a host array of their size, so a launch moves what it wrote.

On the SPIR-V backends (Vulkan, Metal) a kernel whose loop range is known only at run time launches Taichi's
grid-stride default of 131,072 threads, ~0.5 s on Mesa's lavapipe (simulation.py, MIN_WORLD_SLOTS): there the
buffer is copied whole as before.
"""

import numpy as np

from ..device import runtime
from ..device.kernel_lang import ti


@ti.kernel
def _gather_rows(rec: ti.types.ndarray(ndim=2), src: ti.types.ndarray(ndim=1),  # in:
                 out: ti.types.ndarray(ndim=2)):  # out:
    """out[r, c] = rec[src[r], c]: the rows src (buffer rows) of the history buffer, in that order."""
    for r, c in ti.ndrange(out.shape[0], out.shape[1]):
        out[r, c] = rec[src[r], c]


def written_rows(rec, rows_per_world: int, counts, widths) -> list[np.ndarray]:
    """The history rows each world w wrote in a launch: its first counts[w] rows of the device buffer `rec`
    (world w's from row w × rows_per_world), its first widths[w] columns, as float64 arrays (counts[w], widths[w]);
    only those rows are copied (module docstring), or the whole buffer on a SPIR-V backend."""
    counts = [int(n) for n in counts]
    if runtime.has_loop_limit():
        full = rec.to_numpy()
        return [full[w * rows_per_world: w * rows_per_world + n, : widths[w]].astype(np.float64)
                for w, n in enumerate(counts)]
    src = np.concatenate([np.arange(w * rows_per_world, w * rows_per_world + n, dtype=np.int32)
                          for w, n in enumerate(counts)] or [np.zeros(0, np.int32)])
    out = np.zeros((len(src), rec.shape[1]), np.float64 if runtime.precision() == "f64" else np.float32)
    if len(src):
        _gather_rows(rec, src, out)
    ends = np.cumsum(counts)
    return [out[e - n: e, : widths[w]].astype(np.float64) for w, (n, e) in enumerate(zip(counts, ends))]
