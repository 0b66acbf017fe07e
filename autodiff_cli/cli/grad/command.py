"""`autodiff grad EXPR --at NAME=VALUE ...`: differentiate an expression at a point.

The expression is compiled once and run as a function of the `--wrt` leaves, so the Jacobian,
the Hessian, higher derivatives and the finite-difference check all re-run the same program.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.cli.grad import optional
from autodiff_cli.cli.grad.elementwise import NotElementwise, elementwise_derivatives
from autodiff_cli.cli.grad.math_gate import load_rewrite, python_spelling, split_names
from autodiff_cli.cli.grad.notes import explain_ignored, not_differentiable
from autodiff_cli.cli.grad.points import (
    NUMBER,
    UsageError,
    make_tensor,
    parse_at_options,
    parse_wrt_options,
)
from autodiff_cli.cli.grad.report import print_json, print_report
from autodiff_cli.cli.grad.result import (
    ELEMENTWISE,
    EXPR_NAME,
    GRADIENT,
    HESSIAN,
    JACOBIAN,
    ORDER,
    VJP,
    Expression,
    GradResult,
    nth_derivatives,
)
from autodiff_cli.cli.graph.build import saved_values
from autodiff_cli.cli.jail.isolation import Limits, isolation_available, run_isolated_command
from autodiff_cli.cli.jail.limits import ScriptTimeout, time_limit
from autodiff_cli.cli.jail.warm_up import warm_up
from autodiff_cli.cli.output.diagnostics import (
    exit_on_interrupt,
    json_error,
    json_exception,
    report_exception,
    warnings_to_stderr,
)
from autodiff_cli.cli.output.terminal import print_error, wants_color
from autodiff_cli.engine.autograd.functional import hessian, jacobian
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import ScriptError, Session
from autodiff_cli.lang.runtime.provenance import recording

__all__ = ["GradError", "GradOptions", "GradResult", "UsageError", "compute", "run_grad"]


class GradError(Exception):
    """The expression ran but cannot be differentiated (e.g. it is not a tensor): exit status 1."""


class GradOptions:
    """The `grad` command's options (a plain class: `dataclasses` would cost the one-liner's
    start-up its import and generated methods)."""

    def __init__(
        self,
        at: list[str] | None = None,
        wrt: list[str] | None = None,
        vjp: str | None = None,
        order: int = 1,
        hessian: bool = False,
        check: bool = False,
        explain: bool = False,
        dtype: str | None = None,  # "float32" or "float64"
        with_saved: bool = False,
        formula: bool = False,
        latex: bool = False,
        quiet: bool = False,
        elementwise: bool = False,
    ) -> None:
        self.at = list(at or ())
        self.wrt = list(wrt or ())
        self.vjp = vjp
        self.order = order
        self.hessian = hessian
        self.check = check
        self.explain = explain
        self.dtype = dtype
        self.with_saved = with_saved
        self.formula = formula
        self.latex = latex
        self.quiet = quiet  # only the derivatives: no value, no graph
        self.elementwise = elementwise  # f'(x) per element, as a table

    @property
    def mode_flags(self) -> list[str]:
        flags = []
        if self.vjp is not None:
            flags.append("--vjp")
        if self.order != 1:
            flags.append("--order")
        if self.hessian:
            flags.append("--hessian")
        if self.elementwise:
            flags.append("--elementwise")
        return flags


def add_at_hint(error: BaseException, at: Sequence[str] = ()) -> BaseException:
    """A NameError of the expression or an `--at` value also says how to give the name a value,
    unless it suggests a close name already (`sine` meant `sin`, not a new variable), or, for
    `--at` names run together (`xy`), the product in Python spelling."""
    cause = error.__cause__ if isinstance(error, ScriptError) else None
    name = getattr(cause, "name", None) if type(cause) is NameError else None
    if not isinstance(name, str) or not name.isidentifier():
        return error
    parts = split_names(name, {spec for spec, _value in _at_specs(at)})
    if parts:
        hint = _("hint: {name} is not an --at name; the product in Python spelling: {product}")
        error.message += "\n" + hint.format(name=name, product="*".join(parts))
    elif "Did you mean" not in error.message:
        error.message += f"\nhint: give it a value with --at {name}=..."
    return error


def _at_specs(at: Sequence[str]) -> list[tuple[str, str]]:
    try:
        return parse_at_options(list(at))
    except UsageError:
        return []


def _engine_dtype(name: str | None) -> Any:
    if name is None:
        return None

    return {"float32": torch.float32, "float64": torch.float64}[name]


def _bind_leaves(session: Any, specs: list[tuple[str, str]], wrt: list[str], dtype: Any) -> dict:
    leaves = {}
    for name, source in specs:
        requires_grad = name in wrt
        if NUMBER.fullmatch(source):
            leaf = torch.tensor(
                float(source), dtype=dtype or torch.float32, requires_grad=requires_grad
            )
        else:
            value = session.execute(source, filename=f"<--at {name}>")
            try:
                leaf = make_tensor(value, dtype, requires_grad=requires_grad)
            except TypeError as error:
                raise GradError(f"--at {name}={source}: {error}") from None
        leaves[name] = session.namespace[name] = leaf
    return leaves


def _check_result(result: Any, wrt_given: bool) -> None:
    if result is None:
        raise GradError("the expression has no value: end it with an expression to differentiate")
    if not isinstance(result, torch.Tensor):
        raise GradError(
            f"the expression's value is not a tensor (it is {type(result).__name__}); "
            "use a --at variable in it"
        )
    if not result.requires_grad:
        raise GradError(not_differentiable(wrt_given))


def _engine_call(what: str, call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except (GradError, NotElementwise):
        raise
    except Exception as error:  # the engine raises PyTorch's built-in exception types
        raise GradError(f"{what} failed: {type(error).__name__}: {error}") from error


def _choose_mode(options: GradOptions, result: Any) -> str:
    flags = options.mode_flags
    if len(flags) > 1:
        raise UsageError(f"{' and '.join(flags)} cannot be combined")
    if options.vjp is not None:
        return VJP
    if options.hessian:
        return HESSIAN
    if options.elementwise:
        return ELEMENTWISE
    if options.order != 1:
        if options.order < 1:
            raise UsageError(f"--order must be at least 1, got {options.order}")
        return ORDER
    return GRADIENT if result.numel() == 1 else JACOBIAN


def _check_formula_options(options: GradOptions) -> None:
    if options.latex and not options.formula or options.formula and options.vjp is not None:
        message = "--latex needs --formula" if options.latex and not options.formula else ""
        raise UsageError(_(message or "--formula cannot be combined with --vjp"))


def compute(expression: str, options: GradOptions, session: Session | None = None) -> GradResult:
    """Bind the leaves, run the expression and compute what the options ask for, in `session`
    (a fresh one with torch's names bare, by default)."""
    specs = parse_at_options(options.at)
    wrt = parse_wrt_options(options.wrt, [name for name, _ in specs])
    _check_formula_options(options)
    dtype = _engine_dtype(options.dtype)
    session = session or Session(bare_torch=True)
    leaves = _bind_leaves(session, specs, wrt, dtype)
    function, result, parsed = _run_typed(expression, session, leaves, wrt)
    _check_result(result, bool(options.wrt))
    mode = _choose_mode(options, result)
    if options.explain and mode not in (GRADIENT, VJP):
        print_error(explain_ignored(mode))
    outcome = GradResult(expression, result, leaves, wrt, mode, dict(session.namespace))
    outcome.order, outcome.parsed = options.order, parsed
    if options.formula:  # read before a backward pass frees the graph
        formulas = optional("formulas")
        outcome.terms = formulas.read_terms(result, leaves)
    if options.with_saved:
        outcome.saved = saved_values(result)
    inputs = tuple(leaves[name] for name in wrt)

    if mode in (GRADIENT, VJP):
        if mode == VJP:
            seed = session.execute(options.vjp, filename="<--vjp>")
            outcome.seed = _engine_call(
                "--vjp", make_tensor, seed, result.dtype, requires_grad=False
            )
        if options.explain:
            explain = optional("explain")
            outcome.explain = _engine_call(
                "backward", explain.explained_backward, result, outcome.seed, leaves
            )
        else:
            _engine_call("backward", result.backward, outcome.seed)
        outcome.gradients = {name: leaves[name].grad for name in wrt}
    elif mode == ELEMENTWISE:
        outcome.gradients = _engine_call(
            "--elementwise", elementwise_derivatives, function, inputs, wrt, result
        )
    elif mode == JACOBIAN:
        blocks = _engine_call("jacobian", jacobian, function, inputs)
        outcome.jacobian = dict(zip(wrt, blocks))
    elif mode == HESSIAN:
        if result.numel() != 1:
            raise GradError(
                f"--hessian needs a scalar result; the result has shape {list(result.shape)}"
            )

        blocks = _engine_call("hessian", hessian, lambda *xs: function(*xs).reshape(()), inputs)
        outcome.hessian = {row: dict(zip(wrt, blocks[i])) for i, row in enumerate(wrt)}
    else:
        outcome.derivatives = _engine_call(
            "differentiation", nth_derivatives, result, inputs, wrt, options.order
        )
    if options.check:
        fdcheck = optional("fdcheck")
        outcome.check = _engine_call("--check", fdcheck.check_outcome, outcome, function)
    if options.formula:
        formulas = optional("formulas")
        outcome.formula = formulas.formula_of(outcome, latex=options.latex)
        if outcome.explain is not None and not isinstance(outcome.terms, str):
            sympy_half = optional("sympy")
            outcome.chain = sympy_half.chain_rule.chain_rule(outcome.explain, outcome.terms)
    return outcome


def _run_typed(expression: str, session: Any, leaves: dict, wrt: list[str]) -> tuple:
    """(the compiled Expression, its value, the Python spelling or None) of the expression as
    typed: math forms (`2x`, `x²`) rewritten, an error located in the text typed."""

    typed = python_spelling(expression, leaves, session.namespace)
    try:
        function = Expression(expression if typed is None else typed.python, session, wrt)
        with recording():  # each node's source text, for the tree and --explain
            result = function(*(leaves[name] for name in wrt))
    except ScriptError as error:
        if typed is not None:
            typed.relocate(error)
        raise
    return function, result, None if typed is None else typed.python


def _page_subject(expression: str, options: GradOptions) -> tuple[Any, dict, Any]:
    """`grad --html`: (the result at the --at point, the namespace, the seed backward starts
    from: --vjp's vector, else ones) for the browser page (`graph_page`)."""
    specs = parse_at_options(options.at)
    wrt = parse_wrt_options(options.wrt, [name for name, _ in specs])
    session = Session(bare_torch=True)
    leaves = _bind_leaves(session, specs, wrt, _engine_dtype(options.dtype))
    _function, result, _parsed = _run_typed(expression, session, leaves, [])
    _check_result(result, bool(options.wrt))
    seed = torch.ones_like(result)
    if options.vjp is not None:
        vector = session.execute(options.vjp, filename="<--vjp>")
        seed = make_tensor(vector, result.dtype, requires_grad=False)
    return result, dict(session.namespace), seed


def read_expression(expression: str) -> str:
    """EXPR, or the text on stdin when EXPR is `-`."""
    if expression != "-":
        return expression

    text = sys.stdin.read() if sys.stdin is not None else ""
    if not text.strip():
        raise UsageError("EXPR is '-' but standard input is empty")
    return text.removeprefix("\ufeff").replace("\r\n", "\n").strip("\r\n")


def run_grad(
    expression: str,
    options: GradOptions,
    *,
    as_json: bool = False,
    debug: bool = False,
    timeout: float | None = None,
    max_memory: int | None = None,
    max_output: int | None = None,
    html: str | None = None,
) -> int:
    """The `grad` command: 0 on success, 1 when the expression fails, 2 on a usage error.

    The expression and its `--at` values run in a locked-down child (`isolation`), which also
    prints the report; here only stdin is read and the child's end is reported. With `html`,
    the browser page of the graph is written there too (`graph_page`).
    """
    try:
        expression = read_expression(expression)
        _check_formula_options(options)
    except UsageError as error:
        return _failed("UsageError", str(error), 2, as_json)
    if html is not None:
        status = run_grad(expression, options, as_json=as_json, debug=debug, timeout=timeout,
                          max_memory=max_memory, max_output=max_output)  # fmt: skip
        if status != 0:
            return status

        limits = Limits.of(max_memory, max_output, timeout)
        subject = lambda: _page_subject(expression, options)  # noqa: E731
        page = optional("page")
        return page.write_grad_page(subject, html, limits, isolated=isolation_available())

    def work(session: Session | None = None) -> int:
        return _grad_here(
            expression, options, session, as_json=as_json, debug=debug, timeout=timeout
        )

    if not isolation_available():
        return work()

    sources = [expression, *options.at, options.vjp or "", load_rewrite(expression)]
    warm_up(sources, rendering=_styled(), every_command=False, json_output=as_json)
    # this module's imports are the child's; its optional passes, only when asked for
    if options.explain:
        optional("explain")
    if options.check:
        optional("fdcheck")
    if options.formula:
        optional("formulas")
        optional("sympy").warm_sympy()
    # The namespace holds no input (torch's names, vetted): built here, it costs the child's
    # start-up nothing (~3 ms there, copy-on-write faults included; ~1.5 ms here)
    session = Session(bare_torch=True)
    limits = Limits.of(max_memory, max_output, timeout)

    def problem(message: str, status: int) -> None:
        _failed("UsageError" if status == 2 else "ProcessError", message, status, as_json)

    return run_isolated_command(
        "grad", "expression", lambda: work(session), limits, on_problem=problem
    )


def _styled() -> bool:
    return wants_color(sys.stdout)


def _failed(type_name: str, message: str, status: int, as_json: bool) -> int:
    """Report a failure that is not the expression's own error: `autodiff grad: error: ...` on
    stderr, or the `--json` error object on stdout. Returns `status`."""
    if as_json:
        json_error(type_name, message, EXPR_NAME if type_name != "UsageError" else None)
    else:
        print_error(f"autodiff grad: error: {message}")
    return status


def _grad_here(
    expression: str,
    options: GradOptions,
    session: Session | None,
    *,
    as_json: bool,
    debug: bool,
    timeout: float | None,
) -> int:
    """Compute and print, in this process (in `session`, when given)."""
    try:
        with warnings_to_stderr(EXPR_NAME), time_limit(timeout):
            outcome = compute(expression, options, session)
    except UsageError as error:
        return _failed("UsageError", str(error), 2, as_json)
    except NotElementwise as error:
        return _failed("GradError", str(error), 1, as_json)
    except GradError as error:
        _failed("GradError", str(error), 1, as_json)
        if debug and error.__cause__ is not None:
            report_exception(error.__cause__, debug=True, context=EXPR_NAME)
        return 1
    except ScriptTimeout as error:
        return _failed("ScriptTimeout", str(error), 1, as_json)
    except KeyboardInterrupt:
        return exit_on_interrupt()
    except Exception as error:  # ScriptError from the expression or an --at value
        if as_json:
            json_exception(add_at_hint(error, options.at), EXPR_NAME)
            if debug:
                report_exception(error, debug=True, context=EXPR_NAME)
        else:
            report_exception(add_at_hint(error, options.at), debug=debug, context=EXPR_NAME)
        return 1

    if as_json:
        print_json(outcome)
    else:
        print_report(outcome, with_saved=options.with_saved, quiet=options.quiet)
    if outcome.check is not None and not outcome.check["ok"]:
        return 1
    if outcome.formula is not None and not outcome.formula.ok:
        return 1
    return 0
