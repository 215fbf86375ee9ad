"""A word while the kernels get ready: compiling them, or loading them from the kernel cache.

The first run of the engine's kernels on a machine, or the first after their code changed, compiles them
(about 30 s for the step kernel on this project's 2-core machine, docs/compile_time.md); later runs load them
from Taichi's offline cache in a few seconds. :func:`compile_notice` says which of the two is happening:

* It knows what this machine has compiled before: a record in ``$XDG_CACHE_HOME/dem/compile_seconds.json``
  (by default ``~/.cache/dem/``) keeps, per kernel variant, the fingerprint of the kernel code last compiled
  into each kernel cache directory, and the compile times measured here.
* A compile is announced at once, with the typical (median) compile time measured on this machine for that
  kernel variant (FIRST_COMPILE_GUESS_S before any) and the kernels to compile, then "compiled 1/1 ... in N s".
* A cache load is announced only if it outlasts LOAD_NOTICE_DELAY_S ("Loading kernels from the cache ...").
* Either guess is corrected when it was wrong (another record file, the cache filled by another user, or
  cleared): both are said, and only real compiles are kept as estimates.

What was a compile is told by the toolchain's own clock of compiling (Program.get_total_compilation_time:
its passes and LLVM), not by the wait. A load from the cache runs the Python → IR step as a compile does
(Taichi keys its cache on the IR), 3-4 s on the step kernel on a quiet 2-core machine and 8-10 s on a loaded
one, while the toolchain's compile clock moves by 0.1 s; a compile spends most of its wait there (74 of 80 s,
cold). Issue 32's "the kernels were not in the cache after all: compiled 1/1 in 8-10 s" were such loads, taken
for compiles because they outlasted a fixed 8 s: no kernel file was written. Where the toolchain has no such
clock, a wait of MIN_RECORDED_S or more counts as a compile.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

FIRST_COMPILE_GUESS_S = 30.0  # [s]: the step kernel's cold compile measured on this project's 2-core machine (28-31 s)
LOAD_NOTICE_DELAY_S = 2.0  # [s]: a cache load takes 1-4 s here; say so only when it is slower
MIN_RECORDED_S = 8.0  # [s]: without the toolchain's compile clock, shorter waits are taken for cache loads
COMPILE_SHARE = 0.25  # a wait of which the toolchain spent this share or more compiling was a compile: a cold
# step kernel 0.9 of its wait, a small kernel 0.6; a load 0.02-0.04 (the rest is Python → IR, on both)
KEEP_TIMES = 9  # compile times kept per kernel variant, for the median

_PACKAGE = Path(__file__).resolve().parents[1]


def _record_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dem" / "compile_seconds.json"


def _load() -> dict:
    try:
        data = json.loads(_record_path().read_text())
    except (OSError, ValueError):
        return {"times": {}, "compiled": {}}
    if not isinstance(data, dict) or "times" not in data:  # the first format: {key: last seconds}
        return {"times": {}, "compiled": {}}
    return {"times": dict(data.get("times", {})), "compiled": dict(data.get("compiled", {}))}


def _save(data: dict) -> None:
    try:
        path = _record_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        os.replace(tmp, path)
    except OSError:
        pass  # a record we cannot write only costs the estimate


def code_fingerprint() -> str:
    """Hash of the engine's kernel code: every module of the package that uses the kernel language (an edit
    to any of them may change a kernel, so that Taichi compiles it again)."""
    h = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if b"kernel_lang import" in text or path.name in ("kernel_lang.py", "toolchain.py", "kernel_args.py"):
            h.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + text)
    return h.hexdigest()[:16]


def kernel_cache_dir() -> str:
    """The kernel cache directory of the running kernel toolchain ("" when it cannot tell)."""
    try:
        from .kernel_lang import ti

        return str(ti.lang.impl.current_cfg().offline_cache_file_path)
    except Exception:  # noqa: BLE001 — only the load/compile guess depends on it
        return ""


def compile_clock() -> float | None:
    """Seconds the kernel toolchain has spent compiling kernels in this process (its passes and LLVM, and
    reading its cache, not the Python → IR step), or None where it does not say."""
    try:
        from .kernel_lang import ti

        return float(ti.lang.impl.get_runtime().prog.get_total_compilation_time())
    except Exception:  # noqa: BLE001 — no clock: the wait decides (module docstring)
        return None


def was_compiled(took: float, compiling: float | None) -> bool:
    """Whether a wait of `took` [s], of which the toolchain spent `compiling` [s] compiling (None: unknown),
    compiled kernels rather than loading them from the cache (module docstring)."""
    if compiling is None:
        return took >= MIN_RECORDED_S
    return took > 0.0 and compiling >= COMPILE_SHARE * took


def estimate(variant: str) -> float:
    """Typical (median) compile time of a kernel variant on this machine [s], FIRST_COMPILE_GUESS_S before
    any was measured."""
    times = [float(t) for t in _load()["times"].get(variant, []) if isinstance(t, (int, float)) and t > 0]
    return statistics.median(times) if times else FIRST_COMPILE_GUESS_S


def is_cached(variant: str, cache_dir: str = "") -> bool:
    """Whether this machine compiled the current kernel code of `variant` into the kernel cache `cache_dir`
    (and the directory is still there)."""
    if cache_dir and not Path(cache_dir).is_dir():
        return False
    return _load()["compiled"].get(f"{variant}@{cache_dir}") == code_fingerprint()


def remember(variant: str, cache_dir: str, compile_s: float | None) -> None:
    """Note that this machine has the current kernel code of `variant` in `cache_dir`, and a compile time [s]
    (None: it was a load, not kept as an estimate)."""
    data = _load()
    data["compiled"][f"{variant}@{cache_dir}"] = code_fingerprint()
    if compile_s is not None:
        data["times"][variant] = (list(data["times"].get(variant, [])) + [round(compile_s, 1)])[-KEEP_TIMES:]
    _save(data)


@contextlib.contextmanager
def compile_notice(variant: str = "cpu-f64-serial-implicit", *, cache_dir: str = "", kernels: tuple = ("step",),
                   stream=None, delay: float = LOAD_NOTICE_DELAY_S, clock=compile_clock):
    """Context manager around the first launch of `kernels` (their names, for the progress count) of one
    kernel `variant` (backend, precision, launch path and static options: the key of its compile times);
    `cache_dir` is the kernel cache in use; `clock`: the toolchain's compile clock [s] (module docstring)."""
    stream = stream if stream is not None else sys.stderr
    cached = is_cached(variant, cache_dir)
    shown = threading.Event()
    n = len(kernels)
    names = ", ".join(kernels)

    def show_load():
        shown.set()
        print("Loading kernels from the kernel cache ...", file=stream, flush=True)

    timer = None
    if cached:
        timer = threading.Timer(delay, show_load)
        timer.daemon = True
        timer.start()
    else:
        shown.set()
        print(f"Compiling kernels 0/{n} ({names}; new to this machine or changed since; typically "
              f"~{estimate(variant):.0f} s here, then loaded from the cache in seconds) ...", file=stream, flush=True)
    c0, t0 = clock(), time.perf_counter()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        took = time.perf_counter() - t0
        c1 = clock()
        compiled = was_compiled(took, None if c0 is None or c1 is None else c1 - c0)
        if not cached and compiled:
            print(f"compiled {n}/{n} kernels in {took:.0f} s", file=stream, flush=True)
        elif not cached:
            print(f"loaded {n}/{n} kernels from the kernel cache in {took:.1f} s", file=stream, flush=True)
        elif compiled:
            print(f"the kernels were not in the cache after all: compiled {n}/{n} in {took:.0f} s", file=stream,
                  flush=True)
        elif shown.is_set():
            print(f"loaded in {took:.1f} s", file=stream, flush=True)
        if sys.exc_info()[0] is None:
            remember(variant, cache_dir, took if compiled else None)
