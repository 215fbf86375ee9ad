"""The scripts in examples/ run as a user runs them (a fresh Python process, short durations) and print
what they promise; their physics is checked where a number is printed that mechanics predicts.

Each run is a subprocess with this checkout first on the path, so it tests this tree's dem.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TIMEOUT = 600  # [s]: each script takes 5-15 s here once Taichi's kernel cache is warm; the first compile, minutes


def run(args: list[str], tmp_path: Path) -> str:
    env = os.environ | {"PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=tmp_path, env=env,
                       timeout=TIMEOUT)
    assert r.returncode == 0, f"{args} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def test_stacked_blocks_scene(tmp_path):
    """The custom scene, from Python: the joint is in register (15 × 15 columns of the upper block's 10 mm
    spheres on the lower block's top lattice) and, once loaded, carries the upper block's weight."""
    out = run([str(EXAMPLES / "stacked_blocks.py"), "--t-end", "0.3", "--out", "run"], tmp_path)
    assert "joint: 225 sphere pairs in register at t = 0" in out
    # at 0.3 s the base has moved for 0.2 s at under 0.01 g: the joint carries the upper block's weight (the
    # record's acceleration then, < 1 % of g, is the tolerance's share)
    ratio = float(re.search(r"V ÷ upper weight ([\d.]+) at the end", out).group(1))
    assert ratio == pytest.approx(1.0, abs=0.02)
    assert (tmp_path / "run" / "plot_rocking.png").exists() and (tmp_path / "run" / "summary.json").exists()


def test_the_command_line_gives_the_examples_warning_in_one_line(tmp_path):
    """(Issue 32: `dem run examples/stacked_blocks.py` printed ".../dem/cli/main.py:207: UserWarning:
    damping_mass='body' ...".) The scene's start-up note (two bodies on an interface whose dashpots use the body's
    mass, dem.model.timestep.body_dashpot_notes) is one line `dem: warning: ...`, without Python's source path."""
    env = os.environ | {"PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run([sys.executable, "-m", "dem.cli", "run", str(EXAMPLES / "stacked_blocks.py"), "--set",
                        "t_end=0.02", "--no-plots", "--no-progress", "--out", "run"], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr[-3000:]
    notes = [ln for ln in r.stderr.splitlines() if "damping_mass='body'" in ln]
    assert notes and all(ln.startswith("dem: warning: ") for ln in notes), r.stderr
    assert "UserWarning" not in r.stderr and "main.py:" not in r.stderr, r.stderr


def test_parameter_loop(tmp_path):
    """Scales 0.5 and 1.5 of the 0.4 g record over its first 1.5 s: the upper block (tan α = 1/3) stays down at
    0.2 g, below the uplift threshold g tan α, and rocks at 0.6 g."""
    out = run([str(EXAMPLES / "parameter_loop.py"), "--t-end", "1.5", "--scales", "0.5", "1.5"], tmp_path)
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d\.\d\d\s", line)]
    assert [float(r[0]) for r in rows] == [0.5, 1.5]
    peaks = [float(r[2]) for r in rows]
    assert peaks[0] < 0.01 and peaks[1] > 0.05


def test_read_results(tmp_path):
    # the script reads a frame with pyvista: in the vis extra, not the test extra (the README's test command)
    pytest.importorskip("pyvista", reason="pyvista is in the vis extra (pip install -e '.[vis]')")
    out = run([str(EXAMPLES / "read_results.py"), "run", "--run-first", "--t-end", "0.3"], tmp_path)
    m = re.search(r"Σ F_z of the exported contacts ([-\d.e+]+) N, interface probe joint_V ([-\d.e+]+) N", out)
    assert m and float(m.group(1)) == pytest.approx(float(m.group(2)), rel=1e-5)  # printed to 6 digits
    assert "225 between the blocks" in out and "joint contacts as line cells" in out
