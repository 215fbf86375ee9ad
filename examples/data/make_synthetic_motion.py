"""Writes synthetic_motion.AT2 beside this file: a synthetic ground acceleration in PEER's AT2 format, the
stand-in record of examples/stacked_blocks.py (the repository ships no recorded earthquake; use a record
from the PEER NGA-West2 database the same way: ``Recorded.from_at2(path)``).

Kanai–Tajimi filtered white noise (ground frequency 2.5 Hz, damping 0.6; Kanai 1957, Tajimi 1960) under an
envelope rising over 1 s, holding 3 s and decaying as e^{−0.8 (t − 4 s)}, scaled to a peak of 0.4 g; 8 s
at 100 samples per second; seed 1940.

    python examples/data/make_synthetic_motion.py
"""

from pathlib import Path

import numpy as np
from scipy import signal

DT, DURATION, PGA_G = 0.01, 8.0, 0.4  # [s], [s], [g]


def main() -> Path:
    rng = np.random.default_rng(1940)
    t = np.arange(0.0, DURATION, DT)
    wg, zg = 2 * np.pi * 2.5, 0.6  # [rad/s], [-]
    ground = signal.lti([2 * zg * wg, wg**2], [1.0, 2 * zg * wg, wg**2])
    _, a, _ = signal.lsim(ground, rng.standard_normal(t.size), t)
    a *= np.where(t < 1.0, t**2, np.where(t < 4.0, 1.0, np.exp(-0.8 * (t - 4.0))))
    a *= PGA_G / np.max(np.abs(a))
    lines = ["SYNTHETIC GROUND MOTION - NOT A RECORDING (stand-in for a PEER NGA record; see docs/tutorial.md)",
             "Kanai-Tajimi filtered white noise (fg = 2.5 Hz, zeta_g = 0.6, seed 1940), "
             "envelope 1 s rise / 3 s / decay",
             "ACCELERATION TIME SERIES IN UNITS OF G",
             f"NPTS= {t.size}, DT= {DT:.4f} SEC"]
    vals = [f"{x: .7E}" for x in a]
    lines += ["  ".join(vals[i:i + 5]) for i in range(0, len(vals), 5)]
    path = Path(__file__).with_name("synthetic_motion.AT2")
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    print(main())
