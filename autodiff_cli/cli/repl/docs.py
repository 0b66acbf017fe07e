"""The REPL's documentation at hand: `x.backward?` (also `:doc x.backward`) prints what
`help(x.backward)` prints, and the signature of the call being typed (`signature_hint`, shown in
the terminal's bottom toolbar). Both run where the namespace lives (the session's child).

`x.backward?` evaluates only the dotted name, through the language, as typing `x.backward` at
the prompt would (no call: `f()?` is not a query); an attribute documented as a property (`x.grad?`)
is described from its class without reading it. The signature hint evaluates nothing: it reads
the namespace's and the classes' dictionaries, as completion does.
"""

from __future__ import annotations

import re
import sys
import types
from typing import Any

from autodiff_cli.cli.output.diagnostics import report_exception
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import compile_source
from autodiff_cli.lang.sandbox import learner_docs
from autodiff_cli.lang.sandbox.capabilities import ModuleProxy
from autodiff_cli.lang.sandbox.introspection import describe, signature_line
from autodiff_cli.lang.sandbox.typeview import is_engine_class

DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_QUERY = re.compile(rf"\s*({DOTTED})\s*\?\s*")
_CALLEE = re.compile(rf"({DOTTED})\s*$")
REPL_NAME = "<stdin>"
MAX_HINT = 300  # characters of a signature shown in the toolbar


def help_query(text: str) -> str | None:
    """The dotted name of `NAME?` (IPython's way to ask for help), else None."""
    match = _QUERY.fullmatch(text.strip("\n"))
    return match.group(1) if match else None


def show_doc(state: Any, argument: str) -> None:
    """`:doc NAME` and `NAME?`: help(NAME)'s text on stdout; an error (no such name or
    attribute, with its "Did you mean") reported as a statement's is."""
    name = argument.strip()
    if not re.fullmatch(DOTTED, name):
        raise ValueError(_("usage: :doc NAME (a name or a dotted name, such as x.backward)"))
    try:
        text = _property_doc(state, name) or describe(_evaluate(state, name))
    except Exception as error:  # a ScriptError: NameError, AttributeError
        report_exception(error, debug=state.debug, context=REPL_NAME)
        return
    sys.stdout.write(text.rstrip("\n") + "\n")


def _evaluate(state: Any, name: str) -> Any:
    return compile_source(name, REPL_NAME, "eval").run(state.namespace)


def _property_doc(state: Any, name: str) -> str | None:
    """The text of a documented attribute such as `x.grad`, read from its holder's class."""
    holder_name, dot, attribute = name.rpartition(".")
    if not dot:
        return None
    entry = learner_docs.doc_of_attribute(_evaluate(state, holder_name), attribute)
    if entry is None:
        return None
    path, signature, text = entry
    owner = path.rsplit(".", 2)[-2]
    body = "".join(f"    {line}".rstrip() + "\n" for line in text.split("\n"))
    return f"Help on attribute {attribute} of {owner}:\n\n{signature}\n{body}"


def signature_hint(state: Any, text: str) -> str:
    """The signature of the innermost call still open at the end of `text`
    (`x.backward(` -> `backward(gradient=None, ...)`), or "" when none is found."""
    opened = _open_call(text)
    if opened is None:
        return ""
    match = _CALLEE.search(text[:opened])
    if match is None:
        return ""
    parts = match.group(1).split(".")
    found = _static_lookup(state, parts)
    if found is None:
        return ""
    hint = _signature_text(found, parts[-1])
    hint = "".join(char if char.isprintable() else " " for char in hint)
    return hint[:MAX_HINT]


def _open_call(text: str) -> int | None:
    """The index of the innermost `(` not yet closed (outside strings and comments)."""
    stack: list[int] = []
    quote = ""
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#":
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
        elif char in "([{":
            stack.append(index if char == "(" else -1)
        elif char in ")]}" and stack:
            stack.pop()
        index += 1
    calls = [opened for opened in stack if opened >= 0]  # `f([1, 2` is still f's call
    return calls[-1] if calls else None


def _static_lookup(state: Any, parts: list[str]) -> Any:
    """What a dotted name refers to, read from dictionaries only (nothing evaluated, no
    property read, no lazy module loaded)."""
    namespace = state.namespace
    if parts[0] in namespace:
        obj = dict.__getitem__(namespace, parts[0])
    elif parts[0] in namespace.builtins:
        obj = namespace.builtins[parts[0]]
    else:
        return None
    for part in parts[1:]:
        if part.startswith("_"):
            return None
        if isinstance(obj, ModuleProxy):
            obj = vars(obj).get(part)
        elif isinstance(obj, type) or is_engine_class(type(obj)):
            holder = obj if isinstance(obj, type) else type(obj)
            obj = _class_attribute(holder, part)
        else:
            return None
        if obj is None:
            return None
    return obj


def _class_attribute(klass: type, name: str) -> Any:
    for base in klass.__mro__:
        if name in vars(base):
            found = vars(base)[name]
            return None if isinstance(found, property) else found
    return None


def _signature_text(found: Any, name: str) -> str:
    entry = learner_docs.doc_for(found)
    if entry is not None:
        return entry[1]
    if isinstance(found, (types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
        return signature_line(found, name)
    if isinstance(found, type) and is_engine_class(found):
        return signature_line(found, name)
    forward = _class_attribute(type(found), "forward")  # calling a model runs its forward
    if isinstance(found, type) or not isinstance(forward, types.FunctionType):
        return ""
    line = signature_line(forward, "forward")
    return re.sub(r"^forward\(self(, )?", "forward(", line)
