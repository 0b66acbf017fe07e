"""`autodiff graph EXPR --at ... | --file SCRIPT --var NAME`: draw a grad_fn graph."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli import lazy_imports
from autodiff_cli.cli import output
from autodiff_cli.cli.draw.names import (  # noqa: F401 - format_for_output: for `commands`
    format_for_output,
    missing_var_message,
    unknown_var_message,
)
from autodiff_cli.cli.formulas.repl_formula import formula_payload, show_formula
from autodiff_cli.cli.formulas.words import _
from autodiff_cli.cli.grad.command import (
    EXPR_NAME,
    GradOptions,
    _bind_leaves,
    add_at_hint,
    read_expression,
)
from autodiff_cli.cli.grad.points import UsageError, parse_at_options
from autodiff_cli.cli.graph.build import (
    GraphError,
    collapse_chains,
    describe_tensor_graph,
    graph_of,
    graph_of_checked,
    probe_gradients,
)
from autodiff_cli.cli.graph.export import RenderError, export, render_dot
from autodiff_cli.cli.graph.tree import tree_of
from autodiff_cli.cli.jail.isolation import (
    LimitError,
    Limits,
    isolation_available,
    run_child,
    run_isolated_command,
)
from autodiff_cli.cli.jail.limits import ScriptTimeout, time_limit
from autodiff_cli.cli.jail.warm_up import warm_up
from autodiff_cli.cli.output.diagnostics import (
    exit_on_interrupt,
    report_exception,
    warnings_to_stderr,
)
from autodiff_cli.cli.output.output_text import write_output as write_output_text
from autodiff_cli.cli.output.terminal import can_encode, print_error, wants_color
from autodiff_cli.cli.run.script_files import UsageError as ReadError
from autodiff_cli.cli.run.script_files import read_script
from autodiff_cli.lang import Session, run_source
from autodiff_cli.lang.runtime.provenance import recording


@dataclass
class GraphRequest:
    expression: str | None = None
    at: list[str] = field(default_factory=list)
    file: str | None = None
    var: str | None = None
    fmt: str = "tree"
    output: str | None = None
    with_saved: bool = False
    backward: bool = False
    timeout: float | None = None
    max_memory: int | None = None  # bytes; None: the default (2 GiB)
    max_output: int | None = None  # bytes; None: the default (64 MiB)
    formula: bool = False  # --formula: the derivatives of the drawn tensor as formulas
    script: Any = None  # run_cmd.Script of --file, read before the sandboxed child starts


# what `--formula` and `--format html` add, imported only when asked for (lazy_imports says why)
_OPTIONAL = {
    "sympy": "autodiff_cli.cli.formulas.sympy_half",  # the formulas section, SymPy warmed
    "page": "autodiff_cli.cli.graph_page.commands",  # the browser page
}


def _optional(name: str) -> ModuleType:
    return lazy_imports.load(_OPTIONAL[name])


PAGE_DATA = "page-data"  # the format a child writes the browser page's data in (JSON)


def _tensor_of_expression(request: GraphRequest) -> tuple[Any, dict[str, Any], str]:
    expression = read_expression(request.expression or "")
    specs = parse_at_options(GradOptions(at=request.at).at)

    session = Session(bare_torch=True)
    _bind_leaves(session, specs, [name for name, _ in specs], None)
    with recording():  # each node's source text
        value = session.execute(expression, filename=EXPR_NAME)
    return value, dict(session.namespace), "result"


def _tensor_of_script(request: GraphRequest) -> tuple[Any, dict[str, Any], str]:
    script = request.script
    if script is None:
        try:
            script = read_script(request.file)
        except ReadError as error:
            raise UsageError(str(error).removeprefix("autodiff run: error: ")) from None

    with recording():  # each node's source text, with line:column
        namespace = run_source(script.source, script.name, stdout=sys.stderr)
    if not request.var:
        raise UsageError(missing_var_message(script.name, namespace))
    if request.var not in namespace:
        raise GraphError(unknown_var_message(script.name, request.var, namespace))
    return namespace[request.var], dict(namespace), request.var


def _with_gradients(value: Any, names: dict[str, Any], label: str, with_saved: bool) -> Any:
    """`--backward`: the graph with the gradient each node receives in `value.backward()`."""
    received = probe_gradients(value)
    value.backward(torch.ones_like(value), retain_graph=True)
    return collapse_chains(
        describe_tensor_graph(
            value, names, result_name=label, grads=received, with_saved=with_saved
        )
    )


def _request_tensor(request: GraphRequest) -> tuple[Any, dict[str, Any], str]:
    """(the tensor to draw, the namespace naming its variables, its label)."""
    if (request.expression is None) == (request.file is None):
        raise UsageError("give either EXPR (with --at) or --file SCRIPT --var NAME")
    if request.file is not None:
        return _tensor_of_script(request)
    return _tensor_of_expression(request)


def build_request_graph(request: GraphRequest) -> Any:
    """The graph to draw; with `--formula`, also the formula data (`formula_payload`) of the
    tensor, read before `--backward` could free its graph."""
    value, names, label = _request_tensor(request)
    payload = None
    if request.formula:
        graph_of(value, names, label)  # the same checks and messages
        try:
            payload = formula_payload({**names, label: value}, label)
        except ValueError as error:
            payload = str(error)
    if request.backward:
        graph_of(value, names, label)  # the same checks and messages
        return _with_gradients(value, names, label, request.with_saved), payload
    return graph_of(value, names, label, with_saved=request.with_saved), payload


def _print_formula(payload: Any) -> int:
    """The formulas section after the graph: 0, or 1 when there is none or it disagrees."""
    sys.stdout.flush()
    if isinstance(payload, str):
        section = _optional("sympy").report.failed_section(payload)
        sys.stdout.write("\n".join([section.heading, *section.lines]) + "\n")
        return 1
    return 0 if show_formula(payload, styled=wants_color(sys.stdout)) else 1


def _page_of_request(request: GraphRequest) -> str:
    """The browser page (`html`) or, in a sandboxed child, its data as JSON (`page-data`)."""
    value, names, label = _request_tensor(request)
    graph_of_checked(value, label)
    pages = _optional("page")
    data = pages.page_data(value, names, label)
    if request.fmt == PAGE_DATA:
        return json.dumps(data, allow_nan=False, ensure_ascii=False)
    return pages.render_page(data)


def write_output(content: str | bytes, output: str | None) -> None:
    if output is None:
        if isinstance(content, bytes):
            sys.stdout.buffer.write(content)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(content)
        return
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(output, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as handle:
        handle.write(content)


def run_graph(request: GraphRequest, *, debug: bool = False) -> int:
    """The `graph` command: 0 when drawn, 1 when the expression or script fails, 2 on a usage
    error. The expression or script runs, and the graph is drawn, in a locked-down child
    (`isolation`); a file (`-o`) is written, and Graphviz run for SVG/PNG, out here."""
    if request.fmt == "png" and request.output is None and sys.stdout.isatty():
        print_error("autodiff graph: error: PNG is binary; write it to a file with -o FILE")
        return 2
    if request.formula and (request.output is not None or request.fmt not in ("tree", "dot")):
        print_error(_("autodiff graph: error: --formula prints after the graph on stdout: use "
                      "--format tree or dot, without -o"))  # fmt: skip
        return 2
    if not isolation_available():
        return _graph_here(request, debug=debug)
    if request.file is not None:
        try:
            request = replace(request, script=read_script(request.file))
        except ReadError as error:
            print_error(str(error).replace("autodiff run:", "autodiff graph:"))
            return 2
    return _graph_in_child(request, debug=debug)


def _graph_in_child(request: GraphRequest, *, debug: bool) -> int:
    sources = None if request.file is not None else [request.expression or "", *request.at]
    warm_up(sources, rendering=wants_color(sys.stdout))
    if request.formula:
        _optional("sympy").warm_sympy()
    limits = Limits.of(request.max_memory, request.max_output, request.timeout)
    subject = "script" if request.file else "expression"
    picture = request.fmt in ("svg", "png")
    page = request.fmt == "html"  # its data made in the child, laid out and written out here
    if page:
        _optional("page")  # before the child is locked down
    if not picture and not page and request.output is None:
        work = lambda: _graph_here(request, debug=debug)  # noqa: E731
        return run_isolated_command("graph", subject, work, limits)
    inner_fmt = "dot" if picture else PAGE_DATA if page else request.fmt
    inner = replace(request, fmt=inner_fmt, output=None)
    try:
        result = run_child(lambda: _graph_here(inner, debug=debug), limits, stream=False)
    except LimitError as error:
        print_error(f"autodiff graph: error: {error}")
        return 2
    write_output_text(sys.stderr, result.stderr)
    if result.problem is not None:
        print_error(f"autodiff graph: error: the {subject} was {result.problem}")
    if result.status != 0:
        return result.status
    try:
        content: str | bytes = result.stdout
        if picture:
            content = render_dot(result.stdout, request.fmt)
        elif page:
            pages = _optional("page")
            content = pages.render_page_json(result.stdout)
        write_output(content, request.output)
    except RenderError as error:  # also the page data of a child that is not what it should be
        print_error(f"autodiff graph: error: {error}")
        return 1
    except OSError as error:
        print_error(f"autodiff graph: error: cannot write {request.output}: {error.strerror}")
        return 1
    return 0


def _graph_here(request: GraphRequest, *, debug: bool = False) -> int:
    """Run, draw and write the graph in this process."""
    try:
        if request.fmt in ("html", PAGE_DATA):
            with warnings_to_stderr(request.file or "<expr>"), time_limit(request.timeout):
                content = _page_of_request(request)
            write_output(content, request.output)
            return 0
        with warnings_to_stderr(request.file or "<expr>"), time_limit(request.timeout):
            graph, payload = build_request_graph(request)
        if request.fmt == "tree" and request.output is None and wants_color(sys.stdout):
            styled = output.optional("styled")
            styled.console().print(styled.to_rich(tree_of(graph, details=True)))
            return _print_formula(payload) if request.formula else 0
        unicode = request.output is not None or can_encode(sys.stdout, "├─│└")
        write_output(export(graph, request.fmt, unicode=unicode), request.output)
        if request.formula:
            return _print_formula(payload)
    except UsageError as error:
        print_error(f"autodiff graph: error: {error}")
        return 2
    except (GraphError, RenderError, ScriptTimeout) as error:
        print_error(f"autodiff graph: error: {error}")
        return 1
    except OSError as error:
        print_error(f"autodiff graph: error: cannot write {request.output}: {error.strerror}")
        return 1
    except KeyboardInterrupt:
        return exit_on_interrupt()
    except Exception as error:  # ScriptError from the expression, an --at value or the script
        if request.file is None:
            error = add_at_hint(error)
        report_exception(error, debug=debug, context=request.file or "<expr>")
        return 1
    return 0
