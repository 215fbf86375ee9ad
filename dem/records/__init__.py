"""Ground-motion records: PEER ``.AT2`` files, synthetic suites, response spectra and scaling.

- :mod:`dem.model.at2`: read (errors name file and line) and write ``.AT2`` files (in the model layer, which
  reads base motions from them);
- :mod:`dem.records.files`: one record file as :class:`dem.model.base_motion.Recorded`, a suite from a folder or glob;
- :mod:`dem.records.synth`: Kanai–Tajimi / Clough–Penzien noise with a Saragoni–Hart envelope, reproducible suites;
- :mod:`dem.records.spectrum`: exact piecewise-linear (Nigam–Jennings) response spectra, vectorised;
- :mod:`dem.records.scaling`: PGA, Sa(T) and the factor that scales a record to either;
(``dem records synth|spectrum`` is :mod:`dem.cli.records`.)
"""
import importlib

_LAZY = {"At2": "..model.at2", "read_at2": "..model.at2", "write_at2": "..model.at2", "find_records": ".files",
         "load_record": ".files",
         "factor_for": ".scaling", "pga_g": ".scaling", "sa_g": ".scaling", "Spectrum": ".spectrum",
         "log_periods": ".spectrum", "response_spectrum": ".spectrum", "spectral_acceleration": ".spectrum",
         "SuiteRanges": ".synth", "SyntheticModel": ".synth", "suite_record": ".synth"}
"""Names imported on first use (SciPy loads only when a spectrum is computed)."""

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
