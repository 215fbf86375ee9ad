"""Repeat Xu et al. 2022, Table 3: cost of the three integrators on the clearance oscillator of Xu et al. 2022, §3.1.

Xu et al. 2022, Table 3 (MATLAB, 0.02 s of simulation, step not printed): Newmark-β + Newton–Raphson 1.3 s,
generalized-α 2.1 s, precise integration 25 s. Here each method runs the same 0.02 s at the steps
given, and its error against the tight DOP853 reference (max |x − x_ref| / d) is printed with the
wall-clock time. Pure-Python scalar loops: compare the methods with each other, not with Xu et al. 2022.

Run: python benchmarks/bench_impact_integrators.py [--dt 2e-6 1e-6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from validation.impact import (
    ClearanceOscillator,
    generalized_alpha,
    newmark_newton,
    precise_integration,
    reference_solution,
)

T_END = 0.02  # [s], Xu et al. 2022, Table 3
V0 = 8.0  # [m/s], Xu et al. 2022, §3.1


def main(argv: list[str] | None = None) -> None:
    """Time the three methods and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dt", type=float, nargs="+", default=[4e-6, 2e-6, 1e-6], help="steps [s]")
    parser.add_argument("--repeat", type=int, default=3, help="timing repeats (best is kept)")
    args = parser.parse_args(argv)
    osc = ClearanceOscillator()
    methods = {"Newmark-beta + NR": newmark_newton, "generalized-alpha": generalized_alpha,
               "precise integration": precise_integration}
    print(f"{'method':22s} {'dt [s]':>9s} {'time [s]':>9s} {'max|x-x_ref|/d':>15s} {'max|v-v_ref|/v0':>16s}")
    for dt in args.dt:
        t = np.linspace(0.0, T_END, round(T_END / dt) + 1)
        ref = reference_solution(osc, 0.0, V0, t)
        for name, method in methods.items():
            best = np.inf
            for _ in range(args.repeat):
                start = time.perf_counter()
                res = method(osc, 0.0, V0, T_END, dt)
                best = min(best, time.perf_counter() - start)
            ex = np.max(np.abs(res.x - ref.x)) / osc.clearance
            ev = np.max(np.abs(res.v - ref.v)) / V0
            print(f"{name:22s} {dt:9.1e} {best:9.3f} {ex:15.2e} {ev:16.2e}")


if __name__ == "__main__":
    main()
