"""The Jupyter kernel, driven as Jupyter drives it: `autodiff kernel install --prefix` into a
temporary prefix, then jupyter_client (execute, interrupt, restart, complete, inspect) and
nbclient (the tutorial notebook against PyTorch's kernel's goldens). Every wait is on a message,
never a sleep; the kernel is always shut down. Needs the `jupyter` extra: skipped without it,
except in CI (CI=true), where its absence fails."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from golden_compare import mismatch_report

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "tests" / "notebooks"
ADDRESS = re.compile(r"0x[0-9a-f]+")
TIMEOUT = 60

# Looked up, not imported: jupyter_client and nbclient cost every pytest worker 0.2 CPU-s to
# import while collecting; the tests import them where they use them.
MISSING = [name for name in ("jupyter_client", "nbclient", "nbformat") if not find_spec(name)]
if MISSING:  # pragma: no cover - depends on the install
    if os.environ.get("CI") == "true":
        raise ImportError(f"the kernel tests need the jupyter extra ({MISSING[0]} is missing)")
    pytest.skip(
        f"the kernel tests need the jupyter extra ({MISSING[0]} is missing): "
        "pip install '.[jupyter]'",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def kernel_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """JUPYTER_PATH holding the kernel spec, installed by the CLI as a user installs it."""
    prefix = tmp_path_factory.mktemp("prefix")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "kernel", "install", "--prefix", str(prefix)],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    spec = json.loads((prefix / "share/jupyter/kernels/autodiff/kernel.json").read_text())
    assert spec["display_name"] == "autodiff (PyTorch autograd on numpy)"
    return str(prefix / "share" / "jupyter")


@pytest.fixture
def kernel(kernel_path: str, monkeypatch: pytest.MonkeyPatch):
    from jupyter_client.manager import start_new_kernel

    monkeypatch.setenv("JUPYTER_PATH", kernel_path)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    manager, client = start_new_kernel(kernel_name="autodiff", startup_timeout=TIMEOUT)
    try:
        yield manager, client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def execute(client, code: str) -> tuple[list[tuple[str, dict]], dict]:
    """Run a cell; (its iopub messages, but status and echoed input), its execute_reply."""
    msg_id = client.execute(code)
    messages = []
    while True:
        message = client.get_iopub_msg(timeout=TIMEOUT)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = message["msg_type"], message["content"]
        if kind == "status" and content["execution_state"] == "idle":
            break
        if kind not in ("status", "execute_input"):
            messages.append((kind, content))
    while True:
        reply = client.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            return messages, reply["content"]


def streams(messages: list[tuple[str, dict]], name: str) -> str:
    return "".join(c["text"] for kind, c in messages if kind == "stream" and c["name"] == name)


def results(messages: list[tuple[str, dict]]) -> list[str]:
    return [c["data"]["text/plain"] for kind, c in messages if kind == "execute_result"]


def test_one_session_values_prints_and_located_errors(kernel):
    _, client = kernel
    messages, reply = execute(client, "x = torch.ones(2, requires_grad=True)\nprint('hi')\nx * 2")
    assert reply["status"] == "ok"
    assert streams(messages, "stdout") == "hi\n"
    assert results(messages) == ["tensor([2., 2.], grad_fn=<MulBackward0>)"]
    messages, reply = execute(client, "(x * 2).sum().backward()\nx.grad")
    assert results(messages) == ["tensor([2., 2.])"]
    messages, reply = execute(client, "y = 1\ny + nothing")
    assert reply["status"] == "error"
    assert reply["ename"] == "NameError" and reply["traceback"] == []
    count = reply["execution_count"]
    assert streams(messages, "stderr") == (
        f"In [{count}], line 2: error\n    y + nothing\n        ^\n"
        "NameError: name 'nothing' is not defined\n"
    )
    assert results(messages) == []


def test_commands_and_the_graph_picture(kernel):
    _, client = kernel
    execute(client, "x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()")
    messages, reply = execute(client, ":vars")
    assert reply["status"] == "ok"
    assert "SumBackward0" in streams(messages, "stdout")
    messages, reply = execute(client, ":graph y")
    assert reply["status"] == "ok"
    (data,) = [c["data"] for kind, c in messages if kind == "display_data"]
    assert data["text/plain"].startswith("SumBackward0")
    if "image/svg+xml" in data:  # Graphviz installed
        assert "<svg" in data["image/svg+xml"] and "MulBackward0" in data["image/svg+xml"]
    # the interactive page, in a frame whose scripts cannot reach the notebook's page
    frame = data["text/html"]
    assert frame.startswith('<iframe sandbox="allow-scripts" srcdoc="&lt;!DOCTYPE html&gt;')
    assert "SumBackward0" in frame and "MulBackward0" in frame and "allow-same-origin" not in frame
    messages, reply = execute(client, ":graph y svg")
    (data,) = [c["data"] for kind, c in messages if kind == "display_data"]
    assert "text/html" not in data
    messages, reply = execute(client, ":graph nothing")
    assert reply["status"] == "error"
    assert "no variable named 'nothing'" in streams(messages, "stderr")


def test_interrupt_stops_the_cell_and_keeps_the_session(kernel):
    manager, client = kernel
    execute(client, "kept = torch.tensor(7.)")
    # (stop_on_error=False: after an error ipykernel aborts the requests that reach it before
    # its own "stop aborting" message, a race with the next cell this test sends at once)
    msg_id = client.execute("print('running')\nwhile True:\n    pass", stop_on_error=False)
    while True:  # wait until the loop runs (a SIGINT before that is ipykernel's, not the cell's)
        message = client.get_iopub_msg(timeout=TIMEOUT)
        if message["parent_header"].get("msg_id") == msg_id and message["msg_type"] == "stream":
            assert message["content"]["text"] == "running\n"
            break
    manager.interrupt_kernel()
    while True:
        reply = client.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    messages, reply = execute(client, "kept")
    assert results(messages) == ["tensor(7.)"], (messages, reply)


def test_restart_gives_a_fresh_session(kernel):
    manager, client = kernel
    execute(client, "gone = 1")
    manager.restart_kernel(now=False)
    client.wait_for_ready(timeout=TIMEOUT)
    messages, reply = execute(client, "gone")
    assert reply["status"] == "error" and reply["ename"] == "NameError"


def test_completion_and_inspection(kernel):
    _, client = kernel
    execute(client, "weights = torch.zeros(3, requires_grad=True)")
    reply = client.complete("weig", 4, reply=True, timeout=TIMEOUT)["content"]
    assert reply["matches"] == ["weights"] and reply["cursor_start"] == 0
    reply = client.complete("weights.gr", 10, reply=True, timeout=TIMEOUT)["content"]
    assert {"grad", "grad_fn"} <= set(reply["matches"]) and reply["cursor_start"] == 8
    reply = client.inspect("torch.sum(weights)", 6, reply=True, timeout=TIMEOUT)["content"]
    assert reply["found"] is True
    assert reply["data"]["text/plain"].startswith("Help on function sum")
    reply = client.inspect("nowhere", 3, reply=True, timeout=TIMEOUT)["content"]
    assert reply["found"] is False


def test_cells_run_in_the_jail(kernel):
    _, client = kernel
    messages, reply = execute(client, "open('/etc/passwd').read()")
    assert reply["status"] == "error"
    assert "root:" not in json.dumps(messages)


@pytest.mark.parametrize("golden", sorted(NOTEBOOKS.glob("*.golden.json")), ids=lambda p: p.stem)
def test_tutorial_notebook_under_nbclient_matches_pytorch_kernel(
    golden: Path, kernel_path: str, monkeypatch: pytest.MonkeyPatch
):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("JUPYTER_PATH", kernel_path)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    notebook = nbformat.read(golden.with_name(golden.name.replace(".golden.json", ".ipynb")), 4)
    NotebookClient(notebook, kernel_name="autodiff", timeout=TIMEOUT).execute()
    expected = {cell["cell"]: cell for cell in json.loads(golden.read_text())}
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code":
            continue
        want = expected[number]
        out = "".join(
            o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"
        )
        values = [o.data["text/plain"] for o in cell.outputs if o.output_type == "execute_result"]
        got = ADDRESS.sub("0xADDR", out + "".join(v + "\n" for v in values))
        wanted = want["stdout"] + ("" if want["result"] is None else want["result"] + "\n")
        report = mismatch_report(wanted, got)
        assert report is None, f"cell {number}:\n{report}"
        assert not [o for o in cell.outputs if o.output_type == "error"]
