"""`OpDef` and `defop`: how an entry of the op table is declared.

An entry names the op, its PyTorch grad_fn, its numpy forward, one backward formula per
differentiable input, what the formulas need saved, and the local derivative rule in words (for
`--explain`). Formulas have the signature `formula(B, g, *saved, **params)` where `B` is the
backend (see `formula_backends.py`), `g` the gradient of the output and `saved` the values listed
in `saves`, in order: input positions (0 = self, 1 = other, ...) or "result". Without `saves=`,
they are read from the formulas' parameter names (`lambda B, g, self, other: ...`), as
derivatives.yaml names them. An elementwise op may also give its value as a formula
(`symbolic=lambda S, self, other: self * other`, `S` the functions `autodiff grad --formula`
allows, the op's parameters as keywords): the graph then reads as a formula.

An entry also declares its public surface: `function=` (the `torch.*` function, or `UNARY` to
generate `fn(input)`), `method=True` (bound as `Tensor.<name>`, with `aliases`), `inplace=True`
(`Tensor.<name>_`, `name_(self, other)` for a binary op), `dunder=` (the operators
`Tensor.__<dunder>__`, `__i<dunder>__` and, with `reflected=True`, `__r<dunder>__`). An entry whose
function is made from the entry itself declares the same surface right after it with
`declare_forms` (with `operator=`: `__eq__`, `__and__`... through the function). `tensor_methods`
is the one way anything is attached to Tensor: a name registered twice is an error, so no module
overrides another's method by import order.

The entry is the one place an op's facts live; the tables other modules read are derived from it:
`aten=` (the profiler's `aten::` name, where PyTorch's differs from the entry's), `out=` (an
`out_arg.OutRule`: how its function writes `out=`; cast to out's dtype when not given),
`inplace_ufunc=` (what `x -= y` writes with when no graph is recorded), `backend=True` (`B.<name>`
under create_graph). Each entry records the Tensor attributes it declared (`forms`).

How to add an op (one entry and its test row):
1. Declare it with `defop` in the family module of engine/ops/ it belongs to (elementwise math in
   unary.py or elementwise.py, losses and activations of nn in nn_functional_ops.py, ...): name,
   PyTorch's grad_fn name, numpy forward, one formula per differentiable input (in PyTorch's
   order of operations, written against `B`), `rules=` in words, and its surface and facts as
   above. Nothing else names the op: the out= rule, the profiler's name, the backend and the
   Tensor methods come from the entry; nn's functional layer calls ops, it declares none.
2. Export its function: the family's `__all__` (star families) or `engine/__init__.py`'s list.
3. Add its row to tests/engine_cases.py: test_engine_gradients.py checks every differentiable
   entry has one (finite differences in float64, first and second order), and
   tests/test_engine_op_entries.py checks the entry is complete.
"""

from __future__ import annotations

import dis
from collections.abc import Callable
from typing import Any

import numpy as np

from . import formula_backends
from .fast_paths import (
    apply_binary,
    apply_inplace,
    apply_unary,
    make_node_class,
    number_applier,
    own_copy,
)
from .graph import new_node
from .numpy_names import accepting_numpy_names
from .out_arg import OutRule, declare_out, write_out
from .saved_hooks import raw_saved
from .tensor import Tensor

OPS: dict[str, OpDef] = {}
UNARY = "unary"  # `function=UNARY`: the torch function is `fn(input)` applying the op
_METHOD_OWNERS: dict[str, str] = {}
_generic = np.generic
_NUMBERS = (bool, int, float, np.generic)
_OPERANDS = (Tensor, bool, int, float, np.generic)


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
        "new_node",
        "variadic",
        "arg_names",
        "cross_saves",
        "view",
        "exact_grads",
        "function",
        "binary",
        "needs",
        "inplace_ufunc",
        "symbolic",
        "aten",
        "out",
        "shows",
        "backend",
        "forms",
        "aten_args",
        "forward_ad",
        "on_number",
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
        binary: Callable | None = None,
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
        self.function: Callable | None = None
        self.binary = binary or forward  # the forward of a call without parameters
        # the ufunc an in-place call without a graph writes into its target with (`x -= y`)
        self.inplace_ufunc: Callable | None = None
        self.aten = name  # PyTorch's aten name (the profiler's `aten::<name>`)
        self.out: OutRule | None = None  # how its function writes `out=` (`out_arg`)
        self.shows: tuple = ()  # `grad_fn._saved_<name>` it shows besides its formulas' values
        self.backend = False  # `B.<name>` on Tensors (`formula_backends.TensorBackend`)
        self.forms: tuple = ()  # the Tensor attributes it declares (`tensor_methods`)
        self.aten_args: int | None = None  # its aten schema's argument count (the profiler's)
        self.forward_ad = True  # False: PyTorch has no forward-mode formula (jvp refuses)
        self.needs: tuple | None = None  # per input, the saved values its formula reads (lazy)
        self.symbolic: Callable | None = None  # the op's value as a formula (`defop`)
        self.node_cls: type | None = None  # its grad_fn's class, once made (`node_class`)
        self.on_number: Callable | None = None  # its call on a Tensor and a float, once made
        self.new_node = own_copy(new_node) if grad_fn else None  # makes this op's nodes

    # (Both made on first use, and no `__getattr__` to make them: CPython 3.11 specialises no
    # attribute read on instances of a class that has one, and the op machinery reads an op's
    # slots on every call: the small MLP step 2-3% slower.)
    def node_class(self) -> type:
        """The class of this op's grad_fn nodes, made on first use (a class per op made at
        import would cost every start-up ~6 ms for the 250 ops, of which a one-liner uses a
        few). Readers take `op.node_cls or op.node_class()`."""
        if self.node_cls is None:
            self.node_cls = make_node_class(self.grad_fn, self, raw_saved)
        return self.node_cls

    def number_call(self) -> Callable:
        """This op's call on a Tensor and a Python float (`fast_paths.number_applier`), made
        on first use."""
        if self.on_number is None:
            self.on_number = number_applier(self)
        return self.on_number

    def __repr__(self) -> str:
        return f"<op {self.name} ({self.grad_fn})>"

    def formula_reads(self) -> tuple:
        """For each input, the indices of the saved values its formula reads — so that a node
        saves only what the gradients it will compute need, as PyTorch's generated code does
        (`x @ w` with only `w` requiring grad keeps `x`, not `w`). Read from the formulas' code
        once, on first use (`needs`); () when nothing can be left out (variadic ops)."""
        if self.needs is None:
            self.needs = (
                ()
                if self.variadic or not self.grads
                else tuple(_reads_of(formula, len(self.saves)) for formula in self.grads)
            )
        return self.needs


def defop(
    name: str,
    grad_fn: str | None,
    forward: Callable,
    *grads: Callable | None,
    saves: tuple | None = None,
    rules: tuple = (),
    promotes: bool = True,
    n_outputs: int = 1,
    keeps_params: bool = True,
    variadic: bool = False,
    arg_names: tuple = ("self", "other"),
    cross_saves: bool = False,
    view: bool = False,
    exact_grads: bool = False,
    binary: Callable | None = None,
    function: Callable | str | None = None,
    method: bool = False,
    inplace: bool | Callable = False,
    aliases: tuple = (),
    dunder: str | None = None,
    reflected: bool = False,
    symbolic: Callable | None = None,
    aten: str | None = None,
    out: OutRule | None = None,
    inplace_ufunc: Callable | None = None,
    backend: bool = False,
    aten_args: int | None = None,
    forward_ad: bool = True,
) -> OpDef:
    """Declares one op. With no formulas the op is not differentiable (comparisons, argmax).
    A `variadic` op (cat, stack) has one formula `formula(B, g, i, *saved, **params)` for input i.
    `arg_names` name the inputs for `grad_fn._saved_<name>`; with `cross_saves` (mul, mm, ...) each
    of the two inputs is saved only when the other one requires grad, as PyTorch does. A `view`
    op's output shares its input's data and version counter (`_base` is set). With `exact_grads`
    (mm, mv, ...) every formula returns its input's shape and dtype, so the node keeps no input
    shapes to conform gradients to (the backward pass takes its fast path). `binary` is the
    forward of a call without parameters where `forward` takes optional ones (`add`'s alpha:
    `operator.add` spares the operators a Python frame). `dunder="add"` binds the operators
    `Tensor.__add__` and `__iadd__` (and `__radd__`, `reflected=True`, for an op whose operands
    commute): a Tensor or float operand goes straight to the op machinery, any other number
    through `function`. `inplace=True` binds `Tensor.<name>_(self)`, or `<name>_(self, other)`
    for an op with operators; a function given as `inplace` is bound as the in-place method
    instead (`add_`'s alpha=). `symbolic` is the op's value as a formula, for an elementwise op
    (see the module's docstring).

    The op's other facts, each read from here by the module that needs it (no table elsewhere
    names the op): `aten` its PyTorch name where the entry's differs (the profiler's
    `aten::<name>`), `out` how its function writes `out=` (`out_arg.OutRule`; cast when not
    given), `inplace_ufunc` the numpy ufunc an in-place call without a graph writes with
    (`x -= y`), `backend=True` makes it `B.<name>` for formulas under create_graph, `aten_args`
    how many arguments PyTorch's schema lists where the entry's inputs and parameters do not
    say it (add's alpha: the profiler's recorded shapes), `forward_ad=False` that PyTorch has no
    forward-mode formula for it (forward AD refuses it with PyTorch's error)."""
    if dunder is not None and not callable(function):
        raise TypeError(f"defop({name!r}): dunder= needs the op's function=")
    op = OpDef(
        name,
        grad_fn,
        forward,
        tuple(grads) if grads else None,
        _saves_of(grads, arg_names, variadic) if saves is None else tuple(saves),
        promotes,
        n_outputs,
        keeps_params,
        tuple(rules),
        variadic,
        arg_names,
        cross_saves,
        view,
        exact_grads,
        binary,
    )
    _note_facts(op, symbolic, aten, out, inplace_ufunc, backend, aten_args, forward_ad)
    _register(op)
    if function is not None or inplace:
        _declare_surface(op, function, method, inplace, aliases, dunder is not None)
    if dunder is not None:
        _declare_operators(op, dunder, reflected)
    return op


def _register(op: OpDef) -> None:
    """One entry per name: a second would silently replace the first's facts in `OPS`."""
    if op.name in OPS:
        raise ValueError(f"defop: {op.name!r} is declared twice")
    OPS[op.name] = op


def _note_facts(
    op: OpDef,
    symbolic: Callable | None,
    aten: str | None,
    out: OutRule | None,
    inplace_ufunc: Callable | None,
    backend: bool,
    aten_args: int | None,
    forward_ad: bool,
) -> None:
    """The entry's facts that other modules read (see `defop`), set on the entry; `out=` and
    `backend=` also registered where their machinery looks them up."""
    op.symbolic = symbolic
    op.aten_args = aten_args
    op.forward_ad = forward_ad
    op.aten = aten or op.name
    op.inplace_ufunc = inplace_ufunc
    if out is not None:
        op.out = out
        declare_out(op.name, out)
    if backend:
        op.backend = True
        setattr(formula_backends.TensorBackend, op.name, formula_backends.tensor_fn(op.name))


def _operand(x: Any) -> Any:
    """The other operand of a binary in-place method: a Tensor or a Python number."""
    if isinstance(x, (Tensor, bool, int, float)):
        return x
    if isinstance(x, _generic):
        return x.item()
    raise TypeError(f"unsupported operand type(s): 'Tensor' and '{type(x).__name__}'")


def _reads_of(formula: Callable | None, n_saved: int) -> frozenset:
    if formula is None:
        return frozenset()

    code = formula.__code__
    names = code.co_varnames[2 : 2 + n_saved]
    read = set(code.co_cellvars)  # a parameter an inner function captures counts as read
    for ins in dis.get_instructions(code):
        if ins.opname.startswith("LOAD_"):
            read.add(ins.argval)
    return frozenset(i for i, name in enumerate(names) if name in read)


def _saves_of(grads: tuple, arg_names: tuple, variadic: bool) -> tuple:
    """What the formulas need saved, read from their parameter names as derivatives.yaml does:
    after `B, g` (and `i` for a variadic op), each leading parameter named after an input
    (`self`, `other`, ... from `arg_names`) or `result` is saved; the rest are the op's params."""
    found: tuple | None = None
    n_inputs = len(grads)
    for formula in grads:
        if formula is None:
            continue
        code = formula.__code__
        names = code.co_varnames[: code.co_argcount][3 if variadic else 2 :]
        saved = []
        for name in names:
            if name == "result":
                saved.append("result")
            elif name in arg_names[:n_inputs]:
                saved.append(arg_names.index(name))
            else:
                break
        if found is not None and tuple(saved) != found:
            raise TypeError(f"formulas of one op name different saved values: {found} and {saved}")
        found = tuple(saved)
    return found or ()


def _declare_surface(
    op: OpDef,
    function: Callable | str | None,
    method: bool,
    inplace: bool | Callable,
    aliases: tuple,
    binary: bool,
) -> None:
    """The op's `torch.*` function, and its Tensor method and in-place method when declared."""
    if function == UNARY:

        def function(input: Tensor, *, out: Any = None) -> Tensor:
            if out is not None:
                return write_out(function, out, input)
            return apply_unary(op, input)

        function.__name__ = function.__qualname__ = op.name
        function.__doc__ = f"torch.{op.name} (grad_fn {op.grad_fn})"
    op.function = function
    module = f"defop({op.name!r})"
    if method:
        tensor_methods(module, dict.fromkeys((op.name, *aliases), function))
        op.forms += (op.name, *aliases)
    if inplace:
        if callable(inplace):
            method_ = inplace
        else:
            if binary:

                def method_(self: Tensor, other: Any) -> Tensor:
                    return apply_inplace(op, self, (_operand(other),))

            else:

                def method_(self: Tensor) -> Tensor:
                    return apply_inplace(op, self, ())

            method_.__name__ = method_.__qualname__ = op.name + "_"
        tensor_methods(module, {name + "_": method_ for name in (op.name, *aliases)})
        op.forms += tuple(name + "_" for name in (op.name, *aliases))


def declare_forms(
    op: OpDef,
    function: Callable | str | None,
    *,
    method: bool = False,
    aliases: tuple = (),
    inplace: bool | Callable = False,
    operator: str | None = None,
    reflected: bool = False,
) -> None:
    """The public surface of an entry whose function is made from the entry itself (so cannot
    be given to its `defop`): as `defop`'s `function=`, `method=`, `aliases=`, `inplace=`, and
    `operator="eq"` binds `Tensor.__eq__` (and `__r<operator>__` with `reflected`, swapping the
    operands; `__i<operator>__` with `inplace`) through the function: NotImplemented for an
    operand that is neither a Tensor nor a number, so Python tries the other side. A unary op's
    operator (`__neg__`) is its function."""
    unary = function == UNARY
    _declare_surface(op, function, method, inplace, aliases, operator is not None and not unary)
    if operator is None:
        return
    function = op.function
    if unary:
        methods = {f"__{operator}__": function}
    else:

        def forward(self: Tensor, other: Any) -> Any:
            if not isinstance(other, _OPERANDS):
                return NotImplemented
            return function(self, other)

        def swapped(self: Tensor, other: Any) -> Any:
            if not isinstance(other, _OPERANDS):
                return NotImplemented
            return function(other, self)

        forward.__name__ = forward.__qualname__ = f"__{operator}__"
        swapped.__name__ = swapped.__qualname__ = f"__r{operator}__"
        methods = {f"__{operator}__": forward}
        if reflected:
            methods[f"__r{operator}__"] = swapped
        if inplace:
            methods[f"__i{operator}__"] = getattr(Tensor, op.name + "_")
    tensor_methods(f"defop({op.name!r})", methods)
    op.forms += tuple(methods)


def _declare_operators(op: OpDef, name: str, reflected: bool) -> None:
    """`Tensor.__<name>__`, `__i<name>__` and, for `reflected`, `__r<name>__` (see `defop`)."""
    function = op.function
    on_number = op.number_call()

    def operator(self: Tensor, other: Any) -> Any:
        cls = other.__class__
        if cls is float:
            return on_number(self, other)
        if cls is Tensor:
            return apply_binary(op, self, other)
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return function(self, other)

    def reflected_operator(self: Tensor, other: Any) -> Any:  # `number <op> tensor`
        if other.__class__ is float:
            return on_number(self, other)
        if not isinstance(other, _NUMBERS):
            return NotImplemented
        return apply_binary(op, self, other.item() if isinstance(other, _generic) else other)

    def inplace_operator(self: Tensor, other: Any) -> Any:
        if other.__class__ is not Tensor and other.__class__ is not float:
            if not isinstance(other, _OPERANDS):
                return NotImplemented
            if isinstance(other, _generic):
                other = other.item()
        return apply_inplace(op, self, (other,))

    methods = {f"__{name}__": operator, f"__i{name}__": inplace_operator}
    if reflected:
        methods[f"__r{name}__"] = reflected_operator
    for dunder, method in methods.items():
        method.__name__ = method.__qualname__ = dunder
    tensor_methods(f"defop({op.name!r})", methods)
    op.forms += tuple(methods)


def tensor_methods(owner: str, methods: dict[str, Any]) -> None:
    """Attaches methods, properties and operators to Tensor: each name once, from one owner."""
    for name, fn in methods.items():
        previous = _METHOD_OWNERS.get(name)
        if previous is not None:
            raise RuntimeError(f"Tensor.{name} is registered twice: by {previous} and by {owner}")
        _METHOD_OWNERS[name] = owner
        setattr(Tensor, name, accepting_numpy_names(name, fn))  # (`axis=`, `keepdims=`)
