"""Python numbers beside integer tensors, torch.div's rounding modes, and the rearranging ops
tile/unflatten/rot90, as PyTorch 2.13 prints them: an int that does not fit the tensor's dtype
is cast as a C cast does (numpy refuses it); an integer tensor with a float number computes in
the default float dtype; `rounding_mode` keeps integers integral and records DivBackward2."""

from __future__ import annotations

import pytest

import autodiff_cli.engine as E

T = E.tensor

# (expression, what PyTorch 2.13 prints)
WRAPPED = [
    ("T([1, 2], dtype=E.int8) + 200", "tensor([-55, -54], dtype=torch.int8)"),
    ("T([1, 2], dtype=E.int8) * 200", "tensor([ -56, -112], dtype=torch.int8)"),
    ("T([1, 2], dtype=E.uint8) + 300", "tensor([45, 46], dtype=torch.uint8)"),
    ("T([1, 2], dtype=E.uint8) - 300", "tensor([213, 214], dtype=torch.uint8)"),
    ("T([1, 2], dtype=E.int8) + 2**40", "tensor([1, 2], dtype=torch.int8)"),
    ("T([1, 2]) + 2**63", "tensor([-9223372036854775807, -9223372036854775806])"),
    ("T([1, 2], dtype=E.int16) // 100000", "tensor([-1, -1], dtype=torch.int16)"),
    ("T([1, 2], dtype=E.int8) == 200", "tensor([False, False])"),
    ("T([1, 2], dtype=E.int8) % 200", "tensor([-55, -54], dtype=torch.int8)"),
    ("T([5], dtype=E.int8).add_(200)", "tensor([-51], dtype=torch.int8)"),
    ("T([1, 2], dtype=E.int32) * 2**40", "tensor([0, 0], dtype=torch.int32)"),
    ("T([1, 2], dtype=E.int8) + 100", "tensor([101, 102], dtype=torch.int8)"),  # fits: as is
    ("T([1, 2]) % 2.0", "tensor([1., 0.])"),
    ("E.fmod(T([5, -5]), 2.5)", "tensor([0., -0.])"),
    ("T([5, -5]) % 3", "tensor([2, 1])"),
    ("E.div(T([7, -7, 5]), T([2, 2, -3]), rounding_mode='trunc')", "tensor([ 3, -3, -1])"),
    ("E.div(T([7, -7]), 2, rounding_mode='trunc')", "tensor([ 3, -3])"),
    ("E.div(T([7, -7]), 2, rounding_mode='floor')", "tensor([ 3, -4])"),
    ("E.div(T([7, -7]), 2.5, rounding_mode='trunc')", "tensor([ 2., -2.])"),
    ("E.div(T([2**62 + 1]), 3, rounding_mode='trunc')", "tensor([1537228672809129301])"),
    ("E.div(5, T([2, -2]), rounding_mode='trunc')", "tensor([ 2, -2])"),
    ("E.div(T([7.0, -7.0]), 0.0, rounding_mode='floor')", "tensor([inf, -inf])"),
    ("E.div(T([7.0, -7.0, 0.0]), 0.0, rounding_mode='trunc')", "tensor([inf, -inf, nan])"),
]


@pytest.mark.parametrize("expression,printed", WRAPPED)
def test_prints_what_pytorch_prints(expression: str, printed: str) -> None:
    assert repr(eval(expression)) == printed


def test_an_int_beyond_64_bits_is_refused_as_python_refuses_it() -> None:
    with pytest.raises(OverflowError, match="^int too big to convert$"):
        T([1, 2], dtype=E.int8) + 2**70


@pytest.mark.parametrize(
    "call",
    [
        lambda: E.div(T([7, -7]), 0, rounding_mode="trunc"),
        lambda: E.div(T([7, -7]), 0, rounding_mode="floor"),
    ],
)
def test_integer_division_by_zero_is_pytorchs_error(call) -> None:
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        call()


def test_an_unknown_rounding_mode_is_refused() -> None:
    with pytest.raises(
        RuntimeError,
        match="^div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        "'round'$",
    ):
        E.div(E.ones(2), 2, rounding_mode="round")


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_rounded_division_records_div_backward2_with_zero_gradients(mode: str) -> None:
    x = T([7.5, -7.5], requires_grad=True)
    other = T([2.0, -2.0], requires_grad=True)
    y = E.div(x, other, rounding_mode=mode)
    assert repr(y.grad_fn).startswith("<DivBackward2 object")
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad"] * 2
    assert y.grad_fn._saved_rounding_mode == mode
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0] and other.grad.tolist() == [0.0, 0.0]
    by_number = E.div(x, 2, rounding_mode=mode)
    assert by_number.grad_fn.next_functions[1] == (None, 0)
    assert (x // 2).grad_fn.name() == "torch::autograd::NotImplemented"  # `//`: floor_divide


CLAMPED = [
    ("E.clamp(T([1, 5, 10]), max=8)", "tensor([1, 5, 8])"),
    ("E.clamp(T([1, 5, 10]), min=2)", "tensor([ 2,  5, 10])"),
    ("T([1, 5, 10]).clamp(2.5)", "tensor([ 2.5000,  5.0000, 10.0000])"),
    ("E.clamp_min(T([1, 5]), 2.5)", "tensor([2.5000, 5.0000])"),
    ("E.clamp_max(T([1, 5]), 2.5)", "tensor([1.0000, 2.5000])"),
    ("T([1.0, 5.0], dtype=E.float16).clamp(2)", "tensor([2., 5.], dtype=torch.float16)"),
    ("T([True, False]).clamp(0.5)", "tensor([1.0000, 0.5000])"),
]


@pytest.mark.parametrize("expression,printed", CLAMPED)
def test_clamp_bounds_give_pytorchs_result_type(expression: str, printed: str) -> None:
    assert repr(eval(expression)) == printed


@pytest.mark.parametrize("expression", ["-T([True])", "T([True]).neg()", "E.neg(T(True))"])
def test_negating_a_bool_tensor_is_pytorchs_error(expression: str) -> None:
    with pytest.raises(RuntimeError, match="^Negation, the `-` operator, on a bool tensor is not"):
        eval(expression)


def test_tensor_softmax_methods_exist_before_torch_nn_is_used() -> None:
    import subprocess
    import sys

    code = (
        "import sys, autodiff_cli.engine as E\n"
        "assert 'autodiff_cli.engine.nn.functional' not in sys.modules\n"
        "x = E.tensor([1.0, 2.0, 3.0])\n"
        "print(x.softmax(0)); print(x.log_softmax(0)); print(E.xlogy(x, x))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "tensor([0.0900, 0.2447, 0.6652])",
        "tensor([-2.4076, -1.4076, -0.4076])",
        "tensor([0.0000, 1.3863, 3.2958])",
    ]


def test_xlogy_with_numbers_and_integers_is_pytorchs() -> None:
    """Values and grad_fn names printed by PyTorch 2.13."""
    x = T([0.0, 0.5, 2.0], requires_grad=True)
    y = T([0.0, 2.0, 3.0], requires_grad=True)
    assert repr(E.xlogy(2, y)) == "tensor([  -inf, 1.3863, 2.1972], grad_fn=<XlogyBackward1>)"
    assert repr(x.xlogy(3.0)) == "tensor([0.0000, 0.5493, 2.1972], grad_fn=<XlogyBackward2>)"
    assert repr(E.xlogy(T([1, 2]), T([3, 4]))) == "tensor([1.0986, 2.7726])"
    z = E.xlogy(x, y)
    assert repr(z) == "tensor([0.0000, 0.3466, 2.1972], grad_fn=<XlogyBackward0>)"


ARRANGED = [  # x = arange(6.).reshape(2, 3); printed by PyTorch 2.13
    ("x.tile((2,))", "(2, 6) RepeatBackward0 [0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 3.0, 4.0]"),
    ("E.tile(x, (2, 1, 1))", "(2, 2, 3) RepeatBackward0 [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 1.0]"),
    ("x.unflatten(1, (3, 1))", "(2, 3, 1) ViewBackward0 [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]"),
    ("x.unflatten(-1, (-1, 1))", "(2, 3, 1) ViewBackward0 [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]"),
    ("x.rot90(1, (0, 1))", "(3, 2) Rot90Backward0 [2.0, 5.0, 1.0, 4.0, 0.0, 3.0]"),
    ("x.rot90(2)", "(2, 3) Rot90Backward0 [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]"),
    ("E.rot90(x, -1)", "(3, 2) Rot90Backward0 [3.0, 0.0, 4.0, 1.0, 5.0, 2.0]"),
]


@pytest.mark.parametrize("expression,printed", ARRANGED)
def test_tile_unflatten_rot90_are_pytorchs(expression: str, printed: str) -> None:
    y = eval(expression, {"E": E, "x": E.arange(6.0).reshape(2, 3).requires_grad_()})
    assert f"{tuple(y.shape)} {y.grad_fn.name()} {y.flatten().tolist()[:8]}" == printed


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda x: x.rot90(1, (0,)), "expected total rotation dims == 2, but got dims = 1"),
        (lambda x: E.ones(3).rot90(), "expected total dims >= 2, but got total dims = 1"),
        (
            lambda x: x.rot90(1, (1, 1)),
            "expected rotation dims to be different, but got dim0 = 1 and dim1 = 1",
        ),
        (
            lambda x: x.unflatten(1, (2, 2)),
            "unflatten: Provided sizes \\[2, 2\\] don't multiply up to the size of dim 1 \\(3\\)",
        ),
    ],
)
def test_rearranging_refusals_are_pytorchs(call, message: str) -> None:
    with pytest.raises(RuntimeError, match=f"^{message}"):
        call(E.ones(2, 3))
