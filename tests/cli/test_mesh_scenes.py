"""The mesh scenes work as every scene does (issue 31, item 3): ``dem run mesh_body --set mesh=PATH units=mm
density=2500 theta0_deg=3`` on the user's own file, ``--vary`` as worlds of one batch, ``dem sweep`` with the
rigid engine on the body's own rigid reference, a checkpoint resumed to the same history as a run straight
through (serial CPU: bit for bit)."""

import json

import numpy as np
import pandas as pd
import pytest

from dem.cli.main import main
from dem.model.mesh_file import TriMesh
from dem.model.mesh_shapes import prism_mesh, write_stl
from tests._reliability import QUIET

RECORD = "examples/data/synthetic_motion.AT2"


def test_a_users_mesh_in_millimetres(ti_cpu, tmp_path):
    """A tapered block written in millimetres, named by its file: its rotation is ``<file>_theta_deg``, its
    mass the mesh's volume × density, its pivots from the mesh (b = 0.1 m, h its centroid's height)."""
    block = prism_mesh([(-0.1, 0.0), (0.1, 0.0), (0.07, 0.6), (-0.07, 0.6)], 0.3)
    path = write_stl(tmp_path / "My Block.stl", TriMesh(block.vertices * 1000.0, block.faces))
    out = tmp_path / "run"
    code = main(["run", "mesh_body", *QUIET, "--out", str(out), "--set", f"mesh={path}", "units=mm",
                 "density=2500", "theta0_deg=3", "t_end=0.3"])
    assert code == 0
    s = json.loads((out / "summary.json").read_text())
    volume = 0.5 * (0.2 + 0.14) * 0.6 * 0.3
    assert s["mass_kg"] == pytest.approx(2500 * volume, rel=1e-6)
    h = 0.6 * (0.2 + 2 * 0.14) / (3 * (0.2 + 0.14))
    assert s["pivots"]["+x"]["b_m"] == pytest.approx(0.1, rel=1e-6) and s["pivots"]["+x"]["h_m"] == pytest.approx(h)
    assert s["columns"]["my_block_theta_deg"]["unit"] == "deg"
    assert s["params"]["units"] == "mm" and s["mesh"]["source"] == str(path)
    hist = pd.read_parquet(out / "history.parquet")
    assert hist["my_block_theta_deg"].iloc[0] == pytest.approx(3.0, abs=1e-6)
    assert hist["my_block_theta_deg"].abs().min() < 0.5  # it rocked back from its tilt


def test_vary_and_sweep(ti_cpu, tmp_path):
    """Two stones (seeds) as worlds of one batch, and a rigid sweep of the default stone under a record at two
    intensities: its rigid reference is the stone's weaker pivot (summary's alpha_rad)."""
    out = tmp_path / "vary"
    assert main(["run", "scanned_stone", *QUIET, "--out", str(out), "--vary", "seed=3,8", "--set", "t_end=0.2"]) == 0
    table = pd.read_csv(out / "worlds.csv")
    assert list(table["status"]) == ["ok", "ok"]
    masses = [json.loads((out / f"world_{k:03d}" / "summary.json").read_text())["mass_kg"] for k in range(2)]
    assert masses[0] != masses[1]
    sweep = tmp_path / "sweep"
    assert main(["sweep", "scanned_stone", "--records", RECORD, "--scale", "0.2,0.8", "--scale-by", "pga", "--set",
                 "theta0_deg=0", "--engine", "rigid", "--out", str(sweep), "--no-progress"]) == 0
    rows = pd.read_csv(sweep / "results.csv").sort_values("scale")
    # below the stone's uplift (0.349 g) the rigid stone does not move; at 0.8 g it rocks or overturns
    assert rows["peak_theta_over_alpha"].iloc[0] == 0.0 and rows["peak_theta_over_alpha"].iloc[1] > 0.1


def test_checkpoint_resumes_to_the_same_history(ti_cpu, tmp_path):
    straight, split = tmp_path / "straight", tmp_path / "split"
    args = [*QUIET, "--set", "theta0_deg=2", "r_surface=0.02"]
    assert main(["run", "mesh_body", "--out", str(straight), "--t-end", "0.3", *args]) == 0
    assert main(["run", "mesh_body", "--out", str(split), "--t-end", "0.15", "--checkpoint", *args]) == 0
    assert main(["run", "--resume", str(split), "--t-end", "0.3", *QUIET]) == 0
    a, b = pd.read_parquet(straight / "history.parquet"), pd.read_parquet(split / "history.parquet")
    assert len(a) == len(b) and np.array_equal(a["stele_theta_deg"].to_numpy(), b["stele_theta_deg"].to_numpy())
