"""The kernel language's two toolchains (dem/device/kernel_lang.py): which one is chosen, and the argument packs that
the step kernels take, on whichever toolchain this run uses (DEM_KERNELS)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _chosen(env_value: str | None, hide_taichi: bool = False) -> subprocess.CompletedProcess:
    """The toolchain dem.device.kernel_lang picks in a child
    process, with DEM_KERNELS set to env_value (None: unset)."""
    env = dict(os.environ)
    env.pop("DEM_KERNELS", None)
    if env_value is not None:
        env["DEM_KERNELS"] = env_value
    hide = "import sys; sys.modules['taichi'] = None; " if hide_taichi else ""  # as if not installed
    code = hide + "import dem.device.kernel_lang as k; print(k.NAME, k.ti.__name__)"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_chosen_toolchain_is_the_one_named():
    from dem.device import kernel_lang

    named = os.environ.get("DEM_KERNELS", "").strip().lower()
    if named:
        assert kernel_lang.NAME == named
    assert kernel_lang.ti.__name__ == kernel_lang.NAME


def test_an_unknown_toolchain_is_refused_by_name():
    out = _chosen("numba")
    assert out.returncode != 0 and "DEM_KERNELS must be one of" in out.stderr


@pytest.mark.skipif(importlib.util.find_spec("quadrants") is None,
                    reason="quadrants is not installed in this environment (pip install -e '.[quadrants]'; "
                           "CI runs these in its quadrants environment)")
def test_quadrants_is_chosen_where_taichi_is_not_installed():
    out = _chosen(None, hide_taichi=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["quadrants", "quadrants"]


def test_argument_packs_reach_the_kernel_and_the_functions_it_calls(ti_cpu):
    """A kernel takes a pack (a Taichi argpack or a quadrants dataclass) and hands it to a function whose
    parameter is written ``dg: ti.template()``, as the step kernels do; the function reads and writes its arrays."""
    from dem.device.kernel_args import DiagArgs
    from dem.device.kernel_lang import ti

    @ti.func
    def _sum_into_ledger(dg: ti.template(), k):
        dg.ledger[0, k] = dg.slots[k] + dg.rec[k, 0]

    @ti.kernel
    def _kernel(dg: DiagArgs, n: ti.i32):
        for k in range(n):
            _sum_into_ledger(dg, k)

    ledger = ti.ndarray(ti.f64, (1, 3))
    slots = ti.ndarray(ti.f64, 3)
    rec = ti.ndarray(ti.f64, (3, 1))
    slots.from_numpy(np.array([1.0, 2.0, 3.0]))
    rec.from_numpy(np.array([[10.0], [20.0], [30.0]]))
    _kernel(DiagArgs(ledger=ledger, slots=slots, rec=rec), 3)
    assert ledger.to_numpy().tolist() == [[11.0, 22.0, 33.0]]
