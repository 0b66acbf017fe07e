"""Linux namespaces for one jailed child: its own user, PID, network, mount, IPC, UTS and cgroup
namespaces, and an empty, read-only root.

`unshare_all` moves the calling process into new namespaces (its uid inside is nobody's, mapped to
its own unprivileged uid outside; nothing else is mapped). A new PID namespace takes effect for the
next child only, so `fork_into_pid_namespace` forks: the new process is PID 1 of a namespace
holding nothing else (no sibling, no parent to see or signal), and the process left outside only
waits for it, passes on the signals the parent sends (SIGINT, SIGTERM, SIGHUP) and ends as it
ended. `empty_root` then makes a small read-only tmpfs the root, with the old root detached, so
that no path resolves to anything. Calls through the C library (`ctypes`), Linux only.
"""

from __future__ import annotations

import ctypes
import os
import platform
import signal
from typing import Any, NoReturn

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID = 0x08000000, 0x10000000, 0x20000000
CLONE_NEWNET = 0x40000000
ALL = (
    CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
    | CLONE_NEWNS
    | CLONE_NEWIPC
    | CLONE_NEWUTS
    | CLONE_NEWCGROUP
)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
MOUNT_POINTS = ("/tmp", "/mnt", "/run", "/dev", "/proc")  # any existing folder will do
INSIDE_ID = 65534  # nobody, inside the user namespace too
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class NamespaceError(Exception):
    """A namespace step the kernel refused: the step and the kernel's reason."""


def _check(result: int, step: str) -> None:
    if result != 0:
        raise NamespaceError(f"{step}: {os.strerror(ctypes.get_errno())}")


def unshare_all(libc: Any, pid: bool = True) -> None:
    """New namespaces of every kind for this process (the PID namespace only with `pid`), its
    uid and gid inside `nobody`'s, mapped to its own (unprivileged) ids outside; no other id
    exists inside. NamespaceError where the kernel refuses (containers, hardened kernels,
    `kernel.unprivileged_userns_clone=0`)."""
    uid, gid = os.geteuid(), os.getegid()
    if uid == 0:
        raise NamespaceError("unshare: still root (no unprivileged uid to map)")
    _check(libc.unshare(ALL if pid else ALL & ~CLONE_NEWPID), "unshare")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{INSIDE_ID} {uid} 1")
    _write("/proc/self/gid_map", f"{INSIDE_ID} {gid} 1")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


_OWN_PID_NAMESPACE: list[int] = []  # a descriptor of the parent's own PID namespace, once


def pid_namespace_for_next_fork(libc: Any) -> bool:
    """In the parent, as root: the next child it forks is PID 1 of a new PID namespace, so the
    child need not fork again to get one. `own_pid_namespace_again` must follow the fork.
    False (nothing changed) without the privilege or the kernel's support."""
    if libc is None or os.geteuid() != 0:
        return False
    if not _OWN_PID_NAMESPACE:
        try:
            _OWN_PID_NAMESPACE.append(os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC))
        except OSError:
            return False
    return libc.unshare(CLONE_NEWPID) == 0


def own_pid_namespace_again(libc: Any) -> None:
    """In the parent after the fork: its next children are born in its own PID namespace."""
    libc.setns(_OWN_PID_NAMESPACE[0], CLONE_NEWPID)


def fork_into_pid_namespace(set_death_signal: Any) -> int:
    """Fork after `unshare_all`: returns in the new process (PID 1 of the new namespace); the
    process left outside never returns. `set_death_signal()` is called in each, after the fork,
    so each dies with its parent. Returns a descriptor that reads as ended once the process
    outside is gone: the caller checks it after its last change of identity (which clears the
    death signal) and closes it."""
    alive_read, alive_write = os.pipe()
    outside_parent = os.getppid()
    pid = os.fork()
    if pid == 0:
        os.close(alive_write)
        set_death_signal()
        return alive_read
    os.close(alive_read)
    _wait_outside(pid, alive_write, outside_parent, set_death_signal)


def _wait_outside(pid: int, alive_write: int, outside_parent: int, set_death: Any) -> NoReturn:
    """The process outside the PID namespace: dies with its parent, passes signals on, ends as
    the jailed process ended (its exit status, or the same signal). It holds `alive_write`
    open until it ends: the jailed process sees that pipe's end when this one is gone."""
    set_death()
    if os.getppid() != outside_parent:
        os.kill(pid, signal.SIGKILL)
        os._exit(1)
    for number in FORWARDED:
        signal.signal(number, lambda received, _frame: _forward(pid, received))
    for fd in (0, 1, 2):  # the jailed process holds the pipes: their end is its end
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        _, status = os.waitpid(pid, 0)
    except BaseException:  # noqa: BLE001 - whatever happens, the jailed process goes first
        os.kill(pid, signal.SIGKILL)
        os._exit(1)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        for forwarded in FORWARDED:
            signal.signal(forwarded, signal.SIG_DFL)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status))


def _forward(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def empty_root(libc: Any) -> None:
    """Make a read-only, empty tmpfs this process's root; the old root is detached, so no path
    leads out. Needs the mount namespace of `unshare_all` (and its capabilities)."""
    # (mounts copied into a user namespace's mount namespace are slaves already: nothing done
    # here propagates back)
    base = next((path for path in MOUNT_POINTS if os.path.isdir(path)), None)
    if base is None:
        raise NamespaceError("no folder to mount the new root on")
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    _check(libc.mount(b"tmpfs", base.encode(), b"tmpfs", flags, b"size=4k,mode=0555"), "mount")
    os.chdir(base)
    syscall = PIVOT_ROOT.get(platform.machine())
    if syscall is None:
        raise NamespaceError("pivot_root: unknown on this architecture")
    _check(libc.syscall(syscall, b".", b"."), "pivot_root")
    _check(libc.umount2(b".", MNT_DETACH), "umount the old root")
    os.chdir("/")
    _check(
        libc.mount(None, b"/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags, None),
        "remount / read-only",
    )
