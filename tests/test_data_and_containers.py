"""`torch.utils.data`, `torch.nn.utils` and the containers ModuleDict/ParameterList/ParameterDict.

Concrete values, shuffling properties, drop_last counts, clip_grad_norm_ against a numpy
reference, error messages, and the imports scripts use (no torch needed).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from script_runner import run

import autodiff_cli.engine as E
from autodiff_cli.engine.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    default_collate,
    default_convert,
    random_split,
)

nn = E.nn
U = E.nn.utils


def dataset(n: int = 10) -> TensorDataset:
    return TensorDataset(E.arange(float(2 * n)).reshape(n, 2), E.arange(n))


def labels(loader: DataLoader) -> list[int]:
    return [int(v) for batch in loader for v in batch[1].tolist()]


# -- datasets ---------------------------------------------------------------------------------


def test_tensor_dataset_items_and_size_check() -> None:
    ds = dataset(5)
    assert len(ds) == 5
    x, y = ds[3]
    assert x.tolist() == [6.0, 7.0] and y.item() == 3
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(E.ones(3), E.ones(4))


def test_dataset_base_and_concat_and_subset() -> None:
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset"):
        Dataset()[0]
    both = dataset(3) + dataset(2)
    assert isinstance(both, ConcatDataset) and len(both) == 5
    assert both[3][1].item() == 0 and both[-1][1].item() == 1
    with pytest.raises(ValueError, match="should not exceed dataset length"):
        both[-6]
    sub = Subset(dataset(6), [5, 1])
    assert len(sub) == 2 and sub[0][1].item() == 5
    assert [s[1].item() for s in sub.__getitems__([1, 0])] == [1, 5]


# -- collate ----------------------------------------------------------------------------------


def test_default_collate_types() -> None:
    ints = default_collate([1, 2, 3])
    assert ints.dtype == E.int64 and ints.tolist() == [1, 2, 3]
    floats = default_collate([0.5, 1.5])
    assert floats.dtype == E.float64
    assert default_collate([True, False]).dtype == E.bool
    assert default_collate(["a", "b"]) == ["a", "b"]
    pairs = default_collate([(1, 2.0), (3, 4.0)])
    assert isinstance(pairs, list) and pairs[0].tolist() == [1, 3]
    dicts = default_collate([{"x": E.ones(2), "n": 1}, {"x": E.zeros(2), "n": 2}])
    assert list(dicts) == ["x", "n"] and dicts["x"].shape == (2, 2)
    assert dicts["n"].tolist() == [1, 2]
    lists = default_collate([[1, E.tensor(1.0)], [2, E.tensor(2.0)]])
    assert lists[0].tolist() == [1, 2] and lists[1].tolist() == [1.0, 2.0]


def test_default_collate_errors_and_convert() -> None:
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="found <class 'NoneType'>"):
        default_collate([None])
    assert isinstance(default_convert((1, E.ones(1))), list)
    t = E.ones(2)
    assert default_convert(t) is t


# -- samplers and DataLoader ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "bs", "drop_last", "sizes"),
    [
        (10, 3, False, [3, 3, 3, 1]),
        (10, 3, True, [3, 3, 3]),
        (10, 5, True, [5, 5]),
        (4, 8, False, [4]),
        (4, 8, True, []),
        (1, 1, True, [1]),
    ],
)
def test_drop_last_counts(n: int, bs: int, drop_last: bool, sizes: list[int]) -> None:
    for shuffle in (False, True):
        loader = DataLoader(dataset(n), batch_size=bs, shuffle=shuffle, drop_last=drop_last)
        assert len(loader) == len(sizes)
        assert [len(b[0]) for b in loader] == sizes


def test_batches_in_order_and_values() -> None:
    loader = DataLoader(dataset(5), batch_size=2)
    batches = list(loader)
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert batches[1][0].tolist() == [[4.0, 5.0], [6.0, 7.0]]
    assert isinstance(batches[0], list)
    it = iter(loader)
    assert len(it) == 3
    unbatched = DataLoader(dataset(3), batch_size=None)
    assert len(unbatched) == 3 and next(iter(unbatched))[1].item() == 0


def test_shuffle_is_a_permutation_and_reproducible() -> None:
    loader = DataLoader(dataset(50), batch_size=7, shuffle=True)
    E.manual_seed(3)
    first = labels(loader)
    second = labels(loader)
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert first != list(range(50))  # 50! orders: the identity is (practically) impossible
    assert first != second  # each epoch reshuffles
    E.manual_seed(3)
    assert labels(loader) == first
    dropped = labels(DataLoader(dataset(50), batch_size=7, shuffle=True, drop_last=True))
    assert len(dropped) == 49 and len(set(dropped)) == 49


def test_generator_argument() -> None:
    a = labels(
        DataLoader(dataset(20), batch_size=4, shuffle=True, generator=E.Generator().manual_seed(1))
    )
    b = labels(
        DataLoader(dataset(20), batch_size=4, shuffle=True, generator=E.Generator().manual_seed(1))
    )
    assert a == b and sorted(a) == list(range(20))
    with pytest.raises(TypeError, match="expected a torch.Generator"):
        list(RandomSampler(range(3), generator="seed"))


def test_samplers() -> None:
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert list(BatchSampler(range(5), 2, False)) == [[0, 1], [2, 3], [4]]
    assert len(BatchSampler(range(5), 2, True)) == 2
    drawn = list(RandomSampler(range(4), replacement=True, num_samples=9))
    assert len(drawn) == 9 and all(0 <= i < 4 for i in drawn)
    more = list(RandomSampler(range(4), num_samples=10))
    assert len(more) == 10 and sorted(more[:8]) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert sorted(SubsetRandomSampler([7, 9, 11])) == [7, 9, 11]
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        RandomSampler(range(3), num_samples=0)
    loader = DataLoader(dataset(6), sampler=[5, 0, 2], batch_size=2)
    assert len(loader) == 2 and labels(loader) == [5, 0, 2]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"batch_size": 0}, "batch_size should be a positive integer value, but got batch_size=0"),
        ({"batch_size": None, "drop_last": True}, "mutually exclusive with drop_last"),
        ({"sampler": [0], "shuffle": True}, "sampler option is mutually exclusive with shuffle"),
        ({"num_workers": -1}, "num_workers option should be non-negative"),
        ({"prefetch_factor": 2}, "prefetch_factor option could only be specified"),
        ({"batch_sampler": [[0]], "batch_size": 2}, "batch_sampler option is mutually exclusive"),
    ],
)
def test_dataloader_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DataLoader(dataset(3), **kwargs)


def test_dataloader_frozen_attributes_and_workers_ignored() -> None:
    loader = DataLoader(dataset(4), batch_size=2, num_workers=3)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after"):
        loader.batch_size = 3
    assert labels(loader) == [0, 1, 2, 3]


class _Stream(IterableDataset):
    """An iterable dataset of `n` numbered samples."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        return iter([{"i": i, "x": E.tensor([float(i)])} for i in range(self.n)])

    def __len__(self) -> int:
        return self.n


@pytest.mark.parametrize(
    ("bs", "drop_last", "ids"),
    [(3, False, [[0, 1, 2], [3, 4, 5], [6]]), (3, True, [[0, 1, 2], [3, 4, 5]]), (8, True, [])],
)
def test_iterable_dataset_batches(bs: int, drop_last: bool, ids: list) -> None:
    loader = DataLoader(_Stream(7), batch_size=bs, drop_last=drop_last)
    batches = list(loader)
    assert len(loader) == len(ids) and [b["i"].tolist() for b in batches] == ids
    if batches:
        assert batches[0]["x"].shape == (bs, 1)
    assert [s["i"] for s in DataLoader(_Stream(3), batch_size=None)] == [0, 1, 2]
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(_Stream(3), shuffle=True)


def test_batch_sampler_argument_and_nested_collate() -> None:
    loader = DataLoader(dataset(6), batch_sampler=[[5, 0], [3]])
    assert len(loader) == 2 and labels(loader) == [5, 0, 3]
    assert loader.batch_size is None and loader.drop_last is False
    batch = default_collate([({"k": [1, 2.5]}, "a"), ({"k": [3, 4.5]}, "b")])
    assert batch[1] == ("a", "b")
    assert batch[0]["k"][0].tolist() == [1, 3] and batch[0]["k"][1].dtype == E.float64


def test_random_split_lengths_and_fractions() -> None:
    parts = random_split(dataset(10), [3, 7])
    assert [len(p) for p in parts] == [3, 7]
    assert sorted(parts[0].indices + parts[1].indices) == list(range(10))
    assert [len(p) for p in random_split(range(10), [0.34, 0.33, 0.33])] == [4, 3, 3]
    assert [len(p) for p in random_split(range(11), [0.25, 0.25, 0.5])] == [3, 3, 5]
    with pytest.warns(UserWarning, match="Length of split at index 0 is 0"):
        random_split(range(3), [0.0, 1.0])
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(range(10), [0.5, 1.5, -1.0])


# -- nn.utils ---------------------------------------------------------------------------------


def _params_with_grads() -> tuple[list, list[np.ndarray]]:
    grads = [np.array([[3.0, -4.0], [1.0, 2.0]], np.float32), np.array([0.5, -12.0], np.float32)]
    params = []
    for g in grads:
        p = nn.Parameter(E.zeros(*g.shape))
        p.grad = E.tensor(g)
        params.append(p)
    return params, grads


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, math.inf, 0.5])
def test_clip_grad_norm_against_numpy(norm_type: float) -> None:
    params, grads = _params_with_grads()
    flat = np.concatenate([g.ravel() for g in grads]).astype(np.float64)
    if math.isinf(norm_type):
        expected = np.abs(flat).max()
    else:
        expected = (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    total = U.clip_grad_norm_(params, max_norm=2.0, norm_type=norm_type)
    assert total.shape == () and not total.requires_grad
    assert total.item() == pytest.approx(expected, rel=1e-5)
    coef = min(2.0 / (expected + 1e-6), 1.0)
    for p, g in zip(params, grads):
        np.testing.assert_allclose(p.grad.numpy(), g * coef, rtol=1e-5)


def test_clip_grad_norm_edge_cases() -> None:
    params, grads = _params_with_grads()
    U.clip_grad_norm_(params, 1000.0)  # coefficient clamped to 1: unchanged
    for p, g in zip(params, grads):
        np.testing.assert_array_equal(p.grad.numpy(), g)
    assert U.clip_grad_norm_([], 1.0).item() == 0.0
    assert U.clip_grad_norm_([nn.Parameter(E.ones(2))], 1.0).item() == 0.0
    single = nn.Parameter(E.ones(2))
    single.grad = E.tensor([3.0, 4.0])
    assert U.clip_grad_norm_(single, 1.0).item() == pytest.approx(5.0)
    assert np.linalg.norm(single.grad.numpy()) == pytest.approx(1.0, rel=1e-5)
    single.grad = E.tensor([1.0, math.inf])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from"):
        U.clip_grad_norm_(single, 1.0, error_if_nonfinite=True)
    assert math.isinf(U.clip_grad_norm_(single, 1.0).item())


def test_clip_grad_value_and_vector_conversion() -> None:
    params, _ = _params_with_grads()
    assert U.clip_grad_value_(params, 2) is None
    assert params[0].grad.tolist() == [[2.0, -2.0], [1.0, 2.0]]
    assert params[1].grad.tolist() == [0.5, -2.0]
    vec = U.parameters_to_vector(params)
    assert vec.shape == (6,) and vec.grad_fn.name() == "CatBackward0"
    U.vector_to_parameters(E.arange(6.0), params)
    assert params[0].tolist() == [[0.0, 1.0], [2.0, 3.0]] and params[1].tolist() == [4.0, 5.0]
    assert isinstance(params[0], nn.Parameter) and params[0].requires_grad
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        U.vector_to_parameters([1.0], params)


# -- containers -------------------------------------------------------------------------------


def test_module_dict() -> None:
    md = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
    md.update([("out", nn.Linear(3, 1))])
    assert list(md) == ["lin", "act", "out"] and len(md) == 3 and "act" in md
    assert [n for n, _ in md.named_parameters()] == [
        "lin.weight", "lin.bias", "out.weight", "out.bias",
    ]  # fmt: skip
    assert repr(md).splitlines()[2] == "  (act): ReLU()"
    assert isinstance(md.pop("act"), nn.ReLU) and list(md.keys()) == ["lin", "out"]
    with pytest.raises(KeyError, match="attribute 'keys' already exists"):
        md["keys"] = nn.ReLU()
    with pytest.raises(ValueError, match="#0 has length 1; 2 is required"):
        md.update([("x",)])


def test_parameter_list() -> None:
    pl = nn.ParameterList([E.ones(2, 3)])
    pl.append(nn.Parameter(E.zeros(4, dtype=E.float64))).extend(["note"])
    assert len(pl) == 3 and isinstance(pl[0], nn.Parameter) and pl[-1] == "note"
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    assert repr(pl) == (
        "ParameterList(\n"
        "    (0): Parameter containing: [torch.float32 of size 2x3]\n"
        "    (1): Parameter containing: [torch.float64 of size 4]\n"
        "    (2): Object of type: str\n"
        ")"
    )
    assert len(pl[:2]) == 2
    with pytest.raises(IndexError, match="index 3 is out of range"):
        pl[3]
    with pytest.raises(RuntimeError, match="ParameterList should not be called."):
        pl()


def test_parameter_dict() -> None:
    pd = nn.ParameterDict({"b": E.ones(2), "a": E.zeros(3)})
    assert list(pd) == ["a", "b"]  # a plain dict is added in sorted order, as PyTorch does
    pd["c"] = E.ones(1)
    assert list(pd.state_dict()) == ["a", "b", "c"]
    assert (
        repr(pd).splitlines()[1] == "    (a): Parameter containing: [torch.FloatTensor of size 3]"
    )
    assert pd.get("zz") is None and isinstance(pd.pop("c"), nn.Parameter)
    with pytest.raises(TypeError, match="not a string"):
        pd[1]
    merged = pd | nn.ParameterDict({"d": E.ones(1)})
    assert list(merged) == ["a", "b", "d"] and list(pd) == ["a", "b"]


# -- scripts ----------------------------------------------------------------------------------


def test_script_imports() -> None:
    source = (
        "import torch\n"
        "import torch.utils.data\n"
        "from torch.utils.data import DataLoader, TensorDataset\n"
        "from torch.nn.utils import clip_grad_norm_\n"
        "import torch.nn as nn\n"
        "ds = TensorDataset(torch.arange(5.0))\n"
        "print(len(DataLoader(ds, batch_size=2)), len(torch.utils.data.random_split(ds, [2, 3])))\n"
        "p = nn.Parameter(torch.ones(2))\n"
        "p.grad = torch.tensor([3.0, 4.0])\n"
        "print(clip_grad_norm_(p, 1.0), torch.nn.utils.parameters_to_vector([p]).shape)\n"
        "print(nn.ModuleDict({'a': nn.ReLU()}), nn.ParameterList(), nn.ParameterDict())\n"
    )
    assert run(source) == (
        "3 2\ntensor(5.) torch.Size([2])\nModuleDict(\n  (a): ReLU()\n) ParameterList() "
        "ParameterDict()\n"
    )


def test_script_dataset_subclass() -> None:
    source = (
        "import torch\n"
        "from torch.utils.data import Dataset, DataLoader\n"
        "class D(Dataset):\n"
        "    def __len__(self):\n"
        "        return 3\n"
        "    def __getitem__(self, i):\n"
        "        return {'x': float(i), 'y': (i, 'n')}\n"
        "for b in DataLoader(D(), batch_size=2):\n"
        "    print(b)\n"
    )
    assert run(source) == (
        "{'x': tensor([0., 1.], dtype=torch.float64), 'y': [tensor([0, 1]), ('n', 'n')]}\n"
        "{'x': tensor([2.], dtype=torch.float64), 'y': [tensor([2]), ('n',)]}\n"
    )
