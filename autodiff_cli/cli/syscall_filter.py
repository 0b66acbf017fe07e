"""A seccomp filter for the locked-down child: the system calls that reach other processes or
replace the program fail with EPERM.

Refused: `execve`/`execveat` (no other program), `ptrace`, `process_vm_readv`/`writev`,
`pidfd_open`/`pidfd_send_signal`, and `kill`/`tkill`/`tgkill` aimed at any process but the child
itself (a crash may still raise its own signal). Everything else is allowed: the other limits
(no file descriptor, no process, no memory beyond the limit) do the rest. Built by hand as a
classic BPF program (struct layouts from `linux/filter.h` and `linux/seccomp.h`); only on
x86-64 and AArch64 Linux, elsewhere `install` does nothing and says so.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
from typing import Any

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
LOAD_WORD, JUMP_IF_EQUAL, RETURN = 0x20, 0x15, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_RET|K
NR_OFFSET, ARCH_OFFSET, ARG0_OFFSET = 0, 4, 16  # struct seccomp_data (little-endian arg0)

# machine -> (AUDIT_ARCH_*, {name: number}) for the calls filtered
_ARCHES = {
    "x86_64": (
        0xC000003E,
        {
            "execve": 59, "execveat": 322, "ptrace": 101, "process_vm_readv": 310,
            "process_vm_writev": 311, "pidfd_open": 434, "pidfd_send_signal": 424,
            "kill": 62, "tkill": 200, "tgkill": 234,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "execve": 221, "execveat": 281, "ptrace": 117, "process_vm_readv": 270,
            "process_vm_writev": 271, "pidfd_open": 434, "pidfd_send_signal": 424,
            "kill": 129, "tkill": 130, "tgkill": 131,
        },
    ),
}  # fmt: skip
_SIGNALS = ("kill", "tkill", "tgkill")


class _Instruction(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint),
    ]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def program(arch: int, numbers: dict[str, int], pid: int) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jump if true, jump if false, constant) instructions."""
    refused = [number for name, number in numbers.items() if name not in _SIGNALS]
    signals = [numbers[name] for name in _SIGNALS]
    deny = RET_ERRNO | errno.EPERM
    code = [(LOAD_WORD, 0, 0, ARCH_OFFSET), (JUMP_IF_EQUAL, 1, 0, arch), (RETURN, 0, 0, deny)]
    code.append((LOAD_WORD, 0, 0, NR_OFFSET))
    # refused calls jump to the final "deny"; signal calls to the pid check; others fall through
    tail = len(refused) + len(signals)
    for index, number in enumerate(refused):
        code.append((JUMP_IF_EQUAL, tail - index + 3, 0, number))
    for index, number in enumerate(signals):
        code.append((JUMP_IF_EQUAL, len(signals) - index, 0, number))
    code.append((RETURN, 0, 0, RET_ALLOW))
    code.append((LOAD_WORD, 0, 0, ARG0_OFFSET))  # the signal's target: only ourselves
    code.append((JUMP_IF_EQUAL, 0, 1, pid))
    code.append((RETURN, 0, 0, RET_ALLOW))
    code.append((RETURN, 0, 0, deny))
    return code


def install(libc: Any) -> bool:
    """Load the filter into this process (after PR_SET_NO_NEW_PRIVS); False where unsupported."""
    arch = _ARCHES.get(platform.machine())
    if libc is None or arch is None:
        return False
    instructions = program(arch[0], arch[1], os.getpid())
    table = (_Instruction * len(instructions))(*(_Instruction(*item) for item in instructions))
    prog = _Program(len(instructions), table)
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0
