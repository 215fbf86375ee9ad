"""The package version (PEP 440), and the warning an old public spelling gives, kept where every layer may
read them."""

import warnings

__version__ = "0.1.0"


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn (DeprecationWarning) that the public name `old` is now `new`: the old spelling keeps working for
    one release. ``stacklevel`` 3 points at the caller of the function that calls this."""
    warnings.warn(f"{old} is deprecated: use {new} (the old name is kept for one release)", DeprecationWarning,
                  stacklevel=stacklevel)
