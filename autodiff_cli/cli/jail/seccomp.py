"""The jail's system-call filter: an allow-list; any call not on it kills the process (SIGSYS).

What a running script needs is allowed: reads and writes on the descriptors it inherited, memory
(mmap, brk, madvise...), futexes, clocks and sleeps, signal handling on itself, its own ids,
random bytes, exit. A few calls that ordinary Python code may try on an error path (opening or
stat-ing a file, making a socket, a pipe or a process, prctl) fail with EPERM instead, so that
Python raises an exception rather than dying. Three calls are allowed for some arguments only:
`kill`/`tkill`/`tgkill` aimed at this process itself, `ioctl` for the terminal queries Python
makes (TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX), `fcntl` for F_GETFD/F_SETFD/
F_GETFL/F_SETFL (never F_SETOWN, which would aim SIGIO at another process), and `prlimit64`
only to read a limit. Everything else (`socket` aside: no `connect`, `bind`, `sendto`...;
`ptrace`, `process_vm_*`, `mount`, `unshare`, `setns`, `bpf`, `io_uring_*`, `userfaultfd`,
`perf_event_open`, `keyctl`, `add_key`, `setuid`, `personality`, `rt_sigqueueinfo`...) kills.

Built by hand as a classic BPF program (layouts from `linux/filter.h` and `linux/seccomp.h`)
for x86-64 (x32 and i386 calls are killed) and AArch64; elsewhere `install` does nothing and
returns False.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import platform
from typing import Any

from autodiff_cli.cli.jail.syscalls import NUMBERS

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_KILL_PROCESS, RET_ALLOW, RET_ERRNO = 0x80000000, 0x7FFF0000, 0x00050000
LOAD_WORD, JUMP_IF_EQUAL, JUMP_IF_SET, RETURN = 0x20, 0x15, 0x45, 0x06
NR_OFFSET, ARCH_OFFSET, ARGS_OFFSET = 0, 4, 16  # struct seccomp_data, little-endian args
X32_BIT = 0x40000000


ALLOWED = (
    "read write readv writev pread64 close lseek fstat mmap munmap mremap mprotect "
    "madvise brk futex clock_gettime clock_getres clock_nanosleep nanosleep gettimeofday time "
    "rt_sigaction rt_sigprocmask rt_sigreturn sigaltstack rt_sigpending rt_sigsuspend "
    "rt_sigtimedwait setitimer getitimer alarm pause getpid gettid getppid getuid geteuid getgid "
    "getegid getresuid getresgid getgroups getpgrp getpgid getsid getrandom exit exit_group "
    "sched_yield sched_getaffinity getrusage times poll ppoll select pselect6 getcwd uname "
    "restart_syscall getrlimit"
).split()
REFUSED = (  # fail with EPERM: Python raises PermissionError instead of dying
    "open openat openat2 creat stat lstat access faccessat faccessat2 readlink readlinkat statx "
    "statfs fstatfs getdents64 chdir fchdir mkdir mkdirat unlink unlinkat rename renameat "
    "renameat2 socket socketpair clone clone3 fork vfork execve execveat prctl dup dup2 dup3 "
    "pipe pipe2"
).split()
TERMINAL_IOCTLS = (0x5401, 0x5413, 0x541B, 0x5421, 0x5451, 0x5450)  # TCGETS TIOCGWINSZ FIONREAD
# FIONBIO FIOCLEX FIONCLEX
FCNTL_COMMANDS = (1, 2, 3, 4)  # F_GETFD F_SETFD F_GETFL F_SETFL
AUDIT_ARCH = {"x86_64": (0xC000003E, 0), "aarch64": (0xC00000B7, 1)}

Instruction = tuple[int, int, int, int]  # (code, jump if true, jump if false, constant)


def _load_arg(index: int, high: bool = False) -> Instruction:
    return (LOAD_WORD, 0, 0, ARGS_OFFSET + 8 * index + (4 if high else 0))


def _one_of(arg: int, values: tuple[int, ...], refusal: int) -> list[Instruction]:
    """Allow when the low 32 bits of argument `arg` are one of `values` (the kernel reads these
    arguments as 32-bit ints), else return `refusal`."""
    code = [_load_arg(arg)]
    for value in values:
        code += [(JUMP_IF_EQUAL, 0, 1, value), (RETURN, 0, 0, RET_ALLOW)]
    return [*code, (RETURN, 0, 0, refusal)]


def _null(arg: int, refusal: int) -> list[Instruction]:
    """Allow when the 64-bit pointer argument `arg` is NULL."""
    return [
        _load_arg(arg),
        (JUMP_IF_EQUAL, 0, 3, 0),
        _load_arg(arg, high=True),
        (JUMP_IF_EQUAL, 0, 1, 0),
        (RETURN, 0, 0, RET_ALLOW),
        (RETURN, 0, 0, refusal),
    ]


def program(machine: str, pid: int, empty_root: bool = True) -> list[Instruction]:
    """The filter for `machine` in a process whose pid (as it sees itself) is `pid`.

    `newfstatat` is glibc's `fstat` (an empty path with AT_EMPTY_PATH) but also `stat` of any
    path (the filter cannot read the path, and an absolute one ignores the descriptor); Landlock
    does not govern stat. So it is allowed only under the empty root, where no path resolves;
    elsewhere it fails with EPERM (no file's existence, size, owner or times is learned)."""
    arch, column = AUDIT_ARCH[machine]
    eperm = RET_ERRNO | errno.EPERM
    number = {name: pair[column] for name, pair in NUMBERS.items() if pair[column] is not None}
    code: list[Instruction] = [
        (LOAD_WORD, 0, 0, ARCH_OFFSET),
        (JUMP_IF_EQUAL, 1, 0, arch),
        (RETURN, 0, 0, RET_KILL_PROCESS),
        (LOAD_WORD, 0, 0, NR_OFFSET),
    ]
    if machine == "x86_64":  # the x32 ABI shares the architecture tag: its numbers carry a bit
        code += [(JUMP_IF_SET, 0, 1, X32_BIT), (RETURN, 0, 0, RET_KILL_PROCESS)]

    def case(name: str, block: list[Instruction]) -> None:
        if name in number:  # a call the block handles; the block always returns
            code.append((JUMP_IF_EQUAL, 0, len(block), number[name]))
            code.extend(block)

    for name in ALLOWED:
        case(name, [(RETURN, 0, 0, RET_ALLOW)])
    case("newfstatat", [(RETURN, 0, 0, RET_ALLOW if empty_root else eperm)])
    for name in ("kill", "tkill", "tgkill"):
        case(name, _one_of(0, (pid,), eperm))
    case("ioctl", _one_of(1, TERMINAL_IOCTLS, RET_ERRNO | errno.ENOTTY))
    case("fcntl", _one_of(1, FCNTL_COMMANDS, eperm))
    case("prlimit64", _null(2, eperm))
    for name in REFUSED:
        case(name, [(RETURN, 0, 0, eperm)])
    code.append((RETURN, 0, 0, RET_KILL_PROCESS))
    return code


class _Instruction(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint),
    ]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def supported() -> bool:
    """Whether this machine's architecture has a filter here."""
    return platform.machine() in AUDIT_ARCH


def install(libc: Any, pid: int, empty_root: bool) -> bool:
    """Load the filter into this process (after PR_SET_NO_NEW_PRIVS); False where unsupported.
    `pid` is this process's pid as it sees itself (1 in its own PID namespace); `empty_root`
    says whether no path resolves (see `program`)."""
    if libc is None or not supported():
        return False
    prog = compiled(pid, empty_root)
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0


@functools.cache
def compiled(pid: int, empty_root: bool) -> _Program:
    """The filter as the kernel reads it, kept: a warm parent builds the one its children load
    (pid 1 in their PID namespace, under the empty root) once, ~0.4 ms less in each child."""
    instructions = program(platform.machine(), pid, empty_root)
    table = (_Instruction * len(instructions))(*(_Instruction(*item) for item in instructions))
    prog = _Program(len(instructions), table)
    prog._table = table  # (the program points into it)
    return prog
