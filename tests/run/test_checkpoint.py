"""Checkpoint and restart: a run killed (SIGTERM or SIGKILL) at a random point and resumed writes the same
history, byte for byte, as the run left alone (serial CPU path: bit-reproducible, simulation.py); a finished
run that kept a checkpoint extends; a checkpoint of another model or code version is refused with the reason; a
run that asked for none leaves none."""

import os
import random
import shutil
import signal
import time

import numpy as np
import pytest

from dem.cli.main import main
from dem.output.files import csv_header, format_rows
from dem.output.history import read_history
from dem.run.checkpoint import CHECKPOINT_NAME, Checkpoint, load, model_hash, saved_history_every
from tests._reliability import PENA_COARSE, QUIET, ROOT, start_run, strict_json, temp_files, wait_for

# scenes run long enough that a kill lands mid-run: the coarse Peña block (rocks, comes to rest and
# sleeps at ≈ 5 s: the fast-forward and sleep state are crossed) and two stacked blocks (wall and
# body–body contacts, shear history carried over pair rebuilds; without sleep, since the edge-true blocks
# settle within 0.3 s and the rest of the run would be fast-forwarded in a blink, before any kill)
SCENES = {
    "pena": PENA_COARSE + ["theta0_deg=8", "--t-end", "6"],
    "stack": ["tests/_stacked_blocks.py", "--no-sleep", "--t-end", "5"],
}
KILL_WINDOW = 2.0  # s of wall time after the first checkpoint within which the kill falls (runs last longer)


@pytest.fixture(scope="module")
def reference(ti_cpu, tmp_path_factory):
    """history.parquet of each scene run without interruption (in this process, no checkpoint), and its
    summary.json's per-body rows (under ``<scene>.bodies``)."""
    out = {}
    for name, args in SCENES.items():
        d = tmp_path_factory.mktemp(f"ref_{name}")
        assert main(["run", *args, *QUIET, "--out", str(d)]) == 0
        out[name] = (d / "history.parquet").read_bytes()
        out[f"{name}.bodies"] = strict_json(d / "summary.json")["bodies"]
    return out


@pytest.mark.timeout(600)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
@pytest.mark.parametrize("scene", list(SCENES))
def test_killed_and_resumed_run_is_bit_identical(reference, tmp_path, capsys, scene, sig):
    seed = int.from_bytes(os.urandom(4), "little")
    delay = random.Random(seed).uniform(0.0, KILL_WINDOW)
    out = tmp_path / "run"
    proc = start_run([*SCENES[scene], *QUIET, "--checkpoint-every", "0.25", "--out", str(out)])
    try:
        wait_for(lambda: (out / CHECKPOINT_NAME).exists(), proc=proc, what="the first checkpoint")
        time.sleep(delay)
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    where = f"(seed {seed}, kill {delay:.2f} s after the first checkpoint)"
    if sig == signal.SIGTERM:
        assert proc.returncode == 143, f"{where} {err}"
        summary = strict_json(out / "summary.json")
        assert summary["status"] == "interrupted" and summary["interrupted_by"] == "SIGTERM"
        # the final checkpoint is at the last step, history.csv ends there too
        assert summary["checkpoint"]["step"] == summary["steps"]
        assert not temp_files(out), where
    else:
        assert proc.returncode == -signal.SIGKILL, f"{where} {err}"
    t_ck = load(out).time
    assert 0 < t_ck < float(SCENES[scene][-1]), where
    capsys.readouterr()
    assert main(["run", "--resume", str(out), *QUIET]) == 0, capsys.readouterr().err
    summary = strict_json(out / "summary.json")
    assert summary["status"] == "ok" and summary["resumed_at_s"][-1] == pytest.approx(t_ck)
    assert (out / "history.parquet").read_bytes() == reference[scene], where
    assert summary["bodies"] == reference[f"{scene}.bodies"], where  # peaks and falls carried by the checkpoint
    assert not temp_files(out), where


def test_extend_a_finished_run(ti_cpu, tmp_path, capsys):
    """0.2 s with --checkpoint, then --resume --t-end 0.4: the same history, profiles and ParaView frames as
    a 0.4 s run; without --t-end it is refused. The same for a run written as CSV (--csv): it goes on in CSV."""
    args = [*PENA_COARSE, "theta0_deg=4", *QUIET, "--vtk-fps", "20"]
    assert main(["run", *args, "--t-end", "0.4", "--out", str(tmp_path / "whole")]) == 0
    part = tmp_path / "part"
    assert main(["run", *args, "--t-end", "0.2", "--checkpoint", "--out", str(part)]) == 0
    assert strict_json(part / "summary.json")["checkpoint"]["t"] == pytest.approx(0.2)
    capsys.readouterr()
    assert main(["run", "--resume", str(part), *QUIET]) == 2
    assert "has reached t = 0.2 s; give a --t-end beyond it" in capsys.readouterr().err
    assert main(["run", "--resume", str(part), "--t-end", "0.4", *QUIET]) == 0
    assert (part / "history.parquet").read_bytes() == (tmp_path / "whole" / "history.parquet").read_bytes()
    assert (part / "profile_width.parquet").read_bytes() == \
        (tmp_path / "whole" / "profile_width.parquet").read_bytes()
    assert (part / "run.pvd").read_bytes() == (tmp_path / "whole" / "run.pvd").read_bytes()
    frames = sorted(p.name for p in (tmp_path / "whole" / "vtk").iterdir())
    assert len([f for f in frames if f.endswith(".vtu")]) == 4 * 9  # and vtk/bodies.csv, the bodies' names
    assert frames == sorted(p.name for p in (part / "vtk").iterdir())
    assert all((part / "vtk" / f).read_bytes() == (tmp_path / "whole" / "vtk" / f).read_bytes() for f in frames)
    csv = tmp_path / "csv"
    assert main(["run", *args, "--t-end", "0.2", "--csv", "--checkpoint-every", "0.1", "--out", str(csv)]) == 0
    assert main(["run", "--resume", str(csv), "--t-end", "0.4", *QUIET]) == 0
    whole = read_history(tmp_path / "whole")
    assert (csv / "history.csv").read_bytes() == csv_header(whole) + format_rows(whole)
    assert not (csv / "history.parquet").exists()


def test_no_checkpoint_unless_asked(ti_cpu, tmp_path, capsys):
    """(Was: a 37 MB checkpoint.npz in every output folder.) A run that asks for none leaves none, and
    --resume says how to ask for one; a new run into a folder removes the last run's checkpoint, so that
    --resume can never go on from another run's."""
    out = tmp_path / "run"
    assert main(["run", *PENA_COARSE, "--t-end", "0.01", *QUIET, "--checkpoint", "--out", str(out)]) == 0
    assert (out / CHECKPOINT_NAME).exists()
    assert main(["run", *PENA_COARSE, "--t-end", "0.01", *QUIET, "--out", str(out)]) == 0
    assert not (out / CHECKPOINT_NAME).exists() and strict_json(out / "summary.json")["checkpoint"] is None
    capsys.readouterr()
    assert main(["run", "--resume", str(out), "--t-end", "0.02", *QUIET]) == 2
    assert "a run keeps one only when asked: dem run --checkpoint" in capsys.readouterr().err


def test_mismatched_checkpoints_are_refused(ti_cpu, tmp_path, capsys):
    """Another model (the scene file's build changed), another code version, or a setting given again:
    refused before anything runs, with the reason."""
    scene = tmp_path / "stack.py"
    shutil.copy(ROOT / "tests" / "_stacked_blocks.py", scene)
    out = tmp_path / "run"
    assert main(["run", str(scene), "--t-end", "0.01", *QUIET, "--checkpoint", "--out", str(out)]) == 0
    before = (out / "history.parquet").read_bytes()

    scene.write_text(scene.read_text().replace("mass=2.0", "mass=2.5"))  # the lower block is heavier now
    capsys.readouterr()
    assert main(["run", "--resume", str(out), "--t-end", "0.02", *QUIET]) == 2
    err = capsys.readouterr().err
    assert "belongs to another model" in err and "scene file or its parameters changed" in err
    shutil.copy(ROOT / "tests" / "_stacked_blocks.py", scene)

    ck = load(out)
    ck.meta["code_version"] = "0.0.1+0123456789abcdef"
    _rewrite(out / CHECKPOINT_NAME, ck)
    assert main(["run", "--resume", str(out), "--t-end", "0.02", *QUIET]) == 2
    assert "was written by dem 0.0.1+0123456789abcdef" in capsys.readouterr().err

    assert main(["run", "--resume", str(out), "--dt", "1e-6", *QUIET]) == 2
    assert "--dt cannot be given with it" in capsys.readouterr().err
    assert (out / "history.parquet").read_bytes() == before  # nothing ran


def test_a_checkpoint_written_with_record_every_is_read():
    """Checkpoints written before the rename hold the steps between history rows as ``record_every`` (the run's
    settings and the Simulation's own value): they are read as ``history_every``, without a warning."""
    assert saved_history_every({"dt": 1e-5, "history_every": 20}) == 20
    assert saved_history_every({"dt": 1e-5, "record_every": 20}) == 20
    old = Checkpoint({"run": {"dt": 1e-5, "record_every": 20, "precision": "f64"},
                      "sim_plain": {"sim.record_every": 20, "sim.dt": 1e-5}}, {"sim:state.pos": np.zeros(3)})
    saved = old.sim_saved()
    assert saved["sim.history_every"] == 20 and "sim.record_every" not in saved and "state.pos" in saved
    new = Checkpoint({"run": {}, "sim_plain": {"sim.history_every": 5}}, {})
    assert new.sim_saved() == {"sim.history_every": 5}


def test_a_run_resumes_from_a_checkpoint_written_with_record_every(ti_cpu, tmp_path, capsys):
    """A checkpoint whose run settings and Simulation values say ``record_every`` (as before the rename) resumes
    silently (its settings matched against this run's: dem.run.checkpoint.check_matches) to the history of the run
    left alone."""
    args = [*PENA_COARSE, "theta0_deg=4", *QUIET]
    assert main(["run", *args, "--t-end", "0.02", "--out", str(tmp_path / "whole")]) == 0
    part = tmp_path / "part"
    assert main(["run", *args, "--t-end", "0.01", "--checkpoint", "--out", str(part)]) == 0
    ck = load(part)
    ck.meta["run"]["record_every"] = ck.meta["run"].pop("history_every")
    ck.meta["sim_plain"]["sim.record_every"] = ck.meta["sim_plain"].pop("sim.history_every")
    _rewrite(part / CHECKPOINT_NAME, ck)
    capsys.readouterr()
    assert main(["run", "--resume", str(part), "--t-end", "0.02", *QUIET]) == 0
    assert "deprecated" not in capsys.readouterr().err
    assert (part / "history.parquet").read_bytes() == (tmp_path / "whole" / "history.parquet").read_bytes()


def _rewrite(path, ck):
    import io
    import json

    arrays = dict(ck.arrays)
    arrays["meta"] = np.frombuffer(json.dumps(ck.meta).encode(), np.uint8)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    path.write_bytes(buf.getvalue())


def test_restore_recreates_arrays_that_grew(ti_cpu):
    """A simulation whose pair arrays grew is restored into a fresh one (default capacity): the arrays come
    back at the saved size, and both go on bit for bit (nothing is looked up by name)."""
    from dem.scenes.scene import build_scene

    scene = build_scene(str(ROOT / "tests" / "_stacked_blocks.py"), {})
    a = ti_cpu.Simulation(scene.model, dt=1e-5, history_every=10)
    a.advance(500)
    cap = a.contacts.pair_capacity
    a.contacts.ensure_pair_capacity(4 * cap)
    a.rebuild_pairs()  # refill the grown arrays
    a._pack_cache = None
    a.advance(500)
    saved = a.checkpoint_arrays()
    b = ti_cpu.Simulation(scene.model, dt=1e-5, history_every=10)
    assert b.contacts.pair_capacity == cap
    b.restore_arrays(saved)
    assert b.contacts.pair_capacity == 4 * cap and b.contacts.pairs.shape == a.contacts.pairs.shape
    assert b.state.step == a.state.step and b.pair_rebuilds == a.pair_rebuilds
    ra, rb = a.advance(3000), b.advance(3000)
    assert len(ra) == 300 and np.array_equal(ra, rb)
    assert model_hash(scene.model) == model_hash(build_scene(str(ROOT / "tests" / "_stacked_blocks.py"), {}).model)


def test_a_checkpoint_leaves_out_the_share_partials_and_goes_on_bit_for_bit(ti_cpu, monkeypatch):
    """On the block path the ledger array also holds the shares' partials (dem/physics/share_sums.py), zero between
    steps: a checkpoint keeps the ledger's own columns only (dem.device.host_copy, checkpoint_columns), and a
    simulation restored from it goes on as the one that wrote it, bit for bit (the CPU block path, 4 shares)."""
    import dem.physics.share_sums as SS
    from dem.scenes.scene import build_scene

    monkeypatch.setattr(SS, "SHARES_PER_LANE", 4)
    scene = build_scene(str(ROOT / "tests" / "_stacked_blocks.py"), {})
    a = ti_cpu.Simulation(scene.model, dt=1e-5, history_every=10, parallel=True)
    a.advance(700)
    full = a.diag.ledger.to_numpy()
    keep = a.diag.checkpoint_columns["ledger"]
    assert keep < full.shape[1] and not np.any(full[:, keep:])  # the partials left out are zero between steps
    saved = a.checkpoint_arrays()
    assert saved["diag.ledger"].shape == (1, keep)
    b = ti_cpu.Simulation(scene.model, dt=1e-5, history_every=10, parallel=True)
    b.restore_arrays(saved)
    assert b.diag.ledger.shape == a.diag.ledger.shape
    ra, rb = a.advance(1500), b.advance(1500)
    assert len(ra) == 150 and np.array_equal(ra, rb)
