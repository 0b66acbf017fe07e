"""The REPL's parent trusts nothing its child sends (SECURITY.md, "The REPL").

The child runs the session's code; if the language layer were breached, it could write any bytes
on the reply pipe. Each case here is such a child (raw Python in the child's `serve`, writing to
the reply pipe itself): the parent must end that session with one clear error and go on, never
hold an endless line, never crash with a traceback on a reply of the wrong shape.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import selected_params

REPO = Path(__file__).resolve().parent.parent

# A RemoteSession whose child answers with `REPLY` (raw bytes written on every descriptor the
# child holds that accepts them: the reply pipe), then asks it twice and prints what happened.
HARNESS = """
import os, sys, time
from autodiff_cli.cli.repl import session as repl_session
from autodiff_cli.cli.jail.isolation import Limits

REPLY = lambda: {reply}  # made in the child only

def hostile(message):
    reply = REPLY()
    for fd in range(3, 16):
        try:
            os.write(fd, reply)
        except OSError:
            pass
    return {{"ok": True}}

class Hostile(repl_session.RemoteSession):
    def _start(self):
        from autodiff_cli.cli.jail.child_session import ChildSession
        return ChildSession(hostile, self.limits)

session = Hostile(limits=Limits(output=1 << 20))
start = time.monotonic()
print("first", session.{call})
print("second", session.{call})
session.close()
print("seconds", round(time.monotonic() - start))
peak = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
print("peak_mib", int(peak[0].split()[1]) // 1024)  # (ru_maxrss would count pytest's, kept by exec)
"""


def harness(reply: bytes | str, call: str) -> str:
    """`reply`: the bytes, or the source of an expression making them (too long for argv)."""
    return HARNESS.format(reply=reply if isinstance(reply, str) else repr(reply), call=call)


ENVIRONMENT = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}


def run_hostile(reply: bytes | str, call: str) -> subprocess.CompletedProcess:
    """The harness in a process of its own."""
    return subprocess.run(
        [sys.executable, "-c", harness(reply, call)],
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
        timeout=120,
    )


# Several harnesses, each in a child forked from one process that imported the REPL session's
# modules: each case its own process (its exit status, its stdout and stderr in files), one
# interpreter's start and imports for them all.
FORKING = """
import json, os, sys, traceback
from autodiff_cli.cli.repl import session
from autodiff_cli.cli.jail import child_session, isolation
for code, out, err in json.loads(sys.stdin.read()):
    pid = os.fork()
    if pid == 0:
        for target, path in ((1, out), (2, err)):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), target)
        status = 0
        try:
            exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
        except BaseException:
            traceback.print_exc()
            status = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""


def run_hostile_cases(cases: list[tuple[bytes, str]], folder: Path) -> dict:
    """Each case's harness (`FORKING`): {(reply, call): its CompletedProcess}."""
    files = [(str(folder / f"{index}.out"), str(folder / f"{index}.err"))
             for index in range(len(cases))]  # fmt: skip
    plan = [(harness(*case), *paths) for case, paths in zip(cases, files)]
    done = subprocess.run(
        [sys.executable, "-c", FORKING],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        env=ENVIRONMENT,
        timeout=120 * len(cases),
    )
    assert done.returncode == 0, done.stderr
    statuses = [int(line) for line in done.stdout.split()]
    assert len(statuses) == len(cases), done.stdout
    return {
        case: subprocess.CompletedProcess(
            "harness", status, *(Path(path).read_text(errors="replace") for path in paths)
        )
        for case, status, paths in zip(cases, statuses, files)
    }


@pytest.fixture(scope="module")
def wrong_shape_reports(request: pytest.FixtureRequest, tmp_path_factory) -> dict:
    """The reports of the cases of `test_a_reply_of_the_wrong_shape_ends_the_session_cleanly`
    this session runs, all made at once."""
    name = "test_a_reply_of_the_wrong_shape_ends_the_session_cleanly"
    cases = list(zip(selected_params(request, name, "reply"),
                     selected_params(request, name, "call")))  # fmt: skip
    return run_hostile_cases(cases, tmp_path_factory.mktemp("protocol"))


@pytest.mark.parametrize(
    ("reply", "call", "message"),
    [
        (b"{not json\n", "execute('1')", "a reply that is not a JSON object"),
        (b"\xff\xfe\n", "execute('1')", "a reply that is not a JSON object"),
        (b"[1, 2]\n", "execute('1')", "a reply that is not a JSON object"),
        (b'{"ok": "yes"}\n', "execute('1')", "a reply with an invalid 'ok'"),
        (b'{"word": "x", "names": ["\\u001b[2J"]}\n', "complete('x')", "completion names"),
        (b'{"word": "x", "names": ["x", 3]}\n', "complete('x')", "completion names"),
        (b'{"word": "\\r\\u001b[2K", "names": []}\n', "complete('x')", "completed word"),
        (b'{"names": "abc"}\n', "complete('a')", "a reply with an invalid 'names'"),
        (b'{"text": 3, "count": "x"}\n', "_save('/nonexistent/x')", "invalid 'text'"),
        (b'{"__class__": 1}\n', "meta(':help')", "a reply with an invalid '__class__'"),
    ],
)
def test_a_reply_of_the_wrong_shape_ends_the_session_cleanly(
    reply, call, message, wrong_shape_reports
):
    done = wrong_shape_reports[(reply, call)]
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert message in done.stderr
    assert "its variables are lost, a fresh session starts" in done.stderr


def test_an_endless_reply_line_is_cut_at_the_output_limit():
    """256 MiB without a line break: the parent stops at its 1 MiB limit, within its memory."""
    done = run_hostile('b"x" * (256 << 20)', "execute('1')")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "its output passed 1 MiB" in done.stderr
    peak = int(done.stdout.split("peak_mib ")[1].split()[0])
    assert peak < 200, done.stdout
