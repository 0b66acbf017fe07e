"""Random tensors from PyTorch's CPU stream (core/generator.py): `rand`, `randn`, `randint`,
`randperm`, `normal`, `bernoulli`, `multinomial`, the in-place `uniform_`, `normal_`,
`bernoulli_`, `exponential_`, `random_`, `log_normal_`, `cauchy_`, `geometric_`, and the
default generator (`manual_seed`, `seed`, `initial_seed`, `get_rng_state`, `set_rng_state`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes, limits
from ..core import generator as stream
from ..core.apply import apply_inplace, apply_op
from ..core.arguments import checks_own_arguments
from ..core.devices import check_device, is_meta_data, on_device
from ..core.generator import Generator
from ..core.inference import mark_new
from ..core.numpy_names import size_keyword
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, check_requested_dtype, declare_out, write_out, write_result
from ..core.tensor import Tensor, _wrap, broadcast_shape
from .arithmetic import shape_arg
from .creation import _check_size, _finish, _like, _shape_and_dtype
from .reductions import _TYPE_WORDS

default_generator = Generator()  # seeded afresh in each process, as PyTorch's
default_generator.seed_on_first_use()


def _generator(generator: Any, function: str) -> Generator:
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(
            f"{function}(): argument 'generator' must be torch.Generator, not "
            f"{type(generator).__name__}"
        )
    return generator


def manual_seed(seed: Any) -> Generator:
    """Seeds the default generator; returns it."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


@checks_own_arguments
def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


_C_TYPES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}  # fmt: skip


def _continuous(np_dtype: np.dtype, name: str, word: str) -> None:
    """Exponential and Cauchy refuse integer tensors (naming the dtype two different ways)."""
    if np_dtype.kind != "f":
        shown = (
            _C_TYPES.get(np_dtype.name, np_dtype.name)
            if word == "c"
            else _TYPE_WORDS.get(np_dtype.name, np_dtype.name)
        )
        raise RuntimeError(
            f"{name} distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {shown}"
        )


# -- in-place fills: values drawn in the target's memory order ----------------------------------


def _keep(a: np.ndarray, values: np.ndarray) -> np.ndarray:
    return values


def _zero(B: Any, g: Any, **_: Any) -> Any:
    """What a draw passes back: zeros (its values do not depend on its inputs)."""
    return B.zeros_like(g)


def _fill_op(name: str, grad_fn: str) -> Any:
    return defop(name, grad_fn, _keep, _zero, promotes=False, keeps_params=False, rules=("0",))


UNIFORM = _fill_op("uniform_", "UniformBackward0")
NORMAL = _fill_op("normal_", "NormalBackward0")
BERNOULLI_FILL = _fill_op("bernoulli_", "BernoulliBackward2")
BERNOULLI_FILL_TENSOR = defop(  # bernoulli_(p) with a tensor of probabilities: p is an input
    "bernoulli_tensor_", "BernoulliBackward1", lambda a, p, values: values, _zero, _zero,
    promotes=False, keeps_params=False, arg_names=("self", "p"), rules=("0", "0"),
    aten="bernoulli_",
)  # fmt: skip
EXPONENTIAL = _fill_op("exponential_", "ExponentialBackward0")
RANDOM = _fill_op("random_", "RandomBackward0")
LOG_NORMAL = _fill_op("log_normal_", "LogNormalBackward0")
CAUCHY = _fill_op("cauchy_", "CauchyBackward0")
GEOMETRIC = _fill_op("geometric_", "GeometricBackward0")
BERNOULLI = defop(
    "bernoulli", "BernoulliBackward0", _keep, _zero, promotes=False, keeps_params=False,
    rules=("0",),
)  # fmt: skip


def _fill(target: Tensor, op: Any, draw: Any, inputs: tuple = ()) -> Tensor:
    """Writes `draw(n, contiguous)` (flat, in memory order) into `target` through `op`, whose
    other `inputs` (a probability tensor) the node records."""
    data = np.asarray(target._data)
    if is_meta_data(target._data):  # a meta tensor has no values: nothing is drawn
        return apply_inplace(op, target, inputs, {"values": np.zeros(data.shape, data.dtype)})
    flat = draw(data.size, bool(data.flags.c_contiguous))
    values = stream.in_memory_order(data, flat.astype(data.dtype, copy=False))
    return apply_inplace(op, target, inputs, {"values": values})


def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator: Any = None) -> Tensor:
    gen = _generator(generator, "uniform_")
    dtype = np.asarray(self._data).dtype
    dtypes.require_floating(dtype, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={from_} > to={to}"
        )
    return _fill(self, UNIFORM, lambda n, _: stream.uniform(gen, n, dtype, from_, to))


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Tensor:
    gen = _generator(generator, "normal_")
    dtype = np.asarray(self._data).dtype
    dtypes.require_floating(dtype, "normal_kernel_cpu")
    _check_std(std)
    return _fill(self, NORMAL, lambda n, c: stream.normal(gen, n, dtype, mean, std, c))


def _check_std(std: float) -> None:
    if std < 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    gen = _generator(generator, "bernoulli_")
    if isinstance(p, Tensor):  # one probability per element, uniforms of p's dtype
        data = np.asarray(self._data)
        probs = np.broadcast_to(np.asarray(p._data), data.shape)
        _check_probabilities(probs)
        kind = np.float32 if probs.dtype == np.float32 else np.float64
        axes, _ = stream.fill_order(data.shape, data.strides)
        flat = probs.transpose(axes).reshape(-1)  # in the order the fill visits elements
        draw = lambda n, _: stream.bernoulli(gen, flat, n, kind)  # noqa: E731
        return _fill(self, BERNOULLI_FILL_TENSOR, draw, (p,))
    if not 0.0 <= p <= 1.0:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    return _fill(self, BERNOULLI_FILL, lambda n, _: stream.bernoulli(gen, p, n))


def _check_probabilities(probs: np.ndarray) -> None:
    if probs.size and not ((probs >= 0) & (probs <= 1)).all():
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)"
        )


def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    gen = _generator(generator, "exponential_")
    dtype = np.asarray(self._data).dtype
    _continuous(dtype, "Exponential", "torch")
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_number(lambd)}")
    return _fill(self, EXPONENTIAL, lambda n, _: stream.exponential(gen, n, dtype, lambd))


def log_normal_(
    self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator: Any = None
) -> Tensor:
    gen = _generator(generator, "log_normal_")
    dtype = np.asarray(self._data).dtype
    dtypes.require_floating(dtype, "log_normal_cpu")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_number(std)}")
    return _fill(self, LOG_NORMAL, lambda n, _: stream.log_normal(gen, n, dtype, mean, std))


def cauchy_(
    self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None
) -> Tensor:
    gen = _generator(generator, "cauchy_")
    dtype = np.asarray(self._data).dtype
    _continuous(dtype, "Cauchy", "c")
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_number(sigma)}")
    return _fill(self, CAUCHY, lambda n, _: stream.cauchy(gen, n, dtype, median, sigma))


def geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    gen = _generator(generator, "geometric_")
    dtype = np.asarray(self._data).dtype
    if not 0.0 < p < 1.0:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    return _fill(self, GEOMETRIC, lambda n, _: stream.geometric(gen, n, dtype, p))


# the largest value `random_()` gives per dtype: every integer the dtype holds exactly
_RANDOM_MAX = {"float16": 2**11, "float32": 2**24, "float64": 2**53, "bool": 1}


def _random_max(dtype: np.dtype) -> int:
    return _RANDOM_MAX[dtype.name] if dtype.name in _RANDOM_MAX else int(np.iinfo(dtype).max)


def random_(self: Tensor, from_: Any = None, to: Any = None, *, generator: Any = None) -> Tensor:
    """`random_()`: [0, the dtype's largest exact integer]; `random_(to)`; `random_(from, to)`."""
    gen = _generator(generator, "random_")
    dtype = np.asarray(self._data).dtype
    if from_ is None:
        low, high = 0, _random_max(dtype) + 1
    elif to is None:
        low, high = 0, int(from_)
    else:
        low, high = int(from_), int(to)
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    return _fill(self, RANDOM, lambda n, _: stream.integers(gen, n, low, high))


# -- factories ----------------------------------------------------------------------------------


def _out_dtype(dtype: Any, out: Any, name: str = "rand") -> Any:
    """With `out=`, values are drawn in out's dtype (a `dtype=` given too must be out's)."""
    if out is None:
        return dtype
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if dtype is not None:
        check_requested_dtype(name, dtype, out)
    return dtypes.BY_NUMPY[np.asarray(out._data).dtype]


def _into(out: Any, result: Tensor, name: str, *inputs: Any, warn: bool = False) -> Tensor:
    """`result`, or with `out=` written into `out` (out_arg.write_result)."""
    if out is None:
        return result
    return write_result(name, out, result, *inputs, warn=warn)


def _new(shape: tuple, np_dtype: np.dtype, draw: Any, requires_grad: bool) -> Tensor:
    n = int(np.prod(shape, dtype=np.int64))
    return _finish(draw(n).astype(np_dtype, copy=False).reshape(shape), requires_grad)


def _float_draw(
    name: str,
    kernel: str,
    draw: Any,
    size: tuple,
    generator: Any,
    dtype: Any,
    device: Any,
    out: Any,
    requires_grad: bool,
) -> Tensor:
    """`rand`/`randn`: a new floating tensor of `size` filled by `draw(gen, n, np_dtype)`."""
    check_device(device)
    gen = _generator(generator, name)
    shape, np_dtype = _shape_and_dtype(size, _out_dtype(dtype, out, name))
    _check_size(shape)
    dtypes.require_floating(np_dtype, kernel)
    result = _new(shape, np_dtype, lambda n: draw(gen, n, np_dtype), requires_grad)
    return _into(out, result, name)


@size_keyword
def rand(
    *size: Any,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    args = (size, generator, dtype, device, out, requires_grad)
    return _float_draw("rand", "check_uniform_bounds", stream.uniform01, *args)


declare_out("rand", OutRule("free", silent=True))


@size_keyword
def randn(
    *size: Any,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    draw = lambda gen, n, np_dtype: stream.normal(gen, n, np_dtype, 0.0, 1.0)  # noqa: E731
    args = (size, generator, dtype, device, out, requires_grad)
    return _float_draw("randn", "normal_kernel_cpu", draw, *args)


declare_out("randn", OutRule("free", silent=True, resizes_first=True))


def rand_like(
    input: Tensor, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    check_device(device)
    shape, np_dtype = _like(input, dtype)
    return rand(shape, dtype=dtypes.BY_NUMPY[np_dtype], requires_grad=requires_grad)


def randn_like(
    input: Tensor, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    check_device(device)
    shape, np_dtype = _like(input, dtype)
    return randn(shape, dtype=dtypes.BY_NUMPY[np_dtype], requires_grad=requires_grad)


def _int_bounds(bounds: list) -> tuple[int, int]:
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    return low, high


def randint(
    *args: Any,
    size: Any = None,
    low: Any = None,
    high: Any = None,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    """`randint(high, size)`, `randint(low, high, size)` (also as keywords): int64 by default."""
    if out is not None:
        return write_out(
            randint,
            out,
            *args,
            size=size,
            low=low,
            high=high,
            generator=generator,
            dtype=dtype,
            device=device,
            requires_grad=requires_grad,
        )
    check_device(device)
    gen = _generator(generator, "randint")
    args = list(args)
    if size is None:
        size = args.pop()
    bounds = [*args, *(b for b in (low, high) if b is not None)]
    lo, hi = _int_bounds(bounds)
    shape = shape_arg((size,) if not isinstance(size, (tuple, list)) else (tuple(size),))
    _check_size(shape)
    np_dtype = dtypes.to_numpy(dtype) or dtypes.NP_INT64
    return _new(shape, np_dtype, lambda n: stream.integers(gen, n, lo, hi), requires_grad)


declare_out("randint", OutRule("free", in_out_dtype=True, silent=True))


def randint_like(
    input: Tensor,
    low: Any,
    high: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    check_device(device)
    shape, np_dtype = _like(input, dtype)
    lo, hi = _int_bounds([low] if high is None else [low, high])
    return randint(lo, hi, shape, dtype=dtypes.BY_NUMPY[np_dtype], requires_grad=requires_grad)


def randperm(
    n: int,
    *,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            randperm,
            out,
            n,
            generator=generator,
            dtype=dtype,
            device=device,
            requires_grad=requires_grad,
        )
    check_device(device)
    gen = _generator(generator, "randperm")
    n = int(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    limits.check_elements(n)
    np_dtype = dtypes.to_numpy(dtype) or dtypes.NP_INT64
    return _finish(stream.permutation(gen, n).astype(np_dtype), requires_grad)


declare_out("randperm", OutRule("free", in_out_dtype=True, silent=True))


def _generators(kwargs: dict) -> list[Generator]:
    """The generators a factory may draw from (left as they were for a meta tensor)."""
    given = kwargs.get("generator")
    return [default_generator] + ([given] if isinstance(given, Generator) else [])


# On the meta device these draw nothing (the generators keep their state, as in PyTorch).
rand, randn, randint, randperm = (
    on_device(f, keeps_rng=_generators) for f in (rand, randn, randint, randperm)
)
rand_like, randn_like, randint_like = (
    on_device(f, like=True, keeps_rng=_generators) for f in (rand_like, randn_like, randint_like)
)


def normal(
    mean: Any = 0.0,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    """`normal(mean, std, size)` with floats, or with a tensor mean and/or std (broadcast)."""
    check_device(device)
    gen = _generator(generator, "normal")
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError(
                "normal() received an invalid combination of arguments - got (float, float), "
                "but expected one of: (Tensor mean, Tensor std), (Tensor mean, float std = 1), "
                "(float mean, Tensor std), (float mean, float std, tuple of ints size)"
            )
        shape = shape_arg((size,))
        _check_size(shape)
        np_dtype = (
            dtypes.to_numpy(_out_dtype(dtype, out, "normal")) or dtypes.get_default_dtype().np
        )
        dtypes.require_floating(np_dtype, "normal_kernel_cpu")
        _check_std(float(std))
        draw = lambda n: stream.normal(gen, n, np_dtype, mean, std)  # noqa: E731
        return _into(out, _new(shape, np_dtype, draw, requires_grad), "normal")
    if isinstance(out, Tensor) and isinstance(mean, Tensor) and not isinstance(std, Tensor):
        mean = _broadcast_to_out(mean, out)  # a tensor mean spreads over out's shape
    return _into(out, _normal_tensors(gen, mean, std), "normal", mean, std, warn=True)


declare_out("normal", OutRule("free", silent=True))


def _broadcast_to_out(mean: Tensor, out: Tensor) -> Tensor:
    shape = broadcast_shape(tuple(mean.shape), tuple(np.shape(out._data)))
    return _wrap(np.broadcast_to(np.asarray(mean._data), shape))


def _normal_tensors(gen: Generator, mean: Any, std: Any) -> Tensor:
    """`z * std + mean`, z standard normals of the broadcast shape in the mean's dtype (the
    std's without a tensor mean), each step rounded to that dtype as PyTorch's in-place steps."""
    means = np.asarray(mean._data) if isinstance(mean, Tensor) else None
    stds = np.asarray(std._data) if isinstance(std, Tensor) else None
    if stds is None:
        _check_std(float(std))
    elif stds.size and (stds < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    np_dtype = means.dtype if means is not None else stds.dtype
    dtypes.require_floating(np_dtype, "normal_kernel_cpu")
    shape = broadcast_shape(*(a.shape for a in (means, stds) if a is not None))
    n = int(np.prod(shape, dtype=np.int64))
    z = stream.normal(gen, n, np_dtype, 0.0, 1.0).reshape(shape)
    scale = stds if stds is not None else np.asarray(std, np_dtype)
    shift = means if means is not None else np.asarray(mean, np_dtype)
    return mark_new(_wrap(((z * scale).astype(np_dtype) + shift).astype(np_dtype, copy=False)))


def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None, out: Any = None) -> Tensor:
    """0/1 draws with the probabilities in `input` (or the one probability `p`)."""
    gen = _generator(generator, "bernoulli")
    probs = np.asarray(input._data)
    if out is not None:
        return _into(out, bernoulli(input, p, generator=gen), "bernoulli", input)
    if p is not None:
        return bernoulli_(mark_new(_wrap(np.empty_like(probs))), p, generator=gen)
    _check_probabilities(probs)
    kind = np.float32 if probs.dtype == np.float32 else np.float64
    flat = stream.bernoulli(gen, probs.reshape(-1), probs.size, kind)
    values = flat.reshape(probs.shape).astype(probs.dtype)
    return apply_op(BERNOULLI, (input,), {"values": values})


def multinomial(
    input: Tensor,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Any = None,
    out: Any = None,
) -> Tensor:
    """Category indices drawn by the weights in each row of `input` (1-D or 2-D)."""
    gen = _generator(generator, "multinomial")
    if isinstance(out, Tensor) and np.asarray(out._data).dtype != np.int64:
        word = dtypes.scalar_name(np.asarray(out._data).dtype)
        raise RuntimeError(f"multinomial expects Long tensor out, got: {word}")
    probs = np.asarray(input._data)
    rows = _check_multinomial(probs, int(num_samples), replacement)
    if not replacement or num_samples == 1:
        # weights over exponential draws: the largest `num_samples` ratios, in order
        q = stream.exponential(gen, rows.size, rows.dtype, 1.0).reshape(rows.shape)
        ratio = rows / q
        if num_samples == 1:
            picks = ratio.argmax(axis=1)[:, None]
        else:
            picks = np.argsort(-ratio, axis=1, kind="stable")[:, :num_samples]
    else:
        u = stream.uniform01(gen, rows.shape[0] * num_samples, np.float64)
        u = u.reshape(rows.shape[0], num_samples)
        cdf = np.cumsum(rows, axis=1) / rows.sum(axis=1, keepdims=True)
        picks = np.stack([np.searchsorted(c, draws) for c, draws in zip(cdf, u)])
        picks = np.minimum(picks, rows.shape[1] - 1)
    picks = mark_new(_wrap(picks.reshape(probs.shape[:-1] + (num_samples,)).astype(np.int64)))
    return _into(out, picks, "multinomial", input)


def _check_multinomial(probs: np.ndarray, num_samples: int, replacement: bool) -> np.ndarray:
    """The weights as rows, after PyTorch's checks."""
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        word = _TYPE_WORDS.get(probs.dtype.name, probs.dtype.name)
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {word}"
        )
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if not np.isfinite(probs).all() or (probs < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    rows = probs.reshape(-1, probs.shape[-1])
    if (rows.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    return rows


def _tensor_multinomial(
    self: Tensor, num_samples: int, replacement: bool = False, *, generator: Any = None
) -> Tensor:
    return multinomial(self, num_samples, replacement, generator=generator)


def _tensor_bernoulli(self: Tensor, p: Any = None, *, generator: Any = None) -> Tensor:
    return bernoulli(self, p, generator=generator)


tensor_methods(
    "ops.random",
    {
        "multinomial": _tensor_multinomial,
        "bernoulli": _tensor_bernoulli,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(BERNOULLI, None, inplace=bernoulli_)
declare_forms(CAUCHY, cauchy_, method=True)
declare_forms(EXPONENTIAL, exponential_, method=True)
declare_forms(GEOMETRIC, geometric_, method=True)
declare_forms(LOG_NORMAL, log_normal_, method=True)
declare_forms(NORMAL, normal_, method=True)
declare_forms(RANDOM, random_, method=True)
declare_forms(UNIFORM, uniform_, method=True)
