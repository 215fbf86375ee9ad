"""``dem validate [CASE ...] [--out DIR] [--quick]``: run the validation cases (validation/cases) and write
a Markdown report with their metrics, findings and figures.

    dem validate                        # every case, full versions → runs/validation/report.md (≈ 12 min)
    dem validate --out docs/validation  # the tracked report (regenerate it whole, from a committed tree)
    dem validate pena --quick --out /tmp/v
    python -m dem.cli.validate uplift

Each case writes ``<out>/<case>/`` (PNG figures, ``case.md`` with its section of the report,
``result.json`` with its metrics, raw numbers, mode and the commit it ran from); ``report.md`` is
assembled from every case folder present: a one-page summary first (what matches the mechanics, what
differs from Itiola & El Shamy 2024 and whether the difference is explained), then each case's detail.
Its header names the commit; if the sections come from different commits or modes it says so.
Exit status: 0 when every gating metric passes, 1 when one fails or a case raises, 2 for bad arguments (or no
validation package to run: the cases come from it, through dem.references, which this command alone loads).
Gating metrics check the DEM against exact mechanics and numerical convergence; comparisons with the
paper's approximate numbers do not gate: where one is off its tolerance it reads "differs, explained"
(its note says by what) or "differs, unexplained".
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import traceback
from pathlib import Path

import numpy as np

from ..references import PACKAGE
from ..references import load as load_reference

DEFAULT_OUT = "runs/validation"
TRACKED_OUT = "docs/validation"
COMMAND = "dem validate"
"""What asks for the validation cases, in the message when the validation package is missing (dem.references)."""


def _cases():
    """validation.cases: the cases' names (``CASES``, in report order) and their runner (``run``)."""
    return load_reference("cases", needed_by=COMMAND)


def _tables():
    """validation.cases.common: the report's Markdown tables and number format."""
    return load_reference("cases.common", needed_by=COMMAND)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``dem validate`` (also used by ``python -m dem.cli.validate``). Building them loads nothing of
    the validation package (``dem --help`` stays light): an unknown case's error lists the known ones."""
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help="cases to run (default: all, in report order): pena, uplift, single_pier, pier_deck, "
                             "sensitivity, damping, calibration, transfer (validation/cases)")
    parser.add_argument("--out", default=DEFAULT_OUT,
                        help=f"report folder (default {DEFAULT_OUT}; the tracked report is {TRACKED_OUT})")
    parser.add_argument("--quick", action="store_true",
                        help="reduced versions (coarse packings, short runs; what the test suite asserts)")
    parser.add_argument("--arch", default="cpu", choices=["cpu", "gpu", "cuda", "vulkan", "metal"],
                        help="Taichi backend (default cpu)")
    parser.add_argument("--precision", default="f64", choices=["f64", "f32"], help="real type (default f64)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for Taichi")


def _git_commit() -> str | None:
    """The checkout's commit (short hash), with "+changes" when the engine, the cases or the scenes differ
    from it (the report folder itself does not count); None outside a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10,
                             cwd=here)
        sha = out.stdout.strip()
        if not sha:
            return None
        diff = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "dem", PACKAGE, "scenes"],
                              cwd=here.parents[1],
                              capture_output=True, timeout=10)
        return sha + ("+changes" if diff.returncode == 1 else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _jsonable(x):
    """Numbers, lists and dicts only (NumPy scalars and arrays converted)."""
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return x


def case_markdown(result, *, stamp: str) -> str:
    """The report section of one case result (validation.cases.CaseResult)."""
    metrics_table = _tables().metrics_table
    mode = "quick" if result.quick else "full"
    gating = [m for m in result.metrics if m.gate and m.passed is not None]
    differs = [m for m in result.metrics if m.differs]
    unexplained = sum(1 for m in differs if not m.explained)
    lines = [f"## {result.title}", "",
             f"*Case `{result.name}`, {mode} version, {stamp}, {result.wall_time_s:.0f} s.* "
             f"Gating checks: {sum(bool(m.passed) for m in gating)}/{len(gating)} pass"
             + (f"; {len(differs)} comparison(s) differ beyond tolerance ({len(differs) - unexplained} explained, "
                f"{unexplained} unexplained)." if differs else "."), "", result.summary, "",
             metrics_table(result.metrics), ""]
    for heading, body in result.sections:
        lines += [f"### {heading}", "", body, ""]
    for fig in result.figures:
        lines += [f"![{fig.caption}]({fig.path})", "", f"*{fig.caption}*", ""]
    return "\n".join(lines)


def reference_markdown() -> str:
    """The reference values of validation/data as a table, with what is not available."""
    fmt, md_table = _tables().fmt, _tables().md_table
    data = load_reference("data", needed_by=COMMAND)
    out = ["## Reference values", ""]
    for rid in data.available():
        ref = data.load_reference(rid)
        out += [f"**{ref.title}** (`validation/data/{rid}.json`; {ref.source}). Kinds: "
                + "; ".join(f"*{k.replace('_', ' ')}*: {v}" for k, v in ref.kinds.items()) + ".", ""]
        rows = [[k, fmt(v.value), v.unit, v.source, v.kind.replace("_", " "), v.note] for k, v in ref.values.items()]
        out += [md_table(["key", "value", "unit", "source", "kind", "note"], rows), "", "Not available:", ""]
        out += [f"- {u.what} ({u.where}): {u.why}" for u in ref.not_available]
        out.append("")
    return "\n".join(out)


def _provenance(results: list) -> str:
    """One sentence on where the sections come from: one commit and mode, or which case came from which."""
    commits = {r.get("commit") or "unknown" for _, r, _ in results}
    modes = {r.get("mode", "?") for _, r, _ in results}
    if len(commits) == 1 and len(modes) == 1:
        c = next(iter(commits))
        changes = " (with uncommitted changes to the engine or the cases)" if c.endswith("+changes") else ""
        return (f"Every section below ran from commit {c.removesuffix('+changes')}{changes}, "
                f"{next(iter(modes))} versions.")
    per = "; ".join(f"`{n}` {r.get('mode', '?')} at {r.get('commit') or 'unknown'} ({r.get('stamp', '?')})"
                    for n, r, _ in results)
    return f"**The sections come from different runs** — {per}. Regenerate the whole report from one commit."


def summary_markdown(results: list) -> str:
    """The one-page summary: what matches the mechanics, what differs from the paper and why."""
    md_table = _tables().md_table
    gp = sum(r["gating_passed"] for _, r, _ in results)
    gt = sum(r["gating_total"] for _, r, _ in results)
    lines = ["## Summary", "", f"**Matches the mechanics.** {gp} of {gt} gating checks pass (the DEM against exact "
             "rigid-body mechanics on the DEM's own rounded edges, the energy ledger, the analytical uplift "
             "threshold, convergence in Δt):", ""]
    for name, r, _ in results:
        lines.append(f"- **{r['title']}** (`{name}`, {r['gating_passed']}/{r['gating_total']}): {r['summary']}")
    failed = [(name, m) for name, r, _ in results for m in r.get("metrics", []) if m["gate"] and m["passed"] is False]
    if failed:
        lines += ["", "**Gating failures:** " + "; ".join(f"`{n}`: {m['name']}" for n, m in failed) + "."]
    errors = [name for name, r, _ in results if r["status"] == "ERROR"]
    if errors:
        lines += ["", "**Cases that raised an error:** " + ", ".join(f"`{n}`" for n in errors) + "."]
    rows = []
    for name, r, _ in results:
        for m in r.get("metrics", []):
            if not m["gate"] and m["passed"] is False:
                unit = f" [{m['unit']}]" if m.get("unit") else ""
                rows.append((bool(m.get("explained")), [f"`{name}`", m["name"] + unit, m["dem"], m["reference"],
                                                          "explained" if m.get("explained") else "**unexplained**",
                                                          m.get("note") or "—"]))
    n_un = sum(1 for e, _ in rows if not e)
    lines += ["", f"**Differs from Itiola & El Shamy (2024)** (comparisons that do not gate and are off their "
              f"tolerance): {len(rows)}, of which {len(rows) - n_un} explained and {n_un} unexplained. "
              "Unexplained first:", ""]
    if rows:
        rows.sort(key=lambda x: x[0])
        lines.append(md_table(["case", "quantity", "DEM", "reference", "why", "note"], [r for _, r in rows]))
    else:
        lines.append("None.")
    return "\n".join(lines)


def write_report(out: Path, *, command: str) -> Path:
    """Assemble ``report.md`` from the case folders present in `out` (in CASES order): header with the
    commit, one-page summary, how to read, overview, reference values, then each case's section."""
    md_table = _tables().md_table
    results = []
    for name in _cases().CASES:
        rj = out / name / "result.json"
        if rj.exists() and (out / name / "case.md").exists():
            results.append((name, json.loads(rj.read_text(encoding="utf-8")),
                            (out / name / "case.md").read_text(encoding="utf-8")))
    rows = []
    for name, r, _ in results:
        rows.append([f"`{name}`", r["title"], r["status"], f"{r['gating_passed']}/{r['gating_total']}",
                     r.get("differs_explained", 0), r.get("differs_unexplained", r.get("reported_disagreements", 0)),
                     r["mode"], f"{r['wall_time_s']:.0f}"])
    lines = [
        "# Validation report", "",
        f"*Assembled by `{command}` on {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')} from commit "
        f"{_git_commit() or 'unknown'}.* {_provenance(results)} The full report: "
        f"`dem validate --out {TRACKED_OUT}` (about 12 minutes on 2 CPU cores, 5 of them for the pier–deck "
        "bridge). Cases live in `validation/cases/`, reference values in `validation/data/`. In the tables, “004” "
        "is Itiola & El Shamy (2024), *Geotechnics* 4:742, the paper the engine and the scenes follow, and “000” "
        "Qi & Zhu (2025), *Appl. Sci.* 15:5015; `docs/references.md` lists every work cited.", "",
        summary_markdown(results), "",
        "## How to read the tables", "",
        "**pass**/**FAIL** compare the DEM with a reference within the stated tolerance. Checks against exact "
        "mechanics (the rigid block rolling on the DEM block's edge spheres, the energy ledger, the analytical "
        "uplift threshold, convergence in Δt) gate the command's exit status. Comparisons with the paper's "
        "approximate numbers (its text and figure captions) do not gate: where one is off its tolerance it reads "
        "**differs, explained** (the note says by what: mechanics the report demonstrates, or a quantity the paper "
        "does not define) or **differs, unexplained**. **info** rows are numbers without a defensible tolerance.",
        "",
        "## Overview", "",
        md_table(["case", "what", "status", "gating checks", "differs, explained", "differs, unexplained", "mode",
                  "wall [s]"], rows), "",
        reference_markdown(),
    ]
    for _, _, md in results:
        lines += [md, ""]
    path = out / "report.md"
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)
    return path


def run_case(name: str, out: Path, *, quick: bool):
    """Run one case and write its folder (case.md, result.json); returns the CaseResult."""
    result = _cases().run(name, out, quick=quick)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    gating = [m for m in result.metrics if m.gate and m.passed is not None]
    record = {
        "name": result.name, "title": result.title, "mode": "quick" if quick else "full", "stamp": stamp,
        "status": "pass" if result.passed else "FAIL", "gating_passed": sum(bool(m.passed) for m in gating),
        "gating_total": len(gating), "commit": _git_commit(),
        "differs_explained": sum(1 for m in result.metrics if m.differs and m.explained),
        "differs_unexplained": sum(1 for m in result.metrics if m.differs and not m.explained),
        "wall_time_s": result.wall_time_s, "summary": result.summary,
        "metrics": [{"name": m.name, "dem": m.dem, "reference": m.reference, "tolerance": m.tolerance,
                     "passed": m.passed, "gate": m.gate, "unit": m.unit, "source": m.source, "note": m.note,
                     "explained": m.explained, "status": m.status}
                    for m in result.metrics],
        "figures": [{"path": f.path, "caption": f.caption} for f in result.figures],
        "data": result.data,
    }
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(json.dumps(_jsonable(record), indent=1, default=str), encoding="utf-8")
    (folder / "case.md").write_text(case_markdown(result, stamp=stamp), encoding="utf-8")
    return result


def main(args: argparse.Namespace) -> int:
    """Run the cases named in ``args`` (see :func:`add_arguments`); returns the exit status."""
    try:
        known = _cases().CASES
    except ValueError as e:  # no validation package (dem.references): one line, as for bad input
        print(f"dem: error: {e}", file=sys.stderr)
        return 2
    names = list(dict.fromkeys(args.cases)) or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"dem validate: error: unknown case(s) {', '.join(unknown)}; known: {', '.join(known)}",
              file=sys.stderr)
        return 2
    from ..device import runtime

    try:
        runtime.init(args.arch, args.precision, threads=args.threads)
    except ValueError as e:
        print(f"dem validate: error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in names:
        print(f"dem validate: {name} ({'quick' if args.quick else 'full'}) ...", flush=True)
        try:
            result = run_case(name, out, quick=args.quick)
        except Exception:  # a broken case must not hide the others; its traceback goes in its section
            status = 1
            tb = traceback.format_exc()
            print(tb, file=sys.stderr)
            folder = out / name
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
            (folder / "case.md").write_text(f"## {name}\n\n*Raised an error ({stamp}):*\n\n```\n{tb}\n```\n",
                                            encoding="utf-8")
            (folder / "result.json").write_text(json.dumps({
                "name": name, "title": name, "mode": "quick" if args.quick else "full", "stamp": stamp,
                "status": "ERROR", "gating_passed": 0, "gating_total": 0, "differs_explained": 0,
                "differs_unexplained": 0, "commit": _git_commit(),
                "wall_time_s": 0.0, "summary": tb.strip().splitlines()[-1]}), encoding="utf-8")
            continue
        failed = result.failures(gating_only=True)
        differs = [m for m in result.metrics if m.differs]
        unexplained = sum(1 for m in differs if not m.explained)
        print(f"dem validate: {name}: {'pass' if result.passed else 'FAIL'} in {result.wall_time_s:.0f} s"
              + (f"; gating failures: {', '.join(m.name for m in failed)}" if failed else "")
              + (f"; {len(differs)} comparison(s) differ from the paper ({unexplained} unexplained)" if differs
                 else ""), flush=True)
        if failed:
            status = 1
    cmd = "dem validate" + (" " + " ".join(args.cases) if args.cases else "") + (" --quick" if args.quick else "")
    path = write_report(out, command=cmd + (f" --out {args.out}" if args.out != DEFAULT_OUT else ""))
    print(f"dem validate: report {path}")
    return status


def _cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dem.cli.validate", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return main(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(_cli())
