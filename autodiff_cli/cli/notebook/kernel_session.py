"""The kernel's session: the REPL's (`RemoteSession`, its namespace in a jailed child with its
limits, a fresh child when one is lost), whose child also serves cells (`cell_run.CellServer`)
and whose output goes to the kernel's stream messages instead of this process's streams.
Where processes cannot be forked, the same server runs in this process."""

from __future__ import annotations

from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from autodiff_cli.cli.jail.child_session import ChildSession
from autodiff_cli.cli.jail.isolation import isolation_available
from autodiff_cli.cli.notebook.cell_run import CellServer
from autodiff_cli.cli.repl.session import RemoteSession


class KernelStream:
    """A stream the child's output is written to: each write is one `stream` message (stdout
    or stderr) of the request being handled; nothing while a silent request runs."""

    encoding = "utf-8"

    def __init__(self, send: Any, name: str) -> None:
        self._send = send
        self.name = name
        self.silent = False

    def write(self, text: str) -> int:
        if text and not self.silent:
            self._send(self.name, text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class _InProcess:
    """The server in this process (no fork: the language's limits alone), answering as the
    child does; Ctrl-C stops the request and keeps the namespace."""

    def __init__(self, server: CellServer, outputs: tuple[KernelStream, KernelStream]) -> None:
        self.server = server
        self.outputs = outputs

    def request(self, message: dict) -> dict:
        out, err = self.outputs
        with redirect_stdout(out), redirect_stderr(err):  # type: ignore[type-var]
            try:
                return self.server(message)
            except KeyboardInterrupt:
                err.write("KeyboardInterrupt\n")
                return {"ok": False}

    def close(self) -> None:
        pass


class KernelSession(RemoteSession):
    """One notebook's session, for as long as the kernel lives."""

    def __init__(self, outputs: tuple[KernelStream, KernelStream], limits: Any = None) -> None:
        self.outputs = outputs
        super().__init__(limits=limits)

    def server(self) -> CellServer:
        return CellServer(self.debug, self.styled)

    def _start(self) -> Any:
        if not isolation_available():
            return _InProcess(self.server(), self.outputs)
        return ChildSession(self.server(), self.limits, outputs=self.outputs)

    def run_cell(self, code: str, label: str) -> dict:
        """Run a cell: `ok`, and `echo` (its value's repr) or `ename`/`evalue` (its error,
        reported on stderr)."""
        return self._ask({"kind": "cell", "text": code, "name": label})

    def inspect(self, name: str) -> str:
        """`help(name)`'s text, "" when there is no such name."""
        return self._ask({"kind": "inspect", "text": name}).get("text", "")

    def graph(self, name: str) -> dict:
        """`:graph NAME`'s views (`dot`, `tree`), or `ok` False after its error."""
        return self._ask({"kind": "graph", "text": name})
