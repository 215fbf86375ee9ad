"""Bad launch settings end in one ``dem: error:`` line, exit 2, before Taichi starts or anything is built (issue 30,
"Bad input"): a ``--block-dim`` that is not a power of two or above the backend's limit (naming the allowed values),
and a backend this machine cannot run; ``Simulation(block_dim=...)`` refuses the same before allocating."""

from pathlib import Path

import pytest

from dem.cli.main import main
from dem.device.backends import BLOCK_DIM_LIMITS, check_block_dim
from tests._reliability import one_error_line

SCENE = "drop_box"  # the smallest scene: 8 spheres


@pytest.mark.parametrize("arch, value, allowed", [
    ("cuda", "100", "a power of two in [1, 1024]"),
    ("cuda", "2048", "a power of two in [1, 1024]"),
    ("vulkan", "512", "a power of two in [1, 256]"),
    ("gpu", "0", "a power of two in [1, 256]"),
    ("metal", "-4", "a power of two in [1, 256]"),
    ("cpu", "128", "must be 1 on the cpu backend"),
])
def test_block_dim_refused_before_the_run(tmp_path, capsys, arch, value, allowed):
    out = tmp_path / "run"
    code = main(["run", SCENE, "--arch", arch, "--block-dim", value, "--out", str(out), "--no-plots"])
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and line.startswith("dem: error: --block-dim must be") and allowed in line, line
    assert f"got {int(value)}" in line and f"on the {arch} backend" in line
    assert not out.exists()  # nothing written: refused before the output folder is made


@pytest.mark.parametrize("arch, value", [("cuda", "96"), ("cpu", "4")])
def test_sweep_refuses_block_dim_before_planning(tmp_path, capsys, arch, value):
    """dem sweep takes --block-dim for its DEM batches (docs/examples/gpu_fragility_study.py): the same one line,
    before a record is read or the output folder made (the records named here do not exist)."""
    out = tmp_path / "sweep"
    code = main(["sweep", "single_pier", "--records", str(tmp_path / "none.AT2"), "--scale", "1", "--engine", "dem",
                 "--arch", arch, "--block-dim", value, "--out", str(out)])
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and line.startswith("dem: error: --block-dim must be") and f"got {value}" in line, line
    assert not out.exists()


def test_block_dim_not_a_number(capsys):
    code = main(["run", SCENE, "--block-dim", "many"])
    err = capsys.readouterr().err
    assert code == 2
    assert one_error_line(err).startswith("dem: error: argument --block-dim: invalid int value")


def test_check_block_dim_takes_each_power_of_two_to_the_limit():
    for arch, limit in BLOCK_DIM_LIMITS.items():
        k = 1
        while k <= limit:
            check_block_dim(k, arch)
            k *= 2
        for bad in (k, 3 if limit > 2 else 2, 0, -1, 1.0, True, "8"):
            with pytest.raises(ValueError, match=f"block_dim must be .* on the {arch} backend"):
                check_block_dim(bad, arch)


def test_simulation_refuses_block_dim_before_allocating(ti_cpu, monkeypatch):
    from dem.device.model_arrays import DeviceModel
    from tests.builders import sphere_on_wall

    made = []
    monkeypatch.setattr(DeviceModel, "__init__", lambda self, *a, **k: made.append(1))
    with pytest.raises(ValueError, match=r"block_dim must be 1 on the cpu backend, got 4"):
        ti_cpu.Simulation(sphere_on_wall(ti_cpu), dt=1e-5, parallel=True, block_dim=4)
    assert not made


def test_unavailable_backend_is_one_error_line(tmp_path):
    """Metal does not run on Linux: Taichi falls back to the CPU, which dem refuses (runtime._check_arch) before the
    scene is built (a child process: the refusal resets the toolchain)."""
    import platform
    import subprocess
    import sys

    if platform.system() == "Darwin":
        pytest.skip("macOS has the Metal backend, so it cannot stand for an unavailable one here")
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "-m", "dem", "run", SCENE, "--arch", "metal", "--out", str(out), "--no-plots"],
                       cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=300)
    line = one_error_line(p.stderr)
    assert p.returncode == 2 and "arch 'metal' is not available on this machine" in line and "--arch cpu" in line
    assert not out.exists()
