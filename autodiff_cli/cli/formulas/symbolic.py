"""SymPy expressions from `Terms`: each op node through its op table entry's `symbolic`, given
only the functions of `Functions` (the explicit table of what a formula may contain); leaves are
real symbols named after their variables, constants exact numbers. No text is ever parsed
(`sympify`/`parse_expr` would evaluate Python)."""

from __future__ import annotations

import math
from typing import Any

import sympy

from autodiff_cli.cli.formulas.terms import NoFormula, Terms
from autodiff_cli.cli.formulas.words import _
from autodiff_cli.engine.core.optable import OPS


def _relu(x: Any) -> Any:
    """max(x, 0) with PyTorch's derivative at 0 (0, not Heaviside's ½)."""
    return sympy.Piecewise((x, x > 0), (0, True))


class Functions:
    """The functions a formula may use: what the op table's `symbolic` entries receive as `S`."""

    exp = staticmethod(sympy.exp)
    log = staticmethod(sympy.log)
    sqrt = staticmethod(sympy.sqrt)
    sin = staticmethod(sympy.sin)
    cos = staticmethod(sympy.cos)
    tan = staticmethod(sympy.tan)
    asin = staticmethod(sympy.asin)
    acos = staticmethod(sympy.acos)
    atan = staticmethod(sympy.atan)
    atan2 = staticmethod(sympy.atan2)
    sinh = staticmethod(sympy.sinh)
    cosh = staticmethod(sympy.cosh)
    tanh = staticmethod(sympy.tanh)
    asinh = staticmethod(sympy.asinh)
    acosh = staticmethod(sympy.acosh)
    atanh = staticmethod(sympy.atanh)
    abs = staticmethod(sympy.Abs)
    erf = staticmethod(sympy.erf)
    relu = staticmethod(_relu)


def number(value: Any) -> Any:
    """An exact SymPy number: integers as integers, a float as the decimal it prints as
    (`0.1` is 1/10: the number the user typed), a long or non-finite float as a Float."""
    if isinstance(value, bool) or isinstance(value, int):
        return sympy.Integer(int(value))
    value = float(value)
    if not math.isfinite(value):
        return {math.inf: sympy.oo, -math.inf: -sympy.oo}.get(value, sympy.nan)
    if value.is_integer() and abs(value) < 1e15:
        return sympy.Integer(int(value))
    text = repr(value)
    digits = text.lstrip("-").replace(".", "").lstrip("0").split("e")[0]
    if len(digits) <= 8:
        return sympy.Rational(text)
    return sympy.Float(value)


def check_terms(data: Any) -> Terms:
    """`Terms` from JSON sent by another process (the REPL's child, untrusted): every entry is
    checked for its shape and types, inputs refer to earlier entries, names are identifiers."""
    if type(data) is not dict or type(data.get("nodes")) is not list:
        raise NoFormula("the formula's graph is malformed")
    nodes, root = data["nodes"], data.get("root")
    for index, node in enumerate(nodes):
        if type(node) is not list or not node or node[0] not in ("leaf", "const", "op"):
            raise NoFormula("the formula's graph is malformed")
        ok = True
        if node[0] == "leaf":
            ok = len(node) == 2 and type(node[1]) is str and node[1].isidentifier()
        elif node[0] == "const":
            ok = len(node) == 2 and type(node[1]) in (int, float)
        else:
            ok = (
                len(node) == 6
                and type(node[1]) is str
                and type(node[2]) is str
                and type(node[3]) is list
                and all(type(i) is int and 0 <= i < index for i in node[3])
                and type(node[4]) is dict
                and all(type(k) is str for k in node[4])
                and all(v is None or type(v) in (bool, int, float, str) for v in node[4].values())
                and (node[5] is None or type(node[5]) is str)
            )
        if not ok:
            raise NoFormula("the formula's graph is malformed")
    if type(root) is not int or not 0 <= root < len(nodes):
        raise NoFormula("the formula's graph is malformed")
    return Terms(nodes, root, {})


def _op_entry(name: str, grad_fn: str) -> Any:
    op = OPS.get(name)
    if op is None or op.symbolic is None or op.grad_fn != grad_fn:
        raise NoFormula(_("no formula for {name}").format(name=grad_fn))
    return op


def symbols_of(terms: Terms) -> dict[str, Any]:
    """The real symbol of each leaf, by name."""
    return {node[1]: sympy.Symbol(node[1], real=True) for node in terms.nodes if node[0] == "leaf"}


def expressions(terms: Terms) -> list[Any]:
    """The SymPy expression of every entry of `terms` (the root's is `[terms.root]`)."""
    symbols = symbols_of(terms)
    values: list[Any] = []
    for node in terms.nodes:
        kind = node[0]
        if kind == "leaf":
            values.append(symbols[node[1]])
        elif kind == "const":
            values.append(number(node[1]))
        else:
            _kind, name, grad_fn, inputs, params, _source = node
            op = _op_entry(name, grad_fn)
            numbers = {k: number(v) if type(v) in (int, float) else v for k, v in params.items()}
            try:
                values.append(op.symbolic(Functions, *(values[i] for i in inputs), **numbers))
            except (TypeError, ValueError) as error:
                raise NoFormula(
                    _("no formula for {name}").format(name=grad_fn) + f" ({error})"
                ) from None
    return values


def local_derivatives(terms: Terms, index: int, values: list | None = None) -> list[Any]:
    """For op entry `index`, the derivative of its value with respect to each of its inputs,
    written with the inputs' own expressions (the local factors of the chain rule); `values`
    are `expressions(terms)` when already made."""
    node = terms.nodes[index]
    _kind, name, grad_fn, inputs, params, _source = node
    op = _op_entry(name, grad_fn)
    values = values if values is not None else expressions(terms)
    dummies = [sympy.Dummy(f"u{i}", real=True) for i in range(len(inputs))]
    numbers = {k: number(v) if type(v) in (int, float) else v for k, v in params.items()}
    local = op.symbolic(Functions, *dummies, **numbers)
    substitution = {dummy: values[i] for dummy, i in zip(dummies, inputs)}
    return [sympy.diff(local, dummy).subs(substitution) for dummy in dummies]
