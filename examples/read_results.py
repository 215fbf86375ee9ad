"""Reading a run back: its history (history.parquet, or history.csv) into pandas with the units from
summary.json, and a ParaView frame's contacts into pandas and pyvista, summed per interface and checked against
the interface probes.

    dem run examples/stacked_blocks.py --set t_end=1 --vtk-fps 20 --out runs/stack
    python examples/read_results.py runs/stack
    python examples/read_results.py runs/stack --run-first --t-end 0.5     # make the run, then read it

Needs pandas and pyvista (``pip install -e '.[vis]'`` from the dem checkout).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from dem.output.results import load_results


def history_frame(res) -> pd.DataFrame:
    """The history as a DataFrame indexed by time; units and meanings in ``df.attrs``."""
    df = pd.DataFrame(res.history).set_index("t")
    cols = res.summary.get("columns", {})
    df.attrs["units"] = {k: v["unit"] for k, v in cols.items()}
    df.attrs["meaning"] = {k: v["meaning"] for k, v in cols.items()}
    return df


def contacts_frame(res, k: int) -> pd.DataFrame:
    """The contacts of frame `k`, one row per contact; vectors split into _x, _y, _z columns."""
    arrays = res.frame_arrays(k)["contacts"]
    data = {}
    for name, a in arrays.items():
        if name == "points":
            a = a[0::2]  # point 2k is contact k's contact point (2k+1: its sphere's centre)
            name = "point"
        if np.ndim(a) == 2:
            data |= {f"{name}_{c}": a[:, i] for i, c in enumerate("xyz")}
        else:
            data[name] = a
    return pd.DataFrame(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", nargs="?", default="runs/stack", help="output folder of a run with frames")
    ap.add_argument("--run-first", action="store_true", help="run examples/stacked_blocks.py into it first")
    ap.add_argument("--t-end", type=float, default=1.0, help="duration of that run [s]")
    args = ap.parse_args()
    out = Path(args.out_dir)
    if args.run_first:
        from dem.cli.main import main as dem_main

        scene = Path(__file__).with_name("stacked_blocks.py")
        if dem_main(["run", str(scene), "--set", f"t_end={args.t_end}", "--vtk-fps", "20", "--out", str(out),
                     "--no-progress", "--no-plots"]) != 0:
            raise SystemExit("the run failed")

    res = load_results(out)
    df = history_frame(res)
    u = df.attrs["units"]
    print(f"history: {len(df)} records, {len(df.columns)} columns, t = {df.index[0]:g} … {df.index[-1]:g} s")
    for col in ("upper_theta_over_alpha", "joint_V", "joint_ecc", "base_friction"):
        if col in df:
            print(f"  max |{col}| = {df[col].abs().max():.4g} [{u.get(col, '?')}]  ({df.attrs['meaning'][col]})")

    k = res.frame_count - 2  # the last frame with a history row at its time (history ends one record early)
    t = res.times[k]
    c = contacts_frame(res, k)
    print(f"frame {k} at t = {t:g} s: {len(c)} contacts, {int((c.other_body_id >= 0).sum())} between the blocks")
    # sum the forces the upper block (body 1) receives from the lower one (body 0), both orientations
    fz = np.where((c.body_id == 1) & (c.other_body_id == 0), c.force_z, 0.0).sum() \
        - np.where((c.body_id == 0) & (c.other_body_id == 1), c.force_z, 0.0).sum()
    row = df.index.get_indexer([t], method="nearest")[0]
    print(f"  joint: Σ F_z of the exported contacts {fz:.6g} N, interface probe joint_V "
          f"{df['joint_V'].iloc[row]:.6g} N")
    dashpot = np.linalg.norm(c[["normal_dashpot_force_x", "normal_dashpot_force_y", "normal_dashpot_force_z"]], axis=1)
    print(f"  dashpot share of the normal forces: {dashpot.sum() / c.fn.abs().sum():.2%}")
    print(c.groupby(["body_id", "other_body_id", "wall_id"])[["fn", "overlap"]]
           .agg(["count", "sum", "max"]).to_string())

    try:
        import pyvista  # noqa: F401
    except ImportError:
        print("pyvista not installed: pip install -e '.[vis]' from the dem checkout")
        return
    blocks = res.pyvista_frame(k)
    spheres, contacts = blocks["spheres"], blocks["contacts"]
    upper = spheres.extract_points(spheres.point_data["clump_id"] == 1, adjacent_cells=False)
    joint = contacts.extract_cells(np.flatnonzero(contacts.cell_data["other_body_id"] >= 0))
    print(f"pyvista: {spheres.n_points} spheres ({upper.n_points} of the upper block, centre at "
          f"{np.round(upper.center, 4).tolist()} m), {joint.n_cells} joint contacts as line cells")


if __name__ == "__main__":
    main()
