"""A script's own private names (its methods, `self._x`, `obj.__dict__`, mangled `__x`) against
the engine's (`engine_private_names`, the Module tables, the language's `_autodiff*` marks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from engine_private_names_scan import render
from script_runner import run

from autodiff_cli.lang import ScriptError

REPO = Path(__file__).resolve().parent.parent


def test_generated_name_lists_are_current() -> None:
    current = (REPO / "autodiff_cli/lang/sandbox/engine_private_names.py").read_text(
        encoding="utf-8"
    )
    assert current == render(), "run: python tests/engine_private_names_scan.py --write"


def test_plain_script_objects_own_their_private_names() -> None:
    source = """
class Net:
    _scale = 2
    def __init__(self):
        self._cache = {}
        self.__secret = 1
    def _double(self, x):
        self._cache["x"] = x
        return x * self._scale
n = Net()
print(n._double(3), n._cache, n._Net__secret, sorted(n.__dict__))
n._extra = 5
del n._cache
print(sorted(n.__dict__), hasattr(n, "_cache"), getattr(n, "_extra"), Net._scale)
def f():
    pass
f._calls = 3
print(f._calls)
"""
    assert run(source) == (
        "6 {'x': 3} 1 ['_Net__secret', '_cache']\n['_Net__secret', '_extra'] False 5 2\n3\n"
    )


def test_instance_dict_is_live_and_exceptions_hide_the_language_marks() -> None:
    source = """
class Box:
    pass
b = Box()
b.__dict__["v"] = 4
print(b.v, b.__dict__)
class Boom(Exception):
    pass
try:
    raise Boom("x")
except Boom as e:
    e.note = 1
    print(e.__dict__)
"""
    assert run(source) == "4 {'v': 4}\n{'note': 1}\n"


def test_module_subclass_private_names_and_tables() -> None:
    source = """
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(1, 1)
        self._hidden = 3
        self._cache = []
    def _helper(self):
        return self._hidden
m = M()
print(m._helper(), m._cache, list(m._modules), list(m.fc._parameters), m._buffers)
"""
    assert run(source) == "3 [] ['fc'] ['weight', 'bias'] {}\n"


@pytest.mark.parametrize(
    "source",
    [
        "import torch\nclass M(torch.nn.Module):\n    pass\nM()._forward_hooks",
        "import torch\nclass M(torch.nn.Module):\n    pass\nm = M()\nm._modules = {}",
        "import torch\nclass M(torch.nn.Module):\n    def __init__(self):\n"
        "        self._parameters = 1\n        super().__init__()\nM()",
        "import torch\nclass D(torch.utils.data.Dataset):\n    pass\nD()._data = 1",
        "import torch\ntorch.ones(1)._version_box",
        "import torch\ntorch.nn.Linear(1, 1)._named_members",
        "class E(Exception):\n    pass\nE()._autodiff_location = 1",
        "import collections\nP = collections.namedtuple('P', 'a')\n"
        "class Q(P):\n    pass\nQ(1)._fields = ('x',)",
    ],
)
def test_engine_private_names_stay_refused(source: str) -> None:
    with pytest.raises(ScriptError) as info:
        run(source)
    assert info.value.type_name == "AttributeError"
    assert "private" in info.value.message or "cannot" in info.value.message


def test_dir_lists_the_scripts_private_names() -> None:
    source = """
class A:
    def __init__(self):
        self._x = 1
    def _m(self):
        pass
print([n for n in dir(A()) if n.startswith("_")])
"""
    assert run(source) == "['_m', '_x']\n"


def test_mangled_names_in_class_bodies() -> None:
    source = """
class C:
    __n = 1
    def __hidden(self):
        return self.__n
    def show(self):
        return self.__hidden()
print(C().show(), C._C__n, hasattr(C, "__hidden"), hasattr(C, "_C__hidden"))
"""
    assert run(source) == "1 1 False True\n"


def test_private_attribute_error_is_located_in_the_cli(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text("import torch\nm = torch.nn.Linear(1, 1)\nm._parameters = {}\n")
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 1
    assert "s.py:3:1: error" in done.stderr
    assert (
        "AttributeError: attribute '_parameters' of 'Linear' objects is not available"
        in done.stderr
    )
    assert "Traceback" not in done.stderr
