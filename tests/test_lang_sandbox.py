"""Escapes from the sandbox that must fail, and what scripts may still do."""

from __future__ import annotations

import io

import pytest
from script_runner import run

from autodiff_cli.lang import ScriptError, Session


@pytest.mark.parametrize(
    ("source", "type_name"),
    [
        ("().__class__.__bases__", "AttributeError"),
        ("def f():\n    pass\nf.__globals__", "AttributeError"),
        ("class A:\n    pass\nA.__dict__", "AttributeError"),
        ("import torch\ntorch.ones(1).__dict__", "AttributeError"),
        ("import torch\ntorch.nn.Linear(1, 1).__dict__", "AttributeError"),
        ("import torch\nclass M(torch.nn.Module):\n    pass\nM().__dict__", "AttributeError"),
        ("class E(Exception):\n    pass\nE().__dict__['_autodiff_location']", "KeyError"),
        ("x = 1\nx.__class__", "AttributeError"),
        ("(lambda: 0).__code__.co_code", "AttributeError"),
        ("(lambda: 0).__code__._facts", "AttributeError"),
        ("(lambda: 0).__code__.__class__", "AttributeError"),
        ("print.__code__", "AttributeError"),
        ("import torch\ntorch.add.__code__", "AttributeError"),
        ("import torch\ntorch.nn.functional.relu.__code__", "AttributeError"),
        ("[].__init__", "AttributeError"),
        ("print.__self__", "AttributeError"),
        ("type(1).__subclasses__()", "AttributeError"),
        ("object.__subclasses__()", "AttributeError"),
        ("(x for x in []).gi_frame", "AttributeError"),
        ("'{0.__class__}'.format(1)", "AttributeError"),
        ("'{x.__class__.__bases__}'.format_map({'x': 1})", "AttributeError"),
        ("'{x.__class__}'.format(x=1)", "AttributeError"),
        ("getattr(1, '__class__')", "AttributeError"),
        ("getattr(getattr, '__self__')", "AttributeError"),
        ("import torch\ngetattr(torch.ones(1), '_data')", "AttributeError"),
        ("open('x', 'w')", "NameError"),
        ("eval('__import__')", "NameError"),
        ("eval('open')", "NameError"),
        ("eval('().__class__')", "AttributeError"),
        ("eval('import os')", "SyntaxError"),
        ("exec('1')", "NameError"),
        ("compile('1', 'f', 'exec')", "NameError"),
        ("setattr(1, 'a', 2)", "AttributeError"),
        ("import torch\nsetattr(torch.float32, 'x', 1)", "AttributeError"),
        ("import torch\nsetattr(torch.Tensor, 'add', 1)", "AttributeError"),
        ("import torch\nsetattr(torch.ones(1), '_data', 1)", "AttributeError"),
        ("import torch\nsetattr(torch, '_proxy_name', 'x')", "AttributeError"),
        (
            "import torch\nm = torch.nn.Linear(1, 1)\nsetattr(m, '_parameters', {})",
            "AttributeError",
        ),
        ("import torch\ndelattr(torch.nn.Linear(1, 1), '_modules')", "AttributeError"),
        ("__import__('os')", "NameError"),
        ("globals()", "NameError"),
        ("locals()", "NameError"),
        ("vars()", "NameError"),
        ("input()", "NameError"),
        ("breakpoint()", "NameError"),
        ("dir(print)[0]", "IndexError"),  # dir() lists only readable names: none here
        ("import os", "ModuleNotFoundError"),
        ("import sys", "ModuleNotFoundError"),
        ("from os import path", "ModuleNotFoundError"),
        ("import math.os", "ModuleNotFoundError"),
        ("print('x', file=None)", "TypeError"),
        ("type('X', (), {})", "TypeError"),
        ("try:\n    1/0\nexcept Exception as e:\n    e.__traceback__", "AttributeError"),
        ("hasattr(1, '__class__') or 1/0", "ZeroDivisionError"),
    ],
)
def test_escapes_fail(source: str, type_name: str) -> None:
    with pytest.raises(ScriptError) as info:
        run(source)
    assert info.value.type_name == type_name


def test_refusal_message_is_clear() -> None:
    with pytest.raises(ScriptError) as info:
        run("().__class__")
    assert info.value.message == (
        "attribute '__class__' of 'tuple' objects is not available in scripts "
        "(names starting with '_' are private to Python and the engine)"
    )


def test_a_missing_attribute_gets_pythons_message_and_suggestion() -> None:
    """Not "not allowed": the attribute does not exist; Python's words and its Did you mean."""
    with pytest.raises(ScriptError) as info:
        run("import torch\nx = torch.ones(1)\nx.grad.zero_()\n")
    assert info.value.message == "'NoneType' object has no attribute 'zero_'"
    with pytest.raises(ScriptError) as info:
        run("import torch\ny = torch.ones(1) * 2\ny.backwrd()\n")
    assert (
        info.value.message
        == "'Tensor' object has no attribute 'backwrd'. Did you mean: 'backward'?"
    )
    with pytest.raises(ScriptError) as info:
        run("[].apend(1)\n")
    assert info.value.message == "'list' object has no attribute 'apend'. Did you mean: 'append'?"
    assert run("try:\n    [].apend\nexcept AttributeError as e:\n    print(e)\n") == (
        "'list' object has no attribute 'apend'\n"  # str() stays Python's: no hint inside
    )


def test_a_withheld_attribute_says_why() -> None:
    with pytest.raises(ScriptError) as info:
        run("int.mro\n")
    assert info.value.message == (
        "attribute 'mro' of class 'int' is not available in scripts "
        "(it reaches beyond the objects scripts may use; see SECURITY.md)"
    )


@pytest.mark.parametrize(
    ("source", "kind", "message"),
    [
        ("import time", "ModuleNotFoundError",
         "module 'time' is not available in scripts (scripts are not given the clock or sleep)"),
        ("import subprocess", "ModuleNotFoundError",
         "module 'subprocess' is not available in scripts "
         "(scripts cannot reach the operating system, processes or the network)"),
        ("import no_such_module", "ModuleNotFoundError", "No module named 'no_such_module'"),
        ("import math.nothing", "ModuleNotFoundError", "No module named 'math.nothing'"),
        ("open('f.txt')", "NameError",
         "name 'open' is not available in scripts "
         "(scripts cannot read or write files; io.BytesIO keeps bytes in memory)"),
        ("input()", "NameError",
         "name 'input' is not available in scripts "
         "(scripts cannot read the terminal; give values in the script or with --at)"),
        ("no_such_name", "NameError", "name 'no_such_name' is not defined"),
    ],
)  # fmt: skip
def test_what_python_has_and_scripts_do_not_says_not_available(
    source: str, kind: str, message: str
) -> None:
    with pytest.raises(ScriptError) as info:
        run(source + "\n")
    assert (info.value.type_name, info.value.message) == (kind, message)


def test_builtins_can_be_shadowed_and_restored() -> None:
    assert run("print = 5\ndel print\nprint('ok')") == "ok\n"


def test_objects_of_foreign_types_expose_no_attributes() -> None:
    session = Session()
    session.namespace["foreign"] = io.StringIO()
    with pytest.raises(ScriptError, match="'write' of 'StringIO' objects is not available"):
        session.execute("foreign.write")


def test_allowed_attributes() -> None:
    source = """
class A:
    pass
a = A()
a.x = 1
def f():
    pass
f.tag = 'kept'
print(a.x, f.tag, f.__name__, A.__name__, type(a).__name__, 'abc'.upper(), {'k': 1}.get('k'))
print('{0} {k}'.format(1, k=2), '{0[0]}'.format([5]))
"""
    assert run(source) == "1 kept f A A ABC 1\n1 2 5\n"


def test_math_module_is_a_per_script_copy() -> None:
    first, second = Session(), Session()
    first.execute("import math\nmath.pi = 3")
    assert first.execute("math.pi") == 3
    assert second.execute("import math\nmath.pi") != 3
    import math

    assert math.pi != 3
