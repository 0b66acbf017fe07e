"""A warm `autodiff` for the tests (`cli_runner.warm_autodiff`): one process started as the
CLI's clean start makes its own (`python -I -S`, the clean environment: `cli_runner.CleanStart`)
that loads numpy, then forks one child per command line it is sent. The child takes the test's
pipes as its stdin, stdout and stderr, the command's working directory and `sys.path`, and
resumes the CLI's entry point as the clean start does (`clean_start.resume`). A command so run
pays neither for starting an interpreter twice (`autodiff`, then its clean start) nor for
numpy, ~0.1 CPU-second of each command's ~0.15-0.3.

What the child finds is what a fresh clean process finds when it goes on to the command: every
command that loads numpy loads it first (`cli/numpy_docs.py`, before the engine, the language
or the jail), and the modules this server loads for itself are forgotten in the child before it
resumes. A test of the start itself (the clean start, what a command imports, `--version`
without numpy) runs `cli_runner.autodiff`, a fresh process.

Run as `python -I -S cli_fork_server.py SYS_PATH CONTROL_FD [LISTENING_FD]`: CONTROL_FD is a
SOCK_SEQPACKET socket; each request is one message, a JSON object {"argv", "cwd", "path",
"settings"} carrying three descriptors (stdin, stdout, stderr); the replies are {"pid": N} once
the child runs, then {"status": S} (`subprocess`'s returncode: negative for a signal) once it
has ended. With LISTENING_FD (a bound SOCK_SEQPACKET socket), the requests come instead one per
connection from `cli_fork_client.py` (a shell's `autodiff`), with its clean "environment" (the
child refuses to run in another) and without "path" (SYS_PATH after the working directory).
The server ends when the control socket closes.
"""

import os
import sys


def main() -> None:
    sys.path[:] = sys.argv[1].split("\n")
    from autodiff_cli.cli.jail import clean_start
    from autodiff_cli.cli.numpy_docs import import_numpy_without_docstrings

    import_numpy_without_docstrings()
    loaded = set(sys.modules)
    import json
    import socket

    control = socket.socket(fileno=int(sys.argv[2]))
    listener = socket.socket(fileno=int(sys.argv[3])) if len(sys.argv) > 3 else None
    while True:
        channel = control
        if listener is not None:  # requests come from clients; the control socket's end ends us
            import select

            if control in select.select([control, listener], [], [])[0]:
                return
            channel = listener.accept()[0]
        try:
            message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 3)
        except ConnectionResetError:
            return
        if not message:
            return
        request = json.loads(message)
        request.setdefault("path", [request["cwd"], *sys.argv[1].split("\n")])
        pid = os.fork()
        if pid == 0:
            for sock in (control, listener, channel):
                if sock is not None:
                    sock.close()
            for name in set(sys.modules) - loaded:  # the server's own modules: not the CLI's
                del sys.modules[name]
            try:
                run_command(clean_start.resume, request, fds)
            finally:  # (never back into the server's loop)
                os._exit(126)
        for fd in fds:
            os.close(fd)
        channel.send(json.dumps({"pid": pid}).encode())
        _, wait_status = os.waitpid(pid, 0)
        channel.send(json.dumps({"status": os.waitstatus_to_exitcode(wait_status)}).encode())
        if channel is not control:
            channel.close()


def run_command(resume, request: dict, fds: list) -> None:  # noqa: ANN001 - clean_start.resume
    """In the child: the command, then the end a fresh interpreter would make of it."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    sys.path[:] = request["path"]
    if request.get("environment", dict(os.environ)) != dict(os.environ):
        os.write(2, b"cli_fork_server: a client in another environment than the server's\n")
        os._exit(125)
    status, interrupted = 0, False
    try:
        resume("autodiff_cli.cli.app:main", request["settings"], request["argv"])
    except SystemExit as stop:
        status = exit_status(stop.code)
    except BaseException as error:  # the interpreter's report of an uncaught exception
        sys.excepthook(type(error), error, error.__traceback__)
        status, interrupted = 1, isinstance(error, KeyboardInterrupt)
    import atexit
    import signal

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if interrupted:  # an uncaught Ctrl-C ends the interpreter by that signal
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(status)


def exit_status(code: object) -> int:
    """`SystemExit(code)`'s exit status, as the interpreter makes it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    main()
