"""The package version (PEP 440), kept where every layer may read it."""

__version__ = "0.1.0"
