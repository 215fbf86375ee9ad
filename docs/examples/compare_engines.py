"""Where the engines of the fragility study disagree: outcome agreement per intensity, peak rocking of one
engine against the other, sliding of the DEM pier; figures and a dictionary of numbers for fragility.md.

Used by fragility_study.py (``compare(labelled_dirs, work, figures)``); runs on partial sweeps too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def agreement(a, b) -> dict:
    """Outcome agreement of two results tables on their common cases (record, intensity)."""
    m = a.merge(b, on=["record", "intensity"], suffixes=("_a", "_b"))
    m = m[(m["status_a"] == "ok") & (m["status_b"] == "ok")]
    oa, ob = m["overturned_a"].astype(bool), m["overturned_b"].astype(bool)
    by_level = {}
    for x, g in m.groupby("intensity"):
        ga, gb = g["overturned_a"].astype(bool), g["overturned_b"].astype(bool)
        by_level[f"{x:g}"] = {"cases": int(len(g)), "both": int((ga & gb).sum()), "only_a": int((ga & ~gb).sum()),
                              "only_b": int((~ga & gb).sum()), "neither": int((~ga & ~gb).sum())}
    return {"cases": int(len(m)), "agree": int((oa == ob).sum()), "only_a": int((oa & ~ob).sum()),
            "only_b": int((~oa & ob).sum()), "by_pga": by_level}


def compare(dirs: dict, work: Path, figures: Path) -> dict:
    """Figures into `figures` and the numbers the document quotes. dirs: {label: sweep folder}."""
    from dem.sweep import read_results

    plt = _pyplot()
    tables = {lab: read_results(d) for lab, d in dirs.items()}
    labels = list(tables)
    out: dict = {"cases": {lab: int(len(df)) for lab, df in tables.items()}}
    for lab, df in tables.items():
        ok = df[df["status"] == "ok"]
        out.setdefault("overturned_fraction_by_pga", {})[lab] = {
            f"{x:g}": float(g["overturned"].mean()) for x, g in ok.groupby("intensity")}
        out.setdefault("status_not_ok", {})[lab] = int((df["status"] != "ok").sum())
    dem = tables.get("DEM")
    if dem is not None:
        for lab in labels[:-1]:
            out.setdefault("agreement_with_DEM", {})[lab] = agreement(tables[lab], dem)
            m = tables[lab].merge(dem, on=["record", "intensity"], suffixes=("_r", "_d"))
            m = m[~m["overturned_r"] & ~m["overturned_d"]]
            x, y = m["peak_theta_over_alpha_r"].to_numpy(), m["peak_theta_over_alpha_d"].to_numpy()
            out.setdefault("standing_peaks_DEM_vs", {})[lab] = {
                "cases": int(len(m)), "median_ratio": float(np.median(y / x)),
                "correlation": float(np.corrcoef(x, y)[0, 1]), "median_abs_difference": float(np.median(np.abs(y - x)))}
        ok = dem[dem["status"] == "ok"]
        out["dem_energy_error_max"] = float(ok["energy_error"].max())
        out["dem_energy_error_median"] = float(ok["energy_error"].median())
        out["dem_wall_time_s"] = {"total": float(dem["wall_time_s"].sum()),
                                  "median": float(dem["wall_time_s"].median()),
                                  "max": float(dem["wall_time_s"].max())}
        out["dem_slip_by_pga_m"] = {f"{x:g}": {"median": float(g["max_slip_m"].median()),
                                               "max": float(g["max_slip_m"].max())}
                                    for x, g in ok.groupby("intensity")}
        bad = dem["status"] != "ok"
        out["dem_unstable_cases"] = dem.loc[bad, ["record", "intensity", "message"]].to_dict("records")

        # peak rocking, DEM against each rigid model, on the cases where neither overturned
        fig, axes = plt.subplots(1, len(labels) - 1, figsize=(5.0 * (len(labels) - 1), 4.4), squeeze=False)
        for ax, lab in zip(axes[0], labels[:-1]):
            m = tables[lab].merge(dem, on=["record", "intensity"], suffixes=("_r", "_d"))
            both = ~m["overturned_r"] & ~m["overturned_d"]
            sc = ax.scatter(m.loc[both, "peak_theta_over_alpha_r"], m.loc[both, "peak_theta_over_alpha_d"],
                            c=m.loc[both, "intensity"], s=12, cmap="viridis")
            only_d = ~m["overturned_r"] & m["overturned_d"]
            only_r = m["overturned_r"] & ~m["overturned_d"]
            top = 1.15
            ax.scatter(m.loc[only_d, "peak_theta_over_alpha_r"].clip(upper=top), np.full(only_d.sum(), top),
                       marker="^", c="r", s=18, label=f"DEM overturns, rigid not ({only_d.sum()})")
            ax.scatter(np.full(only_r.sum(), top), m.loc[only_r, "peak_theta_over_alpha_d"].clip(upper=top),
                       marker=">", c="b", s=18, label=f"rigid overturns, DEM not ({only_r.sum()})")
            ax.plot([0, top], [0, top], "k--", lw=0.6)
            ax.set_xlim(0, top + 0.05)
            ax.set_ylim(0, top + 0.05)
            ax.set_xlabel(f"peak |θ|/α, {lab} [-]")
            ax.set_ylabel("peak |θ|/α, DEM [-]")
            ax.grid(True, lw=0.3)
            ax.legend(fontsize=7, loc="lower right")
            fig.colorbar(sc, ax=ax, label="PGA [g]")
        fig.suptitle("Peak rocking, DEM against the rigid block (both standing); outliers: one engine overturns",
                     fontsize=9)
        fig.tight_layout()
        fig.savefig(figures / "peaks_dem_vs_rigid.png", dpi=120)
        plt.close(fig)

        fig, ax = plt.subplots(figsize=(6.0, 4.0))
        for ov, mk, lab in ((False, "o", "standing"), (True, "x", "overturned (slip before θ_ov)")):
            g = ok[ok["overturned"] == ov]
            ax.semilogy(g["pga_g"] + 0.01 * (ov - 0.5), g["max_slip_m"].clip(lower=1e-6), mk, ms=4, label=lab)
        ax.axvline(0.59, color="k", ls=":", lw=0.8, label="μ = 0.59")
        ax.set_xlabel("PGA [g]")
        ax.set_ylabel("largest slip of the pivot on the base [m]")
        ax.set_title("DEM pier: sliding at its base", fontsize=10)
        ax.grid(True, which="both", lw=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(figures / "dem_slip.png", dpi=120)
        plt.close(fig)
    for name in ("fragility.png", "ida.png"):
        src = work / "fragility" / name
        if src.exists():
            shutil.copy(src, figures / name)
    spec = work / "spectrum" / "spectrum.png"
    if spec.exists():
        shutil.copy(spec, figures / "spectra.png")
    frag = work / "fragility" / "fragility.json"
    if frag.exists():
        out["fragility"] = json.loads(frag.read_text())["sweeps"]
    variants = work / "fragility_rigid_variants" / "fragility.json"
    if variants.exists():
        out["fragility_rigid_variants"] = {k: v["fits"] for k, v in json.loads(variants.read_text())["sweeps"].items()}
    return out
