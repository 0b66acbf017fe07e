"""Autograd behaviour of the engine: graph layout, leaves, accumulation, errors, hooks, grad modes,
in-place operations, dtype promotion, deep graphs and memory.

Tests that take the `T` fixture use only the public torch API, so they run against the engine and,
when PyTorch is importable (the /work/torchenv venv), against PyTorch too: that checks the
expectations themselves. Tests using `E` directly are engine-only.
"""

from __future__ import annotations

import gc
import re
import tracemalloc
import warnings

import numpy as np
import pytest

import autodiff_cli.engine as E

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"
UNUSED = (
    "The differentiated Tensor at index {} appears to not have been used in the graph. Set "
    "allow_unused=True if this is the desired behavior."
)


def vals(t) -> np.ndarray:
    return np.asarray(t.tolist(), dtype=np.float64)


def leaf(T, values, dtype=None):
    return T.tensor(values, dtype=dtype or T.float64, requires_grad=True)


def raises_exactly(exc: type, message: str):
    """pytest.raises for an exact message (not a regex)."""
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


# --------------------------------------------------------------------------------------------
# grad_fn, next_functions, AccumulateGrad
# --------------------------------------------------------------------------------------------


def test_next_functions_layout(T):
    x = leaf(T, [1.0, 2.0])
    c = T.tensor([3.0, 4.0], dtype=T.float64)
    y = x * c
    assert y.grad_fn.name() == "MulBackward0"
    (acc, nr), const = y.grad_fn.next_functions
    assert type(acc).__name__ == "AccumulateGrad"
    assert acc.name() == "torch::autograd::AccumulateGrad"
    assert nr == 0
    assert const == (None, 0)
    assert acc.variable is x
    assert acc.next_functions == ()
    z = y.exp() + 2
    assert z.grad_fn.name() == "AddBackward0"
    (exp_node, nr), number = z.grad_fn.next_functions
    assert exp_node.name() == "ExpBackward0" and nr == 0
    assert number == (None, 0)
    assert exp_node.next_functions[0][0] is y.grad_fn


def test_accumulate_grad_node_is_shared_while_the_graph_lives(T):
    x = leaf(T, [1.0, 2.0])
    a = x * 2
    b = x.sin()
    assert a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]
    assert (x + x).grad_fn.next_functions[0][0] is a.grad_fn.next_functions[0][0]
    add = (x + x).grad_fn
    assert add.next_functions[0][0] is add.next_functions[1][0]


def test_multi_output_edges_carry_output_numbers(T):
    x = leaf(T, [1.0, 2.0, 3.0])
    a, b, c = x.unbind()
    assert a.grad_fn is b.grad_fn is c.grad_fn
    assert a.grad_fn.name() == "UnbindBackward0"
    s = c + a
    assert s.grad_fn.next_functions == ((a.grad_fn, 2), (a.grad_fn, 0))
    s.backward()
    assert vals(x.grad).tolist() == [1.0, 0.0, 1.0]


def test_leaves_and_requires_grad_propagation(T):
    x = leaf(T, [1.0, 2.0])
    c = T.tensor([3.0, 4.0], dtype=T.float64)
    assert x.is_leaf and x.requires_grad and x.grad_fn is None
    assert c.is_leaf and not c.requires_grad
    y = x * c
    assert not y.is_leaf and y.requires_grad
    k = c * 2
    assert k.is_leaf and not k.requires_grad and k.grad_fn is None
    d = y.detach()
    assert d.is_leaf and not d.requires_grad
    with T.no_grad():
        n = x * 2
    assert n.is_leaf and not n.requires_grad
    assert (n + y).requires_grad


def test_requires_grad_flags(T):
    x = leaf(T, [1.0])
    y = x * 2
    with raises_exactly(
        RuntimeError,
        "you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = "
        "var.detach().",
    ):
        y.requires_grad = False
    with raises_exactly(RuntimeError, "you can only change requires_grad flags of leaf variables."):
        y.requires_grad = True
    with raises_exactly(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        T.tensor([1, 2]).requires_grad_()
    with raises_exactly(
        RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"
    ):
        T.tensor([1, 2], requires_grad=True)
    c = T.tensor([1.0])
    assert c.requires_grad_() is c and c.requires_grad
    c.requires_grad = False
    assert not c.requires_grad


# --------------------------------------------------------------------------------------------
# Accumulation, retain_graph, errors
# --------------------------------------------------------------------------------------------


def test_gradients_accumulate_across_backward_calls(T):
    x = leaf(T, [1.0, -2.0])
    (x * x).sum().backward()
    first = x.grad
    assert vals(x.grad).tolist() == [2.0, -4.0]
    (3 * x).sum().backward()
    assert vals(x.grad).tolist() == [5.0, -1.0]
    assert x.grad is first  # accumulated in place
    x.grad.zero_()
    assert vals(x.grad).tolist() == [0.0, 0.0]
    x.sum().backward()
    assert vals(x.grad).tolist() == [1.0, 1.0]
    x.grad = None
    (2 * x).sum().backward()
    assert vals(x.grad).tolist() == [2.0, 2.0]


def test_shared_subexpression_gradient_is_summed(T):
    x = leaf(T, 3.0)
    y = x * x
    z = y + y * y  # dz/dx = 2x + 4x^3
    z.backward()
    assert x.grad.item() == 2 * 3.0 + 4 * 27.0


def test_retain_graph_allows_a_second_backward(T):
    x = leaf(T, [1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert vals(x.grad).tolist() == [4.0, 8.0]
    with raises_exactly(RuntimeError, FREED):
        y.backward()


@pytest.mark.parametrize(
    "build",
    [
        lambda x: x.exp().sum(),
        lambda x: (x * x).sum(),
        lambda x: x.sin().sum(),
        lambda x: (x / x).sum(),
    ],
    ids=["exp", "mul", "sin", "div"],
)
def test_second_backward_fails_where_tensors_were_saved(T, build):
    x = leaf(T, [0.5, 1.5])
    y = build(x)
    y.backward()
    with raises_exactly(RuntimeError, FREED):
        y.backward()


@pytest.mark.parametrize(
    "build",
    [
        lambda x: (x + 1).sum(),
        lambda x: (-x).sum(),
        lambda x: x.t().mean(),
        lambda x: x.view(2, 1).sum(),
    ],
    ids=["add", "neg", "t-mean", "view"],
)
def test_second_backward_succeeds_when_nothing_was_saved(T, build):
    x = leaf(T, [0.5, 1.5])
    y = build(x)
    y.backward()
    first = vals(x.grad)
    y.backward()
    np.testing.assert_array_equal(vals(x.grad), 2 * first)


def test_saved_tensor_access_after_backward(T):
    x = leaf(T, [0.5, 1.5])
    y = x.sin()
    assert vals(y.grad_fn._saved_self).tolist() == [0.5, 1.5]
    y.sum().backward()
    with raises_exactly(RuntimeError, FREED):
        _ = y.grad_fn._saved_self


def test_non_scalar_backward_needs_a_gradient(T):
    x = leaf(T, [1.0, 2.0])
    with raises_exactly(RuntimeError, "grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()


def test_backward_without_grad_errors(T):
    with raises_exactly(RuntimeError, NO_GRAD_FN):
        T.tensor(1.0).backward()
    x = leaf(T, [1.0, 2.0])
    with T.no_grad():
        y = (x * 2).sum()
    with raises_exactly(RuntimeError, NO_GRAD_FN):
        y.backward()
    c = T.tensor([1.0])
    with raises_exactly(RuntimeError, "One of the differentiated Tensors does not require grad"):
        T.autograd.grad((x * 2).sum(), [x, c])
    with raises_exactly(RuntimeError, UNUSED.format(1)):
        T.autograd.grad((x * 2).sum(), [x, leaf(T, [1.0])])
    with raises_exactly(RuntimeError, UNUSED.format(0)):
        T.autograd.grad((x * 2).sum(), [leaf(T, [1.0]), x])


# --------------------------------------------------------------------------------------------
# Vector-Jacobian products and autograd.grad
# --------------------------------------------------------------------------------------------


def _f(T, x):
    """f(x) = [x0 x1, sin(x0) + x2, exp(x1 x2)]."""
    return T.stack([x[0] * x[1], x[0].sin() + x[2], (x[1] * x[2]).exp()])


def _jacobian(x: np.ndarray) -> np.ndarray:
    x0, x1, x2 = x
    e = np.exp(x1 * x2)
    return np.array([[x1, x0, 0.0], [np.cos(x0), 0.0, 1.0], [0.0, x2 * e, x1 * e]])


def test_backward_with_vector_is_a_vector_jacobian_product(T):
    values = [0.3, -1.2, 0.7]
    x = leaf(T, values)
    v = [1.5, -0.5, 2.0]
    _f(T, x).backward(T.tensor(v, dtype=T.float64))
    np.testing.assert_allclose(vals(x.grad), np.array(v) @ _jacobian(np.array(values)), rtol=1e-14)


def test_jacobian_rows_from_grad_outputs(T):
    values = [0.3, -1.2, 0.7]
    x = leaf(T, values)
    y = _f(T, x)
    rows = []
    for i in range(3):
        onehot = T.zeros(3, dtype=T.float64)
        onehot[i] = 1.0
        rows.append(vals(T.autograd.grad(y, x, grad_outputs=onehot, retain_graph=True)[0]))
    np.testing.assert_allclose(np.stack(rows), _jacobian(np.array(values)), rtol=1e-14)
    assert x.grad is None  # autograd.grad does not accumulate


def test_autograd_functional_jacobian(T):
    values = [0.3, -1.2, 0.7]
    jac = T.autograd.functional.jacobian(lambda x: _f(T, x), T.tensor(values, dtype=T.float64))
    np.testing.assert_allclose(vals(jac), _jacobian(np.array(values)), rtol=1e-14)


def test_autograd_grad_options(T):
    x = leaf(T, [1.0, 2.0])
    w = leaf(T, [3.0, 4.0])
    y = x * x
    (gx,) = T.autograd.grad(y, x, grad_outputs=T.tensor([1.0, 0.5], dtype=T.float64))
    assert vals(gx).tolist() == [2.0, 2.0]
    assert not gx.requires_grad and gx.grad_fn is None

    gx, gw = T.autograd.grad((x * 3).sum(), [x, w], allow_unused=True)
    assert vals(gx).tolist() == [3.0, 3.0] and gw is None

    (gx,) = T.autograd.grad((x**3).sum(), x, create_graph=True)
    assert gx.requires_grad and gx.grad_fn is not None
    (ggx,) = T.autograd.grad(gx.sum(), x)
    assert vals(ggx).tolist() == [6.0, 12.0]
    assert x.grad is None and w.grad is None

    (g,) = T.autograd.grad([(x * 2).sum(), (x * x).sum()], x)
    assert vals(g).tolist() == [4.0, 6.0]


def test_backward_create_graph_gives_differentiable_grad(T):
    x = leaf(T, 2.0)
    (x**3).backward(create_graph=True)
    g = x.grad
    assert g.requires_grad and g.item() == 12.0
    (gg,) = T.autograd.grad(g, x)
    assert gg.item() == 12.0


# --------------------------------------------------------------------------------------------
# Hooks and retain_grad
# --------------------------------------------------------------------------------------------


def test_tensor_hook_replaces_the_gradient(T):
    x = leaf(T, [1.0, 2.0])
    y = x * 3
    seen = []
    y.register_hook(lambda g: seen.append(vals(g).tolist()))
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert seen == [[1.0, 1.0]]
    assert vals(x.grad).tolist() == [30.0, 30.0]


def test_hooks_run_in_registration_order_on_replaced_gradients(T):
    x = leaf(T, [1.0])
    y = x * 1
    order = []

    def first(g):
        order.append(("first", g.item()))
        return g + 1

    def second(g):
        order.append(("second", g.item()))
        return g * 2

    y.register_hook(first)
    y.register_hook(second)
    y.sum().backward()
    assert order == [("first", 1.0), ("second", 2.0)]
    assert x.grad.item() == 4.0


def test_leaf_hook_and_remove(T):
    x = leaf(T, [1.0, 2.0])
    handle = x.register_hook(lambda g: g * 2)
    (x * x).sum().backward()
    assert vals(x.grad).tolist() == [4.0, 8.0]
    handle.remove()
    x.grad = None
    (x * x).sum().backward()
    assert vals(x.grad).tolist() == [2.0, 4.0]


def test_removed_tensor_hook_does_not_run(T):
    x = leaf(T, [1.0])
    y = x * 2
    calls = []
    handle = y.register_hook(lambda g: calls.append(1))
    handle.remove()
    y.sum().backward()
    assert calls == []


def test_retain_grad_sees_the_hooked_gradient(T):
    """retain_grad stores the gradient after all tensor hooks, whenever they were registered."""
    x = leaf(T, [1.0, 2.0])
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: g * 2)
    y.sum().backward()
    assert vals(y.grad).tolist() == [2.0, 2.0]
    assert vals(x.grad).tolist() == [6.0, 6.0]


def test_hook_on_tensor_without_grad(T):
    with raises_exactly(
        RuntimeError, "cannot register a hook on a tensor that doesn't require gradient"
    ):
        T.tensor([1.0]).register_hook(lambda g: g)


def test_retain_grad(T):
    x = leaf(T, [1.0, 2.0])
    y = x * x
    y.retain_grad()
    assert y.retains_grad and not x.retains_grad
    z = y.sum() * 2
    z.backward(retain_graph=True)
    assert vals(y.grad).tolist() == [2.0, 2.0]
    z.backward()
    assert vals(y.grad).tolist() == [4.0, 4.0]
    x.retain_grad()  # a no-op on leaves
    assert not x.retains_grad


def test_non_leaf_grad_warns_and_is_none(T):
    x = leaf(T, [1.0])
    y = x * 2
    y.sum().backward()
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert y.grad is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is not None


# --------------------------------------------------------------------------------------------
# Grad modes
# --------------------------------------------------------------------------------------------


def test_no_grad_and_enable_grad_contexts(T):
    x = leaf(T, [1.0])
    with T.no_grad():
        assert not T.is_grad_enabled()
        assert not (x * 2).requires_grad
        with T.enable_grad():
            assert T.is_grad_enabled()
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad
    assert T.is_grad_enabled()
    assert (x * 2).requires_grad


def test_grad_mode_decorators(T):
    x = leaf(T, [1.0])

    @T.no_grad()
    def without(t):
        return t * 2

    @T.enable_grad()
    def with_grad(t):
        return t * 2

    @T.set_grad_enabled(False)
    def disabled(t):
        return t * 2

    assert T.is_grad_enabled()  # the decorator form does not change the mode by itself
    assert not without(x).requires_grad
    assert disabled(x).grad_fn is None
    with T.no_grad():
        assert with_grad(x).requires_grad
        assert not T.is_grad_enabled()
    assert T.is_grad_enabled()


def test_set_grad_enabled_function_and_context(T):
    x = leaf(T, [1.0])
    T.set_grad_enabled(False)
    try:
        assert not T.is_grad_enabled()
        assert not (x * 2).requires_grad
    finally:
        T.set_grad_enabled(True)
    assert T.is_grad_enabled()
    with T.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert T.is_grad_enabled()
    with T.no_grad(), T.set_grad_enabled(True):
        assert (x * 2).requires_grad


def test_no_grad_restores_mode_after_an_exception(T):
    with pytest.raises(ZeroDivisionError), T.no_grad():
        _ = 1 / 0
    assert T.is_grad_enabled()


# --------------------------------------------------------------------------------------------
# detach and in-place operations
# --------------------------------------------------------------------------------------------


def test_detach_shares_data_and_version_counter(T):
    x = leaf(T, [1.0, 2.0])
    y = x * 2
    d = y.detach()
    assert d.grad_fn is None and not d.requires_grad
    d.add_(1)
    assert vals(y).tolist() == [3.0, 5.0]
    assert y._version == d._version == 1
    y.mul_(2)
    assert vals(d).tolist() == [6.0, 10.0]
    assert d._version == 2


def test_modifying_a_detached_saved_result_breaks_backward(T):
    x = leaf(T, [0.0, 1.0, 2.0])
    y = x.exp()
    y.detach().zero_()
    with raises_exactly(
        RuntimeError,
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.DoubleTensor [3]], which is output 0 of Exp, is at version 1; "
        "expected version 0 instead. " + HINT,
    ):
        y.sum().backward()


def test_inplace_on_non_leaf_rebases_the_history(T):
    x = leaf(T, [1.0, 2.0])
    y = x * 2
    old = y.grad_fn
    y += 1
    assert y.grad_fn.name() == "AddBackward0"
    assert y.grad_fn.next_functions[0] == (old, 0)
    assert y._version == 1
    y.sum().backward()
    assert vals(x.grad).tolist() == [2.0, 2.0]


def test_inplace_multiply_uses_the_value_before_the_write(T):
    x = leaf(T, [1.0, 2.0])
    y = x * 2
    y *= x  # y = 2 x^2
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert vals(x.grad).tolist() == [4.0, 8.0]


def test_inplace_method_chain(T):
    x = leaf(T, [0.5, 1.0])
    y = x + 0
    y.mul_(3).exp_()  # y = exp(3 x)
    y.sum().backward()
    np.testing.assert_allclose(vals(x.grad), 3 * np.exp([1.5, 3.0]), rtol=1e-14)


def test_inplace_write_over_a_saved_result(T):
    x = leaf(T, [0.5, 1.0])
    y = x + 0
    y.exp_().mul_(3)  # ExpBackward0 saved its result, which mul_ overwrites
    with raises_exactly(
        RuntimeError,
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.DoubleTensor [2]], which is output 0 of Exp, is at version 2; "
        "expected version 1 instead. " + HINT,
    ):
        y.sum().backward()


def test_inplace_on_leaf_requiring_grad(T):
    x = leaf(T, [1.0, 2.0])
    with raises_exactly(RuntimeError, LEAF_INPLACE):
        x.add_(1)
    with raises_exactly(RuntimeError, LEAF_INPLACE):
        x += 1
    with raises_exactly(RuntimeError, "a view of " + LEAF_INPLACE):
        x[0] = 5.0
    (x * x).sum().backward()
    with T.no_grad():
        x -= 0.5 * x.grad
        x.mul_(2)
    assert vals(x).tolist() == [0.0, 0.0]
    assert x.is_leaf and x.requires_grad and x.grad_fn is None
    assert x._version == 2


@pytest.mark.parametrize(
    "modify, origin",
    [(lambda a: a.add_(1), "Add"), (lambda a: a.mul_(2), "Mul"), (lambda a: a.tanh_(), "Tanh")],
    ids=["add_", "mul_", "tanh_"],
)
def test_saved_tensor_modified_in_place(T, modify, origin):
    """The message names the tensor's grad_fn at the time of the failure, without 'Backward0'."""
    x = leaf(T, [1.0, 2.0, 3.0])
    a = x + 0
    b = a * a
    modify(a)
    with raises_exactly(
        RuntimeError,
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.DoubleTensor [3]], which is output 0 of {origin}, is at version 1; "
        "expected version 0 instead. " + HINT,
    ):
        b.sum().backward()


def test_saved_result_modified_in_place_names_the_saving_node(T):
    x = leaf(T, [1.0, 2.0, 3.0])
    b = (x * 1).sigmoid()
    b.mul_(2)
    assert b.grad_fn.name() == "MulBackward0"
    with raises_exactly(
        RuntimeError,
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.DoubleTensor [3]], which is output 0 of Sigmoid, is at version 1; "
        "expected version 0 instead. " + HINT,
    ):
        b.sum().backward()


def test_saved_constant_modified_in_place(T):
    w = leaf(T, [1.0, 2.0], dtype=T.float32)
    c = T.tensor([3.0, 4.0])
    y = w * c
    c.add_(1)
    with raises_exactly(
        RuntimeError,
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2]] is at version 1; expected version 0 instead. " + HINT,
    ):
        y.sum().backward()


def test_unsaved_input_may_be_modified_in_place(T):
    x = leaf(T, [1.0, 2.0])
    a = x + 0
    y = a + 1  # AddBackward0 saves nothing
    a.add_(5)
    y.sum().backward()
    assert vals(x.grad).tolist() == [1.0, 1.0]


# --------------------------------------------------------------------------------------------
# dtypes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "build, dtype",
    [
        (lambda T: T.tensor([1, 2]) * 1.5, "float32"),
        (lambda T: T.tensor([1, 2]) / T.tensor([2, 4]), "float32"),
        (lambda T: T.tensor([1, 2]) / 2, "float32"),
        (lambda T: T.tensor([1, 2]) + 3, "int64"),
        (lambda T: T.tensor([1, 2]) * True, "int64"),
        (lambda T: T.tensor([1, 2], dtype=T.int32) + 3, "int32"),
        (lambda T: T.tensor([True, False]) + 1, "int64"),
        (lambda T: T.tensor([1.0, 2.0]) * T.tensor(2.0, dtype=T.float64), "float32"),
        (lambda T: T.tensor([1.0, 2.0]) * T.tensor([2.0], dtype=T.float64), "float64"),
        (lambda T: T.tensor([1.0, 2.0]) + 1e300, "float32"),
        (lambda T: T.tensor([1, 2]) * T.tensor(2.5, dtype=T.float64), "float64"),
        (lambda T: T.tensor([1, 2], dtype=T.int32) * T.tensor(3), "int32"),
        (lambda T: T.tensor(2) * T.tensor(3.0), "float32"),
        (lambda T: T.tensor([1.0], dtype=T.float64) * 2.5, "float64"),
        (lambda T: T.tensor([1, 2]).exp(), "float32"),
        (lambda T: T.tensor([4, 9]).sqrt(), "float32"),
        (lambda T: T.tensor([1, 2]).sum(), "int64"),
        (lambda T: 2.5 ** T.tensor([1, 2]), "float32"),
    ],
)
def test_dtype_promotion(T, build, dtype):
    assert build(T).dtype == getattr(T, dtype)


def test_gradient_has_the_dtype_of_its_leaf(T):
    x = leaf(T, [1.0, 2.0], dtype=T.float32)
    w = T.tensor([0.5, 0.25], dtype=T.float64)
    y = (x * w).sum()  # float64 result
    assert y.dtype == T.float64
    y.backward()
    assert x.grad.dtype == T.float32


def test_tensor_from_numpy_array_keeps_its_dtype(T):
    t = T.tensor(np.array([1.5, 2.5]))
    assert t.dtype == T.float64
    assert T.tensor(np.arange(3)).dtype == T.int64
    assert T.tensor(np.float32(1.5)).dtype == T.float32


def test_grad_assignment_checks(T):
    x = leaf(T, [1.0, 2.0])
    with raises_exactly(
        TypeError, "assigned grad expected to be a Tensor or None but got grad of type float"
    ):
        x.grad = 1.0
    with raises_exactly(
        RuntimeError,
        "attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure "
        "that the gradient and the tensor are the same size",
    ):
        x.grad = T.tensor([1.0, 2.0, 3.0], dtype=T.float64)
    with raises_exactly(
        RuntimeError,
        "attempting to assign a gradient with dtype 'float' to a tensor with grad_dtype 'Double'. "
        "The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
        "set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. "
        "Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break "
        "downstream systems that assume they match.",
    ):
        x.grad = T.tensor([1.0, 2.0], dtype=T.float32)
    x.grad = T.tensor([5.0, 6.0], dtype=T.float64)
    (x * 2).sum().backward()
    assert vals(x.grad).tolist() == [7.0, 8.0]


# --------------------------------------------------------------------------------------------
# Deep graphs and memory (engine only)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [100_000, 200_000])
def test_long_chain_backward_is_iterative(length):
    x = E.tensor(1.0, dtype=E.float64, requires_grad=True)
    y = x
    for _ in range(length):
        y = y + 1.0
    y.backward()
    assert x.grad.item() == 1.0
    assert y.item() == 1.0 + length
    del y
    gc.collect()


def test_long_chain_with_saved_tensors():
    x = E.tensor(0.5, dtype=E.float64, requires_grad=True)
    y = x
    for _ in range(50_000):
        y = y * 1.0
    (g,) = E.autograd.grad(y, x)
    assert g.item() == 1.0


def _train_step(w: E.Tensor, data: E.Tensor) -> None:
    loss = ((data @ w).tanh() - 0.5).pow(2).mean()
    loss.backward()
    with E.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()


def test_repeated_forward_backward_does_not_grow_memory():
    rng = np.random.RandomState(0)
    w = E.tensor(rng.uniform(-1, 1, (20, 5)).tolist(), dtype=E.float64, requires_grad=True)
    data = E.tensor(rng.uniform(-1, 1, (50, 20)).tolist(), dtype=E.float64)
    for _ in range(3):
        _train_step(w, data)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(50):
            _train_step(w, data)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 1 << 20


def test_graph_is_freed_when_the_output_is_dropped():
    import weakref

    x = E.tensor([1.0, 2.0], dtype=E.float64, requires_grad=True)
    y = (x.exp() * x).sum()
    node = weakref.ref(y.grad_fn)
    del y
    assert node() is None


# --------------------------------------------------------------------------------------------
# Index assignment
# --------------------------------------------------------------------------------------------


def test_index_assignment_routes_gradients(T):
    x = leaf(T, [1.0, 2.0, 3.0])
    v = leaf(T, 4.0)
    y = x * 1
    y[0] = v * v
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    (y * T.tensor([1.0, 2.0, 3.0], dtype=T.float64)).sum().backward()
    assert vals(x.grad).tolist() == [0.0, 2.0, 3.0]
    assert v.grad.item() == 8.0


def test_index_assignment_second_derivative(T):
    x = leaf(T, [1.0, 2.0, 3.0])
    y = x * 1
    y[1] = x[0] ** 3
    (g,) = T.autograd.grad((y * y).sum(), x, create_graph=True)  # g0 = 6 x0^5 + 2 x0, g2 = 2 x2
    assert vals(g).tolist() == [8.0, 0.0, 6.0]
    (gg,) = T.autograd.grad(g.sum(), x)
    assert vals(gg).tolist() == [32.0, 0.0, 2.0]


def test_leaf_gradients_never_share_memory_when_taken_without_a_copy() -> None:
    """A leaf's first gradient is taken as it is when nothing else refers to it (as PyTorch's
    AccumulateGrad does); one array reaching two leaves, a hook's tensor, or a retained non-leaf
    gradient must still give each `.grad` its own memory."""
    torch = E
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    (a + b).sum().backward()  # AddBackward0 passes one array on to both leaves
    assert not np.shares_memory(a.grad._data, b.grad._data)
    a.grad.add_(1.0)
    assert b.grad.tolist() == [1.0, 1.0] and a.grad.tolist() == [2.0, 2.0]

    seen = []
    c = torch.tensor([1.0, 2.0], requires_grad=True)
    h = c * 3.0
    h.register_hook(lambda g: seen.append(g))
    h.retain_grad()
    h.sum().backward()
    assert not np.shares_memory(c.grad._data, seen[0]._data)
    c.grad.zero_()
    assert seen[0].tolist() == [1.0, 1.0] and h.grad.tolist() == [1.0, 1.0]

    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    (x @ w).sum().backward()  # a fresh matmul result: taken, and C-contiguous as a copy is
    assert w.grad._data.flags.c_contiguous and w.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    root = torch.tensor([1.0, 2.0], requires_grad=True)
    upstream = torch.tensor([5.0, 6.0])
    root.backward(upstream)  # the caller's gradient tensor is never taken
    assert not np.shares_memory(root.grad._data, upstream._data)


# --------------------------------------------------------------------------------------------
# issue 18: retain_grad across in-place ops, hook return values, accumulation into a graph .grad,
# custom Function inputs, requires_grad wording, conversions, isclose/broadcast_*
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "modify, expected",
    [
        (lambda r: r.mul_(3), [12.0, 18.0]),  # d(r*r)/dr of the new value r = 3a
        (lambda r: r.add_(1), [6.0, 8.0]),
        (lambda r: r.mul_(3).add_(1), [14.0, 20.0]),
        (lambda r: r.pow_(2), [8.0, 18.0]),
        (lambda r: r[0].mul_(5), [20.0, 6.0]),  # through a view: the base's CopySlices
    ],
)
def test_retained_grad_is_that_of_the_value_after_in_place_ops(T, modify, expected):
    a = leaf(T, [2.0, 3.0])
    r = a * 1
    r.retain_grad()
    modify(r)
    (r * r).sum().backward()
    assert vals(r.grad).tolist() == expected
    assert r.retains_grad


def test_retained_grad_moves_with_regenerated_view_history_and_mark_dirty(T):
    a = leaf(T, [2.0, 3.0])
    r = a * 1
    v = r[:1]
    v.retain_grad()
    r.mul_(2)
    (v * v).sum().backward()
    assert vals(v.grad).tolist() == [8.0]

    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    r = a * 1
    r.retain_grad()
    out = Double.apply(r)
    (out * out).sum().backward()
    assert out is r and vals(r.grad).tolist() == [8.0, 12.0]


def test_tensor_hooks_stay_with_the_old_value_and_run_before_retain_grad(T):
    a = leaf(T, [2.0, 3.0])
    r = a * 1
    r.retain_grad()
    seen = []
    r.register_hook(lambda g: seen.append(vals(g).tolist()))
    r.mul_(3)
    (r * r).sum().backward()
    assert seen == [[36.0, 54.0]] and vals(r.grad).tolist() == [12.0, 18.0]
    y = a * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert vals(y.grad).tolist() == [10.0, 10.0]


def test_retained_grads_are_summed_out_of_place(T):
    a = leaf(T, [2.0, 3.0])
    r = a * 1
    r.retain_grad()
    (r * r).sum().backward(create_graph=True)
    first = r.grad
    assert type(first.grad_fn).__name__ == "CloneBackward0"
    (r * 2).sum().backward()
    assert r.grad is not first and r.grad.grad_fn is None
    assert vals(r.grad).tolist() == [6.0, 8.0] and vals(first).tolist() == [4.0, 6.0]


def _float32_result_hooked(T, hook):
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 2
    y.register_hook(hook)
    y.sum().backward()
    return a.grad


def _float32_leaf_hooked(T, hook):
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a.register_hook(hook)
    (a * 2).sum().backward()
    return a.grad


@pytest.mark.parametrize("run", [_float32_result_hooked, _float32_leaf_hooked])
def test_tensor_hook_results_are_checked(T, run):
    def resized(g):
        return T.ones(2)

    with raises_exactly(RuntimeError, "hook 'resized' has changed the size of value"):
        run(T, resized)
    with raises_exactly(
        RuntimeError,
        "hook '<lambda>' has changed the type of value (was torch.FloatTensor got "
        "torch.LongTensor)",
    ):
        run(T, lambda g: g.long())
    with raises_exactly(
        RuntimeError,
        "hook '<lambda>' has changed the type of value (was torch.FloatTensor got CPUBoolType)",
    ):
        run(T, lambda g: g > 0)
    with raises_exactly(TypeError, "expected Variable, but hook returned 'list'"):
        run(T, lambda g: [1.0, 2.0, 3.0])

    class Unnamed:
        def __call__(self, g):
            return g.double()

    with raises_exactly(
        RuntimeError,
        "hook '<unknown>' has changed the type of value (was torch.FloatTensor got "
        "torch.DoubleTensor)",
    ):
        run(T, Unnamed())
    assert vals(run(T, lambda g: g * 10)).tolist() == [20.0, 20.0, 20.0]


def test_node_hook_results_are_checked(T):
    def pre(hook):
        a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = a * 2
        y.grad_fn.register_prehook(hook)
        y.sum().backward()
        return a.grad

    def post(hook):
        a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = a * 2
        y.grad_fn.register_hook(hook)
        y.sum().backward()
        return a.grad

    with raises_exactly(TypeError, "expected tuple, but hook returned 'Tensor'"):
        pre(lambda gs: gs[0])
    with raises_exactly(
        RuntimeError,
        "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)",
    ):
        pre(lambda gs: (gs[0], gs[0]))
    with raises_exactly(RuntimeError, "hook '<lambda>' has changed the size of value"):
        pre(lambda gs: (T.ones(2),))
    assert pre(lambda gs: (None,)) is None
    with raises_exactly(RuntimeError, "can't replace a None gradient with a non-None value"):
        post(lambda gi, go: (gi[0], T.ones(3)))  # the constant 2 has no gradient
    assert vals(post(lambda gi, go: (gi[0] * 3, None))).tolist() == [6.0, 6.0, 6.0]


def test_post_accumulate_grad_hooks_must_return_none(T):
    def run(hook):
        a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        a.register_post_accumulate_grad_hook(hook)
        (a * 2).sum().backward()
        return a.grad

    assert vals(run(lambda t: None)).tolist() == [2.0, 2.0, 2.0]
    assert vals(run(lambda t: t)).tolist() == [2.0, 2.0, 2.0]
    with raises_exactly(RuntimeError, "Tensor post accumulate grad hooks should return None."):
        run(lambda t: t * 2)
    with raises_exactly(TypeError, "expected Variable, but hook returned 'int'"):
        run(lambda t: 3)


def test_plain_gradient_accumulates_in_place_into_a_grad_with_a_graph(T):
    x = leaf(T, [1.0, 2.0])
    (x * x).sum().backward(create_graph=True)
    g, node = x.grad, x.grad.grad_fn
    version = g._version
    (x * 2).sum().backward()
    assert x.grad is g and g.grad_fn is node and g.requires_grad
    assert vals(g).tolist() == [4.0, 6.0] and g._version == version + 1
    (x * x).sum().backward(create_graph=True)  # create_graph again: a new .grad
    assert x.grad is not g and type(x.grad.grad_fn).__name__ == "AddBackward0"
    x.grad = None
    (x * x).sum().backward(create_graph=True)
    x.grad.zero_()  # the copied first gradient is writable
    assert type(x.grad.grad_fn).__name__ == "ZeroBackward0"


def test_an_expanded_grad_refuses_the_in_place_sum(T):
    x = leaf(T, [1.0, 2.0])
    x.grad = T.ones(1, dtype=T.float64).expand(2)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        (x * 2).sum().backward()


def test_custom_function_edges_are_for_tensor_inputs_only(T):
    class Mixed(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, k, b, c=None):
            return a * k + b

        @staticmethod
        def backward(ctx, g):
            return g, None, g, None

    x = leaf(T, [1.0, 2.0])
    u = T.tensor([1.0, 1.0], dtype=T.float64)
    y = Mixed.apply(x, 3.0, u, None)
    assert len(y.grad_fn.next_functions) == 2 and y.grad_fn.next_functions[1] == (None, 0)
    y.sum().backward()
    assert vals(x.grad).tolist() == [1.0, 1.0]
    y = Mixed.apply(x, 3.0, b=u)  # keywords bound in forward's order, no defaults filled
    assert len(y.grad_fn.next_functions) == 2
    with raises_exactly(TypeError, "forward() missing required argument: 'b' (position 2)"):
        Mixed.apply(x, 3.0, c=1)
    with raises_exactly(TypeError, "forward() got an unexpected keyword argument 'z'"):
        Mixed.apply(x, z=1)


def test_mark_dirty_leaf_wording(T):
    class Dirty(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g

    with raises_exactly(
        RuntimeError, "a leaf Variable that requires grad has been used in an in-place operation."
    ):
        Dirty.apply(leaf(T, [1.0]))


def test_requires_grad_wordings(T):
    with raises_exactly(
        RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"
    ):
        T.zeros(2, dtype=T.long, requires_grad=True)
    t = T.tensor([1, 2])
    with raises_exactly(
        RuntimeError, "only Tensors of floating point and complex dtype can require gradients"
    ):
        t.requires_grad = True
    with raises_exactly(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        t.requires_grad_()
    with raises_exactly(RuntimeError, "requires_grad must be a bool"):
        T.tensor([1.0]).requires_grad = 1
    with raises_exactly(
        TypeError,
        "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not NoneType",
    ):
        T.tensor([1.0]).requires_grad_(None)
    y = leaf(T, [1.0]) * 2
    assert y.requires_grad_() is y  # a no-op on a non-leaf


@pytest.mark.parametrize("convert", [float, int, complex])
def test_many_element_conversions_are_value_errors(T, convert):
    for t in (T.ones(3), T.tensor([]), T.tensor([1, 2])):
        with raises_exactly(
            ValueError, "only one element tensors can be converted to Python scalars"
        ):
            convert(t)
    assert convert(T.tensor([[3]])) == convert(3)


def test_isclose_and_broadcasting_helpers(T):
    nan, inf = float("nan"), float("inf")
    a = T.tensor([1.0, nan, inf, 1.1])
    b = T.tensor([1.0 + 1e-6, nan, inf, 1.0])
    assert T.isclose(a, b).tolist() == [True, False, True, False]
    assert a.isclose(b, equal_nan=True).tolist() == [True, True, True, False]
    with raises_exactly(RuntimeError, "Float did not match Double"):
        T.isclose(a, b.double())
    with raises_exactly(RuntimeError, "rtol must be greater than or equal to zero, but got -1"):
        T.isclose(a, b, rtol=-1.0)
    assert T.broadcast_shapes((2, 1), (3,), (1, 1, 3)) == (1, 2, 3)
    with raises_exactly(
        RuntimeError,
        "Attempting to broadcast a dimension of length 3 at -1! Mismatching argument at index 1 "
        "had (3,); but expected shape should be broadcastable to [2]",
    ):
        T.broadcast_shapes((2,), (3,))
    x = leaf(T, [1.0, 2.0, 3.0])
    y = leaf(T, [[10.0], [20.0]])
    p, q = T.broadcast_tensors(x, y)
    assert type(p.grad_fn).__name__ == "ExpandBackward0" and tuple(q.shape) == (2, 3)
    (p * q).sum().backward()
    assert vals(x.grad).tolist() == [30.0, 30.0, 30.0] and vals(y.grad).tolist() == [[6.0], [6.0]]
    assert T.broadcast_tensors(x, x)[0] is x


def test_backward_inputs_retain_the_grad_of_non_leaves(T):
    x = leaf(T, [1.0, 2.0])
    z = x * 3
    loss = (z * z).sum()
    loss.backward(inputs=[z], retain_graph=True)
    first = z.grad
    assert z.retains_grad and x.grad is None and vals(first).tolist() == [6.0, 12.0]
    loss.backward(retain_graph=True)  # later passes keep filling it, out of place
    assert z.grad is not first and vals(z.grad).tolist() == [12.0, 24.0]
    with raises_exactly(RuntimeError, "`inputs` argument to `backward()` cannot be empty."):
        loss.backward(inputs=[])
    with raises_exactly(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        loss.backward(inputs=[T.ones(2)])


def test_in_place_on_an_expanded_gradient_is_refused(T):
    x = leaf(T, [1.0, 2.0])
    y = x * 2
    y.register_hook(lambda g: g.mul_(3))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        y.sum().backward()


def test_custom_function_returning_its_input_gives_a_new_tensor(T):
    class Identity(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = leaf(T, [1.0, 2.0])
    with T.no_grad():
        y = Identity.apply(x)
    assert y is not x and not y.requires_grad
    plain = T.ones(2)
    assert Identity.apply(plain) is not plain


def test_relu_gradient_masks_with_positive_zero():
    """PyTorch's threshold_backward gives +0. where relu is flat, whatever the sign of grad."""
    import math

    import autodiff_cli.engine as engine

    x = engine.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    x.relu().backward(engine.tensor([-1.0, -1.0, -2.0]))
    assert x.grad.tolist() == [0.0, -1.0, 0.0]
    assert [math.copysign(1.0, v) for v in x.grad.tolist()] == [1.0, -1.0, 1.0]
