"""Compile time (issue 19): what gets compiled, and compiling ahead.

A kernel is compiled once per combination of its compile-time arguments; the number of worlds is a run-time
argument of the serial step, so a batch after a single run of the same scene compiles no new step kernel."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _specialisations(kernel) -> int:
    """Compiled specialisations of a kernel (its own counter: one per template-argument combination)."""
    from dem.device.kernel_lang import compiled_variants

    return compiled_variants(kernel)


def test_batch_after_single_run_compiles_no_new_step_kernel(ti_cpu):
    dem = ti_cpu
    from dem.physics import simulation as solver
    from dem.run import precompile

    model = precompile.small_model()
    single = dem.Simulation(model, dt=1e-5, history_every=10)
    single.advance(20)
    before = _specialisations(solver.advance_serial)
    assert before >= 1
    batch = dem.Simulation([model, model, model], dt=1e-5, history_every=10)
    rows = batch.advance(20)
    assert len(rows) == 3 and all(len(r) == 2 for r in rows)  # the batch did step, 2 history rows per world
    assert _specialisations(solver.advance_serial) == before  # zero new step kernels
    assert batch.kernel_variant() == single.kernel_variant() == "x64-f64-serial-implicit"


def test_block_path_variant_has_no_world_class_on_the_cpu(ti_cpu):
    """Off SPIR-V the block path's launch is sized from W at run time: one variant for every batch size."""
    dem = ti_cpu
    from dem.run import precompile

    model = precompile.small_model()
    two = dem.Simulation([model, model], dt=1e-5, parallel=True)
    many = dem.Simulation([model] * 20, dt=1e-5, parallel=True)
    assert two.kernel_variant() == many.kernel_variant() == "x64-f64-blocks-implicit-bd1"


def test_unknown_entry_point_is_refused_with_the_choices():
    from dem.run import precompile

    with pytest.raises(ValueError, match=r"entry point must be one of \['blocks', 'explicit', 'frames', 'run'\]"):
        precompile.compile_entries(["serial"], progress=False)


def test_dem_compile_readies_the_serial_step(tmp_path, ti_cpu):
    """`dem compile --entry run` leaves the step kernel in the kernel cache and says so; the start-up notice
    then knows it is there (it records the kernel code compiled into that cache)."""
    from dem.device.kernel_lang import BANNER, CACHE_DIR_ENV
    from dem.device.startup import kernel_cache_dir

    cache = kernel_cache_dir()  # this session's kernel cache (XDG_CACHE_HOME below would move it)
    r = subprocess.run([sys.executable, "-m", "dem.cli", "compile", "--entry", "run", "--no-progress"],
                       capture_output=True, text=True, cwd=ROOT, timeout=900,
                       env={**os.environ, "XDG_CACHE_HOME": str(tmp_path), CACHE_DIR_ENV: cache})
    assert r.returncode == 0, r.stderr[-2000:]
    lines = [ln for ln in r.stdout.strip().splitlines() if not ln.startswith(BANNER)]
    assert lines[0].split()[:2] == ["run", "x64-f64-serial-implicit"], r.stdout
    assert lines[-1].startswith("kernels in ")
    record = (tmp_path / "dem" / "compile_seconds.json").read_text()
    assert "x64-f64-serial-implicit@" in record


def test_sweep_compiles_once_per_host():
    """One compile task per host, on one of its workers, before any batch (dem/sweep/runner.py)."""
    from dem.sweep import runner

    class Client:
        def __init__(self):
            self.calls = []

        def scheduler_info(self):
            return {"workers": {"tcp://a:1": {"host": "a"}, "tcp://a:2": {"host": "a"}, "tcp://b:1": {"host": "b"}}}

        def submit(self, fn, *args, workers=None, **kw):
            self.calls.append((fn.__name__, args, tuple(workers)))
            return len(self.calls)

        def gather(self, futures):
            return futures

    c = Client()
    runner._compile_once_per_host(c, "cpu", "f64")
    assert c.calls == [("compile_kernels", ("cpu", "f64"), ("tcp://a:1",)),
                       ("compile_kernels", ("cpu", "f64"), ("tcp://b:1",))]
