"""Running a command as an unprivileged user (uid/gid 65534 through `setpriv`), where this
machine can: the jail's tests run their attacks as one, and the REPL's session is checked as one
(without root, a jailed child forks once more to be alone in its PID namespace)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
# Where this Python lives in a folder only root may enter (a pyenv under /root), nobody may still
# read it with CAP_DAC_READ_SEARCH alone; the jail drops every capability before a probe runs.
NOBODY_READING = [*NOBODY, "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]


def drop_problem() -> str | None:
    """Why this machine cannot run a command as another user, or None."""
    if shutil.which("setpriv") is None:
        return "setpriv is not installed"
    if os.geteuid() != 0:
        return "only root can run a command as another user here (the tests run as a user)"
    if nobody_prefix() is None:
        return "uid 65534 cannot run this Python or import autodiff_cli"
    return None


@functools.cache
def nobody_prefix() -> list[str] | None:
    """How to run a command as uid 65534 that can still read this Python and the package."""
    for prefix in (NOBODY, NOBODY_READING):  # (the clean start starts this Python again)
        again = "import os, sys; os.execv(sys.executable, [sys.executable, '-c', ''])"
        check = [*prefix, sys.executable, "-c", f"import autodiff_cli; {again}"]
        if subprocess.run(check, env=checkout_environment(), capture_output=True).returncode == 0:
            return prefix
    return None


def checkout_environment() -> dict[str, str]:
    """Our environment with this checkout importable."""
    return {**os.environ, "PYTHONPATH": str(REPO)}
