"""`dem scenes | head -1`: a reader that stops early ends the command quietly (exit 0, nothing on stderr), as
other command-line tools do, not with a BrokenPipeError traceback."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_output_into_a_closed_pipe_ends_quietly():
    p = subprocess.Popen([sys.executable, "-m", "dem.cli", "scenes"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, bufsize=0)
    first = p.stdout.read(20)  # the first bytes of the list, then the reader goes away
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0, err
    assert first and "Traceback" not in err and "BrokenPipe" not in err, err
