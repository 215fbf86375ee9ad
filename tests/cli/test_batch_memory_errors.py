"""A batch of worlds too large for the device's memory ends in one ``dem: error:`` line, exit 2, before any device
array of it is allocated (issue 30, "Bad input"), saying how many worlds fit; the figure it compares is the bytes
the batch's arrays take (dem.physics.batch_memory), checked here against the arrays a small batch allocates.

ESTIMATE_TOL_BYTES = 0: the estimate and the allocation count the same arrays from the same counts (each array's
rows × its element's bytes; Taichi's ndarray is dense, no padding between elements), so any difference is an array
allocated and not counted, or counted with the wrong shape. What neither counts (Taichi's runtime, host copies)
is the margin of MEMORY_SHARE.
"""

import math

import numpy as np
import pytest

from dem.cli.main import main
from dem.device import free_memory as FM
from tests._reliability import PENA_COARSE, QUIET, one_error_line

ESTIMATE_TOL_BYTES = 0
SCENE = "drop_box"  # the smallest scene: 8 spheres, one body


def _allocated(sim) -> dict[str, int]:
    """Bytes of every Taichi ndarray the Simulation holds, as Taichi sizes them (elements × element bytes)."""
    from dem.device.kernel_lang import ti

    out = {}
    for part in ("device_model", "state", "contacts", "diag"):
        for name, v in vars(getattr(sim, part)).items():
            if isinstance(v, ti.Ndarray):
                out[f"{part}.{name}"] = int(v.arr.nelement() * v.arr.element_size())
    return out


@pytest.fixture
def mixed_models(ti_cpu):
    """Worlds of three scenes in one batch: one body on walls, the coarse Peña block (a moving table), a column of
    drums (several bodies: body-pair lists, interface probes) — so that every array has rows from each."""
    from dem.scenes.scene import build_scene

    return [build_scene("drop_box", {}).model, build_scene("pena_block", {"r_base": 0.01, "r_core": 0.04}).model,
            build_scene("drum_column", {}).model, build_scene("drop_box", {"length_x": 0.9}).model]


def test_the_estimate_is_the_bytes_the_batch_allocates(ti_cpu, mixed_models):
    from dem.physics.batch_memory import batch_array_bytes, batch_bytes, prefix_array_bytes

    for capacity in (None, 40):
        sim = ti_cpu.Simulation(mixed_models, dt=1e-5, capacity=capacity)
        real = _allocated(sim)
        # the first body-pair search (at reset) may have grown the pair region past its first size: compare at the
        # size it has now, then the start's figure, which the memory check uses, for every other array
        est = batch_array_bytes(mixed_models, capacity=capacity, pair_capacity=sim.contacts.pair_capacity)
        assert set(est) == set(real), set(est) ^ set(real)
        wrong = {k: (real[k], est[k]) for k in real if abs(real[k] - est[k]) > ESTIMATE_TOL_BYTES}
        assert not wrong, wrong
        start = batch_array_bytes(mixed_models, capacity=capacity)
        assert {k for k in start if start[k] != real[k]} <= {"contacts.pairs", "contacts.pair_hist"}
        assert sim.contacts.pair_capacity >= 1024
    # the figure for the first k worlds is that of a batch of those k (how many worlds fit comes from it)
    prefix = prefix_array_bytes(mixed_models)
    for k in range(1, len(mixed_models) + 1):
        assert sum(int(b[k - 1]) for b in prefix.values()) == batch_bytes(mixed_models[:k])


def test_the_estimate_counts_the_block_paths_share_partials(ti_cpu, mixed_models, monkeypatch):
    """On the block path each world's ledger row also holds its shares' partials (dem.physics.share_sums): the
    estimate counts them (the CPU's block path with 4 shares a thread, as a GPU's block of 4 would have)."""
    import dem.physics.share_sums as SS
    from dem.physics.batch_memory import batch_array_bytes

    monkeypatch.setattr(SS, "SHARES_PER_LANE", 4)
    sim = ti_cpu.Simulation(mixed_models, dt=1e-5, capacity=40, parallel=True)
    assert sim.shares == 4
    real = _allocated(sim)
    est = batch_array_bytes(mixed_models, capacity=40, pair_capacity=sim.contacts.pair_capacity, shares=sim.shares)
    assert real["diag.ledger"] == est["diag.ledger"] > batch_array_bytes(mixed_models, capacity=40)["diag.ledger"]
    wrong = {k: (real[k], est[k]) for k in real if abs(real[k] - est[k]) > ESTIMATE_TOL_BYTES}
    assert not wrong, wrong


def test_a_ledger_past_32_bit_indices_is_refused_before_any_array(ti_cpu, mixed_models, monkeypatch):
    """The kernels index the ledger array with 32-bit integers: a batch whose ledger (with the block path's share
    partials) would pass 2³¹ − 1 elements is refused in one line naming how many worlds fit, before any array."""
    import dem.physics.share_sums as SS
    from dem.device.kernel_lang import ti

    monkeypatch.setattr(SS, "SHARES_PER_LANE", 2**20)  # ~600 columns a share of the column: 4 worlds pass 2³¹
    monkeypatch.setattr(FM, "free_memory", lambda arch: FM.FreeMemory(None, "test"))  # no memory check
    monkeypatch.setattr(ti, "ndarray", lambda *a, **k: pytest.fail("an array was allocated"))
    with pytest.raises(ValueError, match=r"ledger columns a world with 1048576 shares .*: at most \d+ worlds fit"):
        ti_cpu.Simulation(mixed_models, dt=1e-5, parallel=True)


def test_real_precision_halves_the_real_arrays_only(ti_cpu, mixed_models):
    from dem.physics.batch_memory import batch_array_bytes

    f64 = batch_array_bytes(mixed_models, precision="f64")
    f32 = batch_array_bytes(mixed_models, precision="f32")
    ints = {"device_model.sph_info", "device_model.cluster_range", "device_model.iface_map",
            "device_model.world_info", "contacts.cand", "contacts.counts", "contacts.pairs"}
    for k in f64:
        assert f32[k] == (f64[k] if k in ints else f64[k] // 2), k


def _fit_exactly(models, fit: int, monkeypatch, capacity=None) -> int:
    """Make the backend's free memory such that the first `fit` of `models` fit and `fit` + 1 do not; returns it."""
    from dem.model.sizing import MEMORY_SHARE
    from dem.physics.batch_memory import prefix_array_bytes

    total = sum(prefix_array_bytes(models, capacity=capacity).values())
    free = math.ceil(int(total[fit - 1]) / MEMORY_SHARE) + 1 if fit else 1
    assert fit == len(models) or MEMORY_SHARE * free < total[fit]
    monkeypatch.setattr(FM, "free_memory", lambda backend: FM.FreeMemory(free, "the host's available memory"))
    return free


@pytest.fixture
def no_allocation(monkeypatch):
    """Every device array and DeviceModel made from here on is recorded, and refused."""
    from dem.device.kernel_lang import ti
    from dem.device.model_arrays import DeviceModel

    made = []

    def refuse(*a, **k):
        made.append(a)
        raise AssertionError("a device array was allocated before the memory check")

    monkeypatch.setattr(ti, "ndarray", refuse)
    monkeypatch.setattr(DeviceModel, "__init__", refuse)
    return made


def test_simulation_refuses_a_batch_too_large_before_allocating(ti_cpu, monkeypatch, no_allocation):
    from dem.physics.batch_memory import BatchTooLarge, batch_bytes
    from dem.scenes.scene import build_scene

    models = [build_scene(SCENE, {}).model] * 10
    free = _fit_exactly(models, 3, monkeypatch)
    with pytest.raises(BatchTooLarge) as e:
        ti_cpu.Simulation(models, dt=1e-5)
    msg = str(e.value)
    need = batch_bytes(models)
    assert "\n" not in msg and msg.startswith("a batch of 10 worlds needs about")
    assert f"({need:,} bytes;" in msg and f"({free:,} bytes)" in msg and "per world" in msg
    assert "at most 3 of these worlds fit" in msg and "--worlds" in msg and "--batch-size" in msg
    assert (e.value.world_count, e.value.need_bytes, e.value.available_bytes, e.value.fit) == (10, need, free, 3)
    assert isinstance(e.value, ValueError)  # the CLI's input errors
    assert no_allocation == []


def test_not_one_world_fits_and_the_checks_that_let_a_batch_through(ti_cpu, monkeypatch):
    from dem.model.sizing import allow_large
    from dem.physics.batch_memory import BatchTooLarge, check_batch_memory
    from dem.scenes.scene import build_scene

    models = [build_scene(SCENE, {}).model] * 4
    _fit_exactly(models, 0, monkeypatch)
    with pytest.raises(BatchTooLarge, match="not even one world fits: make the scene smaller") as e:
        check_batch_memory(models)
    assert e.value.fit == 0
    with allow_large(True):  # dem run --force
        check_batch_memory(models)
    _fit_exactly(models, 4, monkeypatch)
    check_batch_memory(models)  # all four fit
    monkeypatch.setattr(FM, "free_memory", lambda backend: FM.FreeMemory(None, "a Vulkan device's memory"))
    check_batch_memory(models * 10**4)  # the backend cannot say: no check


def test_free_memory_by_backend(monkeypatch):
    monkeypatch.setattr(FM, "available_memory", lambda: 5 * 2**30)
    for backend in ("cpu", "x64", "arm64", "metal"):
        assert FM.free_memory(backend).bytes == 5 * 2**30
    monkeypatch.setattr(FM, "cuda_driver_free", lambda: 7 * 2**30)
    monkeypatch.setattr(FM, "nvidia_smi_free", lambda: 1)
    assert FM.free_memory("cuda").bytes == 7 * 2**30  # the driver's figure first
    monkeypatch.setattr(FM, "cuda_driver_free", lambda: None)
    assert FM.free_memory("cuda") == FM.FreeMemory(1, "the GPU's free memory (nvidia-smi)")
    monkeypatch.setattr(FM, "vulkan_is_lavapipe", lambda: True)
    assert FM.free_memory("vulkan").bytes == 5 * 2**30
    monkeypatch.setattr(FM, "vulkan_is_lavapipe", lambda: False)
    assert FM.free_memory("vulkan").bytes is None


def test_lavapipe_is_told_from_the_drivers_mapped():
    lvp = "7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so\n"
    nv = "7f02-7f03 r-xp 0 08:01 2 /usr/lib/x86_64-linux-gnu/libGLX_nvidia.so.0\n"
    assert FM.vulkan_is_lavapipe(lvp)
    assert not FM.vulkan_is_lavapipe(lvp + nv)  # a GPU's driver loaded too: Taichi may run on it
    assert not FM.vulkan_is_lavapipe("")


@pytest.mark.parametrize("flags, worlds, fit", [(["--worlds", "50"], 50, 7),
                                                (["--vary", "length_x=0.5,0.6,0.7,0.8"], 4, 1)])
def test_cli_batch_too_large_is_one_error_line(ti_cpu, tmp_path, capsys, monkeypatch, no_allocation, flags, worlds,
                                               fit):
    from dem.run.driver import _history_capacity
    from dem.scenes.scene import build_scene

    models = [build_scene(SCENE, {"length_x": v}).model for v in (0.5, 0.6, 0.7, 0.8)] if "--vary" in flags \
        else [build_scene(SCENE, {}).model] * worlds
    _fit_exactly(models, fit, monkeypatch, capacity=_history_capacity(models, None))
    out = tmp_path / "batch"
    code = main(["run", SCENE, *flags, "--out", str(out), *QUIET])
    line = one_error_line(capsys.readouterr().err)
    assert code == 2, line
    assert line.startswith(f"dem: error: a batch of {worlds} worlds needs about"), line
    assert f"at most {fit} of these worlds fit" in line and "--worlds" in line
    assert not out.exists() and no_allocation == []  # refused before the output folder and any device array


def test_cli_force_runs_the_batch_anyway(ti_cpu, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(FM, "free_memory", lambda backend: FM.FreeMemory(1, "the host's available memory"))
    out = tmp_path / "batch"
    code = main(["run", SCENE, "--worlds", "2", "--t-end", "0.01", "--force", "--out", str(out), *QUIET])
    assert code == 0, capsys.readouterr().err
    assert (out / "worlds.csv").exists()


def test_sweep_batch_too_large_is_one_error_line(ti_cpu, tmp_path, capsys, monkeypatch, no_allocation):
    """``dem sweep --engine dem``: the batch is the sweep's --batch-size, no case's fault: the sweep stops with the
    line (not a table of error rows)."""
    from dem.sweep import read_results

    rec = tmp_path / "pulse.csv"
    t = np.arange(0, 201) * 0.005
    a = 0.1 * np.sin(2 * np.pi * t)
    rec.write_text("t,a_g\n" + "".join(f"{float(x)!r},{float(y)!r}\n" for x, y in zip(t, a)))
    monkeypatch.setattr(FM, "free_memory", lambda backend: FM.FreeMemory(1, "the host's available memory"))
    out = tmp_path / "sweep"
    code = main(["sweep", "single_pier", "--engine", "dem", "--records", str(rec), "--scale", "0.1:0.5:5",
                 "--batch-size", "5", "--set", "r_base=0.16", "r_core=0.4", "--t-end", "1", "--out", str(out),
                 "--no-progress"])
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and line.startswith("dem: error: a batch of 5 worlds needs about"), line
    assert "not even one world fits" in line
    with pytest.raises(ValueError, match="no finished cases"):  # no case was written as an error row
        read_results(out)
    assert no_allocation == []


def test_a_copy_batch_is_checked_before_its_worlds_are_built(ti_cpu, tmp_path, capsys, monkeypatch):
    """``--worlds N`` alone: N copies of one scene, refused from the first one built, not after building N."""
    import dem.run.worlds as worlds

    built = []
    monkeypatch.setattr(worlds, "build_scene", lambda *a, **k: built.append(1))
    monkeypatch.setattr(FM, "free_memory", lambda backend: FM.FreeMemory(2**20, "the host's available memory"))
    code = main(["run", *PENA_COARSE, "--worlds", "100000", "--out", str(tmp_path / "b"), *QUIET])
    line = one_error_line(capsys.readouterr().err)
    assert code == 2 and "a batch of 100,000 worlds" in line and "at most 1 of these worlds fit" in line, line
    assert built == []  # build_worlds never ran
