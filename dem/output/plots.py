"""Time-history plots of a run (matplotlib, PNG) that an engineer can read at a glance.

Each axis holds one family of quantities (dem.output.columns: rocking angles, interface eccentricities, energies,
...) with its unit; each curve is named in a legend (the body, interface or energy term it belongs to,
with one colour per body or interface across a figure). Figures:

    plot_rocking.png      rotations [deg], rotations ÷ α (±1: tipping), angular velocities
    plot_motion.png       displacements, accelerations, velocities of the bodies' centres
    plot_forces.png       contact forces ÷ weight, sphere-group forces, contact moments
    plot_interfaces.png   every interface (whatever its name): H, V, V ÷ static load, eccentricity ÷ width
                          (±1/6 middle third), an assembly's joint opening and slip, |H|/V (μ when known),
                          sphere contacts; a line per interface
                          up to INTERFACE_LINES interfaces, beyond (a column of many drums, an arch, a wall)
                          a map per quantity, time across and the interfaces in their order up the axis
                          (an assembly's: bottom to top, or springing to springing), and then also
    plot_interface_envelopes.png  per quantity, its least and largest value over the time shown at each
                          interface, interfaces in the same order: where along the structure joints open
                          (eccentricity), slide (|H|/V) or unload (V ÷ static load)
    plot_base.png         the base motion: acceleration, velocity, displacement
    plot_energy.png       the energy ledger and its balance error
    plot_diagnostics.png  contact count, largest overlap ÷ radius, monitored critical Δt

The time axis ends shortly after the motion settles (dem.output.headline.plot_end; the history file keeps the whole
record); the settling time and a body tipping over are marked.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

from . import columns as K
from .columns import Column
from .headline import motion_summary, plot_end

FIGURES: dict[str, tuple[str, ...]] = {
    "rocking": (K.ANGLE, K.ANGLE_ALPHA, K.OMEGA, K.OMEGA_P),
    "motion": (K.DISP_H, K.DISP_V, K.VELOCITY, K.ACC_H, K.ACC_V, K.ACC_G),
    "forces": (K.FORCE_RATIO, K.FORCE, K.MOMENT),
    "interfaces": (K.IF_H, K.IF_V, K.IF_V_RATIO, K.IF_ECC, K.IF_OPENING, K.IF_SLIP, K.IF_FRICTION, K.IF_CONTACTS),
    "base": (K.BASE_ACC, K.BASE_VEL, K.BASE_DISP),
    "energy": (K.ENERGY, K.ENERGY_ERROR),
    "diagnostics": (K.CONTACT_COUNT, K.OVERLAP, K.DT_CRIT),
}
INTERFACE_LINES = 10  # most interfaces drawn as lines (tab10's distinct colours); more: maps and envelopes
SIGNED = {K.IF_H, K.IF_ECC, K.IF_OPENING, K.IF_SLIP}  # quantities of either sign: a diverging map centred on 0
ECC_EDGE = 0.5  # eccentricity ÷ width at the face's edge: the maps' range (beyond it V is ~0 and e is noise)
AXIS_HEIGHT = 2.1  # [in] per axis
FIG_WIDTH = 10.0  # [in], legends on the right
DPI = 110
KILO = 1e4  # N or N·m: at and above this the axis is in kN (kN·m)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def family_axes(names: list[str], columns: dict[str, Column]) -> dict[str, list[str]]:
    """Columns grouped by family, in the order first met."""
    out: dict[str, list[str]] = {}
    for n in names:
        if n == "t":
            continue
        out.setdefault(columns[n].family, []).append(n)
    return out


def figure_families(names: list[str], columns: dict[str, Column]) -> dict[str, dict[str, list[str]]]:
    """{figure: {family: columns}} for every figure that has a column; unknown families go to "other"."""
    fams = family_axes(names, columns)
    out: dict[str, dict[str, list[str]]] = {}
    placed = set()
    for fig, families in FIGURES.items():
        got = {f: fams[f] for f in families if f in fams}
        if got:
            out[fig] = got
            placed |= set(got)
    rest = {f: v for f, v in fams.items() if f not in placed}
    if rest:
        out["other"] = rest
    return out


def _scale(values: list[np.ndarray], unit: str) -> tuple[float, str]:
    """Divide forces and moments by 1000 when they reach KILO (axis in kN)."""
    if unit in ("N", "N·m"):
        peak = max((float(np.nanmax(np.abs(v))) for v in values if len(v) and np.any(np.isfinite(v))), default=0.0)
        if peak >= KILO:
            return 1e-3, "k" + unit
    return 1.0, unit


def _colour_map(labels: list[str]) -> dict[str, str]:
    import matplotlib

    cmap = matplotlib.colormaps["tab10" if len(labels) <= 10 else "tab20"]
    return {lab: cmap(i % cmap.N) for i, lab in enumerate(labels)}


FRICTION_AXIS = 3.0  # |H|/V axis up to this many μ (or the curves' 99th percentile, if higher)


def _clip_friction_spikes(ax, curves: list[np.ndarray], mu: float) -> None:
    """|H|/V spikes where V nears 0 (a joint opening, a body in the air: issue 32 saw 44) would squeeze the μ
    line to the axis' foot: the axis ends at FRICTION_AXIS μ or the 99th percentile, whichever is higher, and
    says how high the clipped spikes went."""
    vals = np.concatenate([c[np.isfinite(c)] for c in curves]) if curves else np.zeros(0)
    if not vals.size:
        return
    top = max(FRICTION_AXIS * mu, float(np.percentile(np.abs(vals), 99)))
    peak = float(np.max(np.abs(vals)))
    if peak > 1.05 * top:
        ax.set_ylim(0.0 if np.min(vals) >= 0 else -top, top)
        ax.text(0.0, 1.0, f" clipped: spikes to {peak:.3g} where V nears 0", transform=ax.transAxes, fontsize=7,
                va="top", ha="left", color="0.3")


def draw_axis(ax, t: np.ndarray, history: dict, names: list[str], columns: dict[str, Column], colours: dict,
              *, family: str, mu: float | None = None) -> None:
    """One family on one axis: curves named by their labels, the unit on the axis, reference lines."""
    unit = columns[names[0]].unit
    factor, shown_unit = _scale([np.asarray(history[n], float) for n in names], unit)
    for n in names:
        y = np.asarray(history[n], float) * factor
        y = np.where(np.isfinite(y), y, np.nan)
        lab = columns[n].label or n
        ax.plot(t, y, lw=0.9, color=colours.get(lab), label=lab)
    ax.set_ylabel(f"{family}\n[{shown_unit}]" if shown_unit and shown_unit != "-" else f"{family}\n[–]",
                  fontsize=8)
    if family == K.IF_ECC:
        for y in (-1 / 6, 1 / 6):
            ax.axhline(y, color="k", ls="--", lw=0.7)
        ax.text(1.0, 1 / 6, " middle third ±1/6", transform=ax.get_yaxis_transform(), fontsize=7, va="bottom",
                ha="right")
    if family == K.ANGLE_ALPHA:
        lo, hi = ax.get_ylim()
        if hi > 0.5 or lo < -0.5:
            for y in (-1.0, 1.0):
                ax.axhline(y, color="tab:red", ls="--", lw=0.7)
    if family == K.IF_FRICTION and mu is not None:
        ax.axhline(mu, color="tab:red", ls="--", lw=0.7)
        ax.text(1.0, mu, f" μ = {mu:g}", transform=ax.get_yaxis_transform(), fontsize=7, va="bottom", ha="right",
                color="tab:red")
        _clip_friction_spikes(ax, [np.asarray(history[n], float) * factor for n in names], mu)
    if family == K.DT_CRIT:
        ax.set_yscale("log")
    ax.grid(True, lw=0.3, alpha=0.6)
    # outside the axis, on the right: it never hides a curve
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.005, 1.0), borderaxespad=0.0, frameon=False,
              ncol=1 if len(names) <= 8 else 2)


def _mark(axes, motion: dict, t_max: float) -> None:
    """Vertical lines at settling and tipping over, labelled on the top axis."""
    marks = []
    if motion.get("settled_at_s") is not None and motion["settled_at_s"] <= t_max:
        marks.append((motion["settled_at_s"], f"settled {motion['settled_at_s']:.3g} s", "0.35"))
    passed = motion.get("passed_alpha_at_s", motion.get("tipped_over_at_s"))
    if passed is not None and passed <= t_max:
        who = motion.get("passed_alpha_body", motion.get("tipped_over_body"))
        marks.append((passed, f"{who} passed α {passed:.3g} s", "tab:red"))
    for x, text, colour in marks:
        for ax in axes:
            ax.axvline(x, color=colour, ls=":", lw=1.0)
        axes[0].text(x, 1.02, text, transform=axes[0].get_xaxis_transform(), fontsize=7, color=colour,
                     ha="center", va="bottom")


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp.png")
    fig.savefig(tmp, dpi=DPI)
    tmp.replace(path)
    return path


def plot_families(history: dict, families: dict[str, list[str]], columns: dict[str, Column], path: Path, *,
                  title: str, motion: dict, t_max: float, mu: float | None = None) -> Path:
    """One figure, an axis per family, shared time axis up to t_max [s]; written to `path`."""
    plt = _pyplot()
    t = np.asarray(history["t"], float)
    labels = list(dict.fromkeys(columns[n].label or n for ns in families.values() for n in ns))
    colours = _colour_map(labels)
    fig, axes = plt.subplots(len(families), 1, figsize=(FIG_WIDTH, 0.9 + AXIS_HEIGHT * len(families)), sharex=True,
                             squeeze=False)
    axes = axes[:, 0]
    for ax, (family, names) in zip(axes, families.items()):
        draw_axis(ax, t, history, names, columns, colours, family=family, mu=mu)
    if len(t):
        axes[-1].set_xlim(float(t[0]), t_max)
    axes[-1].set_xlabel("time t [s]")
    _mark(axes, motion, t_max)
    if t_max < float(t[-1]) if len(t) else False:
        axes[-1].annotate(f"record continues to {t[-1]:.4g} s (the history file)", xy=(1.0, -0.28),
                          xycoords="axes fraction", ha="right", fontsize=7, color="0.4")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out = _save(fig, path)
    plt.close(fig)
    return out


def interface_labels(families: dict[str, list[str]], columns: dict[str, Column]) -> list[str]:
    """The interfaces of the interfaces figure's columns (their legend labels), in the order first met."""
    return list(dict.fromkeys(columns[n].label or n for ns in families.values() for n in ns))


def interface_table(history: dict, names: list[str], columns: dict[str, Column], labels: list[str], t_max: float):
    """One quantity of every interface as a (interface, time) array up to t_max [s] (NaN where an interface
    lacks the column or the value is not finite), with the rows' times."""
    t = np.asarray(history["t"], float)
    keep = t <= t_max
    by_label = {columns[n].label or n: n for n in names}
    z = np.full((len(labels), int(np.count_nonzero(keep))), np.nan)
    for i, lab in enumerate(labels):
        if lab in by_label:
            y = np.asarray(history[by_label[lab]], float)[keep]
            z[i] = np.where(np.isfinite(y), y, np.nan)
    return t[keep], z


def _ticks(ax, labels: list[str], *, axis: str) -> None:
    """Interface names on an axis, every k-th when there are many (at most ~24 names)."""
    step = max(1, int(np.ceil(len(labels) / 24)))
    idx = list(range(0, len(labels), step))
    (ax.set_yticks if axis == "y" else ax.set_xticks)(idx)
    (ax.set_yticklabels if axis == "y" else ax.set_xticklabels)([labels[i] for i in idx], fontsize=6,
                                                                **({} if axis == "y" else {"rotation": 90}))


def _colour_range(family: str, z: np.ndarray, mu: float | None) -> tuple[float, float, str]:
    finite = z[np.isfinite(z)]
    top = float(np.percentile(np.abs(finite), 99.5)) if finite.size else 1.0
    top = top if top > 0 else 1.0
    if family == K.IF_ECC:
        return -ECC_EDGE, ECC_EDGE, "RdBu_r"
    if family in SIGNED:
        return -top, top, "RdBu_r"
    if family == K.IF_FRICTION and mu is not None:
        top = max(top, 1.2 * mu)
    return (min(0.0, float(np.min(finite))) if finite.size else 0.0), top, "viridis"


def _margins(fig, *, bottom: float, right: float) -> None:
    """Fixed margins [in] (left for the axis labels, `right` for the colour bars or legends, `bottom` for the
    time axis or the names across): tight_layout would draw the figure once more, as long as the saving."""
    w, h = fig.get_figwidth(), fig.get_figheight()
    fig.subplots_adjust(left=1.3 / w, right=1.0 - right / w, top=1.0 - 0.6 / h, bottom=bottom / h, hspace=0.12)


def plot_interface_maps(history: dict, families: dict[str, list[str]], columns: dict[str, Column], path: Path, *,
                        title: str, motion: dict, t_max: float, mu: float | None = None) -> Path:
    """The interfaces figure for many interfaces: per quantity a map, time across, one row per interface."""
    plt = _pyplot()
    labels = interface_labels(families, columns)
    height = max(AXIS_HEIGHT, min(0.09 * len(labels), 5.0))
    fig, axes = plt.subplots(len(families), 1, figsize=(FIG_WIDTH, 0.9 + height * len(families)), sharex=True,
                             squeeze=False)
    axes = axes[:, 0]
    for ax, (family, names) in zip(axes, families.items()):
        t, z = interface_table(history, names, columns, labels, t_max)
        unit = columns[names[0]].unit
        factor, shown = _scale([z[np.isfinite(z)]], unit)
        lo, hi, cmap = _colour_range(family, z * factor, mu)
        edges = np.concatenate([t, [t[-1] + (t[-1] - t[-2] if len(t) > 1 else 1.0)]]) if len(t) else np.zeros(1)
        mesh = ax.pcolormesh(edges, np.arange(len(labels) + 1) - 0.5, z * factor, cmap=cmap, vmin=lo, vmax=hi,
                             shading="flat", rasterized=True)
        _ticks(ax, labels, axis="y")
        ax.set_ylabel(family, fontsize=8)
        bar = fig.colorbar(mesh, ax=ax, pad=0.01, fraction=0.04)
        bar.set_label(f"[{shown}]" if shown and shown != "-" else "[–]", fontsize=7)
        bar.ax.tick_params(labelsize=7)
    if len(history["t"]):
        axes[-1].set_xlim(float(history["t"][0]), t_max)
    axes[-1].set_xlabel("time t [s]")
    _mark(axes, motion, t_max)
    fig.suptitle(f"{title} ({len(labels)} interfaces)" if title else f"{len(labels)} interfaces", fontsize=10)
    _margins(fig, bottom=0.55, right=0.85)  # the colour bars' numbers and units
    out = _save(fig, path)
    plt.close(fig)
    return out


def plot_interface_envelopes(history: dict, families: dict[str, list[str]], columns: dict[str, Column], path: Path,
                             *, title: str, t_max: float, mu: float | None = None) -> Path:
    """Per quantity, its least and largest value over t ≤ t_max at each interface (interfaces across)."""
    plt = _pyplot()
    labels = interface_labels(families, columns)
    fig, axes = plt.subplots(len(families), 1, figsize=(FIG_WIDTH, 0.9 + AXIS_HEIGHT * len(families)), sharex=True,
                             squeeze=False)
    axes = axes[:, 0]
    x = np.arange(len(labels))
    for ax, (family, names) in zip(axes, families.items()):
        _t, z = interface_table(history, names, columns, labels, t_max)
        factor, shown = _scale([z[np.isfinite(z)]], columns[names[0]].unit)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an interface with no finite value: NaN
            lo, hi = np.nanmin(z, axis=1) * factor, np.nanmax(z, axis=1) * factor
        ax.fill_between(x, lo, hi, color="tab:blue", alpha=0.2, lw=0)
        ax.plot(x, hi, "o-", ms=2.5, lw=0.9, color="tab:blue", label="largest")
        ax.plot(x, lo, "o-", ms=2.5, lw=0.9, color="tab:orange", label="least")
        if family == K.IF_ECC:
            for y in (-1 / 6, 1 / 6):
                ax.axhline(y, color="k", ls="--", lw=0.7)
        if family == K.IF_FRICTION and mu is not None:
            ax.axhline(mu, color="tab:red", ls="--", lw=0.7)
        ax.set_ylabel(f"{family}\n[{shown}]" if shown and shown != "-" else f"{family}\n[–]", fontsize=8)
        ax.grid(True, lw=0.3, alpha=0.6)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.005, 1.0), borderaxespad=0.0, frameon=False)
    _ticks(axes[-1], labels, axis="x")
    axes[-1].set_xlabel("interface")
    name = f"{title}: envelopes" if title else "interface envelopes"
    fig.suptitle(f"{name} over t ≤ {t_max:.4g} s ({len(labels)} interfaces)", fontsize=10)
    _margins(fig, bottom=0.5 + 0.055 * max(len(x) for x in labels), right=1.0)
    out = _save(fig, path)
    plt.close(fig)
    return out


def _figure(fig: str, history: dict, families: dict, columns: dict, out_dir: Path, **kw) -> list[Path]:
    """The files of one figure of :func:`plot_history`: the interfaces of many interfaces as maps and envelopes."""
    if fig == "interfaces" and len(interface_labels(families, columns)) > INTERFACE_LINES:
        env = {k: v for k, v in kw.items() if k != "motion"}
        return [plot_interface_maps(history, families, columns, out_dir / "plot_interfaces.png", **kw),
                plot_interface_envelopes(history, families, columns, out_dir / "plot_interface_envelopes.png",
                                         **env)]
    return [plot_families(history, families, columns, out_dir / f"plot_{fig}.png", **kw)]


def plot_history(history: dict[str, np.ndarray], out_dir: Path, *, title: str = "",
                 columns: dict[str, Column] | None = None, motion: dict | None = None, mu: float | None = None,
                 full: bool = False) -> list[Path]:
    """Write the ``plot_<figure>.png`` files (module docstring) into out_dir; returns their paths.

    columns: descriptions of the history columns (dem.output.columns; default: guessed from the names);
    motion: dem.output.headline.motion_summary (default: computed); mu: friction coefficient drawn on the |H|/V
    axis; full: the whole record on the time axis instead of ending after the motion settles.
    """
    out_dir = Path(out_dir)
    columns = _complete(columns, history)
    motion = motion if motion is not None else motion_summary(history, columns)
    t = np.asarray(history["t"], float)
    t_max = float(t[-1]) if full or len(t) < 2 else plot_end(t, motion)
    paths = []
    for fig, families in figure_families(list(history), columns).items():
        name = f"{title} — {fig}" if title else fig
        paths += _figure(fig, history, families, columns, out_dir, title=name, motion=motion, t_max=t_max, mu=mu)
    return paths


def plot_columns(history: dict, names: list[str], path: Path, *, title: str = "",
                 columns: dict[str, Column] | None = None, motion: dict | None = None, mu: float | None = None,
                 full: bool = False) -> Path:
    """The chosen columns in one figure (an axis per family) at `path`."""
    columns = _complete(columns, history)
    motion = motion if motion is not None else motion_summary(history, columns)
    t = np.asarray(history["t"], float)
    t_max = float(t[-1]) if full or len(t) < 2 else plot_end(t, motion)
    return plot_families(history, family_axes(names, columns), columns, Path(path), title=title, motion=motion,
                         t_max=t_max, mu=mu)


def _complete(columns: dict[str, Column] | None, history: dict) -> dict[str, Column]:
    columns = dict(columns or {})
    for n in history:
        if n not in columns:
            columns[n] = K.guess(n)
    return columns


# ---------------------------------------------------------------------------------------------- workers
class PlotJobs:
    """Figures drawn in worker processes while the caller goes on (a run's postprocessing, other worlds).

    ``PlotJobs(jobs, processes)`` starts min(processes, ...) workers, each a fresh Python that imports matplotlib and
    this module, not the kernels (~0.6 s to start), and hands each a share of the jobs (keyword arguments of
    :func:`plot_history`: a world's figures, ~2.5 s for the Peña block's six); :meth:`wait` waits for them and
    returns the paths written. On a machine of one core, or with ``processes`` 1, the jobs are drawn by
    :meth:`wait`, here. A worker that cannot start or dies leaves its jobs to :meth:`wait`, here; an error raised
    while drawing (a full disk: OSError) is raised again by :meth:`wait`.
    """

    def __init__(self, jobs: list[dict], processes: int | None = None):
        self.jobs = list(jobs)
        cores = os.cpu_count() or 1
        n = min(len(self.jobs), processes if processes is not None else cores)
        self._workers: list[tuple] = []
        self._folder = None
        if n < 1 or cores < 2 or (processes is not None and processes <= 1):
            return

        self._folder = tempfile.TemporaryDirectory(prefix="dem-plots-")
        root = str(Path(__file__).resolve().parents[2])  # the folder holding the dem package
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        for k in range(n):
            share = self.jobs[k::n]
            src, dst = Path(self._folder.name) / f"jobs{k}.pkl", Path(self._folder.name) / f"done{k}.pkl"
            src.write_bytes(pickle.dumps(share))
            try:
                proc = subprocess.Popen([sys.executable, "-c", "from dem.output.plots import _serve; _serve()",
                                         str(src), str(dst)], env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)  # a Ctrl-C for the run is not for them
            except OSError:
                proc = None
            self._workers.append((proc, share, dst))

    def wait(self) -> list[Path]:

        paths: list[Path] = []
        if not self._workers:
            return [p for job in self.jobs for p in plot_history(**job)]
        try:
            for proc, share, dst in self._workers:
                if proc is not None:
                    proc.communicate()
                result = pickle.loads(dst.read_bytes()) if proc is not None and dst.exists() else None
                if result is None:  # the worker did not start or died: draw its share here
                    paths += [p for job in share for p in plot_history(**job)]
                elif result[0] == "error":
                    raise result[1]
                else:
                    paths += [Path(p) for p in result[1]]
        finally:
            self.cancel()
        return paths

    def cancel(self) -> None:
        """Stop the workers still drawing and remove their files (the caller failed meanwhile)."""
        for proc, _share, _dst in self._workers:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
        self._workers = []
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None


def _serve() -> None:
    """A PlotJobs worker: draw the jobs pickled in argv[1], write ("ok", paths) or ("error", exception) to
    argv[2]."""

    jobs = pickle.loads(Path(sys.argv[1]).read_bytes())
    try:
        result = ("ok", [str(p) for job in jobs for p in plot_history(**job)])
    except Exception as e:  # noqa: BLE001 (handed to the parent, which raises it)
        try:
            pickle.dumps(e)
            result = ("error", e)
        except Exception:  # noqa: BLE001
            result = ("error", RuntimeError(f"{type(e).__name__}: {e}"))
    Path(sys.argv[2]).write_bytes(pickle.dumps(result))
