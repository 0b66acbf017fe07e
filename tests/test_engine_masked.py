"""`torch.masked` reductions with `mask=`: values as PyTorch 2.13 printed them for the same
inputs, gradients against finite differences (float64 gradcheck)."""

from __future__ import annotations

import pytest

import autodiff_cli.engine as torch

X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
MASK = [[True, False, True], [False, False, True]]


def inputs(dtype=None):  # noqa: ANN001, ANN202
    x = torch.tensor(X, dtype=dtype or torch.float32, requires_grad=True)
    return x, torch.tensor(MASK)


def test_values_and_grad_fns_as_pytorch() -> None:
    x, m = inputs()
    s, mean, top = (torch.masked.sum(x, 1, mask=m), torch.masked.mean(x, 1, mask=m),
                    torch.masked.amax(x, 1, mask=m))  # fmt: skip
    assert s.tolist() == [4.0, 6.0] and s.grad_fn.name() == "SumBackward1"
    assert mean.tolist() == [2.0, 6.0] and mean.grad_fn.name() == "DivBackward0"
    assert top.tolist() == [3.0, 6.0] and top.grad_fn.name() == "AmaxBackward0"
    (s.sum() + mean.sum() + top.sum()).backward()
    assert x.grad.tolist() == [[1.5, 0.0, 2.5], [0.0, 0.0, 3.0]]
    assert torch.masked.sum(x, mask=m).item() == 10.0


def test_empty_rows_and_dtypes() -> None:
    x, _ = inputs()
    empty = torch.tensor([[False, False, False], [True, True, True]])
    assert str(torch.masked.mean(x, 1, mask=empty).tolist()) == "[nan, 5.0]"
    assert torch.masked.amax(x, 1, mask=empty).tolist() == [float("-inf"), 6.0]
    xi = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32)
    _, m = inputs()
    assert torch.masked.sum(xi, 1, mask=m).dtype == torch.int64
    assert torch.masked.argmax(xi, 1, mask=m).dtype == torch.int32
    assert torch.masked.argmax(x, 1, mask=m).dtype == torch.float32
    with pytest.raises(ValueError, match="Could not infer output dtype"):
        torch.masked.mean(xi, 1, mask=m)


@pytest.mark.parametrize(
    "call",
    [
        lambda x, m: torch.masked.sum(x, 1, mask=m),
        lambda x, m: torch.masked.mean(x, 0, mask=m),
        lambda x, m: torch.masked.amax(x, 1, mask=m),
        lambda x, m: torch.masked.amin(x, 1, mask=m),
        lambda x, m: torch.masked.prod(x, 1, mask=m),
        lambda x, m: torch.masked.softmax(x, 1, mask=m),
        lambda x, m: torch.masked.log_softmax(x, 0, mask=m).clamp(min=-50),
        lambda x, m: torch.masked.var(x, mask=m),
        lambda x, m: torch.masked.std(x, 1, mask=m, keepdim=True),
        lambda x, m: torch.masked.norm(x, 2.0, 1, mask=m),
        lambda x, m: torch.masked.logsumexp(x, 1, mask=m),
        lambda x, m: torch.masked.cumsum(x, 1, mask=m),
        lambda x, m: torch.masked.cumprod(x, 1, mask=m),
    ],
)
def test_gradients_match_finite_differences(call) -> None:  # noqa: ANN001
    x, _ = inputs(torch.float64)
    x = (x * 0.37 + 0.1).detach().requires_grad_()
    m = torch.tensor([[True, False, True], [True, True, False]])  # every row and column keeps one
    assert torch.autograd.gradcheck(lambda t: call(t, m), (x,))


def test_mask_broadcasts_and_errors() -> None:
    x, _ = inputs()
    row = torch.tensor([True, False, True])
    assert torch.masked.sum(x, 1, mask=row).tolist() == [4.0, 10.0]
    with pytest.raises(IndexError, match="mask dimensionality higher"):
        torch.masked.sum(x, 1, mask=torch.ones(1, 2, 3, dtype=torch.bool))
