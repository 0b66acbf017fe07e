"""Limits on a script: `--timeout SECONDS` and `--max-elements N`."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_RETRY = 0.1  # seconds between repeated interrupts, should a script swallow the first one


class ScriptTimeout(BaseException):
    """Raised inside a running script when its time is up. A BaseException, so that neither the
    language's error handling nor a script's `except Exception` turns it into a script error."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"stopped after {seconds:g} seconds (--timeout {seconds:g})")
        self.seconds = seconds


def _request_language_interrupt() -> None:
    """Ask the language to stop at its next statement, when it offers the hook."""
    try:
        from autodiff_cli.lang import request_interrupt  # type: ignore[attr-defined]
    except ImportError:
        return
    try:
        request_interrupt()
    except Exception:  # the hook is a courtesy; the exception below stops the script anyway
        pass


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Stop the code in the block after `seconds` by raising ScriptTimeout in the main thread.

    The interrupt repeats every 0.1 s until the block is left, so a bare `except:` in a script
    cannot swallow it. Without SIGALRM (Windows) or off the main thread, there is no limit here;
    `autodiff run` also enforces its timeout from a parent process.
    """
    usable = (
        seconds is not None
        and seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, _RETRY)
        _request_language_interrupt()
        raise ScriptTimeout(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def set_max_elements(limit: int | None) -> bool:
    """Cap the size of tensors the engine creates; False when the engine has no such limit yet."""
    if limit is None:
        return True
    try:
        from autodiff_cli.engine.limits import set_max_elements as engine_set_max_elements
    except ImportError:
        return False
    engine_set_max_elements(limit)
    return True
