"""Landlock: the kernel's unprivileged access control, used to take away all file access.

A ruleset that handles every file right the kernel knows and grants none: once restricted, the
process cannot open, create, remove, rename or execute any file (descriptors it already holds
stay usable). Where the ABI knows them, TCP bind/connect (ABI 4) and signals and abstract UNIX
sockets outside the process (ABI 6) are refused too. Works without privileges, in containers
where namespaces are refused; needs PR_SET_NO_NEW_PRIVS first. Structures and numbers from
`linux/landlock.h`; the system calls have the same numbers on x86-64 and AArch64.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

CREATE_RULESET, RESTRICT_SELF = 444, 446
CREATE_RULESET_VERSION = 1
# file rights each ABI knows: ABI 1 has 13 (execute ... make_sym), 2 adds refer, 3 truncate,
# 5 ioctl_dev
_FILE_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_NET_RIGHTS = 0b11  # bind_tcp, connect_tcp (ABI 4)
_SCOPES = 0b11  # abstract_unix_socket, signal (ABI 6)


class _Ruleset(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


def abi_version(libc: Any) -> int:
    """The Landlock ABI this kernel offers; 0 when it has none (or it is disabled)."""
    if libc is None:
        return 0
    version = libc.syscall(CREATE_RULESET, None, 0, CREATE_RULESET_VERSION)
    return max(0, version)


def restrict(libc: Any) -> int:
    """Take away every file right (and network and signal rights where known) from this process
    and its future children. The ABI used, or 0 when Landlock is not available. Needs one free
    file descriptor for a moment."""
    abi = abi_version(libc)
    if abi <= 0:
        return 0
    rights = max(value for version, value in _FILE_RIGHTS.items() if version <= abi)
    ruleset = _Ruleset(rights, _NET_RIGHTS if abi >= 4 else 0, _SCOPES if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = libc.syscall(CREATE_RULESET, ctypes.byref(ruleset), size, 0)
    if fd < 0:
        return 0
    try:
        if libc.syscall(RESTRICT_SELF, fd, 0) != 0:
            return 0
    finally:
        os.close(fd)
    return abi
