"""Limits on a script: `--timeout SECONDS` and `--max-elements N`."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from autodiff_cli.cli.jail.child_guard import on_main_thread
from autodiff_cli.engine.core.limits import set_max_elements as engine_set_max_elements
from autodiff_cli.lang.limits import ScriptTimeout, clear_interrupt, request_interrupt

_RETRY = 0.1  # seconds between repeated interrupts, should a script swallow the first one
MAX_TIMEOUT = 1e6  # seconds (11.5 days): a larger --timeout is a typo, not a wish

__all__ = ["MAX_TIMEOUT", "ScriptTimeout", "set_max_elements", "time_limit", "timeout_accepted"]


def timeout_accepted(seconds: float) -> bool:
    """Whether `--timeout SECONDS` is usable: more than 0 and at most `MAX_TIMEOUT` (not nan)."""
    return 0 < seconds <= MAX_TIMEOUT


def timeout_message(seconds: float) -> str:
    """`stopped after 2 seconds (--timeout 2)`; `1 second` in the singular."""
    unit = "second" if seconds == 1 else "seconds"
    return f"stopped after {seconds:g} {unit} (--timeout {seconds:g})"


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Stop the code in the block after `seconds` by raising ScriptTimeout in the main thread.

    The interrupt repeats every 0.1 s until the block is left, so a bare `except:` in a script
    cannot swallow it. Without SIGALRM (Windows) or off the main thread, there is no limit here;
    `autodiff run` also enforces its timeout from a parent process.
    """
    usable = (
        seconds is not None and seconds > 0 and hasattr(signal, "setitimer") and on_main_thread()
    )
    if not usable:
        yield
        return

    asked = False

    def on_alarm(signum: int, frame: object) -> None:
        """First ask the language to stop at its next statement (a located error); if the script
        is still running a moment later (inside one long engine call), raise right here."""
        nonlocal asked
        signal.setitimer(signal.ITIMER_REAL, _RETRY)
        if not asked:
            asked = True
            request_interrupt(ScriptTimeout(timeout_message(seconds)))
            return
        raise ScriptTimeout(timeout_message(seconds))

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        clear_interrupt()


def set_max_elements(limit: int | None) -> bool:
    """Cap the size of tensors the engine creates; False when the engine has no such limit yet."""
    if limit is None:
        return True
    engine_set_max_elements(limit)
    return True
