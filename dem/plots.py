"""Time-history plots of a run (matplotlib, PNG): one figure per group of columns."""

from __future__ import annotations

from pathlib import Path

import numpy as np

ENERGY = ("E_body", "E_boundary", "E_kinetic", "E_strain", "E_damping", "E_friction")
DIAGNOSTIC = ("contact_count", "max_overlap_ratio", "dt_critical", "energy_error")


def group_columns(names: list[str]) -> dict[str, list[str]]:
    """Group history columns for plotting: angles, angular velocities, forces, motion, base, energy."""
    groups: dict[str, list[str]] = {"angles": [], "angular_velocities": [], "forces": [], "motion": [],
                                    "base": [], "interfaces": [], "energy": [], "diagnostics": []}
    for n in names:
        if n == "t":
            continue
        if n in ENERGY:
            groups["energy"].append(n)
        elif n in DIAGNOSTIC:
            groups["diagnostics"].append(n)
        elif n.startswith("base"):
            groups["base"].append(n)
        elif "theta" in n or "angle" in n:
            groups["angles"].append(n)
        elif "omega" in n:
            groups["angular_velocities"].append(n)
        elif any(n.endswith(s) for s in ("_H", "_V", "_V_ratio", "_ecc", "_friction", "_contacts")):
            groups["interfaces"].append(n)
        elif "force" in n or "ratio" in n:
            groups["forces"].append(n)
        else:
            groups["motion"].append(n)
    return {k: v for k, v in groups.items() if v}


def plot_history(history: dict[str, np.ndarray], out_dir: Path, *, title: str = "") -> list[Path]:
    """Write ``plot_<group>.png`` files into out_dir; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    t = history["t"]
    paths = []
    for group, cols in group_columns(list(history)).items():
        if group == "interfaces":
            prefixes = sorted({c.rsplit("_", 1)[0] if not c.endswith("_V_ratio") else c[: -len("_V_ratio")]
                               for c in cols})
            suffixes = ["_H", "_V_ratio", "_ecc", "_friction"]
            fig, axes = plt.subplots(len(suffixes), 1, figsize=(9, 2.2 * len(suffixes)), sharex=True)
            for ax, suf in zip(axes, suffixes):
                for p in prefixes:
                    if p + suf in history:
                        ax.plot(t, history[p + suf], lw=0.8, label=p)
                ax.set_ylabel(suf.strip("_"))
                if suf == "_ecc":
                    for y in (-1 / 6, 1 / 6):
                        ax.axhline(y, color="k", ls="--", lw=0.6)
            axes[0].legend(fontsize=7, ncol=4)
        else:
            many = len(cols) > 6 and group not in ("energy",)
            n_ax = 2 if group == "energy" else 1
            fig, axes = plt.subplots(n_ax, 1, figsize=(9, 3.2 * n_ax), sharex=True, squeeze=False)
            ax = axes[0, 0]
            for c in cols:
                ax.plot(t, history[c], lw=0.8, label=None if many else c)
            if not many:
                ax.legend(fontsize=7)
            ax.set_ylabel(group.replace("_", " "))
            if group == "energy":
                ax.set_ylabel("energy [J]")
                if "energy_error" in history:
                    axes[1, 0].plot(t, history["energy_error"], lw=0.8, color="k")
                    axes[1, 0].set_ylabel("balance error [-]")
        fig.axes[-1].set_xlabel("t [s]")
        fig.suptitle(f"{title} — {group.replace('_', ' ')}" if title else group.replace("_", " "))
        fig.tight_layout()
        path = out_dir / f"plot_{group}.png"
        tmp = path.with_name(f".{path.stem}.tmp.png")
        fig.savefig(tmp, dpi=110)
        tmp.replace(path)
        plt.close(fig)
        paths.append(path)
    return paths
