"""System-call numbers on x86-64 and AArch64 (from the kernel's `asm/unistd_64.h` and
`asm-generic/unistd.h`): the one table the seccomp filter and the attack battery read."""

from __future__ import annotations

# name: (x86-64 number, AArch64 number); None where the architecture has no such call
NUMBERS: dict[str, tuple[int | None, int | None]] = {
    "access": (21, None), "add_key": (248, 217), "alarm": (37, None), "bpf": (321, 280),
    "brk": (12, 214), "capget": (125, 90), "chdir": (80, 49), "chroot": (161, 51),
    "clock_getres": (229, 114), "clock_gettime": (228, 113), "clock_nanosleep": (230, 115),
    "clone": (56, 220), "clone3": (435, 435), "close": (3, 57), "connect": (42, 203),
    "creat": (85, None), "dup": (32, 23), "dup2": (33, None), "dup3": (292, 24),
    "execve": (59, 221), "execveat": (322, 281), "exit": (60, 93), "exit_group": (231, 94),
    "faccessat": (269, 48), "faccessat2": (439, 439), "fchdir": (81, 50), "fcntl": (72, 25),
    "fork": (57, None), "fstat": (5, 80), "fstatfs": (138, 44), "futex": (202, 98),
    "get_robust_list": (274, 100), "getcwd": (79, 17), "getdents64": (217, 61),
    "getegid": (108, 177), "geteuid": (107, 175), "getgid": (104, 176), "getgroups": (115, 158),
    "getitimer": (36, 102), "getpgid": (121, 155), "getpgrp": (111, None), "getpid": (39, 172),
    "getppid": (110, 173), "getrandom": (318, 278), "getresgid": (120, 150),
    "getresuid": (118, 148), "getrlimit": (97, 163), "getrusage": (98, 165), "getsid": (124, 156),
    "gettid": (186, 178), "gettimeofday": (96, 169), "getuid": (102, 174),
    "inotify_init1": (294, 26), "io_uring_setup": (425, 425), "ioctl": (16, 29),
    "kcmp": (312, 272), "keyctl": (250, 219), "kill": (62, 129), "lseek": (8, 62),
    "lstat": (6, None), "madvise": (28, 233), "memfd_create": (319, 279), "mkdir": (83, None),
    "mkdirat": (258, 34), "mmap": (9, 222), "mount": (165, 40), "mprotect": (10, 226),
    "mremap": (25, 216), "msgctl": (71, 187), "msgget": (68, 186), "munmap": (11, 215),
    "nanosleep": (35, 101), "newfstatat": (262, 79), "open": (2, None),
    "open_by_handle_at": (304, 265), "openat": (257, 56), "openat2": (437, 437),
    "pause": (34, None), "perf_event_open": (298, 241), "personality": (135, 92),
    "pidfd_getfd": (438, 438), "pidfd_open": (434, 434), "pidfd_send_signal": (424, 424),
    "pipe": (22, None), "pipe2": (293, 59), "pivot_root": (155, 41), "poll": (7, None),
    "ppoll": (271, 73), "prctl": (157, 167), "pread64": (17, 67), "prlimit64": (302, 261),
    "process_madvise": (440, 440), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "pselect6": (270, 72), "ptrace": (101, 117), "read": (0, 63), "readlink": (89, None),
    "readlinkat": (267, 78), "readv": (19, 65), "rename": (82, None), "renameat": (264, 38),
    "renameat2": (316, 276), "restart_syscall": (219, 128), "rt_sigaction": (13, 134),
    "rt_sigpending": (127, 136), "rt_sigprocmask": (14, 135), "rt_sigqueueinfo": (129, 138),
    "rt_sigreturn": (15, 139), "rt_sigsuspend": (130, 133), "rt_sigtimedwait": (128, 137),
    "rt_tgsigqueueinfo": (297, 240), "sched_getaffinity": (204, 123),
    "sched_setaffinity": (203, 122), "sched_yield": (24, 124), "select": (23, None),
    "sethostname": (170, 161), "setitimer": (38, 103), "setns": (308, 268),
    "setpriority": (141, 140), "setuid": (105, 146), "shmctl": (31, 195), "shmget": (29, 194),
    "sigaltstack": (131, 132), "socket": (41, 198), "socketpair": (53, 199), "stat": (4, None),
    "statfs": (137, 43), "statx": (332, 291), "syslog": (103, 116), "tgkill": (234, 131),
    "time": (201, None), "times": (100, 153), "tkill": (200, 130), "umount2": (166, 39),
    "uname": (63, 160), "unlink": (87, None), "unlinkat": (263, 35), "unshare": (272, 97),
    "userfaultfd": (323, 282), "vfork": (58, None), "vmsplice": (278, 75), "write": (1, 64),
    "writev": (20, 66),
}  # fmt: skip


def numbers_for(machine: str) -> dict[str, int]:
    """name -> number on `machine` (`platform.machine()`); empty for an unknown one."""
    column = {"x86_64": 0, "aarch64": 1}.get(machine)
    if column is None:
        return {}
    return {name: pair[column] for name, pair in NUMBERS.items() if pair[column] is not None}
