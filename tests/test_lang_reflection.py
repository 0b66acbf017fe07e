"""`id`, `getattr`/`setattr`/`delattr`, `eval`, `function.__code__`, `from __future__`,
attributes on tensor instances and `dir(grad_fn)`: Python's behaviour and messages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from script_runner import run

from autodiff_cli.lang import ScriptError

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("getattr()", "TypeError: getattr expected at least 2 arguments, got 0"),
        ("getattr(b, 'x', 1, 2)", "TypeError: getattr expected at most 3 arguments, got 4"),
        ("getattr(b, 2)", "TypeError: attribute name must be string, not 'int'"),
        ("getattr(b, 'x')", "AttributeError: 'B' object has no attribute 'x'"),
        ("setattr(b, 'x')", "TypeError: setattr expected 3 arguments, got 2"),
        ("setattr(b, 1, 2)", "TypeError: attribute name must be string, not 'int'"),
        ("delattr(b)", "TypeError: delattr expected 2 arguments, got 1"),
        ("delattr(b, 'x')", "AttributeError: 'B' object has no attribute 'x'"),
        ("id()", "TypeError: id() takes exactly one argument (0 given)"),
        ("eval()", "TypeError: eval expected at least 1 argument, got 0"),
        ("eval(1)", "TypeError: eval() arg 1 must be a string, bytes or code object"),
        ("eval('1', 2)", "TypeError: globals must be a dict"),
        ("eval('1', {}, 3)", "TypeError: locals must be a mapping"),
        ("eval('1 +* 2')", "SyntaxError: invalid syntax (<string>, line 1)"),
        ("eval('(1,')", "SyntaxError: '(' was never closed (<string>, line 1)"),
        ("eval('')", "SyntaxError: invalid syntax (<string>, line 0)"),
        ("eval('nope')", "NameError: name 'nope' is not defined"),
    ],
)
def test_misuse_gives_pythons_errors(call: str, message: str) -> None:
    source = f"class B:\n    pass\nb = B()\ntry:\n    {call}\nexcept Exception as e:\n"
    source += "    print(type(e).__name__ + ': ' + str(e))\n"
    assert run(source) == message + "\n"


def test_getattr_setattr_delattr_id() -> None:
    source = """
class B:
    pass
b = B()
setattr(b, "w", 2)
print(getattr(b, "w"), getattr(b, "z", "d"), hasattr(b, "w"), type(id(b)) is int, id(b) == id(b))
delattr(b, "w")
print(hasattr(b, "w"))
"""
    assert run(source) == "2 d True True True\nFalse\n"


def test_eval_sees_globals_locals_and_given_mappings() -> None:
    source = """
g = 10
def f(a):
    b = 2
    return eval("a * b + g")
print(f(3), eval("g + 1"), eval("x + y", {"x": 1}, {"y": 2}), eval("  [i for i in (1, 2)]"))
d = {}
print(eval("(n := 5) + 1", d), d)
def h():
    return eval("q", {"q": 7})
print(h())
"""
    assert run(source) == "16 11 3 [1, 2]\n6 {'n': 5}\n7\n"


def test_eval_errors_are_catchable_and_located_when_not() -> None:
    source = "try:\n    eval('1 +')\nexcept SyntaxError as e:\n    print(e.msg, e.lineno)\n"
    assert run(source) == "invalid syntax 1\n"
    with pytest.raises(ScriptError) as info:
        run("x = 1\ny = eval('x / 0')\n")
    assert (info.value.line, info.value.type_name) == (2, "ZeroDivisionError")


def test_eval_in_the_cli_is_one_located_error(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text("print(1)\nprint(eval('2 +* 3'))\n")
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 1
    assert done.stdout == "1\n"
    assert "s.py:2:7: error" in done.stderr
    assert "SyntaxError: invalid syntax (<string>, line 1)" in done.stderr
    assert "Traceback" not in done.stderr


def test_code_facts() -> None:
    source = """
def f(a, b=2, *args, c, d=1, **kw):
    x = 1
    y = a
    def g():
        return x
    return g
co = f.__code__
print(co.co_argcount, co.co_posonlyargcount, co.co_kwonlyargcount, co.co_nlocals)
print(co.co_varnames, co.co_cellvars, co.co_freevars, co.co_name, co.co_filename)
g = f(1, c=2)
print(g.__code__.co_freevars, g.__code__.co_qualname, g.__code__ is f(1, c=2).__code__)
print(repr(co).startswith("<code object f at 0x"), type(co).__name__)
class K:
    def m(self, v):
        return super().m
print(K().m.__code__.co_varnames, K.m.__code__.co_freevars)
"""
    assert run(source) == (
        "2 0 2 8\n"
        "('a', 'b', 'c', 'd', 'args', 'kw', 'y', 'g') ('x',) () f s.py\n"
        "('x',) f.<locals>.g True\n"
        "True code\n"
        "('self', 'v') ('__class__',)\n"
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("(lambda: 0).__code__.co_code", "'code' object attribute 'co_code' is not available"),
        ("(lambda: 0).__code__.co_name = 'x'", "readonly attribute"),
        ("len.__code__", "'builtin_function_or_method' object has no attribute '__code__'"),
    ],
)
def test_code_facts_are_read_only_facts(source: str, message: str) -> None:
    with pytest.raises(ScriptError) as info:
        run(source)
    assert info.value.type_name == "AttributeError"
    assert message in info.value.message


def test_future_imports() -> None:
    assert run('"""doc"""\nfrom __future__ import annotations, division\nprint(1)\n') == "1\n"
    for source, message in [
        ("import torch\nfrom __future__ import annotations\n", "must occur at the beginning"),
        ("from __future__ import braces\n", "not a chance"),
        ("from __future__ import spam\n", "future feature spam is not defined"),
        ("def f():\n    from __future__ import annotations\n", "must occur at the beginning"),
    ]:
        with pytest.raises(ScriptError) as info:
            run(source)
        assert info.value.type_name == "SyntaxError"
        assert message in info.value.message


def test_tensor_instance_attributes() -> None:
    source = """
import torch
t = torch.ones(2, requires_grad=True)
y = t * 2
y.retain_grad = True
y.note = "n"
print(y.retain_grad, y.note, "note" in dir(y), hasattr(torch.ones(1), "note"))
y.sum().backward()
print(t.grad)
del y.retain_grad
y2 = t * 3
y2.retain_grad()
y2.sum().backward()
print(y2.grad)
try:
    del y.missing
except AttributeError as e:
    print(e)
"""
    assert run(source) == (
        "True n True False\ntensor([2., 2.])\ntensor([1., 1.])\n"
        "'Tensor' object has no attribute 'missing'\n"
    )


def test_dir_of_a_grad_fn_lists_its_own_saved_names() -> None:
    source = """
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print([n for n in dir((x * x).grad_fn) if n.startswith("_")])
print([n for n in dir(x.exp().grad_fn) if n.startswith("_")])
"""
    assert run(source) == (
        "['_raw_saved_other', '_raw_saved_self', '_saved_other', '_saved_self']\n"
        "['_raw_saved_result', '_saved_result']\n"
    )
