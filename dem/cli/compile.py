"""``dem compile``: compile every kernel an entry point needs, ahead of its first run (dem.run.precompile).

    dem compile                               # the CPU's entry points: the serial step and the frames
    dem compile --arch cuda --precision f64   # a GPU's: the block path and the frames
    dem compile --entry all                   # every entry point, explicit dashpots included

Prints each entry point's kernel variant and how long it took (a compile, or a load when the kernels were
already in the cache), and the kernel cache they are in.
"""

from __future__ import annotations

import argparse
import sys

from ..device import startup
from ..device.backends import ARCHS
from ..run import precompile

ENTRY_CHOICES = ["run", "blocks", "frames", "explicit", "all"]  # precompile.ENTRY_POINTS and "all"


def add_arguments(p: argparse.ArgumentParser) -> None:

    p.add_argument("--arch", default="cpu", choices=ARCHS, help="backend (default cpu)")
    p.add_argument("--precision", default="f64", choices=["f64", "f32"], help="real type (default f64)")
    p.add_argument("--entry", nargs="+", default=None, choices=ENTRY_CHOICES, metavar="ENTRY",
                   help="entry points: run (serial step, single runs and batches), blocks (block path), frames "
                        "(--vtk contact export), explicit (explicit dashpots), all (default: run frames on the "
                        "CPU, blocks frames elsewhere)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(a) -> int:
    from ..device import runtime

    try:
        runtime.init(a.arch, a.precision)
    except ValueError as e:
        print(f"dem: error: --arch: {e}", file=sys.stderr)
        return 2
    entries = a.entry or precompile.default_entries(a.arch)
    if "all" in entries:
        entries = list(precompile.ENTRY_POINTS)
    done = precompile.compile_entries(list(dict.fromkeys(entries)), progress=not a.no_progress)
    for c in done:
        how = "compiled" if c.compiled else "loaded from the cache"
        print(f"{c.entry:9s} {c.variant:40s} {how} in {c.seconds:.1f} s")
    print(f"kernels in {startup.kernel_cache_dir() or 'the kernel cache'} ({sum(c.seconds for c in done):.0f} s)")
    return 0
