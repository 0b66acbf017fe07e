"""The battery of raw-Python attacks run inside the jail (`autodiff doctor`, tests/test_jail.py).

Each attack is one FILE for `python -m autodiff_cli.jail`, run alone (so a kill is attributed).
Its code prints `ESCAPED: <what>` only when it got through; `battery.PREAMBLE` gives it the
harness's fixtures (`PORT`, `SIBLING`, `TARGET`, `VICTIM`, the canary needles...) and helpers
(`syscall`, `escaped`, `free_fd`, `opened`). How each run is judged is `battery.judge`: a clean
end, no `ESCAPED` line, at most one located message, no traceback, no secret printed, within the
deadline and the memory limit, no process left behind, nothing written, plus the outside
`effects` an attack names (`sibling`: the sibling worker is alive; `orphan`: the worker dies
with its parent; `scan`: the memory scan really scanned; `output`: the output was cut).

Long because: a data table of ~60 attacks, each a few lines of code; splitting it by family
would scatter one list.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

DEFAULT_TIMEOUT = 10.0  # seconds each attack gets (--timeout)


@dataclass(frozen=True)
class Attack:
    """One raw-code attack: what it tries (`what`), its code, the outside effects to check, and
    the flags of its run (`--timeout` defaults to DEFAULT_TIMEOUT)."""

    name: str
    family: str
    what: str
    code: str
    effects: tuple[str, ...] = ()
    args: tuple[str, ...] = ()


ATTACKS: list[Attack] = []


def _attack(
    name: str,
    family: str,
    what: str,
    code: str,
    effects: tuple[str, ...] = (),
    args: tuple[str, ...] = (),
) -> None:
    ATTACKS.append(Attack(name, family, what, textwrap.dedent(code).strip() + "\n", effects, args))


# ---- files ----------------------------------------------------------------------------------

_attack(
    "open_passwd",
    "files",
    "read /etc/passwd after close(0) frees a descriptor",
    """
    opened("/etc/passwd")
    free_fd()
    try:
        with open("/etc/passwd", "rb") as handle:
            if handle.read(64):
                escaped("read /etc/passwd with open()")
    except OSError:
        pass
""",
)
_attack(
    "open_proc_self_environ",
    "secrets",
    "read /proc/self/environ",
    """
    fd = try_open("/proc/self/environ")
    if fd is not None:
        data = os.read(fd, 1 << 20)
        escaped(f"opened /proc/self/environ ({len(data)} bytes)")
        if any(holds_canary(data, index) for index in range(len(CANARIES))):
            escaped("a secret in /proc/self/environ")
""",
)
_attack(
    "open_proc_1",
    "files",
    "read /proc/1/{cmdline,environ,status,maps}",
    """
    for name in ("cmdline", "environ", "status", "maps"):
        opened(f"/proc/1/{name}")
""",
)
_attack(
    "listdir_proc_1_root",
    "files",
    "list /proc/1/root (init's root)",
    """
    free_fd()
    try:
        names = os.listdir("/proc/1/root")
    except OSError:
        names = None
    if names is not None:
        escaped(f"listed /proc/1/root: {sorted(names)[:5]}")
""",
)
_attack(
    "open_sys",
    "files",
    "read /sys and list /sys/class/net",
    """
    opened("/sys/kernel/mm/transparent_hugepage/enabled")
    opened("/sys/devices/system/cpu/online")
    free_fd()
    try:
        escaped(f"listed /sys/class/net: {os.listdir('/sys/class/net')}")
    except OSError:
        pass
""",
)
_attack(
    "open_dev_mem",
    "files",
    "open /dev/mem, /dev/kmem, /dev/port",
    """
    for path in ("/dev/mem", "/dev/kmem", "/dev/port"):
        opened(path)
""",
)
_attack(
    "open_devices",
    "files",
    "open terminals, the kernel log and other devices",
    """
    for path in ("/dev/tty", "/dev/console", "/dev/kmsg", "/dev/ptmx", "/dev/urandom",
                 "/dev/null", "/dev/zero", "/dev/fuse", "/dev/net/tun", "/dev/kvm", "/dev/full"):
        opened(path)
""",
)
_attack(
    "openat_syscall",
    "files",
    "openat(AT_FDCWD, /etc/hostname) through ctypes",
    """
    free_fd()
    fd, error = syscall("openat", -100, b"/etc/hostname", 0, 0)
    if fd >= 0:
        escaped(f"openat gave descriptor {fd}")
""",
)
_attack(
    "openat2_syscall",
    "files",
    "openat2 of /etc/hostname through ctypes",
    """
    free_fd()
    how = (ctypes.c_uint64 * 3)(0, 0, 0)
    fd, error = syscall("openat2", -100, b"/etc/hostname", ctypes.byref(how), 24)
    if fd >= 0:
        escaped(f"openat2 gave descriptor {fd}")
""",
)
_attack(
    "open_proc_self_mem",
    "files",
    "open /proc/self/mem for writing",
    """
    opened("/proc/self/mem", os.O_RDWR)
""",
)
_attack(
    "stat_host_paths",
    "files",
    "stat, access and readlink of host paths",
    """
    for path in ("/etc/passwd", "/usr/bin/env", "/proc/self/exe", "/tmp"):
        try:
            os.stat(path)
            escaped(f"stat({path}) resolved")
        except OSError:
            pass
    for path in ("/proc/self/exe", "/proc/self/cwd", "/proc/1/exe"):
        try:
            escaped(f"readlink({path}) = {os.readlink(path)}")
        except OSError:
            pass
""",
)
_attack(
    "listdir_root",
    "files",
    "list / (an empty root shows nothing)",
    """
    free_fd()
    try:
        names = os.listdir("/")
    except OSError:
        names = []
    if set(names) & {"etc", "usr", "proc", "home", "tmp", "bin"}:
        escaped(f"listed the host's root: {sorted(names)[:6]}")
""",
)
_attack(
    "chdir_escape",
    "files",
    "chdir('..') out of the jail's directory and list it",
    """
    for _ in range(40):
        try:
            os.chdir("..")
        except OSError:
            break
    free_fd()
    try:
        names = os.listdir(".")
    except OSError:
        names = []
    if set(names) & {"etc", "usr", "proc", "home"}:
        escaped(f"listed {os.getcwd()} after chdir('..'): {sorted(names)[:6]}")
""",
)
_attack(
    "chroot_escape",
    "files",
    "chroot, then chdir('..') past the new root",
    """
    for path in ("/tmp", "/", "."):
        try:
            os.chroot(path)
            escaped(f"chroot({path}) allowed")
        except OSError:
            pass
    try:
        os.chdir("../../../../..")
        os.chroot(".")
        escaped("chroot escape by chdir('..')")
    except OSError:
        pass
""",
)
_attack(
    "create_in_cwd",
    "files",
    "create files in the working directory",
    """
    for path in ("pwned.txt", os.path.join(WORKDIR, "pwned.txt")):
        free_fd()
        try:
            with open(path, "w") as handle:
                handle.write("pwned")
            escaped(f"created {path}")
        except OSError:
            pass
""",
)
_attack(
    "create_in_tmp",
    "files",
    "create a file and a folder in /tmp and /dev/shm",
    """
    for path in (TMP_TARGET, SHM_TARGET):
        free_fd()
        try:
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o644)
            escaped(f"created {path}")
            os.close(fd)
        except OSError:
            pass
    try:
        os.mkdir(TMP_TARGET + ".d")
        escaped(f"made the folder {TMP_TARGET}.d")
    except OSError:
        pass
""",
)
_attack(
    "create_in_home",
    "files",
    "create a file in HOME (the harness's home folder)",
    """
    free_fd()
    try:
        with open(HOME_TARGET, "w") as handle:
            handle.write("pwned")
        escaped(f"created {HOME_TARGET}")
    except OSError:
        pass
""",
)
_attack(
    "links_and_nodes",
    "files",
    "mkdir, symlink, hard link, FIFO in the working folder",
    """
    makers = (
        ("mkdir", lambda: os.mkdir(os.path.join(WORKDIR, "dir"))),
        ("symlink", lambda: os.symlink("/etc/passwd", os.path.join(WORKDIR, "link"))),
        ("link", lambda: os.link(VICTIM, os.path.join(WORKDIR, "hard"))),
        ("mkfifo", lambda: os.mkfifo(os.path.join(WORKDIR, "fifo"))),
    )
    for name, make in makers:
        try:
            make()
            escaped(f"{name} in {WORKDIR}")
        except OSError:
            pass
""",
)
_attack(
    "change_victim",
    "files",
    "truncate, chmod, rename, unlink a world-writable file",
    """
    changes = (
        ("truncate", lambda: os.truncate(VICTIM, 0)),
        ("chmod", lambda: os.chmod(VICTIM, 0o600)),
        ("utime", lambda: os.utime(VICTIM, (0, 0))),
        ("rename", lambda: os.rename(VICTIM, VICTIM + ".moved")),
        ("unlink", lambda: os.unlink(VICTIM)),
    )
    for name, change in changes:
        try:
            change()
            escaped(f"{name} of {VICTIM}")
        except OSError:
            pass
    free_fd()
    try:
        fd = os.open(VICTIM, os.O_WRONLY | os.O_APPEND)
        os.write(fd, b"pwned")
        escaped(f"appended to {VICTIM}")
    except OSError:
        pass
""",
)
_attack(
    "inherited_descriptors",
    "files",
    "look for inherited files, folders or sockets",
    """
    import stat
    for fd in range(0, 1024):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISSOCK(mode):
            escaped(f"descriptor {fd} is an open file, folder or socket")
""",
)

# ---- network --------------------------------------------------------------------------------

_attack(
    "tcp_connect",
    "network",
    "connect to the harness's listener on 127.0.0.1",
    """
    free_fd()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(2)
            sock.connect(("127.0.0.1", PORT))
            escaped(f"connected to 127.0.0.1:{PORT}")
    except OSError:
        pass
""",
)
_attack(
    "tcp6_connect",
    "network",
    "connect over AF_INET6 (::ffff:127.0.0.1 and ::1)",
    """
    for host in ("::ffff:127.0.0.1", "::1"):
        free_fd()
        try:
            with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
                sock.settimeout(2)
                sock.connect((host, PORT))
                escaped(f"connected to [{host}]:{PORT}")
        except OSError:
            pass
""",
)
_attack(
    "udp_send",
    "network",
    "send a datagram to the harness's UDP socket",
    """
    free_fd()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.sendto(b"pwned", ("127.0.0.1", UDP_PORT))
            escaped(f"sent a datagram to 127.0.0.1:{UDP_PORT}")
    except OSError:
        pass
""",
)
_attack(
    "unix_connect",
    "network",
    "connect to the harness's UNIX socket by path",
    """
    free_fd()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(2)
            sock.connect(UNIX_PATH)
            escaped(f"connected to {UNIX_PATH}")
    except OSError:
        pass
""",
)
_attack(
    "unix_abstract_connect",
    "network",
    "connect to the harness's abstract UNIX socket",
    """
    free_fd()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(2)
            sock.connect(ABSTRACT)
            escaped("connected to an abstract UNIX socket of the host")
    except OSError:
        pass
""",
)
_attack(
    "tcp_connect_syscall",
    "network",
    "socket + connect to the listener through ctypes",
    """
    free_fd()
    fd, error = syscall("socket", 2, 1, 0)
    if fd >= 0:
        escaped(f"socket(AF_INET) gave descriptor {fd}")
        address = bytes([2, 0]) + PORT.to_bytes(2, "big") + bytes([127, 0, 0, 1]) + bytes(8)
        result, error = syscall("connect", fd, address, 16)
        if result == 0:
            escaped(f"connected to 127.0.0.1:{PORT} through ctypes")
""",
)
_attack(
    "socket_netlink",
    "network",
    "a NETLINK_ROUTE socket (the host's interfaces)",
    """
    free_fd()
    fd, error = syscall("socket", 16, 3, 0)
    if fd >= 0:
        escaped("socket(AF_NETLINK) allowed")
""",
)
_attack(
    "socket_packet",
    "network",
    "an AF_PACKET raw socket",
    """
    free_fd()
    fd, error = syscall("socket", 17, 3, 0x0300)
    if fd >= 0:
        escaped("socket(AF_PACKET) allowed")
""",
)
_attack(
    "socket_vsock",
    "network",
    "an AF_VSOCK socket (to the hypervisor)",
    """
    free_fd()
    fd, error = syscall("socket", 40, 1, 0)
    if fd >= 0:
        escaped("socket(AF_VSOCK) allowed")
""",
)
_attack(
    "socket_raw_icmp",
    "network",
    "raw and ping ICMP sockets",
    """
    free_fd()
    for kind in (3, 2):
        fd, error = syscall("socket", 2, kind, 1)
        if fd >= 0:
            escaped(f"socket(AF_INET, {kind}, IPPROTO_ICMP) allowed")
            os.close(fd)
""",
)
_attack(
    "socket_every_family",
    "network",
    "socket() of every address family and type",
    """
    made = []
    free_fd()
    for family in range(1, 46):
        for kind in (1, 2, 3, 5):
            fd, error = syscall("socket", family, kind, 0)
            if fd >= 0:
                made.append((family, kind))
                os.close(fd)
    if made:
        escaped(f"{len(made)} (family, type) pairs gave sockets: {made[:8]}")
""",
)

# ---- other processes ------------------------------------------------------------------------

_attack(
    "kill_parent",
    "processes",
    "SIGKILL the parent (os.getppid())",
    """
    parent = os.getppid()
    if parent > 1:
        try:
            os.kill(parent, signal.SIGKILL)
            escaped(f"killed the parent {parent}")
        except OSError:
            pass
""",
)
_attack(
    "sigqueue_parent",
    "processes",
    "rt_sigqueueinfo(SIGKILL) to the parent",
    """
    parent = os.getppid()
    info = (ctypes.c_int * 32)(signal.SIGKILL, 0, -1)  # si_code SI_QUEUE
    if parent > 1:
        result, error = syscall("rt_sigqueueinfo", parent, signal.SIGKILL, info)
        if result == 0:
            escaped(f"queued SIGKILL to the parent {parent}")
""",
)
_attack(
    "ptrace_parent",
    "processes",
    "PTRACE_ATTACH to the parent",
    """
    parent = os.getppid()
    if parent > 1:
        result, error = syscall("ptrace", 16, parent, 0, 0)
        if result == 0:
            escaped(f"attached to the parent {parent}")
            syscall("ptrace", 17, parent, 0, 0)
""",
)
_attack(
    "process_vm_parent",
    "processes",
    "process_vm_readv/writev on the parent",
    """
    parent = os.getppid()
    local = ctypes.create_string_buffer(8)
    iov_local = (ctypes.c_void_p * 2)(ctypes.addressof(local), 8)
    iov_remote = (ctypes.c_void_p * 2)(0, 8)  # address 0: EFAULT when the call is allowed
    for name in ("process_vm_readv", "process_vm_writev"):
        result, error = syscall(name, parent, iov_local, 1, iov_remote, 1, 0)
        if result >= 0 or error == errno.EFAULT:
            escaped(f"{name} reached the parent's memory")
""",
)
_attack(
    "kill_sibling",
    "processes",
    "SIGKILL a sibling worker",
    """
    try:
        os.kill(SIBLING, signal.SIGKILL)
        escaped(f"killed the sibling {SIBLING}")
    except OSError:
        pass
""",
    effects=("sibling",),
)
_attack(
    "sigqueue_sibling",
    "processes",
    "rt_sigqueueinfo(SIGKILL) to a sibling",
    """
    info = (ctypes.c_int * 32)(signal.SIGKILL, 0, -1)
    result, error = syscall("rt_sigqueueinfo", SIBLING, signal.SIGKILL, info)
    if result == 0:
        escaped(f"queued SIGKILL to the sibling {SIBLING}")
""",
    effects=("sibling",),
)
_attack(
    "tgkill_sibling",
    "processes",
    "tgkill and rt_tgsigqueueinfo to a sibling",
    """
    result, error = syscall("tgkill", SIBLING, SIBLING, signal.SIGKILL)
    if result == 0:
        escaped(f"tgkill reached the sibling {SIBLING}")
    info = (ctypes.c_int * 32)(signal.SIGKILL, 0, -1)
    result, error = syscall("rt_tgsigqueueinfo", SIBLING, SIBLING, signal.SIGKILL, info)
    if result == 0:
        escaped(f"rt_tgsigqueueinfo reached the sibling {SIBLING}")
""",
    effects=("sibling",),
)
_attack(
    "pidfd_sibling",
    "processes",
    "pidfd_open + pidfd_send_signal to a sibling",
    """
    free_fd()
    fd, error = syscall("pidfd_open", SIBLING, 0)
    if fd >= 0:
        escaped(f"pidfd_open of the sibling {SIBLING}")
        result, error = syscall("pidfd_send_signal", fd, signal.SIGKILL, 0, 0)
        if result == 0:
            escaped("pidfd_send_signal killed the sibling")
""",
    effects=("sibling",),
)
_attack(
    "kill_everyone",
    "processes",
    "kill(-1, 0) then kill(-1, SIGKILL)",
    """
    try:
        os.kill(-1, 0)  # no signal sent: succeeds when any other process could be signalled
        escaped("kill(-1, 0) found processes to signal")
    except OSError:
        try:  # refused above for lack of targets or rights: SIGKILL is refused the same way
            os.kill(-1, signal.SIGKILL)
            escaped("kill(-1, SIGKILL) allowed")
        except OSError:
            pass
""",
    effects=("sibling",),
)
_attack(
    "ptrace_sibling",
    "processes",
    "PTRACE_SEIZE a sibling",
    """
    result, error = syscall("ptrace", 0x4206, SIBLING, 0, 0)
    if result == 0:
        escaped(f"seized the sibling {SIBLING}")
        syscall("ptrace", 17, SIBLING, 0, 0)
""",
    effects=("sibling",),
)
_attack(
    "process_vm_sibling",
    "processes",
    "process_vm_readv/writev on a sibling",
    """
    local = ctypes.create_string_buffer(8)
    iov_local = (ctypes.c_void_p * 2)(ctypes.addressof(local), 8)
    iov_remote = (ctypes.c_void_p * 2)(0, 8)
    for name in ("process_vm_readv", "process_vm_writev"):
        result, error = syscall(name, SIBLING, iov_local, 1, iov_remote, 1, 0)
        if result >= 0 or error == errno.EFAULT:
            escaped(f"{name} reached the sibling's memory")
""",
    effects=("sibling",),
)
_attack(
    "prlimit_sibling",
    "processes",
    "read and lower a sibling's limits, renice it",
    """
    old = (ctypes.c_uint64 * 2)()
    result, error = syscall("prlimit64", SIBLING, 0, 0, old)  # RLIMIT_CPU, read only
    if result == 0:
        escaped(f"read the sibling's RLIMIT_CPU ({old[0]})")
    result, error = syscall("setpriority", 0, SIBLING, 19)
    if result == 0:
        escaped("reniced the sibling")
""",
    effects=("sibling",),
)

# ---- new processes and threads --------------------------------------------------------------

_attack(
    "fork",
    "spawn",
    "os.fork()",
    """
    try:
        pid = os.fork()
    except OSError:
        pid = -1
    if pid == 0:
        os._exit(0)
    if pid > 0:
        escaped("fork made a process")
        os.waitpid(pid, 0)
""",
)
_attack(
    "clone_syscall",
    "spawn",
    "clone(SIGCHLD) and clone3 through ctypes",
    """
    pid, error = syscall("clone", signal.SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        syscall("exit_group", 0)
    if pid > 0:
        escaped("clone made a process")
        os.waitpid(pid, 0)
    args = (ctypes.c_uint64 * 11)(0, 0, 0, 0, signal.SIGCHLD)
    pid, error = syscall("clone3", args, 88)
    if pid == 0:
        syscall("exit_group", 0)
    if pid > 0:
        escaped("clone3 made a process")
        os.waitpid(pid, 0)
""",
)
_attack(
    "execve",
    "spawn",
    "os.execv('/bin/echo')",
    """
    try:
        os.execv("/bin/echo", ["echo", "ESCAPED: execve ran /bin/echo"])
    except OSError:
        pass
""",
)
_attack(
    "posix_spawn",
    "spawn",
    "os.posix_spawn('/bin/echo')",
    """
    free_fd()
    try:
        pid = os.posix_spawn("/bin/echo", ["echo", "ESCAPED: posix_spawn ran /bin/echo"], {})
        os.waitpid(pid, 0)
    except OSError:
        pass
""",
)
_attack(
    "subprocess",
    "spawn",
    "subprocess.run(['/bin/sh', '-c', ...])",
    """
    import subprocess
    free_fd()
    try:
        subprocess.run(["/bin/sh", "-c", "echo ESCAPED: subprocess ran /bin/sh"], timeout=5)
    except (OSError, subprocess.SubprocessError):
        pass
""",
)
_attack(
    "exec_memfd",
    "spawn",
    "memfd_create a script, execveat it",
    """
    free_fd()
    fd, error = syscall("memfd_create", b"x", 0)
    if fd >= 0:
        os.write(fd, b"#!/bin/sh\\necho ESCAPED: execveat ran a memfd\\n")
        syscall("execveat", fd, b"", (ctypes.c_char_p * 2)(b"x", None), None, 0x1000)
""",
)
_attack(
    "thread_start",
    "spawn",
    "start a thread (threading)",
    """
    import threading
    ran = []
    try:
        thread = threading.Thread(target=lambda: ran.append(1))
        thread.start()
        thread.join()
    except RuntimeError:
        pass
    if ran:
        escaped("a thread ran")
""",
)
_attack(
    "thread_bomb",
    "spawn",
    "start 2000 threads (_thread)",
    """
    import _thread
    started = 0
    for _ in range(2000):
        try:
            _thread.start_new_thread(time.sleep, (30,))
            started += 1
        except RuntimeError:
            break
    if started:
        escaped(f"started {started} threads")
""",
)

# ---- memory ---------------------------------------------------------------------------------

_MEMORY_ARGS = ("--max-memory", "1G")
# (frames fill what the warm process leaves of the limit: the same end at any limit, a located
# `SystemError: error return without exception set`; 512M takes three times as long)
_RECURSION_ARGS = ("--max-memory", "256M", "--timeout", "40")
_attack(
    "bytearray_8g",
    "memory",
    "bytearray(8 GiB)",
    """
    block = bytearray(8 << 30)
    escaped(f"allocated {len(block)} bytes")
""",
    args=_MEMORY_ARGS,
)
_attack(
    "memory_grow",
    "memory",
    "hold 64 MiB blocks, touched, until refused",
    """
    blocks = []
    while True:
        blocks.append(b"x" * (64 << 20))
        if len(blocks) * 64 > 1100:
            escaped(f"held {len(blocks) * 64} MiB past the 1 GiB limit")
            break
""",
    args=_MEMORY_ARGS,
)
_attack(
    "mmap_bomb",
    "memory",
    "mmap 8 GiB anonymous and touch it",
    """
    import mmap
    try:
        area = mmap.mmap(-1, 8 << 30)
    except OSError:
        area = None
    if area is not None:
        escaped("mapped 8 GiB")
        for offset in range(0, len(area), 1 << 20):
            area[offset] = 1
""",
    args=_MEMORY_ARGS,
)
_attack(
    "mmap_noreserve",
    "memory",
    "mmap 64 GiB MAP_NORESERVE through ctypes",
    """
    mmap_ = LIBC.mmap
    mmap_.restype = ctypes.c_void_p
    mmap_.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
    address = mmap_(None, 64 << 30, 3, 0x22 | 0x4000, -1, 0)
    if address not in (None, ctypes.c_void_p(-1).value):
        escaped("mapped 64 GiB")
        for offset in range(0, 4 << 30, 1 << 20):
            ctypes.memset(address + offset, 1, 1)
""",
    args=_MEMORY_ARGS,
)
_attack(
    "numpy_bomb",
    "memory",
    "numpy.ones(2**31)",
    """
    import numpy
    array = numpy.ones(1 << 31)
    escaped(f"numpy allocated {array.nbytes} bytes")
""",
    args=_MEMORY_ARGS,
)
_attack(
    "list_bomb",
    "memory",
    "[0] * 2**30",
    """
    items = [0] * (1 << 30)
    escaped(f"a list of {len(items)} items")
""",
    args=_MEMORY_ARGS,
)
_attack(
    "recursion_crash",
    "memory",
    "unbounded recursion with the limit lifted",
    """
    sys.setrecursionlimit(10 ** 8)
    def dive(depth):
        return dive(depth + 1) + 1
    dive(0)
""",
    args=_RECURSION_ARGS,
)

# ---- secrets --------------------------------------------------------------------------------

_attack(
    "env_os_environ",
    "secrets",
    "look for the canaries in os.environ",
    """
    text = "\\n".join(f"{k}={v}" for k, v in os.environ.items()).encode(errors="replace")
    if any(holds_canary(text, index) for index in range(len(CANARIES))):
        escaped("a secret in os.environ")
""",
)
_attack(
    "env_posix_environ",
    "secrets",
    "look for the canaries in posix.environ",
    """
    import posix
    text = b"\\n".join(k + b"=" + v for k, v in posix.environ.items())
    if any(holds_canary(text, index) for index in range(len(CANARIES))):
        escaped("a secret in posix.environ")
""",
)
_attack(
    "env_libc_environ",
    "secrets",
    "walk the C library's environ and the stack above it",
    """
    table = ctypes.POINTER(ctypes.c_char_p).in_dll(LIBC, "environ")
    found = []
    index = 0
    while table and table[index] is not None and index < 10000:
        found.append(table[index])
        index += 1
    text = b"\\n".join(found)
    if any(holds_canary(text, index) for index in range(len(CANARIES))):
        escaped("a secret in the C library's environ")
""",
)
_attack(
    "memory_scan",
    "secrets",
    "scan every readable page of its own memory for the canaries",
    r"""
    PAGE = os.sysconf("SC_PAGE_SIZE")
    TOP = 1 << 47 if NR["machine"] == "x86_64" else 1 << 48
    MMAP, MUNMAP = LIBC.mmap, LIBC.munmap
    MMAP.restype, MUNMAP.restype = ctypes.c_void_p, ctypes.c_int
    MMAP.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                     ctypes.c_long]
    MUNMAP.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    FAILED = ctypes.c_void_p(-1).value
    def free(low, high):
        # True when nothing is mapped in [low, high): a PROT_NONE MAP_FIXED_NOREPLACE mapping
        # fits there (EEXIST when something is; ENOMEM when past RLIMIT_AS: unknown)
        address = MMAP(low, high - low, 0, 0x22 | 0x100000 | 0x4000, -1, 0)
        if address not in (None, FAILED):
            MUNMAP(address, high - low)
            return address == low
        return False if ctypes.get_errno() == errno.EEXIST else None
    def maps(size):
        address = MMAP(None, size, 0, 0x22 | 0x4000, -1, 0)
        if address in (None, FAILED):
            return False
        MUNMAP(address, size)
        return True
    def fitting():
        # the most address space RLIMIT_AS leaves to map anywhere (in pages), less 64 MiB for
        # what the scan itself may take
        size, step = 0, TOP
        while step >= PAGE:
            if maps(size + step):
                size += step
            step //= 2
        return max(PAGE, size - (64 << 20))
    def mapped_ranges():
        # in pieces of the size that fits (a larger one is never shown free): skip a piece
        # shown free; madvise(MADV_NORMAL) succeeds on a range that is all mapped and fails
        # with ENOMEM on one holding unmapped pages: bisect
        found, todo, fits = [], [(0, TOP)], fitting()
        while todo:
            low, high = todo.pop()
            if high - low > fits:
                todo += [(low + fits, high), (low, low + fits)]
                continue
            if free(low, high):
                continue
            result, error = syscall("madvise", low, high - low, 0)
            if result == 0:
                found.append((low, high))
                continue
            if high - low == PAGE:
                if error != errno.ENOMEM:  # mapped, but refused by madvise (a special area)
                    found.append((low, high))
                continue
            middle = low + (high - low) // 2 // PAGE * PAGE
            todo += [(middle, high), (low, middle)]
        return sorted(found)
    def readable(address):
        # rt_sigprocmask copies the new set from user memory before it checks `how`: EFAULT
        # when the page cannot be read, EINVAL (and no change) otherwise
        result, error = syscall("rt_sigprocmask", 999, address, 0, 8)
        return error != errno.EFAULT
    scanned, tail, tail_end = 0, b"", -1
    own = {needle_address(index) for index in range(len(CANARIES))}
    for low, high in mapped_ranges():
        for page in range(low, high, PAGE):
            if not readable(page):
                continue
            data = ctypes.string_at(page, PAGE)
            scanned += PAGE
            base = page
            if tail_end == page:  # a secret may straddle two pages
                data, base = tail + data, page - len(tail)
            for index in range(len(CANARIES)):
                for hit in hits_of_canary(data, base, index):
                    if hit not in own:
                        escaped(f"secret {index} found in memory at {hit:#x}")
            tail, tail_end = data[-64:], page + PAGE
    print(f"SCANNED: {scanned}")
""",
    effects=("scan",),
    args=("--timeout", "60"),
)

# ---- the kernel's other doors ---------------------------------------------------------------

_attack(
    "mount_tmpfs",
    "kernel",
    "mount a tmpfs, umount /proc",
    """
    result, error = syscall("mount", b"none", b"/tmp", b"tmpfs", 0, 0)
    if result == 0:
        escaped("mounted a tmpfs on /tmp")
        syscall("umount2", b"/tmp", 2)
    result, error = syscall("umount2", b"/proc", 2)
    if result == 0:
        escaped("unmounted /proc")
""",
)
_attack(
    "unshare",
    "kernel",
    "unshare user, mount, net, pid, ipc, uts, cgroup namespaces",
    """
    flags = {"user": 0x10000000, "mount": 0x20000, "net": 0x40000000, "pid": 0x20000000,
             "ipc": 0x8000000, "uts": 0x4000000, "cgroup": 0x2000000}
    for name, flag in flags.items():
        result, error = syscall("unshare", flag)
        if result == 0:
            escaped(f"unshare of a new {name} namespace")
""",
)
_attack(
    "setns",
    "kernel",
    "setns into init's namespaces",
    """
    for kind in ("net", "mnt", "user", "pid"):
        fd = try_open(f"/proc/1/ns/{kind}")
        if fd is not None:
            escaped(f"opened /proc/1/ns/{kind}")
            result, error = syscall("setns", fd, 0)
            if result == 0:
                escaped(f"joined init's {kind} namespace")
            os.close(fd)
""",
)
_attack(
    "pivot_root",
    "kernel",
    "pivot_root('.', '.')",
    """
    result, error = syscall("pivot_root", b".", b".")
    if result == 0:
        escaped("pivot_root allowed")
""",
)
_attack(
    "io_uring",
    "kernel",
    "io_uring_setup",
    """
    free_fd()
    params = (ctypes.c_uint32 * 30)()
    fd, error = syscall("io_uring_setup", 8, params)
    if fd >= 0:
        escaped("io_uring_setup gave a ring")
""",
)
_attack(
    "bpf",
    "kernel",
    "bpf(BPF_MAP_CREATE) and BPF_PROG_LOAD",
    """
    free_fd()
    attr = (ctypes.c_uint32 * 32)(2, 4, 4, 1)  # an array map of one int
    fd, error = syscall("bpf", 0, attr, 128)
    if fd >= 0:
        escaped("bpf made a map")
        os.close(fd)
    program = (ctypes.c_uint64 * 2)(0xB7, 0x95)  # r0 = 0; exit
    attr = (ctypes.c_uint64 * 16)()
    fields = ctypes.cast(attr, ctypes.POINTER(ctypes.c_uint32))
    fields[0], fields[1] = 1, 2  # socket filter, 2 instructions
    attr[1] = ctypes.addressof(program)
    attr[2] = ctypes.addressof(ctypes.create_string_buffer(b"GPL"))
    fd, error = syscall("bpf", 5, attr, 128)
    if fd >= 0:
        escaped("bpf loaded a program")
""",
)
_attack(
    "perf_event_open",
    "kernel",
    "perf_event_open of a software clock",
    """
    free_fd()
    attr = (ctypes.c_uint32 * 32)(1, 128)  # PERF_TYPE_SOFTWARE, size
    fd, error = syscall("perf_event_open", attr, 0, -1, -1, 0)
    if fd >= 0:
        escaped("perf_event_open gave a counter")
""",
)
_attack(
    "userfaultfd",
    "kernel",
    "userfaultfd (kernel-only and user-mode)",
    """
    free_fd()
    for flags in (0, 1):
        fd, error = syscall("userfaultfd", flags)
        if fd >= 0:
            escaped(f"userfaultfd({flags}) allowed")
            os.close(fd)
""",
)
_attack(
    "keyring",
    "kernel",
    "add_key to its keyring, read the session keyring",
    """
    key, error = syscall("add_key", b"user", b"autodiff-jail", b"data", 4, -2)
    if key >= 0:
        escaped("add_key allowed")
    buffer = ctypes.create_string_buffer(256)
    for ring in (-3, -4, -5):  # session, user, user session keyrings
        result, error = syscall("keyctl", 6, ring, buffer, 256)  # KEYCTL_DESCRIBE
        if result >= 0:
            escaped(f"keyctl described keyring {ring}: {buffer.value[:40]!r}")
""",
)
_attack(
    "tiocsti",
    "kernel",
    "TIOCSTI (type into the terminal) on inherited descriptors",
    """
    char = ctypes.c_char(b"x")
    for fd in (0, 1, 2):
        result, error = syscall("ioctl", fd, 0x5412, ctypes.byref(char))
        if result == 0:
            escaped(f"TIOCSTI on descriptor {fd}")
""",
)
_attack(
    "prctl_pdeathsig",
    "kernel",
    "clear PR_SET_PDEATHSIG, leave the group, outlive the parent",
    """
    syscall("prctl", 1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG 0
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    print("READY", flush=True)  # before setsid, which a jail may answer by killing
    try:
        os.setsid()
    except OSError:
        pass
    time.sleep(60)
""",
    effects=("orphan",),
)
_attack(
    "prctl_state",
    "kernel",
    "check no_new_privs and seccomp; try PR_SET_MM",
    """
    result, error = syscall("prctl", 39, 0, 0, 0, 0)  # PR_GET_NO_NEW_PRIVS
    if result == 0:
        escaped("no_new_privs is not set")
    result, error = syscall("prctl", 21, 0, 0, 0, 0)  # PR_GET_SECCOMP
    if result == 0:
        escaped("no seccomp filter")
    result, error = syscall("prctl", 35, 8, 0, 0, 0)  # PR_SET_MM_START_BRK
    if result == 0:
        escaped("PR_SET_MM allowed")
""",
)
_attack(
    "setuid_root",
    "kernel",
    "setuid/setresuid/setgid to 0",
    """
    before = os.getuid()
    for name, call in (("setuid", lambda: os.setuid(0)), ("setgid", lambda: os.setgid(0)),
                       ("setresuid", lambda: os.setresuid(0, 0, 0))):
        try:
            call()
        except OSError:
            continue
        if before != 0:
            escaped(f"{name}(0) allowed for uid {before}")
""",
)
_attack(
    "capabilities",
    "kernel",
    "hold any capability (capget)",
    """
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    data = (ctypes.c_uint32 * 6)()
    result, error = syscall("capget", header, data)
    if result == 0 and (data[0] or data[1] or data[3] or data[4]):
        escaped(f"holds capabilities (effective {data[3]:#x}{data[0]:08x})")
""",
)
_attack(
    "personality",
    "kernel",
    "personality(READ_IMPLIES_EXEC | ADDR_NO_RANDOMIZE)",
    """
    result, error = syscall("personality", 0x0400000 | 0x0040000)
    now, error = syscall("personality", 0xFFFFFFFF)
    if now >= 0 and now & 0x0400000:
        escaped(f"personality set to {now:#x}")
""",
)
_attack(
    "sysv_ipc",
    "kernel",
    "create System V shared memory and a queue on a fixed key",
    """
    key = 0x4A41494C
    shm, error = syscall("shmget", key, 4096, 0o1000 | 0o600)
    if shm >= 0:
        escaped("shmget made a segment")
        syscall("shmctl", shm, 0, 0)  # IPC_RMID
    queue, error = syscall("msgget", key, 0o1000 | 0o600)
    if queue >= 0:
        escaped("msgget made a queue")
        syscall("msgctl", queue, 0, 0)
""",
)

# ---- deadline and output --------------------------------------------------------------------

# (each spins or sleeps until the jail stops it, a spinner for --timeout plus KILL_GRACE of CPU:
# half a second on the attack's own clock, which starts after the lock-down, is ~100 times what
# its first lines take to ignore, block or close what they do; the checks do not depend on it)
_DEADLINE_ARGS = ("--timeout", "0.5")
_attack(
    "closed_pipes_sleep",
    "deadline",
    "close stdout and stderr, then sleep",
    """
    os.close(1)
    os.close(2)
    time.sleep(30)
""",
    args=_DEADLINE_ARGS,
)
_attack(
    "closed_pipes_no_alarm",
    "deadline",
    "block SIGALRM, close the pipes, sleep",
    """
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGTERM, signal.SIGXCPU})
    os.close(1)
    os.close(2)
    time.sleep(30)
""",
    args=_DEADLINE_ARGS,
)
_attack(
    "busy_no_alarm",
    "deadline",
    "ignore SIGALRM, swallow every exception, spin",
    """
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
""",
    args=_DEADLINE_ARGS,
)
_attack(
    "huge_output",
    "output",
    "print without end (--max-output 1M)",
    """
    chunk = "x" * 65535 + "\\n"
    while True:
        sys.stdout.write(chunk)
""",
    effects=("output",),
    args=("--max-output", "1M"),
)
_attack(
    "huge_output_non_latin",
    "output",
    "64 MiB of non-Latin-1 text",
    """
    chunk = "\\u20ac\\u0416" * 32767 + "\\n"
    while True:
        sys.stdout.write(chunk)
""",
    effects=("output",),
    args=("--max-memory", "1G"),
)


# ---- arguments the filter allows for some values only, signals, descriptors (red team 5) -----

_attack(
    "fcntl_dup_descriptor",
    "files",
    "F_DUPFD / F_DUPFD_CLOEXEC to make a descriptor after close(0)",
    """
    free_fd()
    for command in (0, 1030, 0 | (1 << 32), 1030 | (1 << 40)):
        result, error = syscall("fcntl", 1, command, 0)
        if result >= 0:
            escaped(f"fcntl(1, {command:#x}) made descriptor {result}")
""",
)
_attack(
    "fcntl_owner_and_signals",
    "processes",
    "F_SETOWN(_EX) at the sibling, F_SETSIG, leases, F_NOTIFY, F_SETPIPE_SZ (high bits too)",
    """
    owner = (ctypes.c_int * 2)(1, SIBLING)  # struct f_owner_ex {F_OWNER_PID, pid}
    for command, argument in ((8, SIBLING), (8 | (1 << 32), SIBLING), (15, owner),
                              (10, signal.SIGKILL), (1024, 1), (1026, 0x80000000),
                              (1031, 1 << 20)):
        result, error = syscall("fcntl", 1, command, argument)
        if result >= 0:
            escaped(f"fcntl(1, {command:#x}) allowed")
    result, error = syscall("fcntl", 1, 4, os.O_ASYNC | os.O_NONBLOCK)
    for _ in range(3):
        try:
            os.write(1, b"")
        except OSError:
            pass
""",
    effects=("sibling",),
)
_attack(
    "ioctl_terminal_high_bits",
    "kernel",
    "TIOCSTI with high bits, TIOCSCTTY, TIOCCONS, TIOCLINUX, TIOCSETD, TIOCNOTTY on fds 0-2",
    """
    char = ctypes.c_char(b"x")
    for fd in (0, 1, 2):
        for request, argument in ((0x5412 | (1 << 32), ctypes.byref(char)), (0x540E, 1),
                                  (0x541D, 0), (0x541C, ctypes.byref(char)),
                                  (0x5423, ctypes.byref(ctypes.c_int(0))), (0x5422, 0)):
            result, error = syscall("ioctl", fd, request, argument)
            if result == 0:
                escaped(f"ioctl({fd}, {request:#x}) allowed")
""",
)
_attack(
    "kill_argument_tricks",
    "processes",
    "kill with a pid in the high bits, kill(0) (its group), kill(-pgid), signal 0 probes",
    """
    for pid in (SIBLING | (1 << 32), 0, -os.getpgrp(), -SIBLING, -1):
        result, error = syscall("kill", pid, 0)
        if result == 0:
            escaped(f"kill({pid}, 0) reached a process")
    syscall("kill", SIBLING | (1 << 32), signal.SIGKILL)
    syscall("kill", -SIBLING, signal.SIGKILL)
""",
    effects=("sibling",),
)
_attack(
    "tgkill_foreign_thread",
    "processes",
    "tgkill(itself, the sibling's tid) and tkill with high bits",
    """
    result, error = syscall("tgkill", os.getpid(), SIBLING, 0)
    if result == 0:
        escaped("tgkill(self, sibling, 0) reached the sibling")
    syscall("tgkill", os.getpid(), SIBLING, signal.SIGKILL)
    syscall("tkill", os.getpid() | (SIBLING << 32), signal.SIGKILL)
""",
    effects=("sibling",),
)
_attack(
    "newfstatat_absolute",
    "files",
    "newfstatat(fd 0, an absolute host path, AT_EMPTY_PATH), the call glibc's fstat makes",
    """
    buffer = ctypes.create_string_buffer(256)
    for dirfd, flags in ((0, 0x1000), (-100, 0), (-100, 0x100), (1, 0x1000)):
        for path in (b"/etc/passwd", b"/usr", b"/proc/1/environ", b"/root"):
            result, error = syscall("newfstatat", dirfd, path, buffer, flags)
            if result == 0:
                escaped(f"newfstatat({dirfd}, {path!r}) resolved a host path")
""",
)
_attack(
    "stop_itself",
    "deadline",
    "SIGSTOP itself (the deadline still ends it)",
    """
    os.kill(os.getpid(), signal.SIGSTOP)
    time.sleep(30)
""",
    args=_DEADLINE_ARGS,
)
_attack(
    "ignore_every_signal",
    "deadline",
    "ignore and block every catchable signal, cancel its timers, spin",
    """
    for number in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:
        try:
            signal.signal(number, signal.SIG_IGN)
        except (OSError, ValueError, RuntimeError):
            pass
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_PROF, 0)
    while True:
        pass
""",
    args=_DEADLINE_ARGS,
)
_attack(
    "output_partial_utf8",
    "output",
    "64 MiB of cut UTF-8 sequences (the parent decodes with replacement)",
    """
    chunk = b"\\xe2\\x82" * 32768
    while True:
        os.write(1, chunk)
""",
    effects=("output",),
    args=("--max-output", "1M"),
)
_attack(
    "output_nonblocking_flood",
    "output",
    "set O_NONBLOCK on stdout and write without waiting for the parent",
    """
    os.set_blocking(1, False)
    chunk = b"y" * 65536
    while True:
        try:
            os.write(1, chunk)
        except BlockingIOError:
            pass
""",
    effects=("output",),
    args=("--max-output", "1M"),
)
_attack(
    "mremap_past_limit",
    "memory",
    "mremap a mapping to 8 GiB (past RLIMIT_AS) and touch it",
    """
    address, error = syscall("mmap", 0, 1 << 20, 3, 0x22, -1, 0)
    if address > 0:
        grown, error = syscall("mremap", address, 1 << 20, 8 << 30, 1)
        if grown > 0 and grown != -1:
            escaped("mremap grew a mapping to 8 GiB past the memory limit")
            ctypes.memset(grown, 1, 8 << 30)
""",
)
_attack(
    "madvise_poison",
    "memory",
    "madvise(MADV_HWPOISON / MADV_SOFT_OFFLINE) on its own page, process_madvise of the sibling",
    """
    page = ctypes.create_string_buffer(8192)
    start = (ctypes.addressof(page) + 4095) & ~4095
    for advice in (100, 101):
        result, error = syscall("madvise", start, 4096, advice)
        if result == 0:
            escaped(f"madvise({advice}) allowed")
    result, error = syscall("process_madvise", 0, 0, 0, 0, 0)
""",
)
_attack(
    "prlimit_raise_own",
    "memory",
    "raise its own RLIMIT_AS / RLIMIT_NOFILE / RLIMIT_NPROC",
    """
    import resource
    for which in (resource.RLIMIT_AS, resource.RLIMIT_NOFILE, resource.RLIMIT_NPROC):
        try:
            resource.setrlimit(which, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            escaped(f"raised rlimit {which}")
        except (OSError, ValueError):
            pass
""",
)
_attack(
    "vmsplice_pipe",
    "kernel",
    "vmsplice its memory into the stdout pipe (Dirty Pipe's kind of primitive)",
    """
    data = ctypes.create_string_buffer(b"z" * 4096)
    vector = (ctypes.c_void_p * 2)(ctypes.addressof(data), 4096)
    result, error = syscall("vmsplice", 1, vector, 1, 0)
    if result > 0:
        escaped("vmsplice allowed")
""",
)
_attack(
    "kcmp_sibling",
    "processes",
    "kcmp its descriptors with the sibling's (learns what the sibling holds)",
    """
    result, error = syscall("kcmp", os.getpid(), SIBLING, 0, 1, 1)
    if result >= 0:
        escaped("kcmp compared with the sibling")
""",
)
_attack(
    "robust_list_sibling",
    "processes",
    "get_robust_list of the sibling (a pointer into its memory)",
    """
    head, size = ctypes.c_void_p(), ctypes.c_size_t()
    result, error = syscall("get_robust_list", SIBLING, ctypes.byref(head), ctypes.byref(size))
    if result == 0:
        escaped("read the sibling's robust list")
""",
)
_attack(
    "pidfd_getfd_sibling",
    "processes",
    "pidfd_getfd: take a descriptor out of another process",
    """
    result, error = syscall("pidfd_getfd", 0, 1, 0)
    if result >= 0:
        escaped("pidfd_getfd made a descriptor")
""",
)
_attack(
    "syslog_read",
    "secrets",
    "read the kernel log (syslog READ_ALL)",
    """
    buffer = ctypes.create_string_buffer(1 << 16)
    result, error = syscall("syslog", 3, buffer, 1 << 16)
    if result > 0:
        escaped("read the kernel log")
""",
)
_attack(
    "sethostname",
    "kernel",
    "sethostname (its UTS namespace, or the host's)",
    """
    result, error = syscall("sethostname", b"owned", 5)
    if result == 0:
        escaped("sethostname allowed")
""",
)
_attack(
    "watch_files",
    "files",
    "inotify_init1 to watch the host's files",
    """
    free_fd()
    result, error = syscall("inotify_init1", 0)
    if result >= 0:
        escaped("inotify_init1 made a descriptor")
""",
)
_attack(
    "open_by_handle",
    "files",
    "open_by_handle_at (the Shocker container escape)",
    """
    free_fd()
    handle = ctypes.create_string_buffer(b"\\x08\\x00\\x00\\x00\\x01\\x00\\x00\\x00" + bytes(8))
    result, error = syscall("open_by_handle_at", -100, handle, 0)
    if result >= 0:
        escaped("open_by_handle_at opened a file")
""",
)
_attack(
    "affinity_and_random",
    "kernel",
    "drain getrandom(GRND_RANDOM) for a quarter of a second, then pin itself to one CPU",
    """
    buffer = ctypes.create_string_buffer(1 << 16)
    end = time.monotonic() + 0.25  # (thousands of 64 KiB reads: any pool is long drained)
    while time.monotonic() < end:
        syscall("getrandom", buffer, 1 << 16, 2)
    mask = ctypes.c_ulong(1)
    result, error = syscall("sched_setaffinity", 0, ctypes.sizeof(mask), ctypes.byref(mask))
    if result == 0:
        escaped("sched_setaffinity allowed")
""",
)
_attack(
    "close_stdout_then_print",
    "output",
    "close stdout, then print and exit (Python's flush at exit fails)",
    """
    os.close(1)
    print("lost " * 1000)
""",
)
