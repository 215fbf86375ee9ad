"""The example study of docs/examples/column_fragility.md: the 12-drum column (scenes/drum_column.py as it is)
under a small synthetic suite scaled to a few PGAs, through the DEM and through the rigid monolithic
column; fragility curves for overturning and for the drums' residual dislocation, and where the time went.

    python docs/examples/column_fragility.py                  # about 7 min on a quiet 2-core machine
    python docs/examples/column_fragility.py --records 12 --levels 0.25:1.5:6   # a larger suite (hours)

Every step is a ``dem`` command (printed before it runs); the sweeps resume where they stopped, so the script
can be interrupted and re-run. The figure and the numbers the page quotes are written to --figures (default
docs/examples/column_fragility/).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from dem_commands import dem  # beside this script

SEED = 2027
PACKING: list[str] = []
"""The scene's drums as they are: 40 mm joint spheres (4,650 spheres in the column), the contacts' modulus scaled so
that the joints close as 15 mm spheres at 50 GPa do (dem.model.joint_modulus). The first version of this study
(before the scaling) ran the same packing at E = 50 GPa: ``--set stiffness_radius=0.04 dt=5e-5``."""
DT = "2.5e-5"  # [s]: the scene's (its joints, as stiff as the 15 mm packing's, balance to ~0.4 % on 20 s of sine)
SETTLE = "0.3"  # [s] standing still before the table moves (the scene's joints close in ~0.2 s)
DISLOCATIONS = (0.005, 0.02)  # [m]: residual dislocation thresholds of the fragility curves (5 and 20 mm)


def figure(dem_dir: Path, rigid_dir: Path, fits: dict, path: Path) -> None:
    """Three panels: overturning (DEM column of drums and rigid monolithic column), residual dislocation
    (DEM: each threshold), and each case's residual dislocation against the PGA, one line per record."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from dem.sweep.fragility import damage_outcomes, fit_with_bootstrap
    from dem.sweep.store import read_results

    d, r = read_results(dem_dir), read_results(rigid_dir)
    d, r = d[d["status"] == "ok"], r[r["status"] == "ok"]
    x = np.linspace(0.02, 1.1 * float(d["pga_g"].max()), 300)
    fig, ax = plt.subplots(1, 3, figsize=(14, 4.2))

    def curve(a, df, measure, label, colour):
        y = damage_outcomes(df, measure)
        fit = fit_with_bootstrap(df["pga_g"].to_numpy(float), y, df["record"].to_numpy(), samples=300, seed=0)
        lo, hi = fit.band(x)
        a.fill_between(x, lo, hi, color=colour, alpha=0.15, lw=0)
        txt = f"θ = {fit.theta:.2f} g, β = {fit.beta:.2f}" if fit.status in ("ok", "separated") else fit.status
        a.plot(x, fit.probability(x), color=colour, lw=1.8, label=f"{label}: {txt}")
        frac = df.assign(y=y).groupby("intensity").agg(x=("pga_g", "mean"), f=("y", "mean"))
        a.plot(frac["x"], frac["f"], "o", color=colour, mfc="none", ms=5)
        fits[f"{label} | {measure}"] = fit.as_dict()

    curve(ax[0], d, "overturned", "DEM, 12 drums", "C0")
    curve(ax[0], r, "overturned", "rigid monolithic column", "C1")
    ax[0].set_title("overturning (the column or a drum falls)")
    for k, t in enumerate(DISLOCATIONS):
        curve(ax[1], d, f"dislocation>={t:g}", f"≥ {1000 * t:g} mm", f"C{k + 2}")
    ax[1].set_title("residual dislocation of a joint (DEM; fallen counts)")
    for a in ax[:2]:
        a.set_xlabel("PGA [g]")
        a.set_ylim(-0.02, 1.02)
        a.grid(True, lw=0.3)
        a.legend(fontsize=7, loc="upper left")
    ax[0].set_ylabel("probability of exceedance [-]")
    for k, (rec, g) in enumerate(d.groupby("record")):
        g = g.sort_values("pga_g")
        ov = g["overturned"].to_numpy(bool)
        ax[2].plot(g["pga_g"], 1000 * g["residual_dislocation_m"], "-o", ms=3, lw=0.8, color=plt.cm.tab10(k % 10),
                   label=rec.replace(".AT2", ""))
        ax[2].plot(g["pga_g"][ov], np.full(ov.sum(), 1000 * 1.05 * max(DISLOCATIONS) * 2), "x",
                   color=plt.cm.tab10(k % 10), ms=6)
    for t in DISLOCATIONS:
        ax[2].axhline(1000 * t, color="grey", lw=0.6, ls="--")
    ax[2].set_yscale("log")
    ax[2].set_xlabel("PGA [g]")
    ax[2].set_ylabel("largest residual joint dislocation [mm]  (× on top: fell)")
    ax[2].set_title("each case (one line per record)")
    ax[2].grid(True, lw=0.3, which="both")
    ax[2].legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def numbers(dem_dir: Path, rigid_dir: Path) -> dict:
    """What the page quotes: per PGA the fractions fallen and dislocated, the joints where the largest
    dislocations are, and where the DEM sweep's time went (its cases' wall times)."""
    from dem.sweep.store import read_results

    d, r = read_results(dem_dir), read_results(rigid_dir)
    per = {}
    for level, g in d.groupby("intensity"):
        rg = r[r["intensity"] == level]
        stand = g[~g["overturned"].astype(bool)]
        per[f"{level:g}"] = {"cases": int(len(g)), "dem_fell": int(g["overturned"].sum()),
                             "rigid_fell": int(rg["overturned"].sum()),
                             "dislocation_mm_median_standing": (1000 * float(stand["residual_dislocation_m"].median())
                                                                if len(stand) else None),
                             "dislocation_mm_max_standing": (1000 * float(stand["residual_dislocation_m"].max())
                                                             if len(stand) else None),
                             "fell_bodies": sorted(set(g["fell_body"]) - {""}),
                             "peak_theta_over_alpha_median": float(g["peak_theta_over_alpha"].median())}
    return {"cases": int(len(d)), "not_ok": int((d["status"] != "ok").sum()),
            "energy_error_max": float(d["energy_error"].max()),
            "energy_error_median": float(d["energy_error"].median()),
            "dislocation_joints": d["residual_dislocation_joint"].value_counts().to_dict(), "per_pga": per}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="runs/column_fragility", help="working folder (default runs/column_fragility)")
    ap.add_argument("--figures", default="docs/examples/column_fragility", help="figure and numbers for the page")
    ap.add_argument("--records", type=int, default=6, help="synthetic records (default 6)")
    ap.add_argument("--levels", default="0.5,1.0,1.5", help="PGA levels [g] (--scale; default 0.5,1.0,1.5)")
    ap.add_argument("--duration", default="2:3", help="record durations LOW:HIGH [s] (default 2:3)")
    ap.add_argument("--t-end", default="4.5", help="simulated time per case [s] (default 4.5: the settling, the "
                                                   "longest record and over a second of free motion)")
    a = ap.parse_args()
    out = Path(a.out)
    recs = out / "records"
    times = {"load_average_start": os.getloadavg()}
    times["records_s"] = dem("records", "synth", "--count", str(a.records), "--seed", str(SEED), "--out", str(recs),
                             "--duration", a.duration, "--freq", "1.5:3", "--pga", "0.2:0.5")
    sweep = ["sweep", "drum_column", "--records", str(recs), "--scale", a.levels, "--scale-by", "pga",
             "--set", *PACKING, f"dt={DT}", f"settle={SETTLE}", "--t-end", a.t_end]
    times["rigid_sweep_s"] = dem(*sweep, "--engine", "rigid", "--out", str(out / "rigid"))
    # all the cases in one batch of worlds (one launch steps them all)
    n_cases = a.records * len(a.levels.split(",") if ":" not in a.levels else [0] * int(a.levels.split(":")[2]))
    times["dem_sweep_s"] = dem(*sweep, "--engine", "dem", "--batch-size", str(n_cases), "--out", str(out / "dem"))
    times["fragility_s"] = dem("fragility", str(out / "dem"), "--dislocations",
                               ",".join(f"{t:g}" for t in DISLOCATIONS), "--out", str(out / "fragility"))
    times["load_average_end"] = os.getloadavg()
    figs = Path(a.figures)
    figs.mkdir(parents=True, exist_ok=True)
    fits: dict = {}
    figure(out / "dem", out / "rigid", fits, figs / "fragility.png")
    doc = numbers(out / "dem", out / "rigid") | {"fits": fits, "times": times, "packing": PACKING, "dt_s": float(DT),
                                                 "settle_s": float(SETTLE), "t_end_s": float(a.t_end),
                                                 "levels_g": a.levels, "records": a.records, "seed": SEED}
    (figs / "numbers.json").write_text(json.dumps(doc, indent=1, default=str) + "\n")
    print(json.dumps(times, default=str))
    print(f"figure and numbers in {figs}")


if __name__ == "__main__":
    main()
