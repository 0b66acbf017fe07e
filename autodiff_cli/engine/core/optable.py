"""`OpDef` and `defop`: how an entry of the op table is declared.

An entry names the op, its PyTorch grad_fn, its numpy forward, one backward formula per
differentiable input, what the formulas need saved, and the local derivative rule in words (for
`--explain`). Formulas have the signature `formula(B, g, *saved, **params)` where `B` is the
backend (see `formula_backends.py`), `g` the gradient of the output and `saved` the values listed
in `saves`, in order: input positions (0 = self, 1 = other, ...) or "result".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .graph import make_node_class

OPS: dict[str, OpDef] = {}


class OpDef:
    __slots__ = (
        "name",
        "grad_fn",
        "forward",
        "grads",
        "saves",
        "promotes",
        "n_outputs",
        "keeps_params",
        "rules",
        "node_cls",
        "variadic",
        "arg_names",
        "cross_saves",
        "view",
        "exact_grads",
    )

    def __init__(
        self,
        name: str,
        grad_fn: str | None,
        forward: Callable,
        grads: tuple | None,
        saves: tuple,
        promotes: bool,
        n_outputs: int,
        keeps_params: bool,
        rules: tuple,
        variadic: bool = False,
        arg_names: tuple = ("self", "other"),
        cross_saves: bool = False,
        view: bool = False,
        exact_grads: bool = False,
    ) -> None:
        self.name = name
        self.grad_fn = grad_fn
        self.forward = forward
        self.grads = grads
        self.saves = saves
        self.promotes = promotes
        self.n_outputs = n_outputs
        self.keeps_params = keeps_params
        self.rules = rules
        self.variadic = variadic
        self.arg_names = arg_names
        self.cross_saves = cross_saves
        self.view = view
        self.exact_grads = exact_grads
        self.node_cls = make_node_class(grad_fn, self) if grad_fn else None

    def __repr__(self) -> str:
        return f"<op {self.name} ({self.grad_fn})>"


def defop(
    name: str,
    grad_fn: str | None,
    forward: Callable,
    *grads: Callable | None,
    saves: tuple = (),
    rules: tuple = (),
    promotes: bool = True,
    n_outputs: int = 1,
    keeps_params: bool = True,
    variadic: bool = False,
    arg_names: tuple = ("self", "other"),
    cross_saves: bool = False,
    view: bool = False,
    exact_grads: bool = False,
) -> OpDef:
    """Declares one op. With no formulas the op is not differentiable (comparisons, argmax).
    A `variadic` op (cat, stack) has one formula `formula(B, g, i, *saved, **params)` for input i.
    `arg_names` name the inputs for `grad_fn._saved_<name>`; with `cross_saves` (mul, mm, ...) each
    of the two inputs is saved only when the other one requires grad, as PyTorch does. A `view`
    op's output shares its input's data and version counter (`_base` is set). With `exact_grads`
    (mm, mv, ...) every formula returns its input's shape and dtype, so the node keeps no input
    shapes to conform gradients to (the backward pass takes its fast path)."""
    op = OpDef(
        name,
        grad_fn,
        forward,
        tuple(grads) if grads else None,
        tuple(saves),
        promotes,
        n_outputs,
        keeps_params,
        tuple(rules),
        variadic,
        arg_names,
        cross_saves,
        view,
        exact_grads,
    )
    OPS[name] = op
    return op


def rule_of(grad_fn_name: str) -> tuple[str, ...]:
    """The local derivative rules of the op with this grad_fn name (one per input)."""
    for op in OPS.values():
        if op.grad_fn == grad_fn_name:
            return op.rules
    return ()


def unused(*_: Any) -> None:
    return None
