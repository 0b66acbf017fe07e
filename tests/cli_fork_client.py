"""`autodiff` for a shell in the tests (test_readme.py puts it on PATH): sends its command line,
working directory, clean environment and standard streams to a warm fork server
(`cli_fork_server.py`) listening on SOCKET, whose child runs the command on those very streams,
and ends as the command ended. Where autodiff would not start again clean
(`AUTODIFF_ISOLATION=0`), it becomes `python -m autodiff_cli` itself.

Run as `python -I -S cli_fork_client.py SOCKET REPO ARGS...`.
"""

import json
import os
import signal
import socket
import sys


def main() -> None:
    server, repo, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.path.insert(0, repo)
    from autodiff_cli.cli.jail import clean_start

    environ = dict(os.environ)
    if not clean_start.needed(environ):
        command = [sys.executable, "-m", "autodiff_cli", *args]
        os.execve(sys.executable, command, environ)
    settings = "\n".join(f"{name}={environ[name]}" for name in clean_start.CARRIED
                         if name in environ)  # fmt: skip
    request = {
        "argv": [os.path.join(repo, "autodiff_cli", "__main__.py"), *args],
        "cwd": os.getcwd(),
        "settings": settings,
        "environment": clean_start.clean_environment(environ),
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as connection:
        connection.connect(server)
        socket.send_fds(connection, [json.dumps(request).encode()], [0, 1, 2])
        json.loads(connection.recv(1 << 16))  # {"pid": N}: the command runs
        status = json.loads(connection.recv(1 << 16))["status"]
    if status < 0:  # ended by a signal: so do we
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    sys.exit(status)


if __name__ == "__main__":
    main()
