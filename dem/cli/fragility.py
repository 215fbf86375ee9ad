"""``dem fragility DIR [DIR ...]``: fragility curves and IDA plots of one or more sweep folders.

    dem fragility runs/sweep_rigid runs/sweep_dem --out runs/fragility --thresholds 0.5,1.0

For each folder (one engine each; several side by side) and each damage measure — overturning, peak
|θ|/α ≥ X for each threshold, and for an assembly (the drum column's DEM sweep) a residual joint
dislocation ≥ X m for each ``--dislocations`` value (an overturned case exceeds every threshold) — fits a
lognormal fragility curve by maximum likelihood with a bootstrap band over records (dem.sweep.fragility).
Writes into ``--out``: ``fragility.json`` (θ, β, their intervals, counts, per folder and measure),
``fragility.png`` (curves, bands and the observed fraction at each intensity) and ``ida.png`` (peak |θ|/α
against the intensity, one line per record, overturned cases on the top row). Only cases with status 'ok' are used.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

from ..output.files import write_json

IM_LABELS = {"pga_g": "PGA [g]", "sa_g": "Sa(T) [g], 5 % damping", "intensity": "intensity (--scale value)"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dirs", nargs="+", metavar="DIR", help="sweep output folders (one per engine)")
    p.add_argument("--out", default=None, help="output folder (default DIR/fragility of the first DIR)")
    p.add_argument("--im", default="pga_g", choices=sorted(IM_LABELS), help="intensity measure (default pga_g)")
    p.add_argument("--thresholds", default="0.5,1.0", help="peak |θ|/α thresholds, comma list (default 0.5,1.0)")
    p.add_argument("--dislocations", default="", metavar="X1,X2",
                   help="residual joint dislocation thresholds [m], comma list (an assembly's DEM sweep: "
                        "drum_column; default none)")
    p.add_argument("--bootstrap", type=int, default=500, help="bootstrap samples (default 500; 0: none)")
    p.add_argument("--level", type=float, default=0.90, help="two-sided level of the bands (default 0.90)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--labels", nargs="+", default=None, help="one label per DIR (default: engine names)")


def label_of(settings: dict) -> str:
    lab = settings.get("engine", "?")
    if lab == "rigid" and settings.get("rigid_geometry", "nominal") != "nominal":
        lab += f" ({settings['rigid_geometry']})"
    if lab == "rigid" and settings.get("restitution") is not None:
        lab += f" e={settings['restitution']:g}"
    return lab


def analyse(tables: dict, *, im: str, measures: list[str], samples: int, level: float, seed: int,
            stream=None) -> dict:
    """{label: {measure: FragilityFit}} for results tables {label: DataFrame}; with ``stream``, says what it fits
    and how far it is (issue 32: 71 s in silence for 32 cases, the bootstrap's 500 fits per curve)."""
    from ..sweep.fragility import damage_outcomes, fit_with_bootstrap

    total = len(tables) * len(measures)
    if stream is not None:
        boot = f"{samples} bootstrap resamples each (--bootstrap 0: none)" if samples else "no bootstrap"
        print(f"fitting {total} fragility curves, {boot} ...", file=stream, flush=True)
    out, done, t0 = {}, 0, time.perf_counter()
    for label, df in tables.items():
        ok = df[df["status"] == "ok"]
        x = ok[im].to_numpy(dtype=float)
        out[label] = {}
        for m in measures:
            out[label][m] = fit_with_bootstrap(x, damage_outcomes(ok, m), ok["record"].to_numpy(), samples=samples,
                                               level=level, seed=seed)
            done += 1
            if stream is not None:
                print(f"  {done}/{total} {label}: {measure_label(m)} ({time.perf_counter() - t0:.0f} s)",
                      file=stream, flush=True)
    return out


def fit_table(fits: dict, im: str, level: float) -> str:
    """The fits as a table with a header: the median of each curve (the intensity at which half the cases exceed:
    the lognormal's θ, fragility.json's ``theta``) in the intensity measure's unit, its band, the dispersion β
    (issue 32: the table had no header and called the median θ, the rocking angle's letter)."""
    unit = {"pga_g": "PGA, g", "sa_g": "Sa(T), g", "intensity": "--scale value"}.get(im, im)
    band = f"{100 * level:.0f} % band"
    rows = [("sweep", "damage", f"median ({unit})", band, "β", "exceed/cases", "fit")]
    for lab, per in fits.items():
        for m, f in per.items():
            ci = f"{f.theta_ci[0]:.3g} – {f.theta_ci[1]:.3g}" if math.isfinite(f.theta_ci[0]) else "–"
            rows.append((lab, measure_label(m), f"{f.theta:.3g}", ci, f"{f.beta:.3g}", f"{f.n_exceed}/{f.n}",
                         f.status))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def measure_label(m: str) -> str:
    if m.startswith("dislocation>="):
        return f"dislocation ≥ {1000 * float(m.split('>=')[1]):g} mm"
    return "overturning" if m == "overturned" else f"peak |θ|/α ≥ {m.split('>=')[1]}"


def _numbers(text: str, flag: str) -> list[float]:
    """A comma list of finite numbers > 0 (ValueError naming the flag)."""
    try:
        vals = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"{flag} must be a comma list of numbers, got {text!r}") from None
    if any(not (math.isfinite(v) and v > 0) for v in vals):
        raise ValueError(f"{flag} must be > 0, got {text!r}")
    return vals


def plot_fragility(tables: dict, fits: dict, measures: list[str], im: str, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..sweep.fragility import damage_outcomes

    fig, axes = plt.subplots(1, len(measures), figsize=(4.6 * len(measures), 4.0), squeeze=False, sharey=True)
    xmax = max(float(df[im].max()) for df in tables.values())
    x = np.linspace(xmax / 400, xmax * 1.05, 400)
    for ax, m in zip(axes[0], measures):
        for k, (label, df) in enumerate(tables.items()):
            c = f"C{k}"
            ok = df[df["status"] == "ok"]
            fit = fits[label][m]
            lo, hi = fit.band(x)
            ax.fill_between(x, lo, hi, color=c, alpha=0.18, lw=0)
            txt = (f"θ = {fit.theta:.3g}, β = {fit.beta:.2f}" if fit.status in ("ok", "separated")
                   else fit.status)
            ax.plot(x, fit.probability(x), color=c, lw=1.8, label=f"{label}: {txt}")
            y = damage_outcomes(ok, m)
            levels = ok.groupby("intensity")
            frac = [(float(g[im].mean()), float(y[ok.index.get_indexer(g.index)].mean())) for _, g in levels]
            if frac:
                fx, fy = zip(*frac)
                ax.plot(fx, fy, "o", color=c, ms=4, mfc="none")
        ax.set_title(measure_label(m))
        ax.set_xlabel(IM_LABELS[im])
        ax.set_ylim(-0.02, 1.02)
        ax.grid(True, lw=0.3)
        ax.legend(fontsize=7, loc="upper left")
    axes[0, 0].set_ylabel("probability of exceedance [-]")
    level = next(iter(next(iter(fits.values())).values())).level
    fig.suptitle(f"Lognormal fragility (MLE), {100 * level:.0f} % bootstrap bands over records; "
                 "circles: observed fraction per intensity" if math.isfinite(level) else "Lognormal fragility (MLE)",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_ida(tables: dict, im: str, path: Path) -> Path:
    """Peak |θ|/α against the intensity measure: one thin line per record through the cases it survives, an
    × on the top row for each case that overturned, and the median over records (overturned counting as
    above everything) as a thick line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(tables), figsize=(5.2 * len(tables), 4.2), squeeze=False, sharey=True)
    finite = [df.loc[np.isfinite(df["peak_theta_over_alpha"]), "peak_theta_over_alpha"] for df in tables.values()]
    top = 1.1 * max([1.0] + [float(f.max()) for f in finite if len(f)])
    records = sorted(set().union(*(set(df["record"]) for df in tables.values())))
    colour = {r: plt.cm.tab20(k % 20) for k, r in enumerate(records)}  # a record keeps its colour across panels
    for ax, (label, df) in zip(axes[0], tables.items()):
        ok = df[df["status"] == "ok"]
        for rec, g in ok.groupby("record"):
            g = g.sort_values(im)
            ov = g["overturned"].to_numpy(dtype=bool)
            ax.plot(g[im], np.where(ov, np.nan, g["peak_theta_over_alpha"]), lw=0.6, alpha=0.7, color=colour[rec])
            ax.plot(g[im][ov], np.full(ov.sum(), top), "x", color=colour[rec], ms=4)
        med = ok.groupby("intensity").agg(x=(im, "median"), y=("peak_theta_over_alpha", "median"),
                                          n=("overturned", "size"), k=("overturned", "sum"))
        for _, r in med.iterrows():  # how many of the records overturned at each intensity
            ax.annotate(f"{int(r['k'])}/{int(r['n'])}", (r["x"], top), textcoords="offset points", xytext=(0, -11),
                        ha="center", fontsize=6)
        ax.plot(med["x"], np.minimum(med["y"], top), color="k", lw=2.2, label="median over records")
        ax.axhline(1.0, color="r", lw=0.6, ls="--", label="θ = α")
        ax.set_title(f"{label}: {ok['record'].nunique()} records, {int(ok['overturned'].sum())} of {len(ok)} "
                     "cases overturned", fontsize=9)
        ax.set_xlabel(IM_LABELS[im])
        ax.set_ylim(0.0, top * 1.05)
        ax.grid(True, lw=0.3)
        ax.legend(fontsize=7, loc="center right")
    axes[0, 0].set_ylabel("peak |θ|/α [-]   (× on top: overturned)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main(a) -> int:
    from ..sweep.store import ResultStore, read_results

    try:
        thresholds = _numbers(a.thresholds, "--thresholds")
        dislocations = _numbers(a.dislocations, "--dislocations [m]")
        if a.bootstrap < 0:
            raise ValueError(f"--bootstrap must be >= 0, got {a.bootstrap}")
        if not 0 < a.level < 1:
            raise ValueError(f"--level must be in (0, 1), got {a.level}")
        if a.labels is not None and len(a.labels) != len(a.dirs):
            raise ValueError(f"--labels needs one label per DIR ({len(a.dirs)}), got {len(a.labels)}")
        tables = {}
        for k, d in enumerate(a.dirs):
            df = read_results(d)
            label = a.labels[k] if a.labels else label_of(ResultStore(d).settings())
            while label in tables:
                label += "'"
            tables[label] = df
            if (df[a.im] <= 0).any():
                raise ValueError(f"{d}: intensity measure {a.im} must be > 0 for a lognormal fit")
        measures = (["overturned"] + [f"theta>={v:g}" for v in thresholds]
                    + [f"dislocation>={v:g}" for v in dislocations])
        from ..sweep.fragility import DISLOCATION

        lacking = [d for d, df in zip(a.dirs, tables.values()) if dislocations and DISLOCATION not in df]
        if lacking:
            raise ValueError(f"--dislocations: {lacking[0]} has no {DISLOCATION} column (the DEM sweep of an "
                             "assembly's scene, e.g. drum_column, has it; a rigid sweep does not)")
        fits = analyse(tables, im=a.im, measures=measures, samples=a.bootstrap, level=a.level, seed=a.seed,
                       stream=sys.stderr)
    except ValueError as e:
        print(f"dem: error: {e}", file=sys.stderr)
        return 2
    out = Path(a.out) if a.out else Path(a.dirs[0]) / "fragility"
    out.mkdir(parents=True, exist_ok=True)
    doc = {"im": a.im, "im_label": IM_LABELS[a.im], "bootstrap_samples": a.bootstrap, "level": a.level,
           "model": "P = Phi(ln(x/theta)/beta), maximum likelihood (Baker 2015); bootstrap over records",
           "sweeps": {lab: {"dir": str(d), "cases": int(len(df)), "ok": int((df["status"] == "ok").sum()),
                            "records": int(df["record"].nunique()),
                            "fits": {m: f.as_dict() for m, f in fits[lab].items()}}
                      for (lab, df), d in zip(tables.items(), a.dirs)}}
    write_json(out / "fragility.json", doc)
    plot_fragility(tables, fits, measures, a.im, out / "fragility.png")
    plot_ida(tables, a.im, out / "ida.png")
    print(fit_table(fits, a.im, a.level))
    print(f"written: {out / 'fragility.json'}, {out / 'fragility.png'}, {out / 'ida.png'}")
    return 0
