"""Inference mode (`torch.inference_mode`): the switch (context manager, decorator with and
without parentheses, nesting with grad mode), which tensors are inference tensors (ops,
factories, views, detach, clone), and PyTorch's errors for inference tensors used outside the
mode; on the engine and on PyTorch alike, and in scripts."""

from __future__ import annotations

import pytest
from script_runner import run

import autodiff_cli.engine as engine
from autodiff_cli.engine.core import modes

INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
    "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
    "for more details."
)
SAVE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
VERSION = "Inference tensors do not track version counter."
REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
)


def _error(fn) -> str:
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value)


def test_the_mode_turns_grad_off_and_restores_both(T):
    assert not T.is_inference_mode_enabled()
    with T.inference_mode():
        assert (T.is_inference_mode_enabled(), T.is_grad_enabled()) == (True, False)
        with T.inference_mode(False):
            assert (T.is_inference_mode_enabled(), T.is_grad_enabled()) == (False, True)
        with T.no_grad():
            assert (T.is_inference_mode_enabled(), T.is_grad_enabled()) == (True, False)
    assert (T.is_inference_mode_enabled(), T.is_grad_enabled()) == (False, True)
    with T.no_grad():
        with T.inference_mode(False):  # inference_mode(False) turns gradients on
            assert (T.is_inference_mode_enabled(), T.is_grad_enabled()) == (False, True)
        assert T.is_grad_enabled() is False


def test_decorator_with_and_without_parentheses(T):
    x = T.ones(2, requires_grad=True)

    @T.inference_mode()
    def f(v):
        return v * 2, T.is_inference_mode_enabled()

    @T.inference_mode
    def g(v):
        return v * 3

    @T.inference_mode(False)
    def h():
        return T.is_inference_mode_enabled()

    y, on = f(x)
    assert on and y.is_inference() and not y.requires_grad
    assert g(x).is_inference() and g(x).tolist() == [3.0, 3.0]
    assert (f.__name__, g.__name__) == ("f", "g")
    with T.inference_mode():
        assert h() is False
    cls = T.inference_mode
    assert (cls.__module__, cls.__name__) == ("torch.autograd.grad_mode", "inference_mode")


def test_ops_and_factories_make_inference_tensors(T):
    x = T.ones(2, requires_grad=True)
    with T.inference_mode():
        made = {
            "op": x * 2,
            "reduction": x.sum(),
            "ones": T.ones(3),
            "zeros_like": T.zeros_like(x),
            "tensor": T.tensor([1.0, 2.0]),
            "arange": T.arange(3),
            "full": T.full((2,), 3.0),
            "eye": T.eye(2),
            "linspace": T.linspace(0, 1, 3),
            "randn": T.randn(2),
            "where": T.where(x > 0, x, x),
            "argmax": x.argmax(),
            "max indices": x.max(dim=0).indices,
            "sort indices": x.sort().indices,
            "topk indices": x.topk(1).indices,
            "argsort": x.argsort(),
            "any": (x > 0).any(),
            "one_hot": T.nn.functional.one_hot(T.tensor([0, 1])),
            "multinomial": T.multinomial(T.ones(3), 2),
            "bernoulli": T.bernoulli(T.full((2,), 0.5)),
        }
        view_of_normal = x[0]
        layer = T.nn.Linear(2, 1)
        q = T.ones(2, requires_grad=True)
    assert {name: t.is_inference() for name, t in made.items()} == dict.fromkeys(made, True)
    assert not made["op"].requires_grad and made["op"].grad_fn is None
    assert not x.is_inference() and not view_of_normal.is_inference()
    assert layer.weight.is_inference() and layer.weight.requires_grad
    assert q.is_inference() and q.requires_grad and q.is_leaf
    assert T.is_inference(made["op"])


def test_enable_grad_inside_records_nothing(T):
    x = T.ones(2, requires_grad=True)
    with T.inference_mode():
        with T.enable_grad():
            y = x * 2
            assert T.is_grad_enabled()
    assert (y.requires_grad, y.is_inference(), y.grad_fn) == (False, True, None)


def test_views_and_detach_stay_inference_tensors_and_clone_does_not(T):
    with T.inference_mode():
        y = T.ones(2) * 2
    assert y.view(2, 1).is_inference() and y[0].is_inference() and y.detach().is_inference()
    c = y.clone()
    assert not c.is_inference()
    c.add_(1)  # a normal tensor: in place is fine
    assert c.tolist() == [3.0, 3.0] and y.tolist() == [2.0, 2.0]


def test_inplace_outside_the_mode_is_refused_after_the_write(T):
    with T.inference_mode():
        y = T.ones(2)
        y.add_(1)  # inside: fine, no version kept
        assert y.tolist() == [2.0, 2.0]
    assert _error(lambda: y.add_(1)) == INPLACE
    assert y.tolist() == [3.0, 3.0]  # PyTorch writes, then refuses to count the version
    assert _error(lambda: y.zero_()) == INPLACE
    assert _error(lambda: y[0].fill_(5.0)) == INPLACE
    assert y.tolist() == [5.0, 0.0]

    def setitem():
        y[1] = 7.0

    assert _error(setitem) == INPLACE
    with T.no_grad():
        assert _error(lambda: y.mul_(2)) == INPLACE
    with T.inference_mode():
        y.mul_(2)
    assert y.tolist() == [20.0, 28.0]


def test_version_counter_is_not_tracked(T):
    with T.inference_mode():
        y = T.ones(2)
        assert _error(lambda: y._version) == VERSION
    assert _error(lambda: y._version) == VERSION
    assert _error(lambda: y.view(2)._version) == VERSION


def test_saving_an_inference_tensor_for_backward_is_refused(T):
    x = T.ones(2, requires_grad=True)
    with T.inference_mode():
        y = T.ones(2) * 3
    assert _error(lambda: x * y) == SAVE  # mul saves each input for the other's gradient
    assert _error(lambda: T.exp(x) * y[:2]) == SAVE
    assert _error(lambda: x.pow(y)) == SAVE
    z = x + y  # add saves nothing: allowed, as in PyTorch
    z.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and not z.is_inference()
    w = x * y.clone()  # the workaround PyTorch suggests
    assert w.tolist() == [3.0, 3.0]


def test_a_custom_function_cannot_save_one_either(T):
    class Mul(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b, g * a

    x = T.ones(2, requires_grad=True)
    with T.inference_mode():
        y = T.ones(2)
    assert _error(lambda: Mul.apply(x, y)) == SAVE


def test_requires_grad_outside_the_mode_is_refused(T):
    with T.inference_mode():
        y = T.ones(2)
        y.requires_grad_()  # inside: allowed
    with T.inference_mode():
        z = T.ones(2)
    assert _error(lambda: z.requires_grad_()) == REQUIRES_GRAD

    def setter():
        z.requires_grad = True

    assert _error(setter) == REQUIRES_GRAD
    assert _error(lambda: T.nn.Parameter(z)) == REQUIRES_GRAD
    assert z.requires_grad_(False) is z
    assert y.requires_grad


def test_outputs_of_a_model_run_in_inference_mode_cannot_backward(T):
    layer = T.nn.Linear(2, 1)
    with T.inference_mode():
        out = layer(T.ones(1, 2))
    assert out.is_inference() and not out.requires_grad
    assert _error(lambda: out.sum().backward()) == (
        "element 0 of tensors does not require grad and does not have a grad_fn"
    )


def test_inplace_on_normal_tensors_inside_keeps_their_version():
    x = engine.ones(2, requires_grad=True)
    with engine.inference_mode():
        x.add_(1)  # no grad mode: a leaf may be written
        assert not x.is_inference()
    assert x._version == 1 and x.tolist() == [2.0, 2.0]


def test_the_mode_costs_nothing_once_off():
    with engine.inference_mode():
        assert modes.active()
        with engine.inference_mode(False):
            assert not modes.active()
    assert not modes.active()
    assert engine.ones(2)._vbox is None  # a normal tensor gets its counter when first needed


def test_a_script_sees_the_same():
    source = (
        "import torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "@torch.inference_mode()\n"
        "def predict(v):\n"
        "    return v * 2\n"
        "y = predict(x)\n"
        "print(y, y.is_inference(), torch.is_inference_mode_enabled())\n"
        "with torch.inference_mode():\n"
        "    print(torch.is_inference_mode_enabled(), torch.zeros(1).is_inference())\n"
        "for attempt in (lambda: x * y, lambda: y.add_(1), lambda: y._version):\n"
        "    try:\n"
        "        attempt()\n"
        "    except RuntimeError as e:\n"
        "        print(str(e)[:40])\n"
        "print(y)\n"
    )
    assert run(source) == (
        "tensor([2., 2.]) True False\n"
        "True True\n"
        "Inference tensors cannot be saved for ba\n"
        "Inplace update to inference tensor outsi\n"
        "Inference tensors do not track version c\n"
        "tensor([3., 3.])\n"
    )


def test_reset_global_state_turns_inference_and_anomaly_modes_off():
    engine.inference_mode().__enter__()  # a script left both on
    engine.autograd.set_detect_anomaly(True)
    engine.reset_global_state()
    assert not engine.is_inference_mode_enabled() and not engine.is_anomaly_enabled()
    assert engine.is_grad_enabled() and not modes.active()
    assert not engine.ones(1).is_inference()
