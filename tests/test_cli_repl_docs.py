"""The REPL's help at hand (issue 32), as a learner types it: `_` for the last value, `help(x)`
and `x.backward?` with the docstring, "Did you mean" for an attribute, `:vars` with values,
`:graph NAME FMT FILE`, and on a terminal the signature of the call being typed and the grey
suggestion from the history."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import cli_environment as environment
from cli_runner import terminal
from cli_runner import warm_autodiff as autodiff  # a fork of a warm CLI: see cli_runner

BACKWARD_SIGNATURE = "backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)"


def test_underscore_is_the_last_value_shown_and_a_saved_session_keeps_it(tmp_path: Path):
    saved = tmp_path / "s.py"
    done = autodiff(
        "repl",
        stdin="x = torch.tensor(3.0, requires_grad=True)\nx * 2\n_ + 1\nprint('p')\n"
        f"y = _ * 10\ny.backward()\nx.grad\n:save {saved}\n",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:5] == [
        "tensor(6., grad_fn=<MulBackward0>)",
        "tensor(7., grad_fn=<AddBackward0>)",
        "p",
        "tensor(20.)",  # d(10 * (2x + 1))/dx
        f"saved 7 inputs to {saved}",
    ]
    rerun = autodiff("run", str(saved))
    assert (rerun.returncode, rerun.stderr) == (0, "")
    assert rerun.stdout == "".join(line + "\n" for line in done.stdout.splitlines()[:4])


def test_underscore_before_any_value_is_a_name_error():
    done = autodiff("repl", stdin="_\n")
    assert done.returncode == 1
    assert "NameError: name '_' is not defined" in done.stderr


def test_help_in_a_script_shows_the_docstring_of_what_a_learner_meets(tmp_path: Path):
    script = tmp_path / "h.py"
    script.write_text(
        "import torch\nx = torch.ones(2, requires_grad=True)\nhelp(x.backward)\n"
        "help(torch.autograd.grad)\nhelp(torch.nn.Linear)\nhelp(torch.optim.SGD([x]).step)\n"
        "help(torch.cosh)\n",
        encoding="utf-8",
    )
    done = autodiff("run", str(script))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"Help on method backward in module torch:\n\n{BACKWARD_SIGNATURE}\n" in out
    assert "    Compute the gradient of this tensor with respect to the leaves" in out
    assert "      retain_graph  keep the graph so that backward can run through it again" in out
    assert "grad(outputs, inputs, grad_outputs=None, retain_graph=None" in out
    assert "    The gradients of outputs with respect to inputs, returned as a tuple" in out
    assert " |  Linear(in_features, out_features, bias=True)\n" in out
    assert "step(closure=None)\n    Update every parameter once from its current .grad." in out
    # not documented here: its signature and a short line
    assert "cosh(input, *, out=None)\n" in out
    assert "(not described here: it works as in PyTorch, whose documentation has it)" in out


def test_question_mark_and_doc_in_the_repl_evaluate_no_call():
    done = autodiff(
        "repl",
        stdin="x = torch.ones(2, requires_grad=True)\nx.backward?\nx.grad?\n:doc torch.no_grad\n"
        "calls = []\ndef f():\n    calls.append(1)\n    return x\n\nf()?\ncalls\nx.backwrd?\n",
    )
    out = done.stdout
    assert f"Help on method backward in module torch:\n\n{BACKWARD_SIGNATURE}\n" in out
    assert "Help on attribute grad of Tensor:\n\ngrad\n    The gradient accumulated" in out
    assert " |  no_grad()\n" in out
    assert "[]\n" in out  # `f()?` is no query: it is a syntax error, f never ran
    assert "AttributeError: 'Tensor' object has no attribute 'backwrd'. Did you mean: " \
        "'backward'?" in done.stderr  # fmt: skip
    assert done.returncode == 1


def test_vars_shows_a_value_column_for_tensors_and_numbers():
    done = autodiff(
        "repl",
        stdin="w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\nloss = (w * w).sum()\n"
        "big = torch.arange(100.0)\nlr = 0.1\nmodel = torch.nn.Linear(2, 1)\n:vars\n",
        NO_COLOR="1",
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert rows[0] == ["name", "value", "shape", "dtype", "requires_grad", "is_leaf", "grad_fn",
                       "grad"]  # fmt: skip
    assert rows[1] == ["w", "[1.,", "2.,", "3.]", "[3]", "float32", "True", "True"]
    assert rows[2] == ["loss", "14.", "[]", "float32", "True", "False", "SumBackward0"]
    assert rows[3][:8] == ["big", "[", "0.,", "1.,", "2.,", "...,", "97.,", "98.,"]
    assert rows[4] == ["lr", "0.1"]
    assert rows[5] == ["model", "<Linear>"]


@pytest.mark.parametrize("fmt", ["svg", "png", "dot", "mermaid"])
def test_graph_writes_a_file_in_the_format_asked(tmp_path: Path, fmt: str):
    if fmt in ("svg", "png") and shutil.which("dot") is None:
        assert os.environ.get("CI") != "true", "CI installs Graphviz (.ci/run)"
        pytest.skip("Graphviz's dot is not installed")
    done = autodiff(
        "repl",
        stdin=f"x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\n"
        f":graph y {fmt} out.{fmt}\n:graph y {fmt} {tmp_path}/no/such/dir/g.{fmt}\n",
        cwd=tmp_path,
    )
    assert done.stdout == f"wrote out.{fmt}\n"
    assert f":graph: cannot write {tmp_path}/no/such/dir/g.{fmt}: No such file" in done.stderr
    content = (tmp_path / f"out.{fmt}").read_bytes()
    start = {"svg": b"<?xml", "png": b"\x89PNG", "dot": b"digraph", "mermaid": b"graph TD"}
    assert content.startswith(start[fmt]), content[:40]
    if fmt != "png":
        assert b"SumBackward0" in content


def test_graph_takes_the_format_from_the_file_name_and_says_what_a_picture_needs(tmp_path):
    done = autodiff(
        "repl",
        stdin="x = torch.tensor(2.0, requires_grad=True)\ny = x * x\n:graph y g.dot\n"
        ":graph y svg\n:graph y gif\n",
        cwd=tmp_path,
    )
    assert done.stdout == "wrote g.dot\n"
    assert (tmp_path / "g.dot").read_text(encoding="utf-8").startswith("digraph")
    assert ":graph: usage: :graph NAME svg FILE\n" in done.stderr
    assert ":graph: format must be one of tree, dot, mermaid, svg, png, html, not 'gif'" in (
        done.stderr
    )


# ---- on a terminal ---------------------------------------------------------------------------


def _terminal(tmp_path: Path, *, cpr: bool = False):
    """A session on a pseudo-terminal; with `cpr`, the test answers the editor's cursor position
    requests as a terminal does (prompt_toolkit draws the bottom toolbar only then)."""
    no_cpr = {} if cpr else {"PROMPT_TOOLKIT_NO_CPR": "1"}
    return terminal(tmp_path, TERM="xterm-256color", NO_COLOR="1", dimensions=(30, 200), **no_cpr)


def _end(child) -> None:
    pexpect = pytest.importorskip("pexpect")
    child.send(":quit\r")
    child.expect(pexpect.EOF)


def _prompt(child) -> None:
    """Wait for the prompt, answering its cursor position request (row 5 of 30)."""
    child.expect_exact("\x1b[6n")
    child.send("\x1b[5;1R")
    child.expect(">>>")


def test_typing_a_call_shows_its_signature_in_the_toolbar(tmp_path: Path):
    child = _terminal(tmp_path, cpr=True)
    try:
        _prompt(child)
        child.send("x = torch.ones(2, requires_grad=True)\r")
        _prompt(child)
        child.send("x.backward(")
        child.expect_exact(BACKWARD_SIGNATURE)
        child.send("retain_graph=True, inputs=[x")  # still inside backward's call
        child.send("]")
        child.send("\x15")  # Ctrl-U: the line is dropped
        child.send("torch.autograd.grad(")
        child.expect_exact("grad(outputs, inputs, grad_outputs=None")
        child.send("\x03")  # Ctrl-C
        child.expect("KeyboardInterrupt")
        _prompt(child)
        _end(child)
    finally:
        child.close()


def test_history_suggests_the_rest_of_a_past_input(tmp_path: Path):
    child = _terminal(tmp_path)
    try:
        child.expect(">>>")
        child.send("weights_for_the_suggestion = torch.ones(3) * 7\r")
        child.expect(">>>")
        child.send("weights_for_the_suggestion.sum()\r")
        child.expect(r"tensor\(21\.\)")
        child.expect(">>>")
        child.send("weights_for_the_sugg")
        child.expect_exact("estion.sum()")  # the grey rest of the last matching input
        child.send("\x1b[C")  # Right arrow takes it
        child.send("\r")
        child.expect(r"tensor\(21\.\)")
        child.expect(">>>")
        _end(child)
    finally:
        child.close()


def test_signature_hint_reads_dictionaries_only():
    """A script's property is never run by the hint (it would append to `calls`)."""
    code = (
        "from autodiff_cli.cli.repl.commands import ReplState\n"
        "from autodiff_cli.cli.repl.docs import signature_hint\n"
        "s = ReplState()\n"
        "s.execute('calls = []\\nclass K:\\n    @property\\n    def p(self):\\n"
        "        calls.append(1)\\n        return torch.ones\\nk = K()\\n')\n"
        "print(repr(signature_hint(s, 'k.p(')))\n"
        "print(signature_hint(s, 'torch.tensor([1., 2.'))\n"
        "print(signature_hint(s, 'torch.sin(x) + torch.exp('))\n"
        "print(signature_hint(s, 'print(\"(\", '))\n"
        "s.execute('m = torch.nn.Linear(2, 1)\\n')\n"
        "print(signature_hint(s, 'm('))\n"
        "print(s.namespace['calls'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "''",
        "tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False)",
        "exp(input, *, out=None)",
        "print(*values, sep=' ', end='\\n', flush=False)",  # the script's print
        "forward(input)",  # calling a model runs its forward
        "[]",
    ]


def test_a_learner_session_at_the_prompt(tmp_path: Path):
    """`_`, `x.backward?`, a misspelt attribute and `:vars`, typed at a (dumb) terminal."""
    pexpect = pytest.importorskip("pexpect")
    child = terminal(tmp_path, TERM="dumb", NO_COLOR="1")
    try:
        child.expect(">>> ")
        child.sendline("x = torch.tensor([1.0, 2.0], requires_grad=True)")
        child.expect(">>> ")
        child.sendline("(x * x).sum()")
        child.expect_exact("tensor(5., grad_fn=<SumBackward0>)")
        child.expect(">>> ")
        child.sendline("_.backward()")
        child.expect(">>> ")
        child.sendline("x.grad")
        child.expect_exact("tensor([2., 4.])")
        child.expect(">>> ")
        child.sendline("x.backward?")
        child.expect_exact(BACKWARD_SIGNATURE)
        child.expect_exact("Arguments:")
        child.expect(">>> ")
        child.sendline("x.requires_gard")
        child.expect_exact("AttributeError: 'Tensor' object has no attribute 'requires_gard'. "
                           "Did you mean: 'requires_grad'?")  # fmt: skip
        child.expect(">>> ")
        child.sendline(":vars")
        child.expect(r"x\s+\[1\., 2\.\]\s+\[2\]\s+float32\s+True\s+True\s+tensor\(\[2\., 4\.\]\)")
        child.expect(">>> ")
        child.sendline(":quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
