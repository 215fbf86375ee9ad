"""Every ``dem ...`` command quoted in the code blocks of README.md and docs/tutorial.md is a command of this
``dem``: each parses with the real parser (options, choices, numbers), and each is run, in the order the
documents give them, in a scratch folder with small sizes (a short --t-end, coarse Peña packings, few records
and intensities), so that the documentation cannot drift from the code (issue 23).

Not run, only parsed: commands on a GPU backend (--arch cuda/vulkan: one process holds one backend), ``dem
render`` without pyvista (the vis extra), Dask workers (--workers: run in process instead), ``dem validate``
(12 minutes; tests/cli/test_validate_quick.py runs its quick form).
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path

import pytest

from dem.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/tutorial.md")
T_END = 0.01  # [s] of every run (a resumed run that extends goes to twice that)
COARSE_PENA = ["r_base=0.01", "r_core=0.05"]


def quoted_commands(doc: str) -> list[tuple[str, str]]:
    """(line as written, the dem command without its comment) for each ``dem`` command in the bash code blocks
    of `doc`, in order (a line such as ``pip install -e . && dem run ...`` gives its ``dem run ...``)."""
    found, fence = [], None
    for line in (ROOT / doc).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            continue
        if fence not in ("bash", "sh", "console", ""):
            continue
        code = line.split(" #", 1)[0].strip()
        for part in code.split("&&"):
            part = part.strip()
            if part.startswith("dem "):
                found.append((line.strip(), part))
    return found


COMMANDS = [(doc, line, cmd) for doc in DOCS for line, cmd in quoted_commands(doc)]


def test_the_documents_quote_commands():
    assert len([c for c in COMMANDS if c[0] == "README.md"]) >= 25
    assert any(cmd.startswith("dem run examples/stacked_blocks.py") for _d, _l, cmd in COMMANDS)


@pytest.mark.parametrize("doc,line,cmd", COMMANDS, ids=[f"{d}:{c[:60]}" for d, _l, c in COMMANDS])
def test_every_quoted_command_parses(doc, line, cmd, capsys):
    """Unknown options, bad choices, a missing argument: argparse's exit 2 with 'dem: error'."""
    argv = shlex.split(cmd)[1:]
    try:
        build_parser().parse_args(argv)
    except SystemExit as e:
        pytest.fail(f"{doc}: `{line}` does not parse: {capsys.readouterr().err.strip()} (exit {e.code})")


def _option(argv: list[str], name: str) -> int | None:
    return argv.index(name) if name in argv else None


def _replace(argv: list[str], name: str, value: str) -> list[str]:
    """argv with option `name` set to `value` (its one value replaced, or the option added)."""
    k = _option(argv, name)
    if k is None:
        return [*argv, name, value]
    return [*argv[: k + 1], value, *argv[k + 2:]]


def _small(argv: list[str]) -> tuple[list[str] | None, str, bool]:
    """(the argv to run, or None with the reason it is only parsed; whether exit 2 'has reached t' is what it
    must give: a resumed run that asks for no more time)."""
    cmd = argv[0]
    if "--arch" in argv and argv[argv.index("--arch") + 1] != "cpu":
        return None, "a GPU backend", False
    if cmd == "validate":
        return None, "12 minutes (its --quick form is tested)", False
    if cmd == "render":
        try:
            import pyvista  # noqa: F401
        except ImportError:
            return None, "pyvista is not installed (the vis extra)", False
    if cmd == "run":
        if "--resume" in argv:
            if "--t-end" not in argv:
                return argv, "", True  # the run it goes on from has finished: it must say so
            return _replace(argv, "--t-end", repr(2 * T_END)), "", False
        argv = _replace(argv, "--t-end", repr(T_END))
        if "--worlds" in argv:
            argv = _replace(argv, "--worlds", "2")
        scene = argv[1]
        sets = [a for k, a in enumerate(argv) if k > argv.index("--set")] if "--set" in argv else []
        if scene in ("pena_block", "scenes/pena_block.py") and not any(s.startswith("r_core=") for s in sets):
            argv = [*argv, "--set", *COARSE_PENA]
        return argv, "", False
    if cmd == "records" and argv[1] == "synth":
        return _replace(_replace(argv, "--count", "2"), "--duration", "2:3"), "", False
    if cmd == "sweep":
        k = _option(argv, "--scale")
        lo, hi, _n = argv[k + 1].split(":")
        argv = _replace(argv, "--scale", f"{lo}:{hi}:2")
        k = _option(argv, "--workers")
        if k is not None:
            argv = argv[:k] + argv[k + 2:]
        return _replace(argv, "--t-end", "1"), "", False
    if cmd == "render" and "--movie" in argv:
        return argv, "", False
    return argv, "", False


@pytest.mark.slow  # some 40 commands one after another: 3 min on 2 cores; CI runs it (.ci/run, the slow line)
@pytest.mark.timeout(1200)
def test_every_quoted_command_runs(ti_cpu, tmp_path, monkeypatch, capsys):
    """In order, from a scratch folder holding the repository's scenes/ and examples/: exit 0 for each (the
    plots of `dem plot` on the columns it names, the resumed run, the sweeps and their fragility curves...)."""
    for name in ("scenes", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    ran, parsed_only, took = [], [], []
    for doc, line, cmd in COMMANDS:
        argv, why, finished = _small(shlex.split(cmd)[1:])
        if argv is None:
            parsed_only.append(f"{line} ({why})")
            continue
        t0 = time.perf_counter()
        code = main(argv)
        out = capsys.readouterr()
        took.append((round(time.perf_counter() - t0, 1), line))
        if finished:
            assert code == 2 and "has reached t =" in out.err, f"{doc}: `{line}` -> {argv}: {out.err}"
        else:
            assert code == 0, f"{doc}: `{line}` ran as `dem {shlex.join(argv)}`: exit {code}\n{out.err[-2000:]}"
        ran.append(line)
    print(f"ran {len(ran)} commands; parsed only: {parsed_only}")
    print("\n".join(f"{t:6.1f} s  {line}" for t, line in sorted(took, reverse=True)[:12]))
    assert len(ran) >= 20
