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
    assert "'__class__'" in info.value.message
    assert "not allowed" in info.value.message


def test_builtins_can_be_shadowed_and_restored() -> None:
    assert run("print = 5\ndel print\nprint('ok')") == "ok\n"


def test_objects_of_foreign_types_expose_no_attributes() -> None:
    session = Session()
    session.namespace["foreign"] = io.StringIO()
    with pytest.raises(ScriptError, match="not allowed"):
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
