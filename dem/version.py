"""The package version (PEP 440), and the warning an old public spelling gives, kept where every layer may
read them."""

import functools
import warnings

__version__ = "0.1.0"
KEPT = "(the old name is kept for one release)"
"""The end of every warning of an old spelling (the command line shows these as ``dem: warning: ...``)."""


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn (DeprecationWarning) that the public name `old` is now `new`: the old spelling keeps working for
    one release. ``stacklevel`` 3 points at the caller of the function that calls this."""
    warnings.warn(f"{old} is deprecated: use {new} {KEPT}", DeprecationWarning, stacklevel=stacklevel)


def renamed_keyword(old: str, new: str):
    """Class decorator (outside @dataclass): ``cls(..., old=x)`` still builds ``cls(..., new=x)`` and
    ``obj.old`` still reads (and, where the class allows, sets) ``obj.new``, each with a DeprecationWarning."""

    def decorate(cls):
        init = cls.__init__

        @functools.wraps(init)
        def __init__(self, *args, **kw):
            if old in kw:
                warn_renamed(f"{cls.__name__}({old}=...)", f"{cls.__name__}({new}=...)")
                if new in kw:
                    raise TypeError(f"{cls.__name__}() got both {old} and {new}: give {new} only")
                kw[new] = kw.pop(old)
            init(self, *args, **kw)

        def get(self):
            warn_renamed(f"{cls.__name__}.{old}", f"{cls.__name__}.{new}")
            return getattr(self, new)

        def set_(self, value):
            warn_renamed(f"{cls.__name__}.{old}", f"{cls.__name__}.{new}")
            setattr(self, new, value)

        cls.__init__ = __init__
        setattr(cls, old, property(get, set_, doc=f"Deprecated: {new}."))
        return cls

    return decorate
