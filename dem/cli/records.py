"""``dem records synth|spectrum``: write a reproducible synthetic suite; plot and tabulate response spectra.

    dem records synth --count 40 --seed 1 --out records/suite1 --duration 10:20 --freq 1:4 --pga 0.2:0.5
    dem records spectrum records/suite1 --out records/suite1/spectrum
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

from ..model.at2 import write_at2
from ..model.base_motion import STANDARD_G
from ..output.files import write_csv, write_json
from ..records.files import find_records, load_record
from ..records.synth import SuiteRanges, suite_record


def parse_range(name: str, text: str) -> tuple[float, float]:
    """'LO:HI' or 'X' (= X:X) as two floats (ValueError naming the option)."""
    parts = str(text).split(":")
    try:
        vals = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"{name} must be LOW:HIGH or a single number, got {text!r}") from None
    if len(vals) == 1:
        vals = vals * 2
    if len(vals) != 2 or not all(math.isfinite(v) for v in vals) or not 0.0 < vals[0] <= vals[1]:
        raise ValueError(f"{name} must be LOW:HIGH with 0 < LOW <= HIGH, got {text!r}")
    return vals[0], vals[1]


def parse_periods(text: str) -> np.ndarray:
    """'T0:T1:N' (N periods log-spaced from T0 to T1 [s]) or a comma list of periods [s]."""
    from ..records.spectrum import log_periods

    try:
        if ":" in text:
            t0, t1, n = text.split(":")
            return log_periods(float(t0), float(t1), int(n))
        out = np.array([float(x) for x in text.split(",")])
    except ValueError as e:
        raise ValueError(f"--periods must be T0:T1:N or a comma list of periods [s], got {text!r} ({e})") from None
    if out.size == 0 or not np.all(np.isfinite(out)) or np.any(out < 0):
        raise ValueError(f"--periods must be periods >= 0 [s], got {text!r}")
    return np.sort(out)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="records_command", required=True)
    s = sub.add_parser("synth", help="write a reproducible suite of synthetic .AT2 records (Kanai-Tajimi noise, "
                       "Saragoni-Hart envelope; see dem/records/synth.py)")
    s.add_argument("--count", type=int, required=True, help="number of records")
    s.add_argument("--seed", type=int, required=True, help="suite seed (record i is the same for any --count)")
    s.add_argument("--out", required=True, help="output folder (.AT2 files and suite.json)")
    s.add_argument("--duration", default="10:20", help="record duration range LOW:HIGH [s] (default 10:20)")
    s.add_argument("--freq", default="1:4", help="dominant (Kanai-Tajimi) frequency range f_g [Hz] (default 1:4)")
    s.add_argument("--zeta", default="0.6", help="Kanai-Tajimi damping range zeta_g [-] (default 0.6)")
    s.add_argument("--pga", default="0.2:0.5", help="peak ground acceleration range [g] (default 0.2:0.5)")
    s.add_argument("--dt", type=float, default=0.01, help="sample interval [s] (default 0.01)")
    s.add_argument("--eps", type=float, default=0.2, help="envelope peak time / duration (default 0.2, Boore 2003)")
    s.add_argument("--eta", type=float, default=0.05, help="envelope value at the end (default 0.05, Boore 2003)")
    s.add_argument("--hp-ratio", type=float, default=0.1,
                   help="Clough-Penzien high-pass corner / f_g (default 0.1)")
    s.add_argument("--zeta-f", type=float, default=0.6, help="Clough-Penzien damping (default 0.6)")
    s.add_argument("--digits", type=int, default=17,
                   help="significant digits written (default 17: the samples read back exactly)")
    sp = sub.add_parser("spectrum", help="5%%-damped pseudo-acceleration spectra of record files (PNG and CSV)")
    sp.add_argument("records", nargs="+", help="record files (.AT2, CSV), folders of .AT2 files, or globs")
    sp.add_argument("--out", default="spectrum", help="output folder (default ./spectrum)")
    sp.add_argument("--periods", default="0.02:5:100", help="T0:T1:N log-spaced, or a comma list [s] "
                    "(default 0.02:5:100)")
    sp.add_argument("--damping", type=float, default=0.05, help="damping ratio (default 0.05)")
    sp.add_argument("--units", default="g", choices=["g", "m/s2"], help="acceleration units of CSV records")
    sp.add_argument("--column", default="1", help="acceleration column of CSV records (index or header name)")


def cmd_synth(a) -> int:

    if a.count < 1:
        raise ValueError(f"--count must be >= 1, got {a.count}")
    ranges = SuiteRanges(duration=parse_range("--duration", a.duration), f_g=parse_range("--freq", a.freq),
                         zeta_g=parse_range("--zeta", a.zeta), pga_g=parse_range("--pga", a.pga), dt=a.dt,
                         hp_ratio=a.hp_ratio, zeta_f=a.zeta_f, eps=a.eps, eta=a.eta)
    if not 1 <= a.digits <= 17:
        raise ValueError(f"--digits must be in [1, 17], got {a.digits}")
    suite_record(a.seed, 0, ranges)  # every option checked before a file is written
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    records = []
    for i in range(a.count):
        model, acc_g = suite_record(a.seed, i, ranges)
        name = f"synth_s{a.seed}_{i:04d}.AT2"
        desc = (f"KT-CP noise, Saragoni-Hart envelope: seed {a.seed} record {i}, f_g {model.f_g:.4f} Hz, "
                f"zeta_g {model.zeta_g:.3f}, duration {model.duration:.3f} s, PGA {model.pga_g:.4f} g")
        write_at2(out / name, model.dt, acc_g, description=desc, digits=a.digits)
        records.append({"file": name, "index": i} | model.as_dict())
    meta = {"generator": "dem.records.synth (Kanai-Tajimi x Clough-Penzien spectral representation, "
            "Saragoni-Hart envelope)", "seed": a.seed, "count": a.count,
            "ranges": {k: list(v) if isinstance(v, tuple) else v for k, v in vars(ranges).items()},
            "records": records}
    write_json(out / "suite.json", meta)
    pgas = [r["pga_g"] for r in records]
    durs = [r["duration"] for r in records]
    print(f"{a.count} records in {out}: PGA {min(pgas):.3f}-{max(pgas):.3f} g, duration {min(durs):.1f}-"
          f"{max(durs):.1f} s, dt {a.dt:g} s (suite.json lists each record's parameters)")
    return 0


def cmd_spectrum(a) -> int:
    from ..records.scaling import sampled
    from ..records.spectrum import response_spectrum

    periods = parse_periods(a.periods)
    if not 0.0 <= a.damping < 1.0:
        raise ValueError(f"--damping must be in [0, 1), got {a.damping}")
    files = find_records(a.records)
    recs = [load_record(f, units=a.units, column=a.column) for f in files]
    psa = np.empty((len(recs), periods.size))
    for i, rec in enumerate(recs):
        acc, dt = sampled(rec)
        psa[i] = response_spectrum(acc, dt, periods, damping=a.damping).psa / STANDARD_G
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)

    names = [f.name for f in files]
    write_csv(out / "spectrum.csv", {"period_s": periods} | {f"psa_g:{n}": psa[i] for i, n in enumerate(names)})
    png = plot_spectra(periods, psa, names, a.damping, out / "spectrum.png")
    print(f"{len(files)} record(s): PSA at T = {periods[0]:g}-{periods[-1]:g} s, damping {a.damping:g}; "
          f"{out / 'spectrum.csv'}, {png}")
    return 0


def plot_spectra(periods: np.ndarray, psa_g: np.ndarray, names: list[str], damping: float, path: Path) -> Path:
    """PSA [g] against period [s], one thin line per record; median and 16-84 % band when there are several."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    many = len(names) > 8
    for i, n in enumerate(names):
        ax.plot(periods, psa_g[i], lw=0.6 if many else 1.0, color="0.7" if many else None, label=None if many else n)
    if len(names) > 1:
        q16, q50, q84 = np.percentile(psa_g, [16, 50, 84], axis=0)
        ax.fill_between(periods, q16, q84, color="C0", alpha=0.2, label="16-84 %")
        ax.plot(periods, q50, color="C0", lw=2, label=f"median of {len(names)}")
    pos = periods > 0
    if pos.sum() > 1 and periods[pos].max() / periods[pos].min() > 10:
        ax.set_xscale("log")
    ax.set_xlabel("period T [s]")
    ax.set_ylabel(f"pseudo-acceleration PSA [g], ζ = {100 * damping:g} %")
    ax.set_title("Response spectra")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main(a) -> int:
    try:
        return {"synth": cmd_synth, "spectrum": cmd_spectrum}[a.records_command](a)
    except ValueError as e:
        print(f"dem: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # python -m dem.cli.records ...
    p = argparse.ArgumentParser(prog="dem records")
    add_arguments(p)
    sys.exit(main(p.parse_args()))
