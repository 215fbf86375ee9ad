"""The device memory a batch of W worlds takes [bytes], from the shapes its arrays are allocated with, and the
check of it against the memory the backend has, made before any array of the batch exists.

:func:`prefix_array_bytes` names every device array a :class:`dem.Simulation` allocates (the models' arrays of
dem.device.model_arrays.DeviceModel, the state of dem.device.state.State, the candidate lists and contact history
of dem.device.contacts.ContactArrays, the ledgers, probe slots and history buffer of simulation.Diagnostics) with
its bytes, computed from the same counts and host arrays as the allocation, for the first k worlds of the batch at
every k: the batch's figure (k = W) and how many of its worlds would fit come from the one function.
tests/cli/test_batch_memory_errors.py checks it against the arrays a small batch allocates, to the byte: an array
added to an allocator and not here fails that test.

What it leaves out, and MEMORY_SHARE (dem.model.sizing) leaves room for: Taichi's runtime and compiled kernels (a
fixed amount, not per world), the host copies a run makes of its history rows, and the growth of a world's
body-pair region once its list outgrows the first PAIR_CAPACITY_START entries (ContactArrays.ensure_pair_capacity
doubles it as the run needs).
"""

from __future__ import annotations

import numpy as np

from ..device import free_memory as FM
from ..device import layout as LY
from ..device import runtime
from ..device.damping_layout import DAMP_WIDTH, OTHER_WIDTH
from ..device.model_arrays import uses_shared_mass
from ..model.materials import PAIR_PARAM_COUNT
from ..model.sizing import MEMORY_SHARE, _size, large_allowed
from . import share_sums as SS
from .history_rows import SLOT_WIDTH, HistoryRowLayout

# The history buffer's size over all worlds [bytes]: rows per world = this ÷ (W × row width × 8 B), at least
# MIN_HISTORY_ROWS, at most MAX_HISTORY_ROWS; a launch runs until a world's rows are full.
HISTORY_BUFFER_BYTES = 256 * 2**20
MAX_HISTORY_ROWS = 2048
MIN_HISTORY_ROWS = 16
# Entries per list of each world's first body-pair region (ContactArrays; 1 in a batch of one-body worlds)
PAIR_CAPACITY_START = 1024
INT_BYTES = 4  # ti.i32


class BatchTooLarge(ValueError):
    """A batch of worlds whose device arrays would not fit in the memory its backend has. ``world_count``,
    ``need_bytes`` (the batch's arrays), ``available_bytes`` (the backend's free memory), ``fit`` (how many of
    its first worlds would fit), all in bytes or worlds."""

    def __init__(self, message: str, *, world_count: int, need_bytes: int, available_bytes: int, fit: int):
        super().__init__(message)
        self.world_count, self.need_bytes, self.available_bytes, self.fit = world_count, need_bytes, \
            available_bytes, fit


def history_rows(width: int, world_count: int, capacity: int | None = None,
                 buffer_bytes: int = HISTORY_BUFFER_BYTES) -> int:
    """History rows per world of the device buffer: ``capacity`` if given, else as many rows of `width` f64 values
    as fit in `buffer_bytes` over all `world_count` worlds, between MIN_HISTORY_ROWS and MAX_HISTORY_ROWS."""
    if capacity is not None:
        return int(capacity)
    return max(MIN_HISTORY_ROWS, min(MAX_HISTORY_ROWS, buffer_bytes // (8 * width * world_count)))


# What a world brings to the batch's arrays (world_counts): the items it adds to each concatenated array (the first
# nine), then sizes the batch takes from its widest world (the wall-velocity table's samples, the interface sums'
# columns, the history row's width) and whether it has body pairs
COUNTS = ("clumps", "walls", "hull", "clusters", "material_pairs", "interfaces", "solid_rows", "candidates", "slots",
          "wall_samples", "ledger_columns", "row_width", "has_pairs")


def world_counts(m, shares: int = 1) -> tuple[int, ...]:
    """The :data:`COUNTS` of one finalized model, from the host arrays DeviceModel concatenates; ``shares``: the
    block path's shares a world (share_sums.py; 1: the serial path), which widen the ledger."""
    return (m.clump_count, m.wall_count, len(m.sph_body_np), len(m.cluster_body_np),
            len(m.pair_np.reshape(-1, PAIR_PARAM_COUNT)), len(m.iface_map_np), len(m.solid_rows_np),
            m.hull_count * max(m.wall_count, 1),  # one candidate slot per (hull sphere, wall)
            m.slot_count,
            m.wall_vel_np.shape[1] if m.wall_count else 1,  # velocity samples of its walls' table
            # the ledger, the interface sums K_I (damping_mass "shared") and the shares' partials
            SS.world_columns(m.clump_count, m.wall_count, m.slot_count, uses_shared_mass(m), shares),
            HistoryRowLayout(m.clump_count, m.wall_count, m.slot_count).width,
            int(m.clump_count > 1))


def _rows(n: np.ndarray) -> np.ndarray:
    """Rows of an array over n items: a table with none gets one row (dem.device.model_arrays._nd)."""
    return np.maximum(n, 1)


def prefix_array_bytes(models, *, capacity: int | None = None, precision: str | None = None,
                       pair_capacity: int | None = None, shares: int = 1) -> dict[str, np.ndarray]:
    """Bytes of each device array a Simulation of the first k of `models` allocates, for k = 1 … W: {'part.array':
    int64 array of shape (W,)}, the parts as the Simulation's attributes (device_model, state, contacts, diag).
    ``capacity``: history rows per world (None: the Simulation's default, :func:`history_rows`); ``precision``:
    'f64' or 'f32' (None: the runtime's); ``pair_capacity``: entries per body-pair list (None: the first region's,
    PAIR_CAPACITY_START where a world has two bodies or more, else 1); ``shares``: as :func:`world_counts`."""
    models = list(models)
    r = 8 if (precision or runtime.precision()) == "f64" else 4
    k = np.arange(1, len(models) + 1, dtype=np.int64)  # worlds in the prefix
    seen: dict[int, int] = {}  # a model given many times (N copies of a scene) is counted once
    index = [seen.setdefault(id(m), len(seen)) for m in models]
    unique = {i: m for m, i in zip(models, index)}
    table = np.array([world_counts(unique[i], shares) for i in range(len(unique))], np.int64).reshape(-1, len(COUNTS))
    per_world = table[index]
    col = dict(zip(COUNTS, per_world.T))
    n = {name: np.cumsum(col[name]) for name in COUNTS[:9]}  # concatenated arrays: the sum over the first k worlds
    n_t, ledger, width = (np.maximum.accumulate(col[name]) for name in ("wall_samples", "ledger_columns", "row_width"))
    pair_cap = np.where(np.maximum.accumulate(col["has_pairs"]) > 0, PAIR_CAPACITY_START, 1) \
        if pair_capacity is None else np.full(len(models), int(pair_capacity), np.int64)
    rows = np.full(len(models), int(capacity), np.int64) if capacity is not None else \
        np.clip(HISTORY_BUFFER_BYTES // (8 * width * k), MIN_HISTORY_ROWS, MAX_HISTORY_ROWS)  # history_rows at each k
    n_c, n_w, n_h, n_g, n_cand = n["clumps"], n["walls"], n["hull"], n["clusters"], n["candidates"]
    return {
        # DeviceModel (dem.device.model_arrays)
        "device_model.sph_body": _rows(n_h) * 4 * r,
        "device_model.sph_info": _rows(n_h) * 4 * INT_BYTES,
        "device_model.cluster_body": _rows(n_g) * 4 * r,
        "device_model.cluster_range": _rows(n_g) * 4 * INT_BYTES,
        "device_model.clump_param": _rows(n_c) * LY.CLUMP_PARAM_WIDTH * r,
        "device_model.wall_geom": _rows(n_w) * LY.WALL_GEOM_WIDTH * r,
        "device_model.wall_vel": _rows(n_w) * n_t * 3 * r,
        "device_model.mat_pair": _rows(n["material_pairs"]) * PAIR_PARAM_COUNT * r,
        "device_model.iface_map": _rows(n["interfaces"]) * INT_BYTES,
        "device_model.solid": _rows(n["solid_rows"]) * 4 * r,
        "device_model.world_info": k * LY.WORLD_INFO_WIDTH * INT_BYTES,
        "device_model.world_param": k * LY.WORLD_PARAM_WIDTH * r,
        # State (dem.device.state): per clump, and the walls' state
        "state.pos": n_c * 3 * r,
        "state.quat": n_c * 4 * r,
        "state.rot": n_c * 9 * r,
        "state.vel": n_c * 3 * r,
        "state.omega": n_c * 3 * r,
        "state.wrench": n_c * LY.WRENCH_WIDTH * r,
        "state.monitor": n_c * LY.MONITOR_WIDTH * r,
        "state.damp": n_c * DAMP_WIDTH * r,
        "state.damp_other": n_c * OTHER_WIDTH * r,
        "state.wall_state": _rows(n_w) * LY.WALL_STATE_WIDTH * r,
        # ContactArrays (dem.device.contacts)
        "contacts.cand": _rows(n_cand) * 2 * INT_BYTES,
        "contacts.hist": _rows(n_cand) * LY.HIST_WIDTH * r,
        "contacts.counts": k * LY.COUNTS_WIDTH * INT_BYTES,
        "contacts.pairs": k * 2 * pair_cap * LY.PAIR_WIDTH * INT_BYTES,
        "contacts.pair_hist": k * 2 * pair_cap * LY.HIST_WIDTH * r,
        # Diagnostics (simulation.py)
        "diag.ledger": k * ledger * r,
        "diag.slots": _rows(n["slots"]) * SLOT_WIDTH * r,
        "diag.rec": k * rows * width * r,
    }


def batch_array_bytes(models, *, capacity: int | None = None, precision: str | None = None,
                      pair_capacity: int | None = None, shares: int = 1) -> dict[str, int]:
    """Bytes of each device array a Simulation of `models` allocates (:func:`prefix_array_bytes` at k = W)."""
    sizes = prefix_array_bytes(models, capacity=capacity, precision=precision, pair_capacity=pair_capacity,
                               shares=shares)
    return {name: int(b[-1]) for name, b in sizes.items()}


def batch_bytes(models, *, capacity: int | None = None, precision: str | None = None, shares: int = 1) -> int:
    """Device memory a Simulation of `models` (one world each) allocates at its start [bytes]."""
    return sum(batch_array_bytes(models, capacity=capacity, precision=precision, shares=shares).values())


def check_batch_memory(models, *, capacity: int | None = None, shares: int = 1) -> None:
    """Refuse (:class:`BatchTooLarge`, one line) a batch of `models` whose device arrays would take more than
    MEMORY_SHARE of the memory the backend has free (dem.device.free_memory), naming the worlds asked for, the
    bytes a world and the batch need, the bytes available and how many worlds fit. Called before any array of
    the batch is allocated; skipped inside dem.model.sizing.allow_large (``dem run --force``) and where the
    backend cannot say what it has free."""
    models = list(models)
    if large_allowed() or not models:
        return
    free = FM.free_memory(runtime.device_name())
    if free.bytes is None:
        return
    budget = MEMORY_SHARE * free.bytes
    total = sum(prefix_array_bytes(models, capacity=capacity, shares=shares).values())
    if total[-1] <= budget:
        return
    over = np.flatnonzero(total > budget)
    fit = int(over[0])  # the first k worlds fit for every k up to this many
    w = len(models)
    need = int(total[-1])
    what = f"a batch of {w:,} worlds" if w > 1 else "a world of this scene"
    if fit:
        advice = (f"at most {fit:,} of these worlds fit: run them in batches of {fit:,} or fewer (dem run: --worlds "
                  "or the --vary grid; dem sweep: --batch-size)")
    else:
        advice = "not even one world fits: make the scene smaller (fewer or larger spheres)"
    raise BatchTooLarge(
        f"{what} needs about {_size(need)} of device memory ({need:,} bytes; {_size(need / w)} "
        f"per world) but {free.where} is {_size(free.bytes)} ({free.bytes:,} bytes), of which a batch may take "
        f"{MEMORY_SHARE:.0%}; {advice}; or pass --force (dem run) to try anyway",
        world_count=w, need_bytes=need, available_bytes=int(free.bytes), fit=fit)


def check_ledger_index(models, shares: int) -> None:
    """Refuse (ValueError, one line) a batch whose ledger array (W × the widest world's columns, with the block
    path's `shares` partials: share_sums.py) would pass 2³¹ − 1 elements: the kernels index it with 32-bit
    integers. Before any array is allocated."""
    models = list(models)
    unique = {id(m): m for m in models}.values()  # N copies of a scene: measured once
    width = max(world_counts(m, shares)[COUNTS.index("ledger_columns")] for m in unique)
    if len(models) * width >= 2**31:
        raise ValueError(f"a batch of {len(models)} worlds needs {width} ledger columns a world with {shares} shares "
                         f"(share_sums.py): at most {(2**31 - 1) // width} worlds fit; run fewer worlds a batch, or a "
                         "smaller block_dim")
