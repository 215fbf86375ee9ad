"""The worked studies' way of running ``dem`` commands: in this process, printed before each runs, the study stopped
with the command's exit code if one fails."""

import shlex
import sys
import time


def dem(*args: str) -> float:
    """Run one dem command in this process; returns its wall time [s]."""
    from dem.cli.main import main

    print("$ dem " + " ".join(shlex.quote(a) for a in args), flush=True)
    t0 = time.perf_counter()
    rc = main(list(args))
    if rc != 0:
        sys.exit(f"dem {args[0]} failed with exit code {rc}")
    return time.perf_counter() - t0
