"""What `help(x)` (and the REPL's `x?`) says about the API a learner of autograd meets.

PyTorch's documented facts (signature, what the function does, its arguments), written here in
our own words: the engine's own docstrings say why the code is as it is, which is no help to a
learner. Each text is marked for translation (`_N`, translated when shown). Keys are the paths a
learner writes (`torch.Tensor.backward`); `doc_for` finds an object's entry by identity, looking
only through modules already loaded and class dictionaries (no attribute is evaluated, no
import runs: a jailed script cannot load modules).
"""

from __future__ import annotations

import sys
from typing import Any

from autodiff_cli.i18n import gettext
from autodiff_cli.lang.sandbox.capabilities import unbound_origin
from autodiff_cli.lang.sandbox.doc_stand_ins import documented_path
from autodiff_cli.lang.sandbox.typeview import is_engine_class

_N = str  # marks a text for the catalogue (xgettext's keyword); translated by `doc_for`

ENGINE = "autodiff_cli.engine"

# path -> (PyTorch's signature, the text)
DOCS: dict[str, tuple[str, str]] = {
    "torch.Tensor.backward": (
        "backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)",
        _N(
            "Compute the gradient of this tensor with respect to the leaves of its graph and\n"
            "add it to their .grad (gradients accumulate: zero them between steps).\n"
            "The graph is freed afterwards unless retain_graph=True.\n\n"
            "Arguments:\n"
            "  gradient      the gradient of some scalar with respect to this tensor; needed\n"
            "                when the tensor has more than one element (same shape)\n"
            "  retain_graph  keep the graph so that backward can run through it again\n"
            "  create_graph  build a graph of the backward pass too (for higher derivatives)\n"
            "  inputs        only these tensors get .grad (default: every leaf of the graph)"
        ),
    ),
    "torch.Tensor.grad": (
        "grad",
        _N(
            "The gradient accumulated into this tensor by backward(): None until a backward\n"
            "reaches it. Only leaves (tensors made by you with requires_grad=True) get it;\n"
            "a computed tensor keeps it only after retain_grad()."
        ),
    ),
    "torch.Tensor.requires_grad": (
        "requires_grad",
        _N(
            "True when autograd records the operations on this tensor, so that gradients\n"
            "can flow back to it. Set it with requires_grad=True when creating the tensor or\n"
            "with requires_grad_()."
        ),
    ),
    "torch.Tensor.is_leaf": (
        "is_leaf",
        _N(
            "True for a tensor that no recorded operation made: one you created, or any\n"
            "tensor that does not require grad. backward() fills .grad of leaves only."
        ),
    ),
    "torch.Tensor.grad_fn": (
        "grad_fn",
        _N(
            "The node of the graph that made this tensor (such as MulBackward0), which\n"
            "backward() follows; None for a leaf."
        ),
    ),
    "torch.Tensor.requires_grad_": (
        "requires_grad_(requires_grad=True)",
        _N(
            "Turn gradient recording on (or off) for this tensor, in place, and return it.\n"
            "Only a leaf can be changed this way.\n\n"
            "Arguments:\n"
            "  requires_grad  whether autograd should record operations on this tensor"
        ),
    ),
    "torch.Tensor.detach": (
        "detach()",
        _N(
            "A new tensor sharing this one's data but cut from the graph: it does not\n"
            "require grad and no gradient flows back through it."
        ),
    ),
    "torch.Tensor.retain_grad": (
        "retain_grad()",
        _N(
            "Keep .grad for this non-leaf tensor when backward() runs (by default only\n"
            "leaves keep their gradient)."
        ),
    ),
    "torch.Tensor.register_hook": (
        "register_hook(hook)",
        _N(
            "Call hook(grad) each time the gradient of this tensor is computed. The hook may\n"
            "return a new gradient to use instead, or None. Returns a handle whose remove()\n"
            "takes the hook away.\n\n"
            "Arguments:\n"
            "  hook  a function of one argument, the gradient"
        ),
    ),
    "torch.Tensor.zero_": (
        "zero_()",
        _N(
            "Fill this tensor with zeros, in place, and return it. x.grad.zero_() resets a\n"
            "gradient between steps (it fails while x.grad is still None)."
        ),
    ),
    "torch.Tensor.item": (
        "item()",
        _N(
            "The value of a one-element tensor as a Python number (the result leaves the\n"
            "graph: no gradient flows through it)."
        ),
    ),
    "torch.Tensor.numpy": (
        "numpy(*, force=False)",
        _N(
            "The tensor's data as a NumPy array. A tensor that requires grad must be\n"
            "detached first: x.detach().numpy()."
        ),
    ),
    "torch.Tensor.sum": (
        "sum(dim=None, keepdim=False, *, dtype=None)",
        _N(
            "The sum of the elements (over dimension dim when given). A common way to make\n"
            "the scalar that backward() needs.\n\n"
            "Arguments:\n"
            "  dim      the dimension or dimensions to sum over (default: all)\n"
            "  keepdim  keep the summed dimensions with size 1"
        ),
    ),
    "torch.Tensor.mean": (
        "mean(dim=None, keepdim=False, *, dtype=None)",
        _N(
            "The mean of the elements (over dimension dim when given); its gradient is\n"
            "1/n for each element averaged.\n\n"
            "Arguments:\n"
            "  dim      the dimension or dimensions to average over (default: all)\n"
            "  keepdim  keep the averaged dimensions with size 1"
        ),
    ),
    "torch.tensor": (
        "tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False)",
        _N(
            "A new tensor holding a copy of data (a number, a list, nested lists, an array).\n\n"
            "Arguments:\n"
            "  data           the values\n"
            "  dtype          the element type (default: from the data; float32 for floats)\n"
            "  requires_grad  record operations on it so that it gets a .grad"
        ),
    ),
    "torch.autograd.grad": (
        "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, "
        "allow_unused=None, is_grads_batched=False, materialize_grads=False)",
        _N(
            "The gradients of outputs with respect to inputs, returned as a tuple (nothing\n"
            "is added to .grad).\n\n"
            "Arguments:\n"
            "  outputs       the tensors to differentiate (scalars, or give grad_outputs)\n"
            "  inputs        the tensors to differentiate with respect to\n"
            "  grad_outputs  the gradient with respect to each output (vector-Jacobian)\n"
            "  retain_graph  keep the graph for another backward pass\n"
            "  create_graph  record the backward pass, for higher derivatives\n"
            "  allow_unused  give None for an input the outputs do not depend on"
        ),
    ),
    "torch.autograd.backward": (
        "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None)",
        _N(
            "Accumulate into the leaves' .grad the gradients of tensors, as calling\n"
            "backward() on each would (grad_tensors gives their gradients)."
        ),
    ),
    "torch.autograd.functional.jacobian": (
        "jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, "
        "strategy='reverse-mode')",
        _N("The Jacobian matrix of func at inputs: each output's derivative by each input."),
    ),
    "torch.autograd.functional.hessian": (
        "hessian(func, inputs, create_graph=False, strict=False, vectorize=False, "
        "outer_jacobian_strategy='reverse-mode')",
        _N("The Hessian of the scalar function func at inputs: its second derivatives."),
    ),
    "torch.no_grad": (
        "no_grad()",
        _N(
            "A context (with torch.no_grad():) or decorator inside which operations are not\n"
            "recorded: results do not require grad. Use it to update weights by hand or to\n"
            "evaluate a model."
        ),
    ),
    "torch.enable_grad": (
        "enable_grad()",
        _N("A context or decorator that turns recording back on inside no_grad()."),
    ),
    "torch.set_grad_enabled": (
        "set_grad_enabled(mode)",
        _N("A context or call that turns recording on (mode=True) or off (mode=False)."),
    ),
    "torch.ones": (
        "ones(*size, dtype=None, requires_grad=False)",
        _N("A tensor of the given size filled with 1."),
    ),
    "torch.zeros": (
        "zeros(*size, dtype=None, requires_grad=False)",
        _N("A tensor of the given size filled with 0."),
    ),
    "torch.randn": (
        "randn(*size, generator=None, dtype=None, requires_grad=False)",
        _N("A tensor of the given size filled with samples of the standard normal law."),
    ),
    "torch.arange": (
        "arange(start=0, end, step=1, *, dtype=None, requires_grad=False)",
        _N("A 1-D tensor of the values from start up to (not including) end, step apart."),
    ),
    "torch.linspace": (
        "linspace(start, end, steps, *, dtype=None, requires_grad=False)",
        _N("A 1-D tensor of steps values evenly spaced from start to end (both included)."),
    ),
    "torch.matmul": (
        "matmul(input, other, *, out=None)",
        _N(
            "The matrix product of input and other (also written input @ other); the\n"
            "inner sizes must match: (n, k) @ (k, m) gives (n, m)."
        ),
    ),
    "torch.exp": ("exp(input, *, out=None)", _N("e to the power of each element.")),
    "torch.log": ("log(input, *, out=None)", _N("The natural logarithm of each element.")),
    "torch.sin": ("sin(input, *, out=None)", _N("The sine of each element (in radians).")),
    "torch.sum": (
        "sum(input, dim=None, keepdim=False, *, dtype=None)",
        _N("The sum of the elements of input (over dimension dim when given)."),
    ),
    "torch.mean": (
        "mean(input, dim=None, keepdim=False, *, dtype=None)",
        _N("The mean of the elements of input (over dimension dim when given)."),
    ),
    "torch.relu": (
        "relu(input)",
        _N("max(0, x) for each element; its gradient is 1 where x > 0, else 0."),
    ),
    "torch.sigmoid": (
        "sigmoid(input, *, out=None)",
        _N("1 / (1 + e^-x) for each element; its gradient is s * (1 - s)."),
    ),
    "torch.tanh": (
        "tanh(input, *, out=None)",
        _N("The hyperbolic tangent of each element; its gradient is 1 - tanh(x)^2."),
    ),
    "torch.nn.Module": (
        "Module()",
        _N(
            "The base class of models: subclass it, create layers in __init__ and say in\n"
            "forward() how they compute; calling the model runs forward(). parameters()\n"
            "lists the weights an optimizer updates."
        ),
    ),
    "torch.nn.Module.parameters": (
        "parameters(recurse=True)",
        _N("The module's parameters (and its submodules'), for an optimizer."),
    ),
    "torch.nn.Module.zero_grad": (
        "zero_grad(set_to_none=True)",
        _N("Reset the gradients of all the module's parameters (to None by default)."),
    ),
    "torch.nn.Linear": (
        "Linear(in_features, out_features, bias=True)",
        _N(
            "A layer computing y = x @ W.T + b, with W of shape (out_features, in_features)\n"
            "and b of shape (out_features,), both parameters that require grad."
        ),
    ),
    "torch.nn.MSELoss": (
        "MSELoss(reduction='mean')",
        _N("The mean squared error between prediction and target: mean((x - y)^2)."),
    ),
    "torch.nn.CrossEntropyLoss": (
        "CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)",
        _N(
            "The classification loss of raw scores (logits) against class indices or\n"
            "probabilities: log_softmax followed by the negative log likelihood."
        ),
    ),
    "torch.nn.functional.relu": (
        "relu(input, inplace=False)",
        _N("max(0, x) for each element; its gradient is 1 where x > 0, else 0."),
    ),
    "torch.nn.functional.mse_loss": (
        "mse_loss(input, target, reduction='mean')",
        _N("The mean squared error between input and target: mean((input - target)^2)."),
    ),
    "torch.optim.SGD": (
        "SGD(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False)",
        _N(
            "Stochastic gradient descent: step() moves each parameter against its gradient,\n"
            "p = p - lr * p.grad (with momentum when given).\n\n"
            "Arguments:\n"
            "  params    the tensors to update, such as model.parameters()\n"
            "  lr        the learning rate, the size of each step\n"
            "  momentum  how much of the previous step to keep"
        ),
    ),
    "torch.optim.Adam": (
        "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False)",
        _N(
            "The Adam optimizer: steps scaled by running averages of the gradient and of its\n"
            "square.\n\n"
            "Arguments:\n"
            "  params  the tensors to update, such as model.parameters()\n"
            "  lr      the learning rate\n"
            "  betas   the decay rates of the two running averages"
        ),
    ),
    "torch.optim.Optimizer.step": (
        "step(closure=None)",
        _N("Update every parameter once from its current .grad."),
    ),
    "torch.optim.Optimizer.zero_grad": (
        "zero_grad(set_to_none=True)",
        _N(
            "Reset the gradients of the parameters (to None by default): call it before\n"
            "each backward(), as gradients accumulate."
        ),
    ),
}

# Classes whose methods share a base class's entry (SGD.step is Optimizer.step).
_METHOD_OWNERS = {"torch.optim.Optimizer": ("step", "zero_grad")}


def _static(holder: Any, name: str) -> Any:
    """`holder.name` read from dictionaries only: a loaded module's (or its loaded submodule),
    a class's (through its MRO, descriptors unevaluated). None when not there."""
    if isinstance(holder, type):
        for klass in holder.__mro__:
            if name in vars(klass):
                return vars(klass)[name]
        return None
    found = vars(holder).get(name)
    if found is None and hasattr(holder, "__name__"):
        found = sys.modules.get(f"{holder.__name__}.{name}")
    return found


def _resolve(path: str) -> Any:
    holder: Any = sys.modules.get(ENGINE)
    for part in path.split(".")[1:]:
        if holder is None:
            return None
        holder = _static(holder, part)
    return holder


def _unwrapped(obj: Any) -> Any:
    """The function behind a bound method, a property or a script's unbound engine method."""
    obj = getattr(obj, "__func__", obj) if type(obj).__name__ == "method" else obj
    origin = unbound_origin(obj)
    if origin is not None:
        obj = _static(*origin)
    return obj.fget if isinstance(obj, property) else obj


def _known() -> dict[int, str]:
    """id of each documented object that is loaded -> its path."""
    known: dict[int, str] = {}
    for path in DOCS:
        target = _resolve(path)
        if target is not None:
            known.setdefault(id(_unwrapped(target)), path)
    for owner, names in _METHOD_OWNERS.items():
        base = _resolve(owner)
        if not isinstance(base, type):
            continue
        for klass in _loaded_subclasses(base):
            for name in names:
                method = vars(klass).get(name)
                if method is not None:
                    known.setdefault(id(_unwrapped(method)), f"{owner}.{name}")
    return known


def _loaded_subclasses(base: type) -> list[type]:
    """`base` and the engine's subclasses of it (a script's own subclass keeps its own doc)."""
    found, pending = [base], [base]
    while pending:
        for sub in type.__subclasses__(pending.pop()):
            if sub not in found and is_engine_class(sub):
                found.append(sub)
                pending.append(sub)
    return found


def doc_for(obj: Any) -> tuple[str, str, str] | None:
    """(path, signature, text in the user's language) of a documented object, else None."""
    path = documented_path(obj)
    if path not in DOCS:
        path = _known().get(id(_unwrapped(obj)))
    if path is None:
        return None
    signature, text = DOCS[path]
    return path, signature, gettext(text)


def doc_of_attribute(holder: Any, name: str) -> tuple[str, str, str] | None:
    """The entry of attribute `name` of `holder`'s class (a property such as Tensor.grad),
    found without reading the attribute."""
    if isinstance(holder, type) or type(holder).__module__ == "builtins":
        return None
    found = _static(type(holder), name)
    return doc_for(found) if isinstance(found, property) else None


def module_of(path: str) -> str:
    """The module a documented path lives in (`torch.autograd.grad` -> `torch.autograd`,
    `torch.Tensor.backward` -> `torch`)."""
    parts = path.split(".")[:-1]
    while len(parts) > 1 and parts[-1][:1].isupper():
        parts.pop()
    return ".".join(parts)
