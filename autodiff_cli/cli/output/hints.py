"""Teaching hints: one line after PyTorch's (or Python's) message for the classic autograd
mistakes, saying what went wrong and what to write instead.

The message itself stays exactly as PyTorch prints it (a learner searches for it; the
conformance goldens compare it); the hint is a separate `hint: ...` line on stderr after the
error, in the user's language, and `--no-hints` (`:hints off` in the REPL) turns it off.
"""

from __future__ import annotations

import re
import sys

from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.errors import safe_str
from autodiff_cli.lang.runtime.teaching_facts import none_grad_behind, operand_shapes

_enabled = True


def set_enabled(enabled: bool) -> None:
    global _enabled
    _enabled = enabled


def enabled() -> bool:
    return _enabled


def hint_for(error: BaseException) -> str | None:
    """The hint line (`hint: ...`) for a reported error, None when it has none or hints are off.
    `error` is the ScriptError (its `__cause__` the exception the script raised) or the
    exception itself."""
    if not _enabled:
        return None
    cause = error.__cause__ if error.__cause__ is not None else error
    text = _hint_text(error, cause)
    return _("hint: {text}").format(text=text) if text else None


def _message(cause: BaseException) -> str:
    return safe_str(cause)


def _hint_text(error: BaseException, cause: BaseException) -> str | None:
    message = _message(cause)
    kind = type(cause)
    if "'NoneType'" in message and kind in (AttributeError, TypeError):
        return _none_grad_hint(cause)
    if kind is not RuntimeError:
        return None
    for pattern, make in _RUNTIME_HINTS:
        found = re.search(pattern, message)  # (compiled on first use, not at start-up)
        if found:
            return make(found, cause)
    return None


def _none_grad_hint(cause: BaseException) -> str | None:
    read = none_grad_behind(cause)
    if read is None:
        return None
    name = read.name or _("the tensor")
    if not read.requires_grad:
        text = _(
            "{name}.grad is None because {name} does not require grad: create it with "
            "requires_grad=True (or call {name}.requires_grad_() before using it)"
        )
    elif not read.is_leaf:
        text = _(
            "{name}.grad is None because {name} is not a leaf (it was computed: its grad_fn is {node}): "
            "PyTorch keeps .grad only for leaves; call {name}.retain_grad() before backward() "
            "to keep it"
        )
    else:
        text = _(
            "{name}.grad is None because no backward() has reached {name} yet: call "
            "backward() on a result computed from {name} first (zero_grad() also sets .grad "
            "back to None)"
        )
    return text.format(name=name, node=read.grad_fn)


def _second_backward(found: re.Match, cause: BaseException) -> str:
    return _(
        "the first backward() freed the values the graph saved: compute the result again "
        "(run the forward pass) before each backward(), or pass retain_graph=True to the first "
        "backward() if you really need the same graph twice"
    )


def _leaf_in_place(found: re.Match, cause: BaseException) -> str:
    return _(
        "a leaf that requires grad cannot be changed in place while autograd records: update "
        "it inside `with torch.no_grad():` (as an optimizer's step does), e.g. "
        "`with torch.no_grad(): w -= lr * w.grad`"
    )


def _scalar_backward(found: re.Match, cause: BaseException) -> str:
    return _(
        "backward() with no argument needs a single number (a loss): reduce the result first, "
        "y.sum().backward(), or pass the vector of the vector-Jacobian product, "
        "y.backward(torch.ones_like(y))"
    )


def _numpy_of_graph(found: re.Match, cause: BaseException) -> str:
    return _(
        "the tensor is part of an autograd graph; .detach() gives the same values outside it, "
        "x.detach().numpy() (and .tolist() or .item() work as they are)"
    )


def _nothing_requires_grad(found: re.Match, cause: BaseException) -> str:
    return _(
        "nothing this result was computed from requires grad: create the inputs with "
        "requires_grad=True, and do not compute it under torch.no_grad() or from detach()ed "
        "tensors"
    )


def _matmul_shapes(found: re.Match, cause: BaseException) -> str | None:
    shapes = operand_shapes(cause)
    if shapes is not None:
        left, right = (_shape(shape) for shape in shapes)
    elif all(found.groups()):
        left, right = (f"({text.replace('x', ', ')})" for text in found.groups())
    else:
        return None
    return _(
        "in A @ B, the last size of A must equal the second-to-last size of B (its first, "
        "when B is a matrix); here A has shape {left} and B has shape {right}: B.T, B.mT or a "
        "reshape may be what you meant"
    ).format(left=left, right=right)


def _shape(shape: tuple[int, ...]) -> str:
    if len(shape) == 1:
        return f"({shape[0]},)"
    return "(" + ", ".join(str(size) for size in shape) + ")"


_RUNTIME_HINTS = (
    (r"^Trying to backward through the graph a second time", _second_backward),
    (r"^a leaf Variable that requires grad is being used in an in-place", _leaf_in_place),
    (r"^grad can be implicitly created only for scalar outputs", _scalar_backward),
    (r"^Can't call numpy\(\) on Tensor that requires grad", _numpy_of_graph),
    (r"does not require grad and does not have a grad_fn", _nothing_requires_grad),
    (r"^mat1 and mat2 shapes cannot be multiplied \((\S+) and (\S+)\)", _matmul_shapes),
    (r"^(?:size mismatch|Expected size for first two dimensions of batch2)()()", _matmul_shapes),
)  # fmt: skip


def hints_command(state: object, argument: str) -> None:
    """The REPL's `:hints [on|off]`: switch the hints, or say whether they are on."""
    if argument in ("on", "off"):
        set_enabled(argument == "on")
    elif argument:
        raise ValueError(_("expected on or off, got {argument!r}").format(argument=argument))
    sys.stdout.write((_("hints are on") if _enabled else _("hints are off")) + "\n")
