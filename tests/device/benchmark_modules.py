"""The benchmarks' scripts as modules for the tests (they import each other by name from benchmarks/)."""

import importlib
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def benchmark(name: str):
    """benchmarks/<name>.py, imported with benchmarks/ on the path for the import alone."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))
