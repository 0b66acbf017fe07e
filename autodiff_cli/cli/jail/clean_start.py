"""A clean start: the process that forks jailed children never held the user's environment.

A forked child holds a copy of everything its parent ever had in memory, the environment
strings the kernel put on the first stack among them (API keys, tokens...). So before anything
else, `ensure_clean_start` replaces this process (`execve`, which throws away the whole address
space) by a new interpreter with a minimal, explicit environment: the locale, the variables that
decide the output's look, `PATH` (to find `dot`), autodiff's own settings, one BLAS thread. The new interpreter runs
isolated (`-I -S`: no user site, no PYTHON* variables), with this process's module path given
as an argument, and resumes the same entry point with the same arguments; its environment is
then already clean, so it goes on at once. Settings taken from variables that are not passed
on (`XDG_STATE_HOME`, for the REPL's history) travel as an argument too (`setting`).

Imports only `os` and `sys`: it runs before everything, in every command's start-up.
"""

from __future__ import annotations

import os
import sys

PASSED_ON = (
    "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",  # the locale (text, messages)
    "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES",  # the output's look
    "PROMPT_TOOLKIT_NO_CPR", "PROMPT_TOOLKIT_COLOR_DEPTH",  # the REPL's terminal
    "AUTODIFF_ISOLATION",  # autodiff's own switch
    "PATH",  # where the programs the CLI runs are found (Graphviz's `dot`), as the user has it
    # the numeric kernels: OpenBLAS's CPU choice (some CPUs need it), numpy's SIMD paths
    "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "NPY_DISABLE_CPU_FEATURES",
)  # fmt: skip
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
CARRIED = ("HOME", "XDG_STATE_HOME")  # read once here, passed as an argument (the history)
ISOLATION_VARIABLE = "AUTODIFF_ISOLATION"  # "0": no jail, scripts run in this process
COMPLETION = "_AUTODIFF_COMPLETE"  # shell completion needs the shell's variables: no jail runs
BOOT = (
    "import sys;"
    "sys.path[:]=sys.argv[1].split('\\n');"
    "from autodiff_cli.cli.jail.clean_start import resume;"
    "resume(sys.argv[2],sys.argv[3],sys.argv[4:])"
)
_SETTINGS: dict[str, str] = {}
_RESUMED: list[bool] = []  # True once this is the clean process (it never starts again)


def clean_environment(environ: dict[str, str]) -> dict[str, str]:
    """The environment the clean process gets: the names above, one BLAS thread."""
    kept = {name: environ[name] for name in PASSED_ON if name in environ}
    kept.update((name, "1") for name in ONE_THREAD)
    return kept


def needed(environ: dict[str, str]) -> bool:
    """Whether this process must start again: it holds variables the jail may not see."""
    if not hasattr(os, "execve") or environ.get(ISOLATION_VARIABLE, "1") == "0":
        return False
    return COMPLETION not in environ and clean_environment(environ) != environ


def ensure_clean_start(entry: str) -> None:
    """Start again as `entry` (`module:function`, called with no argument) with `sys.argv` and a
    clean environment, unless this process's environment is clean already. Never returns when it
    starts again."""
    environ = dict(os.environ)
    if _RESUMED or not needed(environ):
        _SETTINGS.update((name, environ[name]) for name in CARRIED if name in environ)
        return
    settings = "\n".join(f"{name}={environ[name]}" for name in CARRIED if name in environ)
    path = "\n".join(entry for entry in sys.path if "\n" not in entry)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    arguments = [sys.executable, "-I", "-S", "-c", BOOT, path, entry, settings, *sys.argv]
    try:
        os.execve(sys.executable, arguments, clean_environment(environ))
    except OSError:  # this interpreter cannot be started again (not executable by this user):
        _SETTINGS.update((name, environ[name]) for name in CARRIED if name in environ)
        # go on without a clean start; `autodiff doctor` reports it, --isolation strict refuses


def resume(entry: str, settings: str, argv: list[str]) -> None:
    """In the clean process: take the settings, restore `sys.argv`, call the entry point."""
    _RESUMED.append(True)
    for line in settings.split("\n"):
        name, equals, value = line.partition("=")
        if equals:
            _SETTINGS[name] = value
    sys.argv[:] = argv
    module, _, function = entry.partition(":")
    __import__(module, fromlist=[function])
    getattr(sys.modules[module], function)()


def isolation_available() -> bool:
    """Whether untrusted code runs in a forked child (else in this process)."""
    return hasattr(os, "fork") and os.environ.get(ISOLATION_VARIABLE, "1") != "0"


def limit_blas_threads() -> None:
    """One BLAS thread: children cannot start threads, and forking a thread pool is unsafe.
    Call before numpy is imported."""
    for name in ONE_THREAD:
        os.environ[name] = "1"


def setting(name: str) -> str | None:
    """A setting taken from the user's environment at start-up (`HOME`, `XDG_STATE_HOME`)."""
    return _SETTINGS.get(name)
