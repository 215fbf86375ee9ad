"""What a run's outputs tell a reader: the unit and meaning of every history column (summary.json
``columns``, ``dem plot --list``), plots grouped by quantity with the interfaces found by probe, not by
name, the physics in the summary line, ordinary file permissions, and a command line that starts without
Taichi."""

from __future__ import annotations

import json
import math
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dem.cli.main import main
from dem.output.columns import Column
from dem.output.headline import motion_summary
from dem.output.history import read_history
from dem.scenes.scene import scenes_dir

# the units the engine writes: SI, degrees for angles, "-" for ratios, "g" for accelerations ÷ |g|
UNITS = {"s", "deg", "-", "rad/s", "m", "m/s", "m/s²", "N", "N·m", "J", "g"}
SCENES = sorted(p.stem for p in scenes_dir().glob("*.py") if not p.name.startswith("_"))
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("scene_name", SCENES)
def test_every_history_column_has_a_unit_and_files_are_0644(ti_cpu, tmp_path, scene_name):
    from dem.run.driver import run_scene
    from dem.scenes.scene import build_scene

    scene = build_scene(scene_name)
    out = tmp_path / scene_name
    run_scene(scene, t_end=4 * scene.dt, history_dt=scene.dt, out_dir=out, progress=False)
    summary = json.loads((out / "summary.json").read_text())
    header = list(read_history(out))
    cols = summary["columns"]
    assert list(cols) == header  # every column, in file order
    for name, c in cols.items():
        assert c["unit"] in UNITS, (name, c)
        assert c["meaning"] and c["meaning"] != name and c["family"], (name, c)
    # every scene, one body or many, has its per-body rows (dem.run.bodies): after 4 steps nothing has fallen
    bodies = summary["bodies"]
    assert [b["name"] for b in bodies] == [c["name"] for c in summary["clumps"]]
    for b in bodies:
        assert b["fell"] is False and b["fell_time_s"] is None, b
        assert 0 <= b["peak_rotation_rad"] < 1e-3 and 0 < b["overturn_angle_rad"] <= math.pi / 2, b
        assert len(b["residual_displacement_m"]) == 3 and b["residual_horizontal_drift_m"] < 1e-3, b
    mode = 0o666 & ~_umask()
    for f in out.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == mode, (f.name, oct(f.stat().st_mode))
    if _umask() == 0o022:  # the usual umask: readable by everyone, as the issue asks
        assert mode == 0o644


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


def test_interfaces_are_found_by_probe_not_by_name(ti_cpu, tmp_path):
    """The single pier's interface is named "base" like its base-motion probe: the interface columns go to
    plot_interfaces.png, the wall's to plot_base.png."""
    from dem.output.columns import describe
    from dem.output.plots import figure_families
    from dem.scenes.scene import build_scene

    scene = build_scene("single_pier")
    names = ["t", "base_H", "base_V", "base_ecc", "base_acc", "base_vel", "theta_deg", "E_kinetic"]
    figs = figure_families(names, describe(names, scene.probes, scene.model))
    assert sorted(n for f in figs["interfaces"].values() for n in f) == ["base_H", "base_V", "base_ecc"]
    assert sorted(n for f in figs["base"].values() for n in f) == ["base_acc", "base_vel"]
    # one family (one unit) per axis
    for fams in figs.values():
        assert len(fams) == len(set(fams))


@pytest.fixture(scope="module")
def pena_run(tmp_path_factory):
    """Peña block, coarse packing, 3 s: it settles at ≈ 2.6 s."""
    out = tmp_path_factory.mktemp("pena") / "run"
    import dem

    dem.init("cpu")
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(["run", "pena_block", "--set", "r_base=0.01", "r_core=0.04", "t_end=3", "--out", str(out),
                     "--no-progress"])
    assert code == 0
    return out, buf.getvalue()


def test_summary_line_and_motion(pena_run):
    out, stdout = pena_run
    s = json.loads((out / "summary.json").read_text())
    h = read_history(out)
    m = s["motion"]
    assert m["headline"]["value"] == pytest.approx(np.max(np.abs(h["theta_over_alpha"])), rel=1e-9)
    assert m["headline"]["peak_angle_deg"] == pytest.approx(2.9, abs=1e-9)  # released from rest at 2.9°
    # the same definition as the scene's own "settled_at_s" (last |ω| > 1e-4 rad/s): one record apart
    assert abs(m["settled_at_s"] - s["postprocess"]["settled_at_s"]) <= s["history_dt"] * (1 + 1e-9)
    line = stdout.strip().splitlines()[-1]
    for part in ("peak |θ|/α 0.207 (2.9°, block)", f"settled at {m['settled_at_s']:.3g} s", "energy balance error",
                 "s wall", str(out)):
        assert part in line, (part, line)


def test_tipping_and_settling_definitions():
    """On a made-up history: |θ|/α reaches 1 at the 5th record; ω drops below 1e-4 rad/s after the 8th."""
    t = np.arange(10) * 0.1
    ratio = np.array([0, 0.3, 0.6, 0.9, 0.99, 1.0, 1.2, 1.4, 1.5, 1.5])
    omega = np.array([0, 1, 1, 1, 1, 1, 1, 1, 1e-5, 0])
    cols = {"t": Column("s", "time", "time"), "r": Column("-", "θ/α", "rocking angle ÷ α", "pier"),
            "w": Column("rad/s", "ω", "angular velocity", "pier")}
    m = motion_summary({"t": t, "r": ratio, "w": omega}, cols)
    assert m["tipped_over_at_s"] == pytest.approx(0.5) and m["tipped_over_body"] == "pier"
    assert m["settled_at_s"] == pytest.approx(0.8)
    assert m["headline"]["value"] == 1.5
    still = motion_summary({"t": t, "r": ratio, "w": np.ones(10)}, cols)
    assert still["settled_at_s"] is None


def test_a_history_of_no_finite_value_has_no_headline():
    """A run gone non-finite from its first row (a NaN or inf in every probe column) has no peak to headline: the
    summary says none instead of ending in a KeyError (a 1e20 m drop box did)."""
    t = np.linspace(0.0, 0.9, 10)
    nan = np.full(10, np.nan)
    for cols, hist in (({"t": Column("s", "time", "time"), "r": Column("-", "θ/α", "rocking angle ÷ α", "pier")},
                        {"t": t, "r": nan}),
                       ({"t": Column("s", "time", "time"), "a": Column("g", "a", "acceleration", "box")},
                        {"t": t, "a": np.full(10, np.inf) * nan})):
        m = motion_summary(hist, cols)
        assert m.get("headline") is None, m


def test_dem_plot_out_and_list(pena_run, tmp_path, capsys):
    out, _ = pena_run
    png = tmp_path / "sel.png"
    assert main(["plot", str(out), "theta_deg", "base_V", "E_kinetic", "--out", str(png)]) == 0
    assert capsys.readouterr().out.strip() == str(png) and png.stat().st_size > 10_000
    figs = tmp_path / "figs"
    assert main(["plot", str(out), "--out", str(figs)]) == 0
    # the Peña scene probes the block's motion (BodyMotion "block"), so it gets the motion plot too
    assert {p.name for p in figs.iterdir()} == {"plot_rocking.png", "plot_motion.png", "plot_forces.png",
                                                "plot_interfaces.png", "plot_energy.png", "plot_diagnostics.png"}
    capsys.readouterr()
    assert main(["plot", str(out), "--list"]) == 0
    listing = capsys.readouterr().out
    assert "theta_deg" in listing and "[deg]" in listing and "base_ecc" in listing and "middle third" in listing
    for args, message in [(["theta_deg", "--out", str(tmp_path / "a.pdf")], "--out must be a .png file"),
                          (["--out", str(tmp_path / "a.png")], "without COLUMNS --out is a folder"),
                          (["nope"], "no column(s) ['nope']")]:
        assert main(["plot", str(out), *args]) == 2
        assert message in capsys.readouterr().err


def test_help_scenes_and_plot_do_not_import_taichi(pena_run):
    out, _ = pena_run
    code = f"""
import contextlib, io, sys
from dem.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    for argv in (["--help"], ["run", "--help"], ["scenes"], ["plot", {str(out)!r}, "--list"]):
        try:
            main(argv)
        except SystemExit:
            pass
print("TAICHI" if "taichi" in sys.modules else "NO-TAICHI")
import dem, dem.model.box_clump  # the submodule must not shadow the function of the same name
assert callable(dem.box_clump), dem.box_clump
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "NO-TAICHI"
    assert "[Taichi]" not in r.stdout + r.stderr


def test_compile_notice(tmp_path, monkeypatch):
    """The notice says "Compiling" at once for kernel code this machine has not compiled into the cache, with
    the median of the compile times measured here as its estimate; once compiled, a load is silent unless it
    is slow, and says "Loading"; a wrong guess either way is corrected in what it prints. What was a compile
    is told by the toolchain's compile clock (here a stand-in that advances by `compiling` seconds), not by
    the wait: a slow load (issue 32: 8-10 s on a loaded machine) is still a load."""
    import io
    import time

    from dem.device import startup

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache = str(tmp_path / "kernels")
    (tmp_path / "kernels").mkdir()

    def notice(seconds, compiling, delay=5.0):
        out, clock = io.StringIO(), iter((100.0, 100.0 + compiling))
        with startup.compile_notice("v", cache_dir=cache, kernels=("step",), stream=out, delay=delay,
                                    clock=lambda: next(clock)):
            time.sleep(seconds)
        return out.getvalue()

    first = notice(0.4, 0.35)  # new code: a compile, announced at once, with the first guess as its estimate
    assert f"Compiling kernels 0/1 (step; new to this machine or changed since; typically " \
           f"~{startup.FIRST_COMPILE_GUESS_S:.0f} s" in first
    assert "compiled 1/1 kernels in" in first
    assert startup.is_cached("v", cache) and 0.4 <= startup.estimate("v") < 5.0  # measured and kept
    assert notice(0.0, 0.0) == ""  # a quick load says nothing
    slow_load = notice(0.3, 0.005, delay=0.02)  # a slow load (the Python → IR step) says what it is, and stays one
    assert "Loading kernels from the kernel cache" in slow_load and "loaded in" in slow_load
    assert "not in the cache" not in slow_load
    assert "not in the cache after all: compiled 1/1" in notice(0.35, 0.3)  # the cache was cleared meanwhile
    assert startup.estimate("v") >= 0.35  # the median of the two compiles measured
    assert not startup.is_cached("v", str(tmp_path / "elsewhere"))  # another cache directory: not compiled there
    monkeypatch.setattr(startup, "code_fingerprint", lambda: "edited")
    edited = notice(0.05, 0.001)  # changed kernel code: announced as a compile, corrected when it was a load
    assert "Compiling kernels 0/1" in edited and "loaded 1/1 kernels from the kernel cache" in edited


def test_was_compiled_without_a_clock_falls_back_on_the_wait():
    from dem.device import startup

    assert startup.was_compiled(startup.MIN_RECORDED_S, None) and not startup.was_compiled(1.0, None)
    assert startup.was_compiled(30.0, 28.0) and not startup.was_compiled(10.0, 0.1)  # a cold compile; a slow load

