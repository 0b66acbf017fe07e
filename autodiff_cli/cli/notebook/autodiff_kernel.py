"""The Jupyter kernel "autodiff (PyTorch autograd on numpy)": ipykernel's wrapper-kernel base,
every cell sent to one `KernelSession` (the REPL's session in the jail). No script code runs in
this process: it relays cells, completions and inspections, and shows what the child answers.

- a cell's value is the `execute_result` (text/plain: its repr, as the REPL echoes it); what it
  prints, and errors located as the CLI locates them (`In [3], line 2: error`), are `stream`
  messages; an error's reply has its type and message, no Python traceback;
- a cell of `:` commands runs them as the REPL does; `:graph NAME` is shown as a picture
  (`graph_display`);
- an interrupt (SIGINT, which ipykernel turns into KeyboardInterrupt here) is passed on to the
  child: the cell stops, the session goes on; a restart is a new kernel process, so a fresh
  session.

Started by `python -m autodiff_cli.cli.notebook.kernel -f CONNECTION_FILE` (`kernelspec`).
"""

from __future__ import annotations

from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from ipykernel.kernelapp import IPKernelApp
from ipykernel.kernelbase import Kernel

from autodiff_cli import __version__
from autodiff_cli.cli.notebook.cell_run import name_at
from autodiff_cli.cli.notebook.cells import is_meta_cell
from autodiff_cli.cli.notebook.graph_display import PICTURE_FORMATS, graph_bundle
from autodiff_cli.cli.notebook.kernel_session import KernelSession, KernelStream
from autodiff_cli.cli.repl.commands import QuitRepl


class AutodiffKernel(Kernel):
    implementation = "autodiff"
    implementation_version = __version__
    language = "python"
    language_version = "3"
    language_info = {
        "name": "python",
        "mimetype": "text/x-python",
        "file_extension": ".py",
        "pygments_lexer": "ipython3",
        "codemirror_mode": {"name": "ipython", "version": 3},
    }
    banner = (
        f"autodiff {__version__}: PyTorch's autograd on numpy, in a sandbox; `torch` is "
        "imported, :help lists the commands"
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.streams = (KernelStream(self._stream, "stdout"), KernelStream(self._stream, "stderr"))
        self._autodiff: KernelSession | None = None

    def _stream(self, name: str, text: str) -> None:
        self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

    @property
    def autodiff(self) -> KernelSession:
        """The session, started at the first request."""
        if self._autodiff is None:
            self._autodiff = KernelSession(self.streams)
        return self._autodiff

    async def do_execute(  # type: ignore[override]
        self,
        code: str,
        silent: bool,
        store_history: bool = True,
        user_expressions: Any = None,
        allow_stdin: bool = False,
        **_: Any,
    ) -> dict[str, Any]:
        for stream in self.streams:
            stream.silent = silent
        try:
            with redirect_stdout(self.streams[0]), redirect_stderr(self.streams[1]):  # type: ignore[type-var]
                reply = self._run(code, silent)
        except KeyboardInterrupt:  # between two requests to the child
            self.streams[1].write("KeyboardInterrupt\n")
            reply = {"ok": False}
        except Exception as error:  # the session could not start (a limit, no fork...)
            self.streams[1].write(f"error: {error}\n")
            reply = {"ok": False, "ename": type(error).__name__, "evalue": str(error)}
        finally:
            for stream in self.streams:
                stream.silent = False
        if reply.get("ok"):
            return {
                "status": "ok",
                "execution_count": self.execution_count,
                "payload": [],
                "user_expressions": {},
            }
        return {
            "status": "error",
            "execution_count": self.execution_count,
            "ename": reply.get("ename", "KeyboardInterrupt"),
            "evalue": reply.get("evalue", ""),
            "traceback": [],
        }

    def _run(self, code: str, silent: bool) -> dict:
        if is_meta_cell(code):
            return self._run_commands(code)
        reply = self.autodiff.run_cell(code, f"In [{self.execution_count}]")
        if "echo" in reply and not silent:
            content = {
                "execution_count": self.execution_count,
                "data": {"text/plain": reply["echo"]},
                "metadata": {},
            }
            self.send_response(self.iopub_socket, "execute_result", content)
        return reply

    def _run_commands(self, code: str) -> dict:
        """Each `:` line as the REPL runs it; `:graph NAME [svg|html]` shown as a picture."""
        for line in code.split("\n"):
            if not line.strip():
                continue
            name, _, argument = line.strip()[1:].partition(" ")
            variable, _, fmt = argument.strip().partition(" ")
            if name == "graph" and variable and fmt.strip() in PICTURE_FORMATS:
                ok = self._show_graph(variable, fmt.strip())
            else:
                try:
                    ok = self.autodiff.meta(line)
                except QuitRepl:
                    self.streams[1].write(
                        ":quit: a notebook's session ends with its kernel (restart the kernel "
                        "for a fresh one)\n"
                    )
                    ok = True
            if not ok:
                return {"ok": False, "ename": "CommandError", "evalue": line.strip()}
        return {"ok": True}

    def _show_graph(self, name: str, fmt: str) -> bool:
        views = self.autodiff.graph(name)
        if not views.get("ok"):
            return False
        bundle, note = graph_bundle(views, fmt)
        if note:
            self.streams[1].write(note + "\n")
        self.send_response(self.iopub_socket, "display_data", {"data": bundle, "metadata": {}})
        return True

    async def do_complete(self, code: str, cursor_pos: int) -> dict[str, Any]:  # type: ignore[override]
        word, names = self.autodiff.complete(code[:cursor_pos])
        return {
            "matches": names,
            "cursor_start": cursor_pos - len(word),
            "cursor_end": cursor_pos,
            "metadata": {},
            "status": "ok",
        }

    async def do_inspect(  # type: ignore[override]
        self, code: str, cursor_pos: int, detail_level: int = 0, omit_sections: Any = ()
    ) -> dict[str, Any]:
        name = name_at(code, cursor_pos)
        text = self.autodiff.inspect(name) if name else ""
        data = {"text/plain": text} if text else {}
        return {"status": "ok", "found": bool(text), "data": data, "metadata": {}}

    async def do_is_complete(self, code: str) -> dict[str, Any]:  # type: ignore[override]
        if is_meta_cell(code) or self.autodiff.is_complete(code + "\n"):
            return {"status": "complete"}
        return {"status": "incomplete", "indent": ""}

    async def do_shutdown(self, restart: bool) -> dict[str, Any]:  # type: ignore[override]
        if self._autodiff is not None:
            self._autodiff.close()
            self._autodiff = None
        return {"status": "ok", "restart": restart}


def launch() -> None:
    """ipykernel's application, serving this kernel (`kernel.main`, after the clean start)."""
    IPKernelApp.launch_instance(kernel_class=AutodiffKernel)
