"""A PyTorch-faithful autograd engine on numpy: `import autodiff_cli.engine as torch`."""

from __future__ import annotations

import math as _math
import sys as _sys
from types import ModuleType as _ModuleType

import numpy as _np

from autodiff_cli import engine_options as _engine_options
from autodiff_cli import lazy_imports as _lazy

from . import random  # noqa: F401 - torch.random
from .core import anomaly as _anomaly  # noqa: F401 - loaded with the engine (lang gives it its stack)
from .core import arguments as _arguments  # noqa: F401 - the language explains failed calls
from .core import backward_api as _backward_api  # noqa: F401 - attaches Tensor.backward
from .core import dtypes as _dtypes
from .core import modes as _modes
from .core import numpy_names as _numpy_names
from .core import saved_hooks as _saved_hooks  # noqa: F401 - grad_fn._raw_saved_<name>
from .core.devices import device  # noqa: F401
from .core.dtypes import get_default_dtype, set_default_dtype  # noqa: F401
from .core.generator import Generator  # noqa: F401
from .core.grad_mode import GradMode as _GradMode
from .core.grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .core.grad_mode import reset_inference_mode as _reset_inference_mode
from .core.inference import is_inference  # noqa: F401 - also Tensor.is_inference
from .core.optable import tensor_methods as _tensor_methods
from .core.out_arg import write_out as _write_out
from .core.printing import set_printoptions  # noqa: F401
from .core.tensor import Size, Tensor  # noqa: F401
from .core.type_info import finfo, iinfo  # noqa: F401
from .ops import conversion as _methods  # noqa: F401 - attaches Tensor methods
from .ops import fills  # noqa: F401 - attaches fill_/zero_/copy_
from .ops import legacy_types as _legacy_types
from .ops import reductions as _reductions  # noqa: F401
from .ops import resize as _resize  # noqa: F401 - attaches resize_/resize_as_
from .ops import unary as _unary
from .ops.arithmetic import (  # noqa: F401
    add,
    clone,
    div,
    divide,
    eq,
    flatten,
    ge,
    greater,
    greater_equal,
    gt,
    le,
    less,
    less_equal,
    lt,
    mul,
    multiply,
    ne,
    neg,
    negative,
    not_equal,
    pow,
    reciprocal,
    reshape,
    select,
    square,
    squeeze,
    stack,
    sub,
    subtract,
    swapaxes,
    t,
    transpose,
    true_divide,
    unbind,
    unsqueeze,
    where,
)
from .ops.arrange import *  # noqa: E402, F401, F403
from .ops.bitwise import *  # noqa: E402, F401, F403
from .ops.blends import *  # noqa: E402, F401, F403
from .ops.creation import (  # noqa: F401
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from .ops.elementwise import *  # noqa: E402, F401, F403
from .ops.index_ops import *  # noqa: E402, F401, F403
from .ops.indexing import *  # noqa: E402, F401, F403
from .ops.legacy_types import *  # noqa: E402, F401, F403 - FloatTensor..., set_default_tensor_type
from .ops.matrix import *  # noqa: E402, F401, F403
from .ops.random import (  # noqa: F401
    bernoulli,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from .ops.reductions import *  # noqa: E402, F401, F403
from .ops.sorting import *  # noqa: E402, F401, F403
from .ops.unary import (  # noqa: F401
    abs,
    absolute,
    acos,
    arccos,
    arcsin,
    arctan,
    asin,
    atan,
    ceil,
    cos,
    cosh,
    erf,
    exp,
    expm1,
    fix,
    floor,
    isnan,
    log,
    log1p,
    log2,
    log10,
    logical_not,
    relu,
    rsqrt,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
    trunc,
)
from .ops.views import *  # noqa: E402, F401, F403

_np.seterr(all="ignore")  # PyTorch gives nan/inf silently

float32 = float = _dtypes.float32
float64 = double = _dtypes.float64
float16 = half = _dtypes.float16
int64 = long = _dtypes.int64
int32 = int = _dtypes.int32
int16 = short = _dtypes.int16
int8 = _dtypes.int8
uint8 = _dtypes.uint8
bool = _dtypes.bool_
dtype = _dtypes.dtype
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
from . import accelerator  # noqa: E402, F401 - torch.accelerator (CPU only)
from .accelerator import get_default_device, set_default_device  # noqa: E402, F401
from .version import __version__  # noqa: E402, F401 - TorchVersion("2.13.0+cpu")

# Submodules a one-liner does not load at start-up: they load on first use, all through
# `_submodule` (autodiff_cli/lazy_imports.py's "autodiff_cli.engine.*" says why). The torch
# functions below call into these; torch.nn, torch.optim... are `_LAZY_SUBMODULES` (PEP 562,
# `__getattr__`); the op families a lean engine leaves out are `_EXTRA_FAMILIES`.
_FUNCTIONAL = "nn.functional"
_FUNCTIONAL_OPS = "nn.functional_ops"
_BATCH_NORM = "ops.batch_norm"
_SERIALIZATION = "serialization"


def _submodule(name: str) -> _ModuleType:
    """The engine's submodule `name` (`nn.functional`), imported on first use."""
    loaded = _sys.modules.get(f"{__name__}.{name}")  # (softmax & co call it on every use)
    return loaded if loaded is not None else _lazy.load(f"{__name__}.{name}")


def softmax(input: Tensor, dim: int, dtype: dtype | None = None, *, out: object = None) -> Tensor:
    """`torch.softmax`: nn.functional's, loaded on first use (start-up time)."""
    if out is not None:
        return _write_out(softmax, out, input, dim, dtype)
    return _submodule(_FUNCTIONAL).softmax(input, dim, dtype=dtype)


def log_softmax(
    input: Tensor, dim: int, dtype: dtype | None = None, *, out: object = None
) -> Tensor:
    """`torch.log_softmax`: nn.functional's, loaded on first use (start-up time)."""
    if out is not None:
        return _write_out(log_softmax, out, input, dim, dtype)
    return _submodule(_FUNCTIONAL).log_softmax(input, dim, dtype=dtype)


def _softmax_method(self: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    return softmax(self, dim, dtype)


def _log_softmax_method(self: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    return log_softmax(self, dim, dtype)


def xlogy(input: Tensor | float, other: Tensor | float, *, out: object = None) -> Tensor:
    """`torch.xlogy`: `input · log(other)`, 0 where input is 0 (nn.functional's, loaded on
    first use)."""
    if out is not None:
        return _write_out(xlogy, out, input, other)
    return _submodule(_FUNCTIONAL_OPS).xlogy(input, other)


def batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """`torch.batch_norm`: PyTorch's argument order (ops/batch_norm.py, loaded on first use)."""
    return _submodule(_BATCH_NORM).torch_batch_norm(
        input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
    )


_FUNCTIONAL_NORM = "nn.functional_norm"


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
    cudnn_enabled: bool = True,
) -> Tensor:
    """`torch.group_norm` (nn.functional's, loaded on first use)."""
    return _submodule(_FUNCTIONAL_NORM).group_norm(input, num_groups, weight, bias, eps)


def instance_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """`torch.instance_norm`: PyTorch's argument order (nn.functional's, loaded on first use)."""
    return _submodule(_FUNCTIONAL_NORM).instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """`torch.pixel_shuffle` (ops/shuffles.py, loaded on first use)."""
    return _submodule(_FUNCTIONAL_NORM).pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """`torch.pixel_unshuffle` (ops/shuffles.py, loaded on first use)."""
    return _submodule(_FUNCTIONAL_NORM).pixel_unshuffle(input, downscale_factor)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """`torch.channel_shuffle` (ops/shuffles.py, loaded on first use)."""
    return _submodule(_FUNCTIONAL_NORM).channel_shuffle(input, groups)


def adaptive_max_pool1d(input: Tensor, output_size: object) -> tuple:
    """`torch.adaptive_max_pool1d`: (values, indices), as PyTorch's returns them."""
    return _submodule(_FUNCTIONAL).adaptive_max_pool1d(input, output_size, True)


def _xlogy_(self: Tensor, other: Tensor | float) -> Tensor:
    return _submodule(_FUNCTIONAL_OPS).xlogy_(self, other)


# (here, not in nn.functional: a Tensor has them before torch.nn is first used)
_tensor_methods(
    "torch",
    {
        "softmax": _softmax_method,
        "log_softmax": _log_softmax_method,
        "xlogy": xlogy,
        "xlogy_": _xlogy_,
    },
)


def _functional_inplace(name: str) -> object:
    """`torch.<name>`: nn.functional's `<name without _>(..., inplace=True)` (loaded on first
    use)."""

    def function(input: Tensor, *args: object, **kwargs: object) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        return getattr(_submodule(_FUNCTIONAL), name[:-1])(input, *args, **kwargs, inplace=True)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: `nn.functional.{name[:-1]}(..., inplace=True)`."
    return function


dropout_ = _functional_inplace("dropout_")
alpha_dropout_ = _functional_inplace("alpha_dropout_")
feature_alpha_dropout_ = _functional_inplace("feature_alpha_dropout_")
celu_ = _functional_inplace("celu_")
selu_ = _functional_inplace("selu_")


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """`torch.dropout(input, p, train)`: nn.functional's dropout (loaded on first use)."""
    if not isinstance(input, Tensor):
        raise TypeError(
            f"dropout(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
        )
    return _submodule(_FUNCTIONAL).dropout(input, p, train)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """`torch.threshold_`: nn.functional's `threshold(..., inplace=True)`."""
    return _submodule(_FUNCTIONAL).threshold(input, threshold, value, inplace=True)


def save(obj: object, f: object, *args: object, **kwargs: object) -> None:
    """`torch.save` into an in-memory buffer (serialization.py, loaded on first use)."""
    _submodule(_SERIALIZATION).save(obj, f, *args, **kwargs)


def load(f: object, *args: object, **kwargs: object) -> object:
    """`torch.load` from an in-memory buffer (serialization.py, loaded on first use)."""
    return _submodule(_SERIALIZATION).load(f, *args, **kwargs)


def vmap(
    func: object,
    in_dims: object = 0,
    out_dims: object = 0,
    randomness: str = "error",
    *,
    chunk_size: object = None,
) -> object:
    """`torch.vmap`, the same as `torch.func.vmap` (loaded on first use)."""
    return _submodule("func").vmap(func, in_dims, out_dims, randomness, chunk_size=chunk_size)


def is_tensor(obj: object) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def argmax(
    input: Tensor, dim: object = None, keepdim: bool = False, *, out: object = None
) -> Tensor:
    if out is not None:
        return _write_out(argmax, out, input, dim, keepdim)
    return input.argmax(dim, keepdim)


def argmin(
    input: Tensor, dim: object = None, keepdim: bool = False, *, out: object = None
) -> Tensor:
    if out is not None:
        return _write_out(argmin, out, input, dim, keepdim)
    return input.argmin(dim, keepdim)


def allclose(
    input: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False
) -> bool:
    return input.allclose(other, rtol, atol, equal_nan)


def isclose(
    input: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False
) -> Tensor:
    return _methods.isclose(input, other, rtol, atol, equal_nan)


def equal(input: Tensor, other: Tensor) -> bool:
    return input.equal(other)


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()


def set_num_threads(n: int) -> None:
    """Accepted for compatibility; the engine runs on one thread."""


def get_num_threads() -> int:
    return 1


def detach(input: Tensor) -> Tensor:
    return input.detach()


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return _unary.softplus(input, beta, threshold)


def result_type(tensor1: object, tensor2: object) -> dtype:
    """The dtype PyTorch's promotion rules give `tensor1 op tensor2`."""
    dims, zero_dims, scalars = [], [], []
    for x in (tensor1, tensor2):
        if isinstance(x, Tensor):
            (dims if x.ndim else zero_dims).append(x._data.dtype)
        else:
            scalars.append(_dtypes.scalar_np_dtype(x))
    return _dtypes.BY_NUMPY[_dtypes.result_type(dims, zero_dims, scalars)]


def promote_types(type1: dtype, type2: dtype) -> dtype:
    return _dtypes.BY_NUMPY[_dtypes.promote_types(type1.np, type2.np)]


def can_cast(from_: dtype, to: dtype) -> bool:
    return _dtypes.category_of(from_.np) <= _dtypes.category_of(to.np)


# The names `import torch` gives a script: the language builds its `torch` from this list,
# never from this module's globals (which also hold op machinery imported to build the ops).
_STAR_FAMILIES = (
    "arrange", "bitwise", "blends", "elementwise", "index_ops", "indexing", "legacy_types",
    "matrix", "reductions", "sorting", "views",
)  # fmt: skip
__all__ = sorted(
    {
        *"""
        Generator Size Tensor device dtype bool double float float16 float32 float64 half int
        int16 int32 int64 int8 long short uint8 e inf nan pi
        abs absolute acos add allclose arange arccos arcsin arctan as_tensor asin atan batch_norm
        bernoulli can_cast ceil clone cos cosh default_generator detach div divide empty
        empty_like enable_grad eq equal erf exp expm1 eye finfo fix flatten floor from_numpy full
        full_like ge get_default_device get_default_dtype get_num_threads get_rng_state greater
        greater_equal gt iinfo inference_mode initial_seed is_anomaly_check_nan_enabled
        is_anomaly_enabled is_floating_point is_grad_enabled is_inference
        is_inference_mode_enabled is_tensor isclose isnan le less less_equal linspace load log log10
        log1p log2 log_softmax logical_not logspace lt manual_seed mul multinomial multiply ne
        neg negative no_grad normal not_equal numel ones ones_like pow promote_types rand
        rand_like randint randint_like randn randn_like randperm reciprocal relu reshape
        result_type rsqrt save seed select set_default_device set_default_dtype set_grad_enabled
        set_num_threads set_printoptions set_rng_state sigmoid sign sin sinh softmax softplus
        sqrt square squeeze stack sub subtract swapaxes t tan tanh tensor transpose true_divide
        trunc unbind unsqueeze vmap where xlogy zeros zeros_like
        dropout dropout_ alpha_dropout_ feature_alpha_dropout_ celu_ selu_ threshold_
        group_norm instance_norm pixel_shuffle pixel_unshuffle channel_shuffle adaptive_max_pool1d
        """.split(),
        *(
            name
            for family in _STAR_FAMILIES
            for name in _sys.modules[f"{__name__}.ops.{family}"].__all__
        ),
    }
)


def _accept_numpy_names(names: list[str]) -> None:
    """The torch functions among `names` taking `dim`/`keepdim` also take `axis`/`keepdims`."""
    scope = globals()
    for name in names:
        scope[name] = _numpy_names.accepting_numpy_names(name, scope[name])


_accept_numpy_names(__all__)

# Submodules a one-liner rarely needs load on first use, to keep start-up short.
# Op families a one-liner seldom needs: imported with the engine, except when the `grad`
# command asks for a lean engine (`engine_options.request_lean_engine()`, its start-up) and the expression
# names none of them (cli/jail/warm_up.py decides, in the parent, before a child is locked down).
_EXTRA_FAMILIES = (
    "activations", "combining", "decompositions", "matrix_functions", "predicates", "python_maps",
    "reshaping", "searching", "select_ops", "special_math", "statistics", "derived_methods",
    "vector_ops", "einsum", "inplace_methods", "distances", "lu_factor", "incomplete_gamma",
    "lowrank", "sequence_builders", "tensor_functions", "summaries", "scatters", "poisson",
)  # fmt: skip
_extras_loaded = False


def _load_extra_ops() -> None:
    """Imports the extra op families (their Tensor methods attach themselves) and binds their
    `torch.*` names here, as `from .ops.family import *` would."""
    global _extras_loaded
    if _extras_loaded:
        return
    _extras_loaded = True
    for family in _EXTRA_FAMILIES:
        module = _submodule(f"ops.{family}")
        globals().update((name, getattr(module, name)) for name in module.__all__)
        __all__.extend(module.__all__)
        _accept_numpy_names(module.__all__)


if not _engine_options.lean_engine_requested():
    _load_extra_ops()

_LAZY_SUBMODULES = (
    "autograd", "backends", "cuda", "func", "linalg", "masked", "nn", "optim", "profiler",
    "special", "utils",
)  # fmt: skip


def __getattr__(name: str) -> object:
    if name in _LAZY_SUBMODULES:
        module = _submodule(name)
        globals()[name] = module
        return module
    if not _extras_loaded and not name.startswith("__"):  # (not `__all__`, `__path__`...)
        _load_extra_ops()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module 'torch' has no attribute '{name}'")


def __dir__() -> list[str]:
    _load_extra_ops()
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))


def _reset_autograd_contexts() -> None:
    """Saved-tensor hooks, allow_mutation_on_saved_tensors and a dual level a script left on
    (a `with` in a generator it abandoned never exits): the next script starts without them, so
    one script's hook functions never run on another's tensors. Only modules already loaded
    can hold such state (a locked-down child imports nothing)."""
    state = _saved_hooks.HookState
    while state.stack:
        _saved_hooks.pop_hooks()
    state.disabled = None
    state.pending.clear()
    state.packing = False
    mutation = _sys.modules.get(__name__ + ".autograd.mutation")
    if mutation is not None and mutation._active:
        mutation._active.clear()
        _modes.pop(mutation._observer)
    rules = _sys.modules.get(__name__ + ".autograd.forward_rules")
    if rules is not None and rules.Level.current is not None:
        rules.stop()


def reset_global_state() -> None:
    """Back to a fresh process's settings: grad, inference and anomaly modes, default dtype,
    print options, random seed (a fresh one is drawn on first use, as in a new process).
    The CLI calls it between scripts so that one script's settings never leak into the next."""
    _anomaly.set_anomaly_enabled(False)
    _reset_inference_mode()
    _GradMode.enabled = True
    profiler = globals().get("profiler")  # loaded: a profile a script left running ends
    if profiler is not None:
        profiler.stop_all()
    _reset_autograd_contexts()
    set_default_dtype(float32)
    set_default_device(None)  # (`with torch.device(...)` blocks a script left open too)
    _legacy_types.reset_warnings()  # set_default_tensor_type's deprecation, once per script
    set_printoptions(profile="default")
    default_generator.seed_on_first_use()
