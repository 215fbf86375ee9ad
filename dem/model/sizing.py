"""How big a model will be, before anything is allocated: the sphere count of a box packing from its
dimensions and spacing, its memory, and the check of that memory against the machine.

A scene that asks for 10⁹ spheres (``--set height=1e6``, ``spacing_ratio=1e-9``) is refused with the
estimate, instead of being killed by the kernel's out-of-memory killer minutes later, unless the caller
allows it (``dem run --force``: :func:`allow_large`).
"""

from __future__ import annotations

import math
import os
import warnings
from contextlib import contextmanager
from pathlib import Path

# Peak host memory of building a scene, per sphere [bytes]: measured with tracemalloc on the Peña block
# (box_clump alone 128 B: lattice, meshgrid and concatenation copies; the whole scene build 129 B at
# 136,120 spheres, 163 B at 17,676), rounded up for the interpreter's and Taichi's own use.
BYTES_PER_SPHERE = 200
# [m]: no block, drum or pier this engine is meant for is this large; past it a length typed in mm is the
# likely mistake (issue 32: `--set height=754` built 3.68 M spheres and ran a minute without a word)
SIZE_WARNING_M = 100.0
# share of the machine's available memory a build may take: Taichi, the device arrays and the run's
# history need the rest
MEMORY_SHARE = 0.8

_allow = {"large": False}


class ModelTooLarge(ValueError):
    """A model whose estimated memory exceeds what the machine has available."""


@contextmanager
def allow_large(allowed: bool = True):
    """Within this block, :func:`check_sphere_count` and dem.physics.batch_memory let any size through (``dem run
    --force``)."""
    old = _allow["large"]
    _allow["large"] = bool(allowed)
    try:
        yield
    finally:
        _allow["large"] = old


def large_allowed() -> bool:
    """Whether the size checks are off (inside :func:`allow_large`): this module's, and the batch memory check of
    dem.physics.batch_memory."""
    return _allow["large"]


def _axis_count(length: float, radius: float, spacing: float, centred: bool = False,
                step: float | None = None) -> float:
    """Spheres along one axis, as dem.model.lattice.axis_points places them (a float: counts can exceed 2⁶³)."""
    span = length if centred else length - 2.0 * radius
    if span <= 1e-12:
        return 1.0
    if step is not None:
        return float(round(span / step)) + 1.0
    return max(1.0, math.ceil(span / spacing - 1e-9) + 1.0)


def box_sphere_count(width: float, height: float, thickness: float, *, r_core: float, r_base: float | None = None,
                     r_top: float | None = None, base_zone: float = 0.0, top_zone: float = 0.0,
                     spacing_ratio: float = 0.75, edges: str = "true", zone_step=None) -> float | None:
    """Spheres dem.model.box_clump.box_clump would place for these arguments (same zones and lattices), without
    allocating them; None when the arguments are not valid numbers (box_clump itself then says why)."""
    r_base = r_core if r_base is None else r_base
    r_top = r_core if r_top is None else r_top
    vals = (width, height, thickness, r_core, r_base, r_top, spacing_ratio)
    try:
        if not all(math.isfinite(float(v)) and float(v) > 0 for v in vals) or base_zone < 0 or top_zone < 0:
            return None
    except (TypeError, ValueError):
        return None

    centred = edges == "true"
    steps = (None, None) if zone_step is None else tuple(zone_step)

    def zone(z_lo: float, z_hi: float, r: float, step=(None, None)) -> float:
        s = spacing_ratio * 2.0 * r
        return (_axis_count(width, r, s, centred, step[0]) * _axis_count(thickness, r, s, centred, step[1])
                * _axis_count(z_hi - z_lo, r, s))

    h2 = height / 2.0
    lo, hi = -h2 + base_zone, h2 - top_zone
    n = 0.0
    if base_zone > 0:
        n += zone(-h2, lo, r_base, steps)
        lo = max(lo - r_core, -h2)
    if top_zone > 0:
        n += zone(hi, h2, r_top, steps)
        hi = min(hi + r_core, h2)
    if hi - lo >= 2 * r_core:
        n += zone(lo, hi, r_core, steps if base_zone == 0 and top_zone == 0 else (None, None))
    return n


def available_memory() -> int | None:
    """Memory this process can still take [bytes]: the kernel's MemAvailable, or less where a cgroup
    (container) limit is lower; None if neither can be read."""
    found = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            used = int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
            found.append(max(int(limit) - used, 0))
    except (OSError, ValueError):
        pass
    if not found:
        try:
            found.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (ValueError, OSError, AttributeError):
            return None
    return min(found)


def _size(b: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if b < 1024 or unit == "PiB":
            return f"{b:.3g} {unit}"
        b /= 1024
    return f"{b:.3g} PiB"


def check_sphere_count(count: float | None, what: str) -> None:
    """Refuse (ModelTooLarge, with the estimate) `count` spheres whose memory would exceed MEMORY_SHARE of
    the available memory, unless inside :func:`allow_large`."""
    if count is None or _allow["large"]:
        return
    need = count * BYTES_PER_SPHERE
    avail = available_memory()
    if avail is not None and need > MEMORY_SHARE * avail:
        raise ModelTooLarge(
            f"{what} would have about {count:.3g} spheres, needing about {_size(need)} of memory "
            f"({BYTES_PER_SPHERE} B a sphere) where {_size(avail)} is available; make the body smaller or "
            f"its spheres larger (or their spacing_ratio larger), or pass --force to try anyway")


def check_box(width, height, thickness, *, r_core, r_base=None, r_top=None, base_zone=0.0, top_zone=0.0,
              spacing_ratio=0.75, edges="true", zone_step=None) -> None:
    """:func:`check_sphere_count` for a box packing (called by dem.model.box_clump.box_clump before it allocates)."""
    try:
        n = box_sphere_count(width, height, thickness, r_core=r_core, r_base=r_base, r_top=r_top,
                             base_zone=base_zone, top_zone=top_zone, spacing_ratio=spacing_ratio, edges=edges,
                             zone_step=zone_step)
    except (TypeError, ValueError, ZeroDivisionError):
        n = None  # box_clump says what is wrong
    warn_size(f"a {width:g} × {height:g} × {thickness:g} m box", width=width, height=height, thickness=thickness)
    check_sphere_count(n, f"a {width:g} × {height:g} × {thickness:g} m box packing")


def warn_size(what: str, **lengths) -> None:
    """Warn, naming the likely unit mistake, for a body dimension [m] above SIZE_WARNING_M (before it is built)."""
    big = {k: v for k, v in lengths.items() if isinstance(v, (int, float)) and v > SIZE_WARNING_M}
    if big:
        k, v = max(big.items(), key=lambda kv: kv[1])
        warnings.warn(f"{what}: its {k} {v:g} m is over {SIZE_WARNING_M:g} m; is it in mm typed as m? ({v:g} mm "
                      f"= {v / 1000:g} m)", stacklevel=4)
