"""Annotations and bytes literals behave as in Python 3.11 (the outputs were checked there)."""

from __future__ import annotations

import pytest
from script_runner import run_dedented as run

from autodiff_cli.lang import ScriptError


def test_module_and_class_annotations_are_evaluated_and_stored() -> None:
    out = run(
        """
        x: int = 1
        y: float
        (p): int = 3
        __m: str = "kept unmangled at module level"
        class C:
            w: int = 3
            v: "str"
            __z: bool
        print(x, C.w, __annotations__)
        print(C.__annotations__, C().__annotations__)
        """
    )
    assert out == (
        "1 3 {'x': <class 'int'>, 'y': <class 'float'>, '__m': <class 'str'>}\n"
        "{'w': <class 'int'>, 'v': 'str', '_C__z': <class 'bool'>} "
        "{'w': <class 'int'>, 'v': 'str', '_C__z': <class 'bool'>}\n"
    )


def test_value_is_assigned_before_the_annotation_is_evaluated() -> None:
    with pytest.raises(ScriptError) as info:
        run("x: undefined_name = 5\n")
    assert "name 'undefined_name' is not defined" in str(info.value)
    assert run("try:\n    x: nope = 5\nexcept NameError:\n    print(x)\n") == "5\n"


def test_function_bodies_never_evaluate_annotations() -> None:
    out = run(
        """
        class A:
            pass
        def f():
            x: undefined_thing = 1
            a = A()
            a.w: nothing = 3
            y: int
            return x, a.w
        def g():
            y: int
            return y
        print(f())
        try:
            g()
        except UnboundLocalError as error:
            print(error)
        """
    )
    assert out == (
        "(1, 3)\ncannot access local variable 'y' where it is not associated with a value\n"
    )


def test_bare_attribute_annotation_evaluates_its_object() -> None:
    with pytest.raises(ScriptError) as info:
        run("a.b: int\n")
    assert "name 'a' is not defined" in str(info.value)
    assert run("d = {}\nd['k']: int\nd['j']: int = 2\nprint(d)\n") == "{'j': 2}\n"


def test_function_annotations_in_python_order() -> None:
    out = run(
        """
        def h(a: int, *b: str, c: float = 1, **d: list) -> None:
            pass
        def plain(a, b=2):
            pass
        print(h.__annotations__, plain.__annotations__)
        """
    )
    assert out == (
        "{'a': <class 'int'>, 'b': <class 'str'>, 'c': <class 'float'>, 'd': <class 'list'>, "
        "'return': None} {}\n"
    )


def test_future_annotations_keep_the_source_text() -> None:
    out = run(
        """
        from __future__ import annotations
        a: torch.Tensor | None = None
        b: dict[str, list[int]]
        c: "Tensor"
        d: Callable[[int, float], -1 ** 2]
        h: a.b(c, k=1)[1:2, ::3]
        i: not a or b and c < d <= e
        def f(x: Optional[int] = None, *args: Any, **kw: Dict[str, Any]) -> List[int]:
            z: Undefined = 3
            return z
        print(__annotations__)
        print(f.__annotations__, f())
        """
    )
    assert out == (
        "{'a': 'torch.Tensor | None', 'b': 'dict[str, list[int]]', 'c': \"'Tensor'\", "
        "'d': 'Callable[[int, float], -1 ** 2]', 'h': 'a.b(c, k=1)[1:2, ::3]', "
        "'i': 'not a or b and c < d <= e'}\n"
        "{'x': 'Optional[int]', 'args': 'Any', 'kw': 'Dict[str, Any]', 'return': 'List[int]'} 3\n"
    )


def test_annotations_of_the_engine_stay_private() -> None:
    with pytest.raises(ScriptError) as info:
        run("import torch\nprint(torch.nn.Module.__annotations__)\n")
    assert "is not available in scripts (names starting with" in str(info.value)
    with pytest.raises(ScriptError):
        run("import torch\nprint(torch.nn.functional.relu.__annotations__)\n")
    out = run(
        """
        import torch
        class N(torch.nn.Module):
            w: torch.Tensor
            def __init__(self) -> None:
                super().__init__()
                self.w: torch.Tensor = torch.ones(2)
        n = N()
        print(N.__annotations__, n.__annotations__, n.w)
        """
    )
    assert out == "{'w': <class 'torch.Tensor'>} {'w': <class 'torch.Tensor'>} tensor([1., 1.])\n"


def test_bytes_literals_and_methods() -> None:
    out = run(
        r"""
        b = b"abc"
        x = b"\xff\n"
        print(b, rb"\n", len(b), b[0], b[1:], list(b), b.decode(), bytes([65, 66]))
        print(b"a" b"b", b.hex(), bytes.fromhex("4142"), "é".encode("utf-8"), x.split(b"\n"))
        print(isinstance(b, bytes), type(b) is bytes, b.upper(), b"%d-%s" % (3, b"z"))
        """
    )
    assert out == (
        "b'abc' b'\\\\n' 3 97 b'bc' [97, 98, 99] abc b'AB'\n"
        "b'ab' 616263 b'AB' b'\\xc3\\xa9' [b'\\xff', b'']\n"
        "True True b'ABC' b'3-z'\n"
    )
