"""SIGINT and SIGTERM during a run: noted, not acted on at once, so that the run loop can finish the
current chunk of steps and leave whole files (history, summary with status ``interrupted``, a
checkpoint) before it exits with 128 + the signal number (130, 143), as shells expect.
"""

from __future__ import annotations

import signal
import threading

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(Exception):
    """Raised by :func:`raise_on_signal` handlers (outside the run loop): a signal arrived."""

    def __init__(self, signum: int):
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum


def exit_code(signum: int) -> int:
    return 128 + int(signum)


def raise_on_signal() -> None:
    """SIGTERM raises :class:`Interrupted` like SIGINT raises KeyboardInterrupt (for the set-up before a run;
    the run loop replaces it with :class:`SignalFlag`)."""
    if threading.current_thread() is threading.main_thread():
        def handler(signum, _frame):
            raise Interrupted(signum)

        signal.signal(signal.SIGTERM, handler)


class SignalFlag:
    """``with SignalFlag() as flag:`` — SIGINT and SIGTERM set ``flag.signum`` instead of stopping the
    process; the previous handlers come back at the end. Outside the main thread (where Python cannot
    install handlers) it does nothing."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.signum: int | None = None
        self._old: dict = {}

    def __enter__(self) -> SignalFlag:
        if self.enabled and threading.current_thread() is threading.main_thread():
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
