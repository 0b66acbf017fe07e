"""The capability layer: what scripts may still do with classes, `type()`, `super()` and builtin
methods, and how refusals and hostile errors are reported (see `lang/sandbox/capabilities.py`)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from script_runner import error_of, run

from autodiff_cli.lang import ScriptError, Session, run_source

REPO = Path(__file__).resolve().parent.parent


def test_type_gives_real_classes_scripts_can_name() -> None:
    source = """
import torch
class A:
    pass
print(type(1) is int, type('') is str, type(A()) is A, type(torch.ones(1)) is torch.Tensor)
print(type(1)('3') + 1, type([]) == list, isinstance(2, type(1)), type(True).__name__)
print(type(map(abs, [])) is map, type(zip()) is zip, type(ValueError()) is ValueError)
"""
    assert run(source) == "True True True True\n4 True True bool\nTrue True True\n"


def test_type_gives_stand_ins_for_other_classes() -> None:
    source = """
import torch
def f():
    pass
print(type(f), type(torch), type(None), type(type(1)), type(len), type(iter([])))
print(type(f) is type(lambda: 0), type(f) == type(f), type(type(1)) is type(type(f)))
print(isinstance(f, type(f)), isinstance(1, type(f)), issubclass(type(f), type(f)))
print(type(f).__name__, type(None)(), type(torch).__name__)
"""
    assert run(source) == (
        "<class 'function'> <class 'module'> <class 'NoneType'> <class 'type'> "
        "<class 'builtin_function_or_method'> <class 'list_iterator'>\n"
        "True True True\nTrue False True\nfunction None module\n"
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f():\n    pass\ntype(f)(f, {})", "cannot create 'function' instances"),
        ("type(type(1))('X', (), {})", "cannot create 'type' instances"),
        (
            "import torch\nclass F(torch.autograd.Function):\n    pass\ntype(F)('C', (), {})",
            "cannot create 'autodiff_cli.engine.autograd.function.FunctionMeta' instances",
        ),
        ("type(1, 2)", "type() takes 1 argument"),
        ("class A(type(iter([]))):\n    pass", "cannot derive a class from 'list_iterator'"),
        ("import torch\nclass T(torch.Tensor):\n    pass", "cannot derive a class from 'Tensor'"),
        ("super(int, 1)", "takes a class the script defined"),
        ("class A:\n    __class__ = int", "cannot define '__class__'"),
        ("import torch\ntorch.Tensor.add(1, 2)", "doesn't apply to a 'int' object"),
        # the script's array has no tofile, whether or not the script imported numpy first
        (
            "import torch\ntorch.ones(1).numpy().tofile('x')",
            "'ndarray' object has no attribute 'tofile'",
        ),
        ("import torch\ntorch.float32.np", "which scripts cannot use"),
        ("str.format(1, 2)", "doesn't apply to a 'int' object"),
    ],
)
def test_refusals_say_what_is_refused(source: str, message: str) -> None:
    assert message in error_of(source).message


def test_subclasses_of_builtins_and_engine_bases_still_work() -> None:
    source = """
import torch
import torch.nn as nn
class S(str):
    def shout(self):
        return super().upper() + '!'
class I(int):
    pass
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)
    def forward(self, x):
        return self.fc(x)
s = S('{0}-{x}')
print(s.format(1, x=2), S.format(s, 3, x=4), super(S, s).format(5, x=6), S('hi').shout())
print(I(3) ** 2, I(2) << 3, str.ljust('a', 3) + '|', 'a-b'.replace('-', '+'), ','.join('ab'))
net = Net()
print(type(net).__name__, len(list(net.parameters())), nn.Module.train(net) is net)
"""
    assert run(source) == "1-2 3-4 5-6 HI!\n9 16 a  | a+b a,b\nNet 2 True\n"


def test_reporter_runs_no_script_code_and_escapes_control_characters() -> None:
    source = """
class Forged(Exception):
    def __getattr__(self, name):
        raise BaseException('reporter ran script code')
    def __str__(self):
        return chr(27) + '[2J' + chr(13)
raise Forged()
"""
    error = error_of(source)
    assert (error.type_name, error.line) == ("Forged", 7)
    assert "\x1b" not in str(error) and "\r" not in str(error)
    assert "Forged: \\x1b[2J\\r" in str(error)


def test_failing_str_of_an_exception_has_python_placeholder() -> None:
    source = "class E(Exception):\n    def __str__(self):\n        raise BaseException\nraise E()"
    assert error_of(source).message == "<exception str() failed>"


def test_base_exception_from_a_script_is_a_located_error() -> None:
    error = error_of("x = 1\nraise BaseException('stop')")
    assert (error.type_name, error.message, error.line) == ("BaseException", "stop", 2)


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )


def test_cli_error_text_has_no_raw_escape_codes(tmp_path: Path) -> None:
    script = tmp_path / "paint.py"
    script.write_text("x = 1\nraise ValueError(chr(27) + ']0;title' + chr(7) + chr(155) + 'm')\n")
    done = _cli("run", str(script))
    assert done.returncode == 1
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr and "\x9b" not in done.stderr
    assert "ValueError: \\x1b]0;title\\x07\\x9bm" in done.stderr
    assert "Traceback" not in done.stderr


def test_repl_survives_a_repr_that_raises() -> None:
    lines = (
        "class A:\n    def __repr__(self):\n        raise BaseException('no repr')\n\n"
        "A()\nprint('still here')\n"
    )
    done = _cli("repl", stdin=lines)
    assert "still here" in done.stdout
    assert "BaseException: no repr" in done.stderr
    assert "Traceback" not in done.stderr


def test_session_keeps_working_after_hostile_inputs() -> None:
    session = Session()
    for source in ("raise BaseException('x')", "hash(((),) * 3)", "class S(str):\n    pass"):
        try:
            session.execute(source)
        except ScriptError:
            pass
    assert session.execute("S('a').upper()") == "A"


def test_a_finalizer_runs_only_while_its_own_script_runs() -> None:
    out = io.StringIO()
    first = """
import torch
class Cycle:
    def __del__(self):
        torch.set_grad_enabled(False)
        print('finalizer of the first script')
a = Cycle()
a.me = a
del a
"""
    run_source(first, "a.py", stdout=out)
    run_source(
        "import torch\nx = [[i] for i in range(100000)]\nprint(torch.is_grad_enabled())",
        "b.py",
        stdout=out,
    )
    assert out.getvalue() == "True\n"
    session = Session(stdout=out)
    session.execute("class B:\n    def __del__(self):\n        print('same session')\nb = B()")
    session.execute("del b")
    assert out.getvalue().endswith("same session\n")


def test_moderate_nesting_and_sizes_still_work() -> None:
    source = """
items = [1, -2]
for i in range(500):
    items = map(abs, (x for x in items))
print(list(items))
nested = ()
for i in range(5000):
    nested = (nested, i)
print(hash(nested) == hash(nested), sum([[1], [2, 3]], []), sum(range(4)))
row = [0] * 1000
row.extend(row)
print(len(row), len(('ab' * 1000).join(['x'] * 100)), 'a\\tb'.expandtabs(4))
"""
    assert run(source) == "[1, 2]\nTrue [1, 2, 3] 6\n2000 198100 a   b\n"


def test_scripts_change_only_objects_they_own() -> None:
    source = """
import torch
layer = torch.nn.Linear(1, 1)
layer.note = 'mine'
x = torch.ones(2, requires_grad=True)
x.grad = None
class Box:
    pass
b = Box()
b.value = layer.note
x.device.type = 'hacked'
"""
    error = error_of(source)
    assert "cannot set attribute 'type' of 'device' object" in error.message
    assert error.line == 11
