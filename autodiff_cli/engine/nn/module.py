"""`nn.Module`: parameters, buffers and submodules registered by attribute assignment.

Registration rules, traversal orders, `state_dict` keys, `load_state_dict` messages and the nested
`repr` are PyTorch's observable behaviour. Names a script chooses (attribute names, `register_*`
names, container keys) only ever index the three tables or pass the same checks as assignment:
nothing here writes a special (`__dunder__`) attribute.
"""

from __future__ import annotations

import collections
import functools
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.devices import as_meta, check_device, default_device, is_device_arg, meta_zeros
from ..core.dtypes import dtype as dtype_cls
from ..core.grad_mode import no_grad
from ..core.graph import RemovableHandle
from ..core.tensor import META_COPY_MESSAGE, Tensor
from .backward_hooks import attach_legacy_hooks, call_with_backward_hooks
from .parameter import Parameter, typename


def _indent_rest(text: str, spaces: int) -> str:
    """`text` with every line after the first indented (nested module reprs)."""
    return text.replace("\n", "\n" + " " * spaces)


class OrderedDict(collections.OrderedDict):
    """`collections.OrderedDict` (same repr), defined here so scripts may call its methods."""


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What `load_state_dict` returns; printed `<All keys matched successfully>` when both empty."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
            f"unexpected_keys={self.unexpected_keys!r})"
        )

    __str__ = __repr__


BACKWARD_HOOKS_MIXED = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. Please "
    "use only one of them."
)


def _add_hook(hooks: OrderedDict, hook: Callable, prepend: bool) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    hooks[handle._key] = hook
    if prepend:
        hooks.move_to_end(handle._key, last=False)
    return handle


def _move_tensors(module: Module, meta: bool) -> None:
    """Every parameter, gradient and buffer of `module` to the meta device (`meta`) or the CPU."""
    for sub in module.modules():
        found = [*sub._parameters.values(), *sub._buffers.values()]
        found += [p._grad for p in sub._parameters.values() if p is not None]
        for tensor in found:
            if tensor is not None and tensor.is_meta != meta:
                if not meta:
                    raise NotImplementedError(
                        f"{META_COPY_MESSAGE} Please use torch.nn.Module.to_empty() instead of "
                        "torch.nn.Module.to() when moving module from meta to a different device."
                    )
                tensor._data = as_meta(tensor._data)


def _built_on_device(init: Callable) -> Callable:
    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        where = kwargs.get("device")
        if where is None:
            return init(self, *args, **kwargs)
        with default_device(where):
            return init(self, *args, **kwargs)

    return __init__


class Module:
    """Base class of every layer: assign Parameters/Modules as attributes to register them."""

    training: bool

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The engine's layers taking `device=` build their parameters there (`parameter_storage`)."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None and cls.__module__.startswith(__package__.rpartition(".")[0]):
            code = init.__code__
            if "device" in code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]:
                cls.__init__ = _built_on_device(init)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
                if kwargs
                else f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", {})
        setattr_(self, "_buffers", {})
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_modules", {})
        setattr_(self, "_forward_pre_hooks", OrderedDict())
        setattr_(self, "_forward_hooks", OrderedDict())
        setattr_(self, "_backward_hooks", OrderedDict())
        setattr_(self, "_backward_pre_hooks", OrderedDict())
        setattr_(self, "_is_full_backward_hook", None)

    # -- registration -------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        """Parameters and modules are registered in their table (leaving any other table or
        plain attribute of that name); a name already in a table keeps its kind; anything else
        is a plain attribute."""
        if name.startswith("__") and name.endswith("__"):
            # the engine never sets special attributes: a script naming one is refused here too
            raise AttributeError(f"'{type(self).__name__}' object attribute '{name}' cannot be set")
        state = self.__dict__
        if isinstance(value, (Parameter, Module)):
            what = "parameters" if isinstance(value, Parameter) else "module"
            if "_parameters" not in state:
                raise AttributeError(f"cannot assign {what} before Module.__init__() call")
            for table in (state, self._parameters, self._buffers, self._modules):
                table.pop(name, None)
            self._non_persistent_buffers_set.discard(name)
            if isinstance(value, Parameter):
                self.register_parameter(name, value)
            else:
                self._modules[name] = value
            return
        for table, role, allowed, expected in (
            ("_parameters", "parameter", (), "torch.nn.Parameter or None"),
            ("_modules", "child module", (), "torch.nn.Module or None"),
            ("_buffers", "buffer", (Tensor,), "torch.nn.Buffer, torch.Tensor or None"),
        ):
            entries = state.get(table)
            if entries is not None and name in entries:
                if value is not None and not isinstance(value, allowed):
                    raise TypeError(
                        f"cannot assign '{typename(value)}' as {role} '{name}' ({expected} expected)"
                    )
                entries[name] = value
                return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        if name[:2] == "__" and name[-2:] == "__":  # numpy's `__array__`...: never an entry
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            entries = d.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def _check_name(self, name: Any, kind: str) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if type(name) is not str:  # a str subclass's `__eq__`/`__hash__` could pose as another
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param is not None and param._grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                "created explicitly. To express '"
                f"{name}' as a function of another Tensor, compute the value in the forward() "
                "method."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    # -- calling ------------------------------------------------------------------------------
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        state = self.__dict__
        if not (state.get("_backward_hooks") or state.get("_backward_pre_hooks")):
            return self._call_forward(args, kwargs)
        hooks = list(self._backward_hooks.values())
        full = hooks if self._is_full_backward_hook else []
        if full or self._backward_pre_hooks:
            output = call_with_backward_hooks(self, args, kwargs, full)
        else:
            output = self._call_forward(args, kwargs)
        if self._is_full_backward_hook is False and hooks:
            attach_legacy_hooks(self, output, hooks)
        return output

    def _call_forward(self, args: tuple, kwargs: dict) -> Any:
        """`forward` and the forward hooks."""
        output = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, output)
            if result is not None:
                output = result
        return output

    def register_forward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """`hook(module, args)` runs before `forward`; it may return replacement args."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle._key] = hook
        return handle

    def register_forward_hook(self, hook: Callable) -> RemovableHandle:
        """`hook(module, args, output)` runs after `forward`; it may return a replacement output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle._key] = hook
        return handle

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_input, grad_output)` runs once the gradients w.r.t. the module's
        positional inputs are computed; it may return replacement `grad_input`."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(BACKWARD_HOOKS_MIXED)
        object.__setattr__(self, "_is_full_backward_hook", True)
        return _add_hook(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(
        self, hook: Callable, prepend: bool = False
    ) -> RemovableHandle:
        """`hook(module, grad_output)` runs before the gradients flow into the module; it may
        return replacement `grad_output`."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_backward_hook(self, hook: Callable) -> RemovableHandle:
        """Deprecated: `hook(module, grad_input, grad_output)` on the grad_fn of the module's
        first output (the gradients of that one node)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(BACKWARD_HOOKS_MIXED)
        object.__setattr__(self, "_is_full_backward_hook", False)
        return _add_hook(self._backward_hooks, hook, False)

    # -- traversal ----------------------------------------------------------------------------
    def named_modules(
        self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """Pre-order, depth first, each module once (as PyTorch)."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(
                memo, prefix + ("." if prefix else "") + name, remove_duplicate
            )

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(
        self, table: str, prefix: str, recurse: bool, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Any]]:
        seen = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in getattr(module, table).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target: str) -> Module:
        module = self
        for item in target.split(".") if target else ():
            if item not in module._modules:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._parameters:
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module._parameters[name]

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- state --------------------------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        object.__setattr__(self, "training", mode)
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for param in self.parameters():
            zero_param_grad(param, set_to_none)

    def _apply_to_tensors(self, convert: Callable[[Tensor], Tensor]) -> Module:
        """Converts every parameter (keeping the Parameter object) and buffer in place."""
        for module in self.modules():
            for param in module._parameters.values():
                if param is not None:
                    param._data = convert(param)._array()
                    if param._grad is not None:
                        param._grad = convert(param._grad)
            for name, buffer in module._buffers.items():
                if buffer is not None:
                    module._buffers[name] = convert(buffer)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """`.to(dtype)`, `.to(device)`, `.to(device, dtype)`, `.to(tensor)`: floating
        parameters and buffers change dtype; `.to("meta")` moves them to the meta device (a
        meta module cannot come back: it has no values)."""
        dtype = kwargs.get("dtype")
        where = kwargs.get("device")
        check_device(where)
        for arg in args:
            if isinstance(arg, dtype_cls):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype, where = arg.dtype, arg.device
            elif is_device_arg(arg) or isinstance(arg, int):
                check_device(arg)
                where = arg
        if where is not None:
            _move_tensors(self, check_device(where))
        if dtype is None:
            return self
        return self._apply_to_tensors(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Parameters and buffers (kept as objects) given fresh, uninitialised storage on
        `device` (zeros here): after `nn.Linear(..., device="meta")`, `reset_parameters()` or
        `load_state_dict` then fills them."""
        meta = check_device(device)
        modules = self.modules() if recurse else (self,)
        for module in modules:
            for table in (module._parameters, module._buffers):
                for tensor in table.values():
                    if tensor is not None:
                        data = tensor._data
                        fresh = meta_zeros if meta else np.zeros
                        tensor._data = fresh(data.shape, data.dtype)
        return self

    def double(self) -> Module:
        return self.to(dtypes.float64)

    def float(self) -> Module:
        return self.to(dtypes.float32)

    def cpu(self) -> Module:
        return self

    def cuda(self, device: Any = None) -> Module:
        check_device("cuda")
        return self

    def state_dict(
        self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> OrderedDict:
        """Parameters then persistent buffers of each module, parents before children."""
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        return destination

    def load_state_dict(
        self, state_dict: Mapping, strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        for prefix, module in self.named_modules(prefix="", remove_duplicate=False):
            module._load_own_state(state_dict, prefix + "." if prefix else "", missing, errors)
            own_prefix = prefix + "." if prefix else ""
            local = set(module._parameters) | set(module._buffers)
            for key in state_dict:
                if key.startswith(own_prefix):
                    head = key[len(own_prefix) :].split(".", 1)[0]
                    if head not in module._modules and head not in local:
                        unexpected.append(key)
        if strict:
            if unexpected:
                errors.insert(
                    0,
                    "Unexpected key(s) in state_dict: "
                    + ", ".join(f'"{k}"' for k in unexpected)
                    + ". ",
                )
            if missing:
                errors.insert(
                    0,
                    "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ",
                )
        if errors:
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(errors)
            )
        return _IncompatibleKeys(missing, unexpected)

    def _load_own_state(
        self, state_dict: Mapping, prefix: str, missing: list, errors: list
    ) -> None:
        own = [(n, p) for n, p in self._parameters.items() if p is not None]
        own += [
            (n, b)
            for n, b in self._buffers.items()
            if b is not None and n not in self._non_persistent_buffers_set
        ]
        for name, target in own:
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {type(value)}"
                )
                continue
            if value.shape != target.shape:
                errors.append(
                    f"size mismatch for {key}: copying a param with shape {value.shape} from "
                    f"checkpoint, the shape in current model is {target.shape}."
                )
                continue
            with no_grad():
                target.copy_(value)

    # -- printing -----------------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({name}): " + _indent_rest(repr(module), 2) for name, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self) -> list[str]:
        return sorted(
            set(super().__dir__()) | set(self._parameters) | set(self._modules) | set(self._buffers)
        )


Module.__module__ = "torch.nn.modules.module"


def zero_param_grad(param: Tensor, set_to_none: bool) -> None:
    """What `Module.zero_grad` and `Optimizer.zero_grad` do to one parameter's `.grad`."""
    grad = param._grad
    if grad is None:
        return
    if set_to_none:
        param._grad = None
        return
    if grad._grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    with no_grad():
        grad.zero_()
