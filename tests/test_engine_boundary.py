"""The engine's side of the sandbox boundary (issue 19 items 1 and 6), tested on the engine:
names a script chooses never reach or replace special attributes, samples are never copied, and
module parameters and ops whose output outgrows their inputs are refused under the element cap
before anything is allocated."""

from __future__ import annotations

import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.utils.data import DataLoader, default_collate

nn = E.nn
F = E.nn.functional
CAP = 10**6


SMALL_CAP = CAP  # the engine's element limit under the `small_cap` fixture (conftest)


def refused(count: int) -> str:
    return f"with {count} elements: more than the limit of {CAP} elements"


# -- names chosen by a script -----------------------------------------------------------------


def test_parameter_dict_keys_stay_keys() -> None:
    pd = nn.ParameterDict({"w": E.ones(2), "note": "text"})
    assert pd["note"] == "text" and pd.note == "text"
    assert "note" not in vars(pd) and "w" not in vars(pd)
    assert isinstance(pd["w"], nn.Parameter) and [n for n, _ in pd.named_parameters()] == ["w"]
    with pytest.raises(KeyError, match="attribute '__class__' already exists"):
        pd["__class__"] = int
    with pytest.raises(KeyError, match="attribute 'forward' already exists"):
        pd["forward"] = 3
    with pytest.raises(KeyError, match=r'parameter name can.+t contain "\."'):
        pd["a.b"] = 1
    with pytest.raises(AttributeError, match="'ParameterDict' object has no attribute '__dict__'"):
        pd["__dict__"]
    assert type(pd) is nn.ParameterDict and list(pd) == ["note", "w"]  # a dict: sorted
    pd["note"] = E.zeros(1)  # an object entry may become a parameter, and back
    assert [n for n, _ in pd.named_parameters()] == ["w", "note"]
    del pd["note"]
    assert list(pd) == ["w"] and [n for n, _ in pd.named_parameters()] == ["w"]


def test_module_refuses_special_attribute_names() -> None:
    module = nn.Linear(1, 1)
    with pytest.raises(AttributeError, match="'Linear' object attribute '__class__' cannot be"):
        module.__class__ = nn.ReLU
    with pytest.raises(AttributeError, match="attribute '__dict__' cannot be set"):
        module.__dict__ = {}
    with pytest.raises(KeyError, match="attribute '__class__' already exists"):
        module.register_buffer("__class__", E.ones(1))
    with pytest.raises(KeyError, match="attribute 'forward' already exists"):
        module.add_module("forward", nn.ReLU())
    with pytest.raises(KeyError, match="attribute '__class__' already exists"):
        nn.ModuleDict({"__class__": nn.ReLU()})
    assert type(module) is nn.Linear and module(E.ones(1, 1)).shape == (1, 1)


def test_load_state_dict_only_copies_into_existing_tensors() -> None:
    module = nn.Linear(1, 1)
    state = {"weight": E.ones(1, 1), "bias": E.ones(1), "__class__": E.ones(1)}
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "__class__"'):
        module.load_state_dict(state)
    result = module.load_state_dict(state, strict=False)
    assert result.unexpected_keys == ["__class__"] and type(module) is nn.Linear
    assert module.weight.tolist() == [[1.0]]


def test_collate_builds_new_containers_without_copying_samples() -> None:
    class Sample(dict):
        def __reduce_ex__(self, protocol: object) -> object:
            raise AssertionError("a sample must never be copied")

        __copy__ = __reduce_ex__

    batch = default_collate([Sample(x=E.ones(1)), Sample(x=E.zeros(1))])
    assert type(batch) is dict and batch["x"].tolist() == [[1.0], [0.0]]
    samples = [Sample(x=1.5), Sample(x=2.5)]
    assert type(next(iter(DataLoader(samples, batch_size=None)))) is dict
    nested = default_collate([[Sample(y=1)], [Sample(y=2)]])
    assert type(nested) is list and type(nested[0]) is dict


# -- sizes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "count"),
    [
        (lambda: nn.Linear(2000, 1000), 2 * CAP),
        (lambda: E.ones(1).new_full((2000, 1000), 1.0), 2 * CAP),
        (lambda: E.ones(1).new_ones(2000, 1000), 2 * CAP),
        (lambda: nn.Embedding(4000, 500), 2 * CAP),
        (lambda: nn.LayerNorm([1500, 1000]), 1_500_000),
        (lambda: E.zeros(0, 3 * CAP).sum(0), 3 * CAP),
        (lambda: E.zeros(0, 3 * CAP).prod(0), 3 * CAP),
        (lambda: E.zeros(2 * CAP, 0).logsumexp(1), 2 * CAP),
        (lambda: E.zeros(0, 3 * CAP).any(0), 3 * CAP),
        (lambda: E.zeros(0, 3 * CAP).count_nonzero(0), 3 * CAP),
        (lambda: E.zeros(0, 3 * CAP).std(0), 3 * CAP),
        (lambda: E.zeros(2000, 0) @ E.zeros(0, 2000), 4 * CAP),
        (lambda: E.bmm(E.zeros(3, 1000, 0), E.zeros(3, 0, 1000)), 3 * CAP),
        (lambda: E.diag(E.zeros(1500)), 2_250_000),
        (lambda: E.diag(E.zeros(1000), 500), 2_250_000),
        (lambda: F.pad(E.zeros(2, 2), (CAP, 0)), 2 * CAP + 4),
        (lambda: E.zeros(10)[E.zeros(1, dtype=E.int64).expand(2000, 1000)], 2 * CAP),
    ],
)
def test_outputs_larger_than_inputs_are_refused(small_cap: None, make, count: int) -> None:
    with pytest.raises(RuntimeError, match=refused(count)):
        make()


def test_one_hot_and_negative_sizes(small_cap: None) -> None:
    with pytest.raises(RuntimeError, match="of shape \\[2, 1000000000\\] " + refused(2 * 10**9)):
        F.one_hot(E.tensor([0, 1]), 10**9)
    with pytest.raises(RuntimeError, match="negative dimension -5: \\[3, -5\\]"):
        nn.Linear(-5, 3)


def test_empty_inputs_that_stay_small_still_work(small_cap: None) -> None:
    assert E.zeros(0, 3 * CAP).sum(1).shape == (0,)  # the empty dim is kept: an empty output
    assert E.zeros(0, 5).sum(0).tolist() == [0.0] * 5
    assert (E.zeros(3, 0) @ E.zeros(0, 4)).tolist() == [[0.0] * 4] * 3
    assert E.zeros(0, 3 * CAP).sum().item() == 0.0
    empty = E.zeros(0, 3 * CAP)
    assert (empty + 1).shape == (0, 3 * CAP) and empty.cumsum(0).shape == (0, 3 * CAP)
    assert (empty * E.zeros(5, 1, 1)).shape == (5, 0, 3 * CAP)
    assert empty.any(1).shape == (0,) and empty.count_nonzero(1).shape == (0,)
    assert F.pad(E.zeros(2, 2), (1, 1)).shape == (2, 4)
    assert nn.Linear(1000, 1000).weight.shape == (1000, 1000)
