"""The block path's same-bits checks on a backend (issue 30, item 3), for a lent GPU: a small batch run twice, each
world alone, and the shares taken in reverse order, compared bit for bit (tests/physics/test_share_order.py's worlds
and comparisons; there they run on the CPU and on lavapipe, here on whatever --arch names).

    python benchmarks/check_block_bits.py --arch cuda [--block-dim 128]

Prints one line per comparison ("same bits" or the largest difference and where) and exits 1 if any differs.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import dem  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="cuda", help="Taichi backend (default cuda)")
    ap.add_argument("--block-dim", type=int, default=None, help="threads a world (default: the backend's)")
    a = ap.parse_args()
    dem.init(a.arch)
    import dem.physics.share_sums as SS
    import tests.physics.test_share_order as T

    if a.block_dim is not None:  # the test's Simulations take the default: make it this one
        real = dem.Simulation

        def sim(*args, **kw):
            return real(*args, block_dim=a.block_dim, **kw)

        dem.Simulation = sim
    got = {}
    for order in ("identity", "reverse"):
        SS.SHARE_ORDER = order
        got[order] = T.runs(dem, parallel=True)
    w = len(got["identity"]) // 3
    ident = got["identity"]
    checks = [("second run against the first", ident[:w], ident[w:2 * w]),
              ("each world alone against the batch", ident[:w], ident[2 * w:]),
              ("shares in reverse order against identity", ident[:w], got["reverse"][:w])]
    bad = 0
    for what, xs, ys in checks:
        diffs = [float(np.max(np.abs(x - y))) if x.shape == y.shape else float("inf") for x, y in zip(xs, ys)]
        same = all(x.shape == y.shape and np.array_equal(x.view(np.uint64), y.view(np.uint64)) for x, y in zip(xs, ys))
        bad += not same
        print(f"{what}: {'same bits' if same else f'DIFFERENT (largest difference per world {diffs})'}")
    print(f"backend {a.arch}, {w} worlds, {T.STEPS} steps each")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
