"""The lock-down a child applies to itself before it runs untrusted code, in this order:

1. no core files; an unprivileged identity (root becomes `nobody`, groups dropped);
2. new user, PID, network, mount, IPC, UTS and cgroup namespaces, the process becoming PID 1 of
   its own PID namespace, and an empty read-only root (`namespaces`), where the kernel allows;
3. every capability dropped (those the user namespace gave), `PR_SET_NO_NEW_PRIVS`;
4. Landlock with no file right at all (`landlock`), where the kernel has it;
5. rlimits: memory, no file written, no descriptor opened, CPU time, no process;
6. `PR_SET_PDEATHSIG` last (every change of identity above clears it), then a check that the
   parent is still there;
7. the seccomp allow-list (`seccomp`), which from then on kills any other system call.

`enter` records what held in `REPORT` (read by `probe` and `autodiff doctor`); nothing fails
when a protection is missing, except where the kernel refuses a step it claimed to allow.
"""

from __future__ import annotations

import ctypes
import os
import platform
import select
import signal
import sys
from types import ModuleType
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.cli.jail import landlock, namespaces, seccomp

NOBODY = 65534
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CAPSET = {"x86_64": 126, "aarch64": 91}
CAPABILITY_VERSION_3 = 0x20080522

# what held in this process: protection name -> detail (None when it did not hold)
REPORT: dict[str, str | None] = {}


_LIBC: list[Any] = []


def libc() -> Any:
    """The C library (Linux only; elsewhere None: only the rlimits hold)."""
    if not _LIBC:
        try:
            _LIBC.append(ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None)
        except OSError:
            _LIBC.append(None)
    return _LIBC[0]


def _resource() -> ModuleType:
    """`resource` (rlimits), imported on first use: in the child, by its lock-down."""
    return lazy_imports.load("resource")


def peak_memory() -> int:
    """Bytes: this process's peak resident size (after the lock-down loaded `resource`)."""
    resource = _resource()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # (KiB on Linux)


def enter(memory: int, cpu_seconds: int | None) -> dict[str, str | None]:
    """Lock this process down (see the module's docstring); returns `REPORT`."""
    resource = _resource()  # the child's first step: it can still open files
    c = libc()
    parent = os.getppid()
    REPORT.clear()
    _set_limit(resource, resource.RLIMIT_CORE, 0)  # before anything may crash
    os.chdir("/")
    REPORT["unprivileged user"] = _unprivileged()
    alive = None
    born_alone = os.getpid() == 1  # the parent forked it into a new PID namespace
    try:
        namespaces.unshare_all(c, pid=not born_alone)
        if c is not None and REPORT["unprivileged user"]:  # the id maps are written: no one
            c.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # of its outside uid may ptrace it any more
        REPORT["user, network, IPC, UTS, cgroup namespaces"] = "new, one unprivileged uid inside"
        if not born_alone:
            alive = namespaces.fork_into_pid_namespace(lambda: _die_with_parent(c))
        REPORT["PID namespace"] = f"pid {os.getpid()}, alone in its namespace"
        namespaces.empty_root(c)
        REPORT["empty root"] = "a read-only empty tmpfs, the old root detached"
    except (namespaces.NamespaceError, OSError, AttributeError) as error:
        for name in ("user, network, IPC, UTS, cgroup namespaces", "PID namespace", "empty root"):
            REPORT.setdefault(name, None)
        REPORT["namespaces refused"] = str(error)
    _drop_capabilities(c)
    if c is not None and c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0:
        REPORT["no_new_privs"] = "set"
    abi = landlock.restrict(c) if "no_new_privs" in REPORT else 0
    REPORT["Landlock"] = f"ABI {abi}: no file access" if abi else None
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past RLIMIT_FSIZE fails, no kill
    settings = [
        (resource.RLIMIT_FSIZE, 0),  # no byte written to any file
        # The whole address space (libraries included), so the resident memory stays under the
        # limit; it holds with numpy since BLAS runs one thread (no per-thread pools).
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_DATA, memory),
        (resource.RLIMIT_NOFILE, 3),  # stdin (/dev/null), stdout and stderr pipes: no new fd
        (resource.RLIMIT_NPROC, 0),  # no new process, no thread
    ]
    if cpu_seconds is not None:
        settings.append((resource.RLIMIT_CPU, cpu_seconds))
    held = all(_set_limit(resource, which, value) for which, value in settings)
    REPORT["rlimits"] = (
        "memory, no file size, no new descriptor, no process, no core" if held else None
    )
    _die_with_parent(c)
    if alive is not None:
        _exit_if_gone(alive)
    elif os.getppid() != parent or _output_orphaned():  # the parent died before the death
        os._exit(1)  # signal was set
    REPORT["dies with its parent"] = "PR_SET_PDEATHSIG SIGKILL" if c is not None else None
    installed = "no_new_privs" in REPORT and seccomp.install(
        c, os.getpid(), bool(REPORT.get("empty root"))
    )
    REPORT["seccomp allow-list"] = "other system calls kill the process" if installed else None
    return REPORT


def _unprivileged() -> str | None:
    """Root becomes nobody (no groups) before anything else. What this process now is, or None
    when it is still root (a container's root with no `nobody` mapped)."""
    if os.geteuid() == 0:
        try:
            os.setgroups([])
        except PermissionError:  # setgroups denied in this user namespace: no groups to drop
            pass
        try:
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
        except OSError:
            return None
        c = libc()
        if c is not None:  # a changed uid makes /proc/self root's: the id maps need it ours
            c.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    return f"uid {os.geteuid()} outside the jail"


def _drop_capabilities(c: Any) -> None:
    """No capability left (a new user namespace gives its creator all of them inside it)."""
    number = CAPSET.get(platform.machine())
    if c is None or number is None:
        return
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable, twice: all empty
    c.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    c.syscall(number, ctypes.byref(header), ctypes.byref(data))


def _die_with_parent(c: Any) -> None:
    if c is not None:
        c.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _output_orphaned() -> bool:
    """Whether the parent, which holds the other end of our stdout pipe, is gone (a process
    born in its own PID namespace sees no parent pid to compare)."""
    poller = select.poll()
    poller.register(1, select.POLLERR)
    return any(events & select.POLLERR for _, events in poller.poll(0))


def _exit_if_gone(alive: int) -> None:
    """Exit when the process outside the PID namespace (which holds the other end) is gone."""
    os.set_blocking(alive, False)
    try:
        if os.read(alive, 1) == b"":
            os._exit(1)
    except BlockingIOError:
        pass
    finally:
        os.close(alive)


def _set_limit(resource: Any, which: int, value: int) -> bool:
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    try:
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):  # a limit this system does not take (RLIMIT_AS on macOS)
        return False
    return True
