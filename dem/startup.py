"""A word while Taichi compiles: the first run of the engine compiles its step kernels (about two and a half
minutes on 2 CPU cores), later runs load them from Taichi's offline cache in a second or two. Without a
message the first run looks hung.

:func:`compile_notice` prints "Compiling kernels (first run only, ~N s) ..." to stderr once compiling has
taken longer than a cache load does (``delay``), and how long it took at the end. N is the last measured
compile time on this machine for that backend and precision (kept in ``$XDG_CACHE_HOME/dem/``), or
FIRST_COMPILE_GUESS_S before any was measured.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from pathlib import Path

FIRST_COMPILE_GUESS_S = 150.0  # [s]: measured 168 s on this project's 2-core machine, loaded
NOTICE_DELAY_S = 10.0  # [s]: a cache load takes 2-3 s here (5 s on a loaded machine); a compile, minutes
MIN_RECORDED_S = 30.0  # [s]: shorter waits were slow cache loads, not compiles: not kept as the estimate


def _record_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dem" / "compile_seconds.json"


def _load() -> dict:
    try:
        return json.loads(_record_path().read_text())
    except (OSError, ValueError):
        return {}


def estimate(key: str) -> float:
    """Last measured compile time for `key` [s], or FIRST_COMPILE_GUESS_S."""
    v = _load().get(key)
    return float(v) if isinstance(v, (int, float)) and v > 0 else FIRST_COMPILE_GUESS_S


def _store(key: str, seconds: float) -> None:
    try:
        path = _record_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        data = _load() | {key: round(seconds, 1)}
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError:
        pass  # a cache we cannot write only costs the estimate


@contextlib.contextmanager
def compile_notice(key: str = "cpu-f64", *, stream=None, delay: float = NOTICE_DELAY_S):
    """Context manager around a kernel compile (see the module docstring)."""
    stream = stream if stream is not None else sys.stderr
    shown = threading.Event()

    def show():
        shown.set()
        print(f"Compiling kernels (first run only, ~{estimate(key):.0f} s; later runs load them from Taichi's "
              "cache) ...", file=stream, flush=True)

    timer = threading.Timer(delay, show)
    timer.daemon = True
    t0 = time.perf_counter()
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        took = time.perf_counter() - t0
        if shown.is_set():
            print(f"compiled in {took:.0f} s", file=stream, flush=True)
            if took >= MIN_RECORDED_S:
                _store(key, took)
