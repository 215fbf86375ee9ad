"""SIGINT and SIGTERM during a run: noted, not acted on at once, so that the run loop can finish the
current chunk of steps and leave whole files (history, summary with status ``interrupted``, a
checkpoint) before it exits with 128 + the signal number (130, 143), as shells expect.
"""

from __future__ import annotations

import signal
import threading

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(Exception):
    """Raised by :func:`raise_on_signal` handlers (outside the run loop): a signal arrived. ``signal_stop``: code that
    turns a user's errors into one line (dem.scenes.scene.load_scene_module) lets it through."""

    signal_stop = True

    def __init__(self, signum: int):
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum


def exit_code(signum: int) -> int:
    return 128 + int(signum)


# the signal the start-up handlers last raised for, kept until it is acted on: Taichi decorates kernels and reads
# source inside bare ``except:`` clauses (taichi/lang/kernel_impl.py, _wrap_inspect.py), which swallow the
# exception a handler raises there, and the run would then go on to its end as if nothing had come
_pending: int | None = None


def raise_on_signal() -> None:
    """SIGTERM raises :class:`Interrupted` and SIGINT KeyboardInterrupt (for the set-up before a run; the run loop
    replaces them with :class:`SignalFlag`); the signal is also noted, so that :func:`check_pending` and the run
    loop's flag act on it where start-up code swallowed the exception."""
    global _pending
    _pending = None
    if threading.current_thread() is threading.main_thread():
        def handler(signum, _frame):
            global _pending
            _pending = signum
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            raise Interrupted(signum)

        for s in SIGNALS:
            signal.signal(s, handler)


def check_pending() -> None:
    """Raise for a start-up signal whose exception was swallowed on the way (see ``_pending``)."""
    global _pending
    signum, _pending = _pending, None
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    if signum is not None:
        raise Interrupted(signum)


class SignalFlag:
    """``with SignalFlag() as flag:`` — SIGINT and SIGTERM set ``flag.signum`` instead of stopping the
    process; the previous handlers come back at the end. Outside the main thread (where Python cannot
    install handlers) it does nothing."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.signum: int | None = None
        self._old: dict = {}

    def __enter__(self) -> SignalFlag:
        global _pending
        if self.enabled and threading.current_thread() is threading.main_thread():
            # a start-up signal not yet acted on (swallowed on its way) stops the run at its first chunk
            self.signum, _pending = _pending, None
            for s in SIGNALS:
                self._old[s] = signal.signal(s, self._note)
        return self

    def _note(self, signum, _frame) -> None:
        if self.signum is None:
            self.signum = signum

    @property
    def name(self) -> str | None:
        return signal.Signals(self.signum).name if self.signum is not None else None

    def __exit__(self, *exc) -> None:
        for s, h in self._old.items():
            signal.signal(s, h)
        self._old.clear()
