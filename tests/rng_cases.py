"""The random-stream cases shared by tests/record_rng_goldens.py (run with PyTorch) and
tests/test_rng.py (run with the engine): each case takes the `torch` module and returns a tensor,
a list of tensors or plain numbers, always after seeding.

`exact` cases must give PyTorch's bits; the others (normals made from float32 logs and sines,
float64 ones beyond 65,536 elements) PyTorch's values to a few ulps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

SEEDS = (0, 42, 2**32 + 3, 2**63 + 5, -7)
SIZES = (1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 100, 1000, 4097, 65536, 65537, 100000)
BIG_SEEDS = (0, 42)  # sizes above 1000 run with these seeds only

Case = tuple[str, Callable[[Any], Any], bool]


def _seeded(seed: int, draw: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(torch: Any) -> Any:
        torch.manual_seed(seed)
        return draw(torch)

    return run


def _grid() -> Iterator[tuple[int, int]]:
    for n in SIZES:
        for seed in SEEDS if n <= 1000 else BIG_SEEDS:
            yield seed, n


def factory_cases() -> Iterator[Case]:
    """rand/randn/randint/randperm and the in-place fills over the sizes and seeds."""
    for seed, n in _grid():
        for dt in ("float32", "float64"):
            yield (
                f"rand {dt} n={n} seed={seed}",
                _seeded(seed, lambda t, n=n, dt=dt: t.rand(n, dtype=getattr(t, dt))),
                True,
            )
            yield (
                f"uniform_(-0.37, 2.1) {dt} n={n} seed={seed}",
                _seeded(
                    seed,
                    lambda t, n=n, dt=dt: t.empty(n, dtype=getattr(t, dt)).uniform_(-0.37, 2.1),
                ),
                True,
            )
            exact = dt == "float64" and n <= 65536 or n < 16
            yield (
                f"randn {dt} n={n} seed={seed}",
                _seeded(seed, lambda t, n=n, dt=dt: t.randn(n, dtype=getattr(t, dt))),
                exact,
            )
            yield (
                f"normal_(0.3, 0.02) {dt} n={n} seed={seed}",
                _seeded(
                    seed, lambda t, n=n, dt=dt: t.empty(n, dtype=getattr(t, dt)).normal_(0.3, 0.02)
                ),
                exact,
            )
            yield (
                f"exponential_(2.5) {dt} n={n} seed={seed}",
                _seeded(
                    seed, lambda t, n=n, dt=dt: t.empty(n, dtype=getattr(t, dt)).exponential_(2.5)
                ),
                n <= 65536,
            )
            yield (
                f"bernoulli_(0.37) {dt} n={n} seed={seed}",
                _seeded(
                    seed, lambda t, n=n, dt=dt: t.empty(n, dtype=getattr(t, dt)).bernoulli_(0.37)
                ),
                True,
            )
        for low, high in ((0, 10), (-3, 7), (0, 2**32), (5, 2**40)):
            yield (
                f"randint({low}, {high}) n={n} seed={seed}",
                _seeded(seed, lambda t, n=n, lo=low, hi=high: t.randint(lo, hi, (n,))),
                True,
            )
        yield (f"randperm n={n} seed={seed}", _seeded(seed, lambda t, n=n: t.randperm(n)), True)
    # fmt: skip


def _shapes_cases() -> Iterator[Case]:
    shapes = ((2, 3), (4, 4), (3, 17), (8, 5, 7), (1,), ())
    for shape in shapes:
        for seed in (0, 5):
            yield (f"rand{shape} seed={seed}", _seeded(seed, lambda t, s=shape: t.rand(s)), True)
            yield (
                f"randn{shape} seed={seed}",
                _seeded(seed, lambda t, s=shape: t.randn(s, dtype=t.float64)),
                True,
            )
            yield (
                f"randint(0, 5, {shape}) seed={seed}",
                _seeded(seed, lambda t, s=shape: t.randint(0, 5, s)),
                True,
            )
    # fmt: skip


def _mixed(t: Any) -> list:
    """Draws of different kinds one after another (the stream's position, the normal cache)."""
    return [t.randn(1), t.rand(2), t.randn(3, dtype=t.float64), t.randn(16), t.randn(1),
            t.randint(0, 100, (5,)), t.randn(1, dtype=t.float64), t.randperm(7), t.rand(3)]  # fmt: skip


def _noncontiguous(t: Any) -> list:
    a = t.zeros(8, 4).t()
    a.normal_()
    b = t.zeros(10, 20)
    b[:, :16].uniform_(-1, 1)
    c = t.zeros(6, 30, dtype=t.float64)[:, 3:27]
    c.normal_(1.0, 2.0)
    return [a, b, c, t.randn(17)]


def _state_round_trip(t: Any) -> list:
    t.rand(5)
    state = t.get_rng_state()
    first = [t.randn(3), t.rand(2), t.randn(20)]
    t.set_rng_state(state)
    again = [t.randn(3), t.rand(2), t.randn(20)]
    return first + again + [t.get_rng_state()]


def _generators(t: Any) -> list:
    g = t.Generator().manual_seed(11)
    h = t.Generator()
    values = [t.rand(3, generator=g), t.randn(18, generator=g), t.rand(2, generator=h)]
    values.append(t.randint(0, 9, (4,), generator=g))
    values.append(t.randperm(6, generator=g))
    values.append(t.normal(0.0, 1.0, (3,), generator=g))
    state = g.get_state()
    values.append(state)
    values.append(t.randn(1, generator=g))
    g.set_state(state)
    values.append(t.randn(1, generator=g))
    values += [t.tensor([g.initial_seed(), h.initial_seed()]), t.rand(2)]
    return values


def _normal_tensors(t: Any) -> list:
    mean = t.linspace(-1, 1, 40)
    std = t.linspace(0.1, 2, 40, dtype=t.float64)
    return [t.normal(mean, std), t.normal(mean, 0.5), t.normal(0.5, std[:5]),
            t.normal(2.0, 3.0, (4, 5)), t.normal(mean[:7], std[:7].float())]  # fmt: skip


def _bernoulli_multinomial(t: Any) -> list:
    p = t.linspace(0.01, 0.99, 50)
    w = t.rand(3, 50) ** 3
    return [t.bernoulli(p), t.bernoulli(p.double()), t.bernoulli(t.ones(5), p=0.25),
            t.multinomial(w[0], 1), t.multinomial(w, 20, replacement=True),
            t.multinomial(w, 20), t.multinomial(w[1], 50), t.multinomial(w.double(), 1),
            t.multinomial(t.tensor([0.1, 0.2, 0.3, 0.4]), 8, True),
            t.empty(6, dtype=t.int64).random_(), t.empty(6).random_(), t.empty(6).random_(3, 9),
            t.empty(6, dtype=t.float64).random_(), t.empty(6, dtype=t.int32).random_()]  # fmt: skip


def _inits(t: Any) -> list:
    init = t.nn.init
    w = t.empty(5, 7)
    out = [init.kaiming_uniform_(w.clone(), a=5**0.5), init.kaiming_normal_(w.clone()),
           init.xavier_uniform_(w.clone()), init.xavier_normal_(w.clone(), gain=2.0),
           init.uniform_(t.empty(3, 4), -2, 2), init.normal_(t.empty(40), 1.0, 0.1),
           init.kaiming_uniform_(t.empty(16, 3, 3, 3), nonlinearity="relu")]  # fmt: skip
    g = t.Generator().manual_seed(3)
    out.append(init.xavier_uniform_(t.empty(4, 6), generator=g))
    return out


def _more_inits(t: Any) -> list:
    init = t.nn.init
    return [init.trunc_normal_(t.empty(50), 0.1, 0.5, -0.6, 0.9),
            init.trunc_normal_(t.empty(7, 3, dtype=t.float64), std=0.02),
            init.trunc_normal_(t.empty(300), 0.0, 1.0, 0.5, 3.0),
            init.orthogonal_(t.empty(3, 5)), init.orthogonal_(t.empty(6, 4, dtype=t.float64), 1.5),
            init.orthogonal_(t.empty(2, 3, 2)), init.sparse_(t.empty(6, 4), 0.3),
            init.sparse_(t.empty(20, 3, dtype=t.float64), 0.5, std=1.0), init.dirac_(t.empty(4, 2, 3)),
            init.dirac_(t.empty(4, 4, 3, 3), groups=2), t.rand(2)]  # fmt: skip


def _more_fills(t: Any) -> list:
    x = t.zeros(5, 8).t()
    x.cauchy_()
    return [t.empty(5).log_normal_(0.5, 0.3), t.empty(40, dtype=t.float64).log_normal_(),
            t.empty(7).cauchy_(0.5, 2.0), t.empty(40, dtype=t.float64).cauchy_(), x,
            t.empty(9).geometric_(0.3), t.empty(40, dtype=t.int64).geometric_(0.05),
            t.empty(4, dtype=t.float64).exponential_()]  # fmt: skip


def _out_arguments(t: Any) -> list:
    a, b, c = t.empty(5, dtype=t.float64), t.empty(0), t.empty(3)
    d, e = t.empty(4, dtype=t.int64), t.empty(3)
    t.rand(5, out=a)
    t.randn(20, out=b)
    t.normal(0.0, 2.0, (3,), out=c)
    t.multinomial(t.tensor([0.2, 0.8]), 4, True, out=d)
    t.bernoulli(t.full((3,), 0.5), out=e)
    return [a, b, c, d, e, t.rand(2)]


def _channel_dropout(t: Any) -> list:
    F = t.nn.functional
    x = t.randn(2, 3, 4, 4)
    return [F.dropout2d(x, 0.4), F.dropout1d(t.ones(2, 5, 3), 0.5), F.dropout1d(t.ones(5, 3), 0.5),
            F.dropout3d(t.ones(2, 3, 2, 2, 2, dtype=t.float64), 0.3), F.dropout3d(t.ones(3, 1, 2, 2)),
            F.alpha_dropout(t.ones(3, 4), 0.3, training=True), F.alpha_dropout(x, 0.2, True),
            F.feature_alpha_dropout(t.ones(2, 3, 2), 0.5, True), t.nn.Dropout2d(0.25)(x),
            t.nn.AlphaDropout(0.1)(x.double()), F.dropout2d(x, 1.0), t.rand(2)]  # fmt: skip


def _layers(t: Any) -> list:
    lin = t.nn.Linear(20, 30)
    lin2 = t.nn.Linear(3, 1, dtype=t.float64)
    emb = t.nn.Embedding(10, 3)
    seq = t.nn.Sequential(t.nn.Linear(4, 8), t.nn.ReLU(), t.nn.Linear(8, 2))
    return [lin.weight, lin.bias, lin2.weight, lin2.bias, emb.weight] + list(seq.parameters())


def _dropout(t: Any) -> list:
    x = t.randn(4, 25)
    d = t.nn.Dropout(0.3)
    return [t.nn.functional.dropout(x, 0.5), d(x), t.nn.functional.dropout(x.double(), 0.1),
            t.nn.functional.dropout(x, 0.5, training=False), t.rand(2)]  # fmt: skip


def _data(t: Any) -> list:
    from_data = t.utils.data
    ds = from_data.TensorDataset(t.arange(10))
    loader = from_data.DataLoader(ds, batch_size=4, shuffle=True)
    batches = [b for (b,) in loader] + [b for (b,) in loader]
    split = [t.tensor(list(s.indices)) for s in from_data.random_split(range(10), [3, 7])]
    sampler = list(from_data.RandomSampler(range(6), replacement=True, num_samples=40))
    fixed = list(from_data.RandomSampler(range(6), generator=t.Generator().manual_seed(3)))
    return batches + split + [t.tensor(sampler), t.tensor(fixed), t.rand(2)]


def _next_draws(t: Any) -> list:
    """Draws of each kind after a case's own: they show the stream's position (and the pending
    normal) it left."""
    return [t.rand(3), t.randn(3), t.randn(1, dtype=t.float64), t.randint(0, 1000, (2,))]


def _cube(x: Any) -> Any:
    return x**3


def _cube_and_product(x: Any, y: Any) -> tuple:
    return x**3 * y, (x + y).sum(), (x * 2).detach()


def _gradchecks(t: Any) -> list:
    """gradgradcheck draws its default grad_outputs (`uniform_(-1, 1)` per differentiable
    output); gradcheck, fast or not, and given grad_outputs draw nothing."""
    x = t.randn(3, dtype=t.float64, requires_grad=True)
    y = t.randn(3, dtype=t.float64, requires_grad=True)
    checks = [t.autograd.gradcheck(_cube, (x,)), t.autograd.gradcheck(_cube, (x,), fast_mode=True),
              t.autograd.gradgradcheck(_cube, (x,)), t.autograd.gradgradcheck(_cube_and_product, (x, y)),
              t.autograd.gradgradcheck(_cube, (x,), (t.ones(3, dtype=t.float64),))]  # fmt: skip
    return [t.tensor(checks), *_next_draws(t)]


def _dropout_without_draws(t: Any) -> list:
    """p=0, p=1, eval mode and empty inputs draw nothing; in-place and backward draw once."""
    F = t.nn.functional
    x, d = t.ones(10), t.nn.Dropout(0.5)
    d.eval()
    out = [F.dropout(x, 0.0), F.dropout(x, 1.0), d(x), F.dropout(t.ones(0), 0.3),
           F.dropout2d(t.ones(2, 3, 4, 4), 0.0), F.alpha_dropout(x, 0.0, True),
           F.alpha_dropout(x, 1.0, True)]  # fmt: skip
    y = t.ones(12)
    F.dropout(y, 0.3, inplace=True)
    z = t.ones(4, 5, requires_grad=True)
    F.dropout(z, 0.4).sum().backward()
    return out + [y, z.grad, *_next_draws(t)]


def _loaders(t: Any) -> list:
    """Every DataLoader iterator draws a base seed, shuffled or not, whole or partly read."""
    data = t.utils.data
    plain = data.DataLoader(data.TensorDataset(t.arange(7)), batch_size=3)
    shuffled = data.DataLoader(data.TensorDataset(t.arange(70)), batch_size=3, shuffle=True)
    own = data.DataLoader(list(range(7)), batch_size=3, shuffle=True,
                          generator=t.Generator().manual_seed(5))  # fmt: skip
    subset = data.DataLoader(list(range(10)), batch_size=2,
                             sampler=data.SubsetRandomSampler([1, 4, 6, 8]))  # fmt: skip
    out = [b for (b,) in plain] + [next(iter(shuffled))[0]] + list(own) + list(subset)
    batches = data.BatchSampler(data.RandomSampler(range(10)), 3, False)
    out += [t.tensor(b) for b in batches]
    out.append(t.tensor(list(data.RandomSampler(range(9), num_samples=20))))
    out += [t.tensor(list(s.indices)) for s in data.random_split(range(11), [0.3, 0.7])]
    return out + _next_draws(t)


def _module_inits(t: Any) -> list:
    """Parameters in creation order, and reset_parameters drawing again in PyTorch's order."""
    nn = t.nn
    modules = [nn.Linear(3, 2, bias=False), nn.Linear(2, 2), nn.Embedding(4, 2, padding_idx=1),
               nn.LayerNorm(3), nn.BatchNorm1d(3), nn.Linear(4, 3, dtype=t.float64)]  # fmt: skip
    modules[-1].reset_parameters()
    return [p for m in modules for p in m.parameters()] + _next_draws(t)


def _random_likes(t: Any) -> list:
    """Fills and initialisers of every kind (float32 normals under 16 elements, which PyTorch
    draws one by one, bit for bit)."""
    x, init = t.zeros(3, 2), t.nn.init
    w = t.empty(4, 6)
    return [t.rand_like(x), t.randn_like(x), t.randint_like(x, 10), t.randint_like(x, 2, 9),
            t.rand_like(x, dtype=t.float64), x.clone().random_(10), t.normal(t.zeros(3), 1.0),
            init.kaiming_normal_(t.empty(3, 5), mode="fan_out", nonlinearity="relu"),
            init.kaiming_uniform_(w.clone(), mode="fan_out"), init.eye_(t.empty(3, 3)),
            init.constant_(t.empty(2), 0.3), init.zeros_(t.empty(2)), init.trunc_normal_(t.empty(5)),
            init.normal_(t.empty(3, dtype=t.float64)), t.rand(3, dtype=t.float16),
            t.randn(3, dtype=t.float16), t.randperm(40, dtype=t.float32), t.randperm(0),
            t.multinomial(t.tensor([[1.0, 2, 3], [3, 2, 1]]), 2), *_next_draws(t)]  # fmt: skip


def special_cases() -> Iterator[Case]:
    functions = {
        "mixed draws": _mixed, "non-contiguous fills": _noncontiguous,
        "get/set_rng_state": _state_round_trip, "torch.Generator": _generators,
        "normal with tensors": _normal_tensors, "bernoulli/multinomial/random_": _bernoulli_multinomial,
        "log_normal_/cauchy_/geometric_": _more_fills, "out=": _out_arguments,
        "channel and alpha dropout": _channel_dropout, "nn.init": _inits, "nn.init trunc_normal_/orthogonal_": _more_inits, "layer init": _layers, "dropout": _dropout, "data shuffling": _data,
        "stream after gradcheck/gradgradcheck": _gradchecks,
        "stream after dropout without draws": _dropout_without_draws,
        "stream after data loaders and samplers": _loaders,
        "stream after module initialisation": _module_inits,
        "stream after *_like, init and small draws": _random_likes,
    }  # fmt: skip
    discrete = ("bernoulli/multinomial/random_", "data shuffling", "log_normal_/cauchy_/geometric_")
    for name, function in functions.items():
        for seed in (0, 3, 2024):
            exact = name in discrete or name.startswith("stream after")
            yield f"{name} seed={seed}", _seeded(seed, function), exact


def live_cases(seeds: list[int], sizes: list[int]) -> Iterator[Case]:
    """Fresh seeds and sizes for the live test: the draws of every kind, then the layers."""
    for seed in seeds:
        for n in sizes:
            yield (
                f"draws n={n} seed={seed}",
                _seeded(
                    seed,
                    lambda t, n=n: [
                        t.rand(n),
                        t.rand(n, dtype=t.float64),
                        t.randint(-5, 2**33, (n,)),
                        t.randperm(n),
                        t.empty(n).bernoulli_(0.6),
                        t.empty(n, dtype=t.float64).uniform_(-3, 3),
                        t.randint(0, 7, (n,)),
                    ],
                ),
                True,
            )
            yield (
                f"normals n={n} seed={seed}",
                _seeded(
                    seed,
                    lambda t, n=n: [
                        t.randn(n),
                        t.randn(n, dtype=t.float64),
                        t.empty(n).normal_(2.0, 0.5),
                    ],
                ),
                False,
            )
        yield f"layers seed={seed}", _seeded(seed, _layers), False
        yield f"dropout seed={seed}", _seeded(seed, _dropout), False
    # fmt: skip


def all_cases() -> Iterator[Case]:
    yield from factory_cases()
    yield from _shapes_cases()
    yield from special_cases()


def to_arrays(result: Any) -> list[np.ndarray]:
    """A case's result as numpy arrays (tensors detached, numbers as 0-d arrays)."""
    items = result if isinstance(result, (list, tuple)) else [result]
    arrays = []
    for item in items:
        if hasattr(item, "detach"):
            arrays.append(np.asarray(item.detach().numpy()))
        else:
            arrays.append(np.asarray(item))
    return arrays


def digest(arrays: list[np.ndarray]) -> str:
    """sha256 over each array's dtype, shape and bytes."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(f"{a.dtype.name}{a.shape}".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:24]


def sample_positions(size: int, count: int = 32) -> list[int]:
    """Positions spread over a flat array: the ends and evenly in between."""
    if size <= count:
        return list(range(size))
    step = size / (count - 16)
    middle = [int(i * step) for i in range(count - 16)]
    return sorted(set(list(range(8)) + middle + list(range(size - 8, size))))


def summary(arrays: list[np.ndarray], exact: bool) -> dict:
    """What the goldens keep of a result: its digest, dtypes, shapes, and values: the first few
    of an exact case (shown when it fails), else all of them when few, or a sample with each
    array's float64 sum."""
    out: dict = {"digest": digest(arrays), "dtypes": [a.dtype.name for a in arrays],
                 "shapes": [list(a.shape) for a in arrays], "arrays": []}  # fmt: skip
    for a in arrays:
        flat = a.reshape(-1)
        positions = list(range(min(4, flat.size))) if exact else sample_positions(flat.size)
        values = flat[positions].tolist()
        if a.dtype == np.float32:  # 9 digits give a float32 back exactly
            values = [float(f"{v:.9g}") for v in values]
        entry: dict = {"values": values}
        if not exact and len(positions) < flat.size:
            entry["positions"] = positions
            entry["sum"] = float(flat.astype(np.float64).sum())
        out["arrays"].append(entry)
    return out
