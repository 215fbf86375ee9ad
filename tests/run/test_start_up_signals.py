"""A signal during the start-up whose exception is swallowed on its way (Taichi decorates kernels and reads source
inside bare ``except:`` clauses) is still acted on: ``check_pending`` raises it before the run, and a run loop's
flag started after it stops at its first chunk. Before this, a SIGTERM that landed in such a clause was lost and
the run went on to its end (seen as tests/run/test_interrupts.py::test_sigterm_during_start_up timing out)."""

import os
import signal
import time

import pytest

from dem.run.interrupts import Interrupted, SignalFlag, check_pending, raise_on_signal


@pytest.fixture
def start_up_handlers():
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    raise_on_signal()
    yield
    for s, h in old.items():
        signal.signal(s, h)


def _swallowed(signum):
    """Deliver `signum` to this process inside a bare except, as Taichi's kernel decorator would."""
    try:
        os.kill(os.getpid(), signum)
        time.sleep(0.5)  # the handler runs at the next bytecode boundary, inside this try
    except:  # noqa: E722 — the point of the test
        pass


@pytest.mark.parametrize("signum,exc", [(signal.SIGTERM, Interrupted), (signal.SIGINT, KeyboardInterrupt)])
def test_swallowed_start_up_signal_is_raised_before_the_run(start_up_handlers, signum, exc):
    _swallowed(signum)
    with pytest.raises(exc):
        check_pending()
    check_pending()  # acted on once: nothing left


def test_swallowed_start_up_signal_stops_the_run_loop(start_up_handlers):
    _swallowed(signal.SIGTERM)
    with SignalFlag() as flag:
        assert flag.name == "SIGTERM"
    check_pending()  # the flag took it


def test_no_signal_no_interrupt(start_up_handlers):
    check_pending()
    with SignalFlag() as flag:
        assert flag.signum is None
