"""The README's quickstart works pasted into a fresh machine with only Python and pip (issue 32: its test command
failed on a fresh clone while CI, which installed every extra, was green).

CI pastes the quickstart's two commands, exactly as the README writes them, into a fresh virtual environment
(.ci/run, with .ci/quickstart.py reading them from README.md). These tests hold that wiring, and that a test which
needs the vis extra skips, saying so, under the README's test command (the test extra alone)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _quickstart():
    spec = importlib.util.spec_from_file_location("quickstart", ROOT / ".ci" / "quickstart.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ci_pastes_the_readme_quickstart_into_a_fresh_environment():
    commands = _quickstart().quickstart_commands()
    assert commands == ['pip install -e . && dem run scenes/pena_block.py',
                        'pip install -e ".[test]" && python -m pytest -q'], commands
    assert "\ntest = [" in (ROOT / "pyproject.toml").read_text()  # the extra the test command names
    assert (ROOT / "scenes" / "pena_block.py").exists()
    ci = (ROOT / ".ci" / "run").read_text()
    # a fresh virtual environment, the commands from the README, run in it
    assert 'python3 -m venv --clear "$QS"' in ci and 'python3 .ci/quickstart.py > "$QS/quickstart.sh"' in ci
    assert '(. "$QS/bin/activate" && bash "$QS/quickstart.sh")' in ci


def test_quickstart_reader_takes_every_command_line_of_the_section():
    text = ("# t\n\n## Quickstart\n\ntext\n\n```bash\na && b\n# note\n```\n\n```python\nx\n```\n"
            "```bash\nc\n```\n\n## Next\n```bash\nd\n```\n")
    assert _quickstart().quickstart_commands(text) == ["a && b", "c"]


def test_examples_needing_pyvista_skip_with_the_extra_to_install(tmp_path):
    """Under the test extra alone pyvista is missing: the read-results example's test skips, naming the vis extra
    (it failed before, as the README's test command showed a new user)."""
    code = ("import sys; sys.modules['pyvista'] = None; import pytest; "
            "sys.exit(pytest.main(['-q', '-n', '0', '-rs', '-p', 'no:cacheprovider', "
            "'tests/cli/test_examples.py::test_read_results']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "1 skipped" in r.stdout and "pyvista is in the vis extra (pip install -e '.[vis]')" in r.stdout, r.stdout


@pytest.mark.slow  # the flagship run: 146,320 spheres for 6 s, 10-40 s here (CI runs it: .ci/run)
def test_the_readme_quotes_the_flagship_runs_summary_line(tmp_path):
    """The README's quoted summary line of its first command: the physics part (up to the energy balance error)
    as the command prints it today; the timing after it is the machine's."""
    import os
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("```\npena_block: peak"):]
    quoted = " ".join(block[4:block.index("\n```", 4)].split())
    env = os.environ | {"PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run([sys.executable, "-m", "dem.cli", "run", str(ROOT / "scenes" / "pena_block.py"), "--out",
                        str(tmp_path / "run"), "--no-plots", "--no-progress"], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    printed = r.stdout.strip().splitlines()[-1]
    physics = re.compile(r"^(.*energy balance error [\d.e+-]+;)")
    assert physics.match(printed).group(1) == physics.match(quoted).group(1), (printed, quoted)
