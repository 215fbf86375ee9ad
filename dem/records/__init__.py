"""Ground-motion records: PEER ``.AT2`` files, synthetic suites, response spectra and scaling.

- :mod:`dem.records.at2`: read (errors name file and line) and write ``.AT2`` files;
- :mod:`dem.records.files`: one record file as :class:`dem.base_motion.Recorded`, a suite from a folder or glob;
- :mod:`dem.records.synth`: Kanai–Tajimi / Clough–Penzien noise with a Saragoni–Hart envelope, reproducible suites;
- :mod:`dem.records.spectrum`: exact piecewise-linear (Nigam–Jennings) response spectra, vectorised;
- :mod:`dem.records.scaling`: PGA, Sa(T) and the factor that scales a record to either;
- :mod:`dem.records.cli`: ``dem records synth|spectrum``.
"""

from .at2 import At2, read_at2, write_at2
from .files import find_records, load_record
from .scaling import factor_for, pga_g, sa_g
from .spectrum import Spectrum, log_periods, response_spectrum, spectral_acceleration
from .synth import SuiteRanges, SyntheticModel, suite_record

__all__ = [
    "At2", "Spectrum", "SuiteRanges", "SyntheticModel", "factor_for", "find_records", "load_record",
    "log_periods", "pga_g", "read_at2", "response_spectrum", "sa_g", "spectral_acceleration", "suite_record",
    "write_at2",
]
