"""Helpers of the reliability tests: dem runs in child processes (to signal and kill them), strict JSON
reading, temporary-file checks and small tmpfs mounts."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the coarse Peña packing (17,676 spheres): ~1e5 steps/s here, so kill points land mid-run
PENA_COARSE = ["pena_block", "--set", "r_base=0.01", "r_core=0.04"]
QUIET = ["--no-progress", "--no-plots"]


def start_run(args: list[str]) -> subprocess.Popen:
    """``python -m dem.cli run ARGS`` in a child process (from the repository root)."""
    return subprocess.Popen([sys.executable, "-m", "dem.cli", "run", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(predicate, timeout: float = 300.0, proc: subprocess.Popen | None = None, what: str = "") -> None:
    """Poll `predicate` every 20 ms until it holds; fail after `timeout` s or if `proc` ends first."""
    t0 = time.monotonic()
    while not predicate():
        if proc is not None and proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the run ended (rc {proc.returncode}) before {what}: {err[-2000:]}")
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def status_is(out: Path, status: str):
    """A predicate: out/summary.json exists and has this status."""
    def check() -> bool:
        try:
            return json.loads((out / "summary.json").read_text()).get("status") == status
        except (OSError, ValueError):
            return False
    return check


def strict_json(path: Path) -> dict:
    """Read a JSON file refusing NaN and Infinity (which Python's json accepts by default)."""
    def refuse(name):
        raise AssertionError(f"{path} holds {name}, which is not JSON")
    return json.loads(Path(path).read_text(), parse_constant=refuse)


def temp_files(folder: Path) -> list[Path]:
    """Temporary files of atomic writes left in `folder` or its vtk subfolder."""
    folder = Path(folder)
    return [p for d in (folder, folder / "vtk") if d.is_dir() for p in d.iterdir()
            if p.name.startswith(".") and ".tmp" in p.name]


def one_error_line(err: str, prefix: str = "dem: error:") -> str:
    """The stderr of a refused command: no traceback, and its last line starts with `prefix`."""
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("[Taichi]")]
    assert lines and lines[-1].startswith(prefix), err
    return lines[-1]


@contextlib.contextmanager
def tmpfs(path: Path, size: str, *, read_only: bool = False):
    """A tmpfs of `size` mounted at `path` for the block; pytest.skip with the reason where mounting is not
    allowed (not root, or no CAP_SYS_ADMIN in a container)."""
    import pytest

    path.mkdir(parents=True, exist_ok=True)
    opts = f"size={size}" + (",ro" if read_only else "")
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a tmpfs (the test fills or write-protects a small file system)")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.strip()}); the test needs a small file system")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)
