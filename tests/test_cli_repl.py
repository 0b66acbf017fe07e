"""The REPL: statements piped through stdin, and one interactive session on a pseudo-terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_runner import REPO, terminal
from cli_runner import warm_autodiff as autodiff  # a fork of a warm CLI: see cli_runner


def piped(stdin: str, *args: str):
    return autodiff(*args, stdin=stdin)


def test_piped_statements_echo_values_without_prompts():
    done = piped("x = torch.tensor([1.0, 2.0], requires_grad=True)\n(x * x).sum()\nNone\n1 + 1\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "tensor(5., grad_fn=<SumBackward0>)\n2\n"


def test_repl_command_is_the_same_loop():
    assert piped("2 * 21\n", "repl").stdout == "42\n"


def test_piped_blocks_end_at_a_dedent_or_a_blank_line():
    source = (
        "def square(t):\n"
        "    doubled = t * t\n"
        "    return doubled\n"
        "square(3)\n"
        "for i in range(2):\n"
        "    print(i)\n"
        "\n"
        "if True:\n"
        "    print('yes')\n"
        "else:\n"
        "    print('no')\n"
        "total = (1 +\n"
        "\n"
        "2)\n"
        "total\n"
    )
    done = piped(source)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "9\n0\n1\nyes\n3\n"


def test_an_error_is_reported_and_the_session_goes_on():
    done = piped("a = 1\nb = a +* 2\nprint(nope)\na + 1\n")
    assert done.returncode == 1  # piped input: any failure shows in the exit status
    assert done.stdout == "2\n"
    assert "SyntaxError" in done.stderr and "NameError" in done.stderr
    assert "Traceback" not in done.stderr


def test_piped_errors_count_lines_from_the_start_of_the_input():
    source = (
        "x = 1\n"
        ":vars\n"
        "\n"
        "z = q + 1\n"
        "def f():\n"
        "    y = 2\n"
        "    return undefined\n"
        "f()\n"
        "for i in range(2):\n"
        "    pass\n"
        "x +* 2\n"
    )
    done = piped(source)
    assert done.returncode == 1
    headers = [line for line in done.stderr.splitlines() if line.startswith("<stdin>")]
    assert headers == ["<stdin>:4:5: error", "<stdin>:7:12: error", "<stdin>:11:4: error"]


def test_an_unfinished_statement_at_end_of_input_is_an_error():
    done = piped("x = (1,\n")
    assert done.returncode == 1
    assert "SyntaxError" in done.stderr


def end_with_ctrl_d(child) -> None:
    """Ctrl-D until the session ends: a Ctrl-D typed while the prompt is still switching the
    terminal's mode can be lost, so wait for the end (EOF) and type it again if it does not come."""
    pexpect = pytest.importorskip("pexpect")
    for _ in range(20):
        child.sendcontrol("d")
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=3) == 0:
            return
    raise AssertionError("the session did not end on Ctrl-D")


def spawn(tmp_path: Path, term: str = "dumb"):
    return terminal(
        tmp_path, TERM=term, PROMPT_TOOLKIT_NO_CPR="1", NO_COLOR="1", dimensions=(40, 200)
    )


def test_interactive_prompt_multiline_def_and_recovery_after_error(tmp_path: Path):
    child = terminal(tmp_path, cwd=REPO, TERM="dumb")
    try:
        child.expect(">>> ")
        child.sendline("def cube(t):")
        child.expect(r"\.\.\. ")
        child.sendline("    return t * t * t")
        child.expect(r"\.\.\. ")
        child.sendline("")
        child.expect(">>> ")
        child.sendline("x = torch.tensor(2.0, requires_grad=True)")
        child.expect(">>> ")
        child.sendline("y = cube(x) +* 1")
        child.expect("SyntaxError")
        child.expect(">>> ")
        child.sendline("y = cube(x); y.backward(); x.grad")
        child.expect(r"tensor\(12\.\)")
        child.expect(">>> ")
        child.sendline("undefined_thing")
        child.expect("NameError")
        child.expect(">>> ")
        child.sendline("x.grad * 2")
        child.expect(r"tensor\(24\.\)")
        child.expect(">>> ")
        child.sendintr()  # Ctrl-C cancels the line being typed
        child.expect("KeyboardInterrupt")
        child.expect(">>> ")
        end_with_ctrl_d(child)  # Ctrl-D exits
    finally:
        child.close()
    assert child.exitstatus == 0


def chunks_of(lines: list[str]) -> list[str]:
    from autodiff_cli.cli.repl.input import StatementReader
    from autodiff_cli.lang import Session

    reader = StatementReader(Session().is_complete)
    chunks = [chunk for line in lines for chunk in reader.feed(line)]
    return chunks + reader.finish()


def test_reader_keeps_else_and_column_0_comments_inside_a_block():
    lines = ["if x:", "    a = 1", "# a comment", "else:", "    a = 2", "b = a"]
    assert chunks_of(lines) == [
        "if x:\n    a = 1\n# a comment\nelse:\n    a = 2\n",
        "b = a\n",
    ]


def test_reader_waits_for_brackets_and_skips_blank_lines_between_statements():
    assert chunks_of(["", "t = [1,", "", "2]", "", "   ", "t"]) == ["t = [1,\n\n2]\n", "t\n"]


def test_reader_ends_a_one_line_compound_statement_at_the_next_statement():
    assert chunks_of(["if True: y = 1", "y"]) == ["if True: y = 1\n", "y\n"]


def test_meta_commands_on_piped_input(tmp_path: Path):
    source = (
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = (x * x).sum()\n"
        ":vars\n"
        ":graph y\n"
        "y.backward()\n"
        ":grads\n"
        ":graph nope\n"
    )
    done = piped(source)
    assert done.returncode == 1  # :graph nope failed
    lines = done.stdout.splitlines()
    assert lines[0].split() == [
        "name",
        "value",
        "shape",
        "dtype",
        "requires_grad",
        "is_leaf",
        "grad_fn",
        "grad",
    ]
    assert lines[1].split() == ["x", "[1.,", "2.]", "[2]", "float32", "True", "True"]
    assert lines[2].split() == ["y", "5.", "[]", "float32", "True", "False", "SumBackward0"]
    assert "SumBackward0 ← (x * x).sum()  shape=[]  value=5." in done.stdout
    assert "└── MulBackward0 ← x * x  shape=[2]" in done.stdout
    assert any(line.split()[:1] == ["x"] and "tensor([2., 4.])" in line for line in lines)
    assert "no variable named 'nope'" in done.stderr


def test_save_writes_a_script_that_run_reproduces(tmp_path: Path):
    saved = tmp_path / "session.py"
    source = (
        "def cube(t):\n"
        "    return t * t * t\n"
        "\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "y = cube(x); y.backward(); x.grad\n"
        "broken +* 1\n"
        "[x.grad * 2, 'a;b']\n"
        "print('printed')\n"
        f":save {saved}\n"
    )
    done = piped(source)
    assert "SyntaxError" in done.stderr
    echoed = done.stdout.replace(f"saved 5 inputs to {saved}\n", "")
    assert echoed == "tensor(12.)\n[tensor(24.), 'a;b']\nprinted\n"
    assert "broken" not in saved.read_text(encoding="utf-8")
    rerun = autodiff("run", str(saved), timeout=60)
    assert (rerun.returncode, rerun.stderr) == (0, "")
    assert rerun.stdout == echoed


def test_save_keeps_the_backward_explain_ran(tmp_path: Path):
    """`:explain loss` runs loss.backward(): the saved script runs it too, so `w.grad` prints
    the same there."""
    saved = tmp_path / "explained.py"
    source = (
        "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "loss = (w * w * 3).sum()\n"
        ":explain loss\n"
        "w.grad\n"
        f":save {saved}\n"
    )
    done = piped(source)
    assert "tensor([ 6., 12.])" in done.stdout, done.stdout + done.stderr
    assert "loss.backward()" in saved.read_text(encoding="utf-8")
    rerun = autodiff("run", str(saved), timeout=60)
    assert (rerun.returncode, rerun.stderr, rerun.stdout) == (0, "", "tensor([ 6., 12.])\n")


def test_load_runs_a_file_in_the_session(tmp_path: Path):
    script = tmp_path / "defs.py"
    script.write_text("import torch\nw = torch.ones(2, requires_grad=True)\n", encoding="utf-8")
    done = piped(f":load {script}\n(w * 3).sum()\n:reset\nw\n")
    assert done.stdout.startswith("tensor(6., grad_fn=<SumBackward0>)\n")
    assert "NameError" in done.stderr  # :reset forgot w


def test_explain_meta_command():
    done = piped("a = torch.tensor(3.0, requires_grad=True)\nb = a * a\n:explain b\na.grad\n")
    assert done.returncode == 0, done.stderr
    assert "[1] MulBackward0 ← a * a receives grad = 1." in done.stdout
    assert "a.grad += 3. from [1] + 3. from [1] = 6." in done.stdout
    assert done.stdout.rstrip().endswith("tensor(6.)")


def test_terminal_session_with_prompt_toolkit(tmp_path: Path):
    pytest.importorskip("pexpect")
    child = spawn(tmp_path, term="xterm")
    try:
        child.expect(">>>")
        # a multi-line def: Enter inside the block auto-indents; a blank line ends it
        child.send("def square(t):\r")
        child.send("return t * t\r")
        child.send("\r")
        child.expect(">>>")
        child.send("x = torch.tensor([1.0, 2.0], requires_grad=True)\r")
        child.expect(">>>")
        child.send("y = square(x).sum(); y\r")
        child.expect(r"tensor\(5\., grad_fn=<SumBackward0>\)")
        child.send("y +* 2\r")
        child.expect("SyntaxError")
        child.send(":graph y\r")
        child.expect("MulBackward0")
        child.send(":vars\r")
        child.expect("requires_grad")
        child.expect("SumBackward0")
        # Ctrl-C stops a running loop and the session goes on; the loop itself says it runs
        # ("loop" + "ing": the echo of the typed line does not match)
        child.send("started = False\r")
        child.expect(">>>")
        child.send("while True:\r")
        child.send("if not started: print('loop' + 'ing', flush=True); started = True\r")
        child.send("\r")
        child.expect("looping")
        child.sendintr()
        child.expect("KeyboardInterrupt")
        child.send("y.backward(); x.grad\r")
        child.expect(r"tensor\(\[2\., 4\.\]\)")
        end_with_ctrl_d(child)
    finally:
        child.close()
    assert child.exitstatus == 0
    history = (tmp_path / "state" / "autodiff" / "history").read_text(encoding="utf-8")
    assert "y = square(x).sum(); y" in history  # history persists across sessions


def test_completion_lists_names_attributes_and_no_underscore_names():
    from autodiff_cli.cli.repl.commands import ReplState
    from autodiff_cli.cli.repl.terminal import ReplCompleter

    state = ReplState()
    state.execute("weights = torch.ones(2, requires_grad=True)\ny = weights * 2\n")
    completer = ReplCompleter(state)
    assert completer.candidates("wei")[1] == ["weights"]
    word, names = completer.candidates("weights.backw")
    assert (word, names) == ("backw", ["backward"])
    assert "grad_fn" in completer.candidates("y.gr")[1]
    assert all(not name.startswith("_") for name in completer.candidates("y.")[1])
    assert "functional" in completer.candidates("torch.nn.f")[1]
    assert completer.candidates(":gr")[1] == ["graph", "grads"]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reading y.grad would warn: completion must not
        completer.candidates("y.grad.")


def test_next_indent_and_is_finished():
    from autodiff_cli.cli.repl.terminal import is_finished, next_indent
    from autodiff_cli.lang import Session

    complete = Session().is_complete
    assert next_indent("def f(x):") == "    "
    assert next_indent("def f(x):\n    return x") == ""
    assert next_indent("for i in y:\n    if i:") == "        "
    assert is_finished("x = 1", complete)
    assert not is_finished("x = (1,", complete)
    assert not is_finished("def f(x):\n    return x", complete)
    assert is_finished("def f(x):\n    return x\n", complete)
    assert is_finished(":vars", complete)


class _Log:
    """Collects what the child printed (pexpect's `logfile_read`)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass


def _vars_table(tmp_path: Path, no_color: bool, *args: str) -> str:
    """A terminal session that runs `:vars`; returns what the REPL printed from the table on."""
    colour = {"NO_COLOR": "1"} if no_color else {}
    log = _Log()
    child = terminal(
        tmp_path, *args, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1", dimensions=(40, 200),
        **colour,
    )  # fmt: skip
    child.logfile_read = log
    try:
        child.expect(">>>")
        child.send("w = torch.tensor([1.0, 2.0], requires_grad=True)\r")
        child.expect(">>>")
        child.send("loss = (w * w).sum(); loss.backward()\r")
        child.expect(">>>")
        child.send(":vars\r")
        child.expect("SumBackward0")
        child.expect(">>>")
        end_with_ctrl_d(child)
    finally:
        child.close()
    out = "".join(log.parts)
    return out[out.index("requires_grad") - 200 :]


_COLOURS = re.compile(r"\x1b\[([0-9;]*)m")  # ANSI colour and style sequences


def test_terminal_output_is_styled_rich_tables(tmp_path: Path):
    table = _vars_table(tmp_path, no_color=False)
    assert "SumBackward0" in table
    assert "┃" in table or "│" in table  # Rich's table borders
    codes = [c for c in _COLOURS.findall(table) if c not in ("", "0")]
    assert any(c.split(";")[0] == "1" for c in codes), codes[:10]  # bold headers
    assert any(part in ("3" + d for d in "1234567") or part.startswith("38") for c in codes
               for part in c.split(";")), codes[:10]  # fmt: skip  # a foreground colour


@pytest.mark.parametrize("how", ["NO_COLOR", "--plain"])
def test_no_color_and_plain_turn_styling_off(tmp_path: Path, how: str):
    args = ("repl", "--plain") if how == "--plain" else ()
    table = _vars_table(tmp_path, how == "NO_COLOR", *args)
    table = table[: table.index("SumBackward0") + 40]  # Rich's table, not the next prompt
    assert "requires_grad" in table
    assert [c for c in _COLOURS.findall(table) if c not in ("", "0")] == []


def test_vars_and_grads_print_values_as_their_repr_does():
    source = (
        "x = torch.tensor([1.0, 0.5, 15.0], requires_grad=True)\n"
        "W = torch.arange(600.).reshape(20, 30).requires_grad_()\n"
        "(x * x).sum().backward()\n"
        "(W * 1).sum().backward()\n"
        ":grads\n"
        ":vars\n"
    )
    done = piped(source)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[:9] == [
        "leaf  grad",
        "x     tensor([ 2.,  1., 30.])",
        "W     tensor([[1., 1., 1.,  ..., 1., 1., 1.],",
        "              [1., 1., 1.,  ..., 1., 1., 1.],",
        "              [1., 1., 1.,  ..., 1., 1., 1.],",
        "              ...,",
        "              [1., 1., 1.,  ..., 1., 1., 1.],",
        "              [1., 1., 1.,  ..., 1., 1., 1.],",
        "              [1., 1., 1.,  ..., 1., 1., 1.]])",
    ]
    assert lines[10].startswith("x     [ 1.0000, 0.5000, 15.0000]  ")
    assert lines[10].split()[5:9] == ["[3]", "float32", "True", "True"]
    assert lines[11].startswith("W     [[ 0., 1., 2., ..., 27., 28., 29.], [ 3…  [20, 30]")
    assert lines[10].endswith("  tensor([ 2.,  1., 30.])")
    assert lines[11].endswith("  tensor([[1., 1., 1.,  ..., 1., 1., 1.],")


def test_explain_follows_the_rules_of_backward():
    source = (
        "a = torch.tensor(3.0, requires_grad=True)\n"
        "unused = torch.tensor(1.0, requires_grad=True)\n"
        "loss = a * a\n"
        ":explain loss\n"
        ":explain loss\n"
        "v = a * torch.ones(2)\n"
        ":explain v\n"
        "a.grad\n"
    )
    done = piped(source)
    assert done.returncode == 1
    assert "unused" not in done.stdout  # not part of loss's graph
    assert done.stdout.splitlines()[-3:] == [
        "accumulated gradients:",
        "  a.grad = 6.",
        "tensor(6.)",
    ]
    assert done.stderr.splitlines() == [
        ":explain: RuntimeError: Trying to backward through the graph a second time (or directly "
        "access saved tensors after they have already been freed). Saved intermediate values of "
        "the graph are freed when you call .backward() or autograd.grad(). Specify "
        "retain_graph=True if you need to backward through the graph a second time or if you "
        "need to access saved tensors after calling backward.",
        ":explain: RuntimeError: grad can be implicitly created only for scalar outputs",
    ]


@pytest.mark.parametrize("term", ["dumb", "xterm"])
def test_a_block_that_cannot_become_valid_is_an_error_at_once(tmp_path: Path, term: str):
    pytest.importorskip("pexpect")
    child = spawn(tmp_path, term=term)
    try:
        child.expect(">>>")
        child.send("def h(:\r")  # no blank line needed: no further line can make it valid
        child.expect(r"<stdin>:1:7: error")
        child.expect("SyntaxError")
        child.expect(">>>")
        child.send("def g(t):\r")  # an unfinished block still continues
        if term == "dumb":
            child.expect(r"\.\.\. ")
        child.send("    return t + 1\r" if term == "dumb" else "return t + 1\r")
        if term == "dumb":
            child.expect(r"\.\.\. ")
        child.send("\r")
        child.expect(">>>")
        child.send("g(41)\r")
        child.expect("42")
        child.expect(">>>")
        end_with_ctrl_d(child)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_formula_of_a_graph_built_by_a_loop_piped():
    source = (
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "y = x\n"
        "for i in range(3):\n"
        "    y = y * x + 1\n"
        "\n"
        ":formula y\n"
        "w = torch.ones(2, 2, requires_grad=True)\n"
        "m = (w @ w).sum()\n"
        ":formula m\n"
        ":formula\n"
    )
    done = piped(source)
    assert done.returncode == 1  # the refused :formula lines
    assert done.stdout == (
        "formulas (from the grad_fn graph):\n"
        "  y = x*(x*(x**2 + 1) + 1) + 1\n"
        "  ∂y/∂x = 4*x**3 + 2*x + 1\n"
        "        = 4·x³ + 2·x + 1\n"
        "      value at the point x=2: 37 (autograd 37: agrees)\n"
    )
    assert done.stderr.splitlines() == [
        ":formula: no formula for MmBackward0",
        ":formula: usage: :formula NAME [WRT...]",
    ]


def test_formula_interactive_after_a_loop(tmp_path: Path):
    pytest.importorskip("pexpect")
    child = spawn(tmp_path)
    try:
        child.expect(">>> ")
        child.sendline("x = torch.tensor(0.5, requires_grad=True)")
        child.expect(">>> ")
        child.sendline("y = x")
        child.expect(">>> ")
        child.sendline("for i in range(3): y = y * x + 1")
        child.expect(r"\.\.\. ")
        child.sendline("")
        child.expect(">>> ")
        child.sendline(":formula y x")
        child.expect(r"∂y/∂x = 4\*x\*\*3 \+ 2\*x \+ 1")
        child.expect(r"value at the point x=0.5: 2.5 \(autograd 2.5: agrees\)")
        child.expect(">>> ")
        child.sendline(":graph y")
        child.expect("AddBackward0 ← y \\* x \\+ 1")
        child.expect(">>> ")
        child.sendline("print(y.grad_fn)")
        child.expect(r"<AddBackward0 object at 0x[0-9a-f]+>")
        child.expect(">>> ")
        end_with_ctrl_d(child)
    finally:
        child.close()
