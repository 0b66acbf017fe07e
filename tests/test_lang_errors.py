"""Syntax and runtime errors: located, with the source line, a caret and a plain message."""

from __future__ import annotations

import io

import pytest

from autodiff_cli.lang import ScriptError, Session, compile_source, run_source


def syntax_error(source: str | bytes) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        compile_source(source, "script.py")
    return info.value


@pytest.mark.parametrize(
    ("source", "line", "column", "message"),
    [
        ("x = 1\ny = x +* 2\n", 2, 8, "unexpected '*'; expected an expression"),
        ("x = \n", 1, 5, "unexpected end of line; expected an expression"),
        ("if x\n    pass\n", 1, 5, "unexpected end of line; expected ':'"),
        ("for x y:\n    pass\n", 1, 7, "unexpected name 'y'; expected 'in'"),
        ("x = 1 2\n", 1, 7, "unexpected number 2; expected an operator or end of line"),
        ("x = (1,\n2\n", 1, 5, "'(' was never closed"),
        ("x = 1)\n", 1, 6, "unmatched ')'"),
        ("x = 'abc\n", 1, 5, "unterminated string literal"),
        ("x = '''abc\n", 1, 5, "unterminated triple-quoted string literal"),
        ("x = $\n", 1, 5, "invalid character '$' (U+0024)"),
        ("x = f'{}'\n", 1, 8, "f-string: empty expression not allowed"),
        ("x = f'{1 +}'\n", 1, 8, "f-string: unexpected ')'; expected an expression"),
        ("x = b'caf\u00e9'\n", 1, 5, "bytes can only contain ASCII literal characters"),
        ("x = b'a' 'b'\n", 1, 10, "cannot mix bytes and nonbytes literals"),
        ("x = f'a' b'b'\n", 1, 10, "cannot mix bytes and nonbytes literals"),
        ("a, b: int\n", 1, 1, "only single target (not tuple) can be annotated"),
        ("[a]: int = 1\n", 1, 1, "only single target (not list) can be annotated"),
        ("f(): int\n", 1, 1, "illegal target for annotation"),
        ("def f():\n    global x\n    x: int\n", 3, 5, "annotated name 'x' can't be global"),
        ("break\n", 1, 1, "'break' outside loop"),
        ("return 1\n", 1, 1, "'return' outside function"),
        ("f(x=1, x=2)\n", 1, 8, "keyword argument repeated: x"),
        ("f(x=1, 2)\n", 1, 8, "positional argument follows keyword argument"),
        ("1 = x\n", 1, 1, "cannot assign to literal"),
        ("def f(a, a):\n    pass\n", 1, 7, "duplicate argument 'a' in function definition"),
        ("x = " + "(" * 300 + "1" + ")" * 300 + "\n", 1, 205, "too many nested parentheses"),
        ("y = 2\nx = 'a\0b'\n", 2, 7, "source code cannot contain null bytes"),
        ("# a comment\0\nx = 1\n", 1, 12, "source code cannot contain null bytes"),
        ("x = 1 \0\n", 1, 7, "source code cannot contain null bytes"),
    ],
)
def test_syntax_errors(source: str, line: int, column: int, message: str) -> None:
    error = syntax_error(source)
    assert (error.line, error.column, error.message) == (line, column, message)
    assert error.type_name == "SyntaxError"
    assert error.is_syntax_error


@pytest.mark.parametrize(
    ("source", "line", "column", "message"),
    [
        ("  x = 1\n", 1, 3, "unexpected indent"),
        ("x = 1\n    y = 2\n", 2, 5, "unexpected indent"),
        ("if x:\npass\n", 2, 1, "expected an indented block"),
        ("if x:\n    a\n  b\n", 3, 3, "unindent does not match any outer indentation level"),
    ],
)
def test_indentation_errors(source: str, line: int, column: int, message: str) -> None:
    error = syntax_error(source)
    assert (error.line, error.column, error.message) == (line, column, message)
    assert error.type_name == "IndentationError"


def test_error_text_shows_line_and_caret() -> None:
    error = syntax_error("y = x +* 2\n")
    assert str(error) == (
        "script.py:1:8: error\n"
        "    y = x +* 2\n"
        "           ^\n"
        "SyntaxError: unexpected '*'; expected an expression"
    )


def test_undecodable_bytes_are_a_located_syntax_error() -> None:
    error = syntax_error(b"x = 1\ny = '\xff'\n")
    assert (error.line, error.column, error.type_name) == (2, 6, "SyntaxError")
    assert "utf-8" in error.message


def test_bytes_source_and_crlf_are_accepted() -> None:
    out = io.StringIO()
    run_source(b"\xef\xbb\xbfx = 1\r\nprint(x)\r\n", "b.py", stdout=out)
    assert out.getvalue() == "1\n"


def test_deep_nesting_without_parentheses_is_located_not_a_crash() -> None:
    error = syntax_error("x = " + "-" * 20000 + "1\n")
    assert error.type_name == "SyntaxError"
    nested = "".join("    " * depth + "if x:\n" for depth in range(400)) + "    " * 400 + "pass\n"
    compile_or_error = None
    try:
        compile_source(nested, "deep.py")
    except ScriptError as error:
        compile_or_error = error
    assert compile_or_error is None or compile_or_error.type_name in (
        "SyntaxError",
        "IndentationError",
    )


def runtime_error(source: str) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        run_source(source, "run.py", stdout=io.StringIO())
    return info.value


def test_runtime_error_located_at_innermost_expression() -> None:
    error = runtime_error("x = 1\ny = [1, 2]\nprint(x + y[5])\n")
    assert (error.line, error.column) == (3, 11)
    assert (error.type_name, error.message) == ("IndexError", "list index out of range")
    assert isinstance(error.__cause__, IndexError)
    assert str(error).splitlines()[1:3] == ["    print(x + y[5])", "              ^"]


def test_runtime_error_inside_function_is_located_in_the_function() -> None:
    error = runtime_error("def f(v):\n    return v / 0\n\nf(1)\n")
    assert (error.line, error.column, error.type_name) == (2, 12, "ZeroDivisionError")


def test_error_in_function_called_from_python_is_located() -> None:
    session = Session()
    session.execute("def hook(g):\n    return g.missing\n")
    with pytest.raises(AttributeError) as info:
        session.namespace["hook"](1)
    location = info.value._autodiff_location
    assert (location.line, location.column) == (2, 14)


def test_uncaught_raise_reports_type_and_message() -> None:
    error = runtime_error("class Oops(Exception):\n    pass\n\nraise Oops('it broke')\n")
    assert (error.line, error.type_name, error.message) == (4, "Oops", "it broke")
    assert str(error).endswith("Oops: it broke")


def test_name_error_location_and_message() -> None:
    error = runtime_error("a = 1\nb = a + missing\n")
    assert (error.line, error.column) == (2, 9)
    assert error.message == "name 'missing' is not defined"


def test_unpacking_errors() -> None:
    assert runtime_error("a, b = 1, 2, 3").message == "too many values to unpack (expected 2)"
    assert runtime_error("a, b, c = 1, 2").message == (
        "not enough values to unpack (expected 3, got 2)"
    )
