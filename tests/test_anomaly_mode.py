"""Anomaly mode (`torch.autograd.detect_anomaly`, `set_detect_anomaly`): the switches, NaN checks
in backward, the forward traces and the warnings naming them, on the engine and on PyTorch alike,
and through `autodiff run` (the trace shows the script's own lines)."""

from __future__ import annotations

import inspect
import subprocess
import sys
import warnings

import pytest
from script_runner import run

import autodiff_cli.engine as engine
from autodiff_cli.engine.core import backward, modes

ENABLED = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
    "enabled for debugging."
)
TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/"


@pytest.fixture(autouse=True)
def _anomaly_off():
    yield
    engine.autograd.set_detect_anomaly(False)
    assert not modes.active() and not backward.NODE_WATCH  # nothing left watching


def _recorded(fn):
    """`fn()`'s result (or the RuntimeError it raised) and the warning messages it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
        except RuntimeError as error:
            result = error
    return result, [(w.category, str(w.message)) for w in caught]


def _here() -> int:
    return inspect.currentframe().f_back.f_lineno


def test_detect_anomaly_warns_when_made_and_turns_the_mode_on_inside(T):
    assert (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()) == (False, True)

    def use():
        manager = T.autograd.detect_anomaly(check_nan=False)
        assert not T.is_anomaly_enabled()  # made, not entered yet
        with manager:
            inside = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())
        return inside, (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())

    result, caught = _recorded(use)
    assert result == ((True, False), (False, True))
    assert caught == [(UserWarning, ENABLED)]
    cls = T.autograd.detect_anomaly
    assert (cls.__module__, cls.__name__) == ("torch.autograd.anomaly_mode", "detect_anomaly")


def test_set_detect_anomaly_sets_at_once_and_restores_as_a_context_manager(T):
    result, caught = _recorded(lambda: T.autograd.set_detect_anomaly(True, check_nan=False))
    assert caught == []  # only detect_anomaly warns
    assert (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()) == (True, False)
    with T.autograd.set_detect_anomaly(False):
        assert (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()) == (False, True)
    assert (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()) == (True, False)
    T.autograd.set_detect_anomaly(False)
    assert not T.is_anomaly_enabled()


def test_detect_anomaly_restores_the_state_it_found_when_made(T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        manager = T.autograd.detect_anomaly()
    with manager:
        with manager:
            assert T.is_anomaly_enabled()
        assert not T.is_anomaly_enabled()  # the inner exit restored what __init__ saw


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda T: T.autograd.set_detect_anomaly(1),
            "set_anomaly_enabled(): argument 'enabled' (position 1) must be bool, not int",
        ),
        (
            lambda T: T.autograd.set_detect_anomaly(True, check_nan="yes"),
            "set_anomaly_enabled(): argument 'check_nan' (position 2) must be bool, not str",
        ),
    ],
)
def test_arguments_must_be_bools(T, call, message):
    with pytest.raises(TypeError) as info:
        call(T)
    assert str(info.value) == message
    assert not T.is_anomaly_enabled()


def test_check_nan_is_checked_when_detect_anomaly_is_entered(T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        manager = T.autograd.detect_anomaly(check_nan=1)
    with pytest.raises(TypeError, match="argument 'check_nan' .position 2. must be bool, not int"):
        with manager:
            pass


def test_neither_is_a_decorator(T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for manager in (T.autograd.detect_anomaly(), T.autograd.set_detect_anomaly(False)):
            with pytest.raises(
                TypeError, match=f"'{type(manager).__name__}' object is not callable"
            ):
                manager(lambda: None)


def test_nan_in_a_backward_output_is_an_error_naming_the_node_and_output(T):
    x = T.tensor([1.0, 2.0], requires_grad=True)

    def log_zero():
        with T.autograd.detect_anomaly():
            (T.log(x - 1.0) * 0).sum().backward()

    error, caught = _recorded(log_zero)
    assert str(error) == "Function 'LogBackward0' returned nan values in its 0th output."
    line = _here() - 4
    assert caught[1][0] is UserWarning
    assert caught[1][1].startswith(
        "Error detected in LogBackward0. Traceback of forward call that caused the error:\n"
    )
    assert f'  File "{__file__}", line {line}, in log_zero\n' in caught[1][1]
    assert "    (T.log(x - 1.0) * 0).sum().backward()\n" + TRIGGERED in caught[1][1]
    assert caught[1][1].endswith("python_anomaly_mode.cpp:122.)")
    assert x.grad is None


def test_the_output_number_is_the_input_whose_gradient_is_nan(T):
    a = T.tensor([0.0], requires_grad=True)
    b = T.tensor([0.0], requires_grad=True)

    def divide():
        with T.autograd.detect_anomaly():
            (a / b).sum().backward()  # d/da = 1/0 = inf, d/db = -0/0 = nan

    error, _ = _recorded(divide)
    assert str(error) == "Function 'DivBackward0' returned nan values in its 1th output."


def test_without_check_nan_the_nan_flows_on(T):
    x = T.tensor([0.0, 1.0], requires_grad=True)

    def unchecked():
        with T.autograd.detect_anomaly(check_nan=False):
            (T.sqrt(x) * 0).sum().backward()
        return x.grad

    grad, caught = _recorded(unchecked)
    assert str(grad.tolist()) == "[nan, 0.0]"
    assert caught == [(UserWarning, ENABLED)]


def test_a_node_made_before_the_mode_has_no_forward_information(T):
    x = T.tensor([0.0], requires_grad=True)
    y = (T.sqrt(x) * 0).sum()

    def late():
        with T.autograd.detect_anomaly():
            y.backward()

    error, caught = _recorded(late)
    assert str(error) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    assert caught[1] == (
        UserWarning,
        "Error detected in SqrtBackward0. No forward pass information available. Enable detect "
        "anomaly during forward pass for more information."
        + TRIGGERED
        + "python_anomaly_mode.cpp:100.)",
    )


def test_traces_are_kept_in_the_node_metadata_only_while_the_mode_is_on(T):
    x = T.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with T.autograd.detect_anomaly():
            y = x.exp()
            line = _here() - 1
    z = x * 3
    assert list(y.grad_fn.metadata) == ["traceback_"]
    assert y.grad_fn.metadata["traceback_"][-1] == (
        f'  File "{__file__}", line {line}, in '
        "test_traces_are_kept_in_the_node_metadata_only_while_the_mode_is_on\n    y = x.exp()\n"
    )
    assert z.grad_fn.metadata == {}


def test_the_inplace_hint_points_at_the_warning_when_the_mode_is_on(T):
    x = T.ones(3, requires_grad=True)

    def modified():
        y = x.exp()
        y.add_(1)
        y.sum().backward()

    off, _ = _recorded(modified)
    assert str(off).endswith(
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )

    def modified_in_anomaly_mode():
        with T.autograd.detect_anomaly():
            modified()

    on, caught = _recorded(modified_in_anomaly_mode)
    assert str(on) == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected "
        "version 0 instead. Hint: the backtrace further above shows the operation that failed to "
        "compute its gradient. The variable in question was changed in there or anywhere later. "
        "Good luck!"
    )
    assert caught[1][1].startswith("Error detected in ExpBackward0. Traceback of forward call")
    assert "    y = x.exp()\n" in caught[1][1]


def test_a_node_made_by_a_backward_pass_names_the_node_that_made_it(T):
    a = T.tensor([0.0, 1.0], requires_grad=True)

    def double_backward():
        with T.autograd.detect_anomaly():
            b = T.sqrt(a)
            (g,) = T.autograd.grad(b.sum(), a, create_graph=True)
            (g * 0).sum().backward()

    error, caught = _recorded(double_backward)
    line = _here() - 5
    assert str(error) == "Function 'DivBackward0' returned nan values in its 1th output."
    assert caught[1][1].startswith("Error detected in DivBackward0. Traceback of forward call")
    assert caught[2][1].startswith(
        "\n\nPrevious calculation was induced by SqrtBackward0. Traceback of forward call that "
        "induced the previous calculation:\n"
    )
    assert f'  File "{__file__}", line {line}, in double_backward\n' in caught[2][1]
    assert caught[2][1].endswith(
        "    b = T.sqrt(a)\n" + TRIGGERED + "python_anomaly_mode.cpp:129.)"
    )


def test_a_script_trace_names_the_script_frames():
    source = (
        "import torch\n"
        "import warnings\n"
        "class Net(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return torch.log(x - x)\n"
        "def loss(net, x):\n"
        "    return net(x).sum() * 0\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    with torch.autograd.detect_anomaly():\n"
        "        y = loss(Net(), x)\n"
        "        print(y.grad_fn.metadata['traceback_'][0], end='')\n"
        "        try:\n"
        "            y.backward()\n"
        "        except RuntimeError as e:\n"
        "            print(e)\n"
        "print(caught[1].message)\n"
    )
    assert run(source, "net.py") == (
        '  File "net.py", line 11, in <module>\n'
        "    y = loss(Net(), x)\n"
        "Function 'LogBackward0' returned nan values in its 0th output.\n"
        "Error detected in LogBackward0. Traceback of forward call that caused the error:\n"
        '  File "net.py", line 11, in <module>\n'
        "    y = loss(Net(), x)\n"
        '  File "net.py", line 7, in loss\n'
        "    return net(x).sum() * 0\n"
        '  File "net.py", line 5, in forward\n'
        "    return torch.log(x - x)\n" + TRIGGERED + "python_anomaly_mode.cpp:122.)\n"
    )


def test_every_spelling_of_the_switches_traces_the_script():
    """The script's switches (`lang/runtime/script_stack.script_switch`) stand in for the
    engine's wherever a script reaches them, and look like them."""
    source = (
        "import torch\n"
        "x = torch.ones(1, requires_grad=True)\n"
        "with torch.autograd.anomaly_mode.set_detect_anomaly(True):\n"
        "    y = x * 2\n"
        "print(y.grad_fn.metadata['traceback_'][0], end='')\n"
        "torch.autograd.set_detect_anomaly(True)\n"
        "z = x * 3\n"
        "torch.autograd.set_detect_anomaly(False)\n"
        "print(z.grad_fn.metadata['traceback_'][0], end='')\n"
        "print(torch.autograd.detect_anomaly is torch.autograd.anomaly_mode.detect_anomaly)\n"
        "print(torch.autograd.detect_anomaly, type(torch.autograd.set_detect_anomaly(False)))\n"
    )
    assert run(source, "s.py") == (
        '  File "s.py", line 4, in <module>\n    y = x * 2\n'
        '  File "s.py", line 7, in <module>\n    z = x * 3\n'
        "True\n"
        "<class 'torch.autograd.anomaly_mode.detect_anomaly'> "
        "<class 'torch.autograd.anomaly_mode.set_detect_anomaly'>\n"
    )


def test_the_engines_own_switches_trace_python_code():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = engine.ones(1, requires_grad=True)
        with engine.autograd.detect_anomaly():
            y = x * 2
    (entry,) = [line for line in y.grad_fn.metadata["traceback_"] if __file__ in line]
    assert entry.endswith("    y = x * 2\n")


def test_autodiff_run_shows_the_warnings_at_the_script_lines(script):
    path = script(
        "nan.py",
        "import torch\n"
        "\n"
        "def f(x):\n"
        "    return torch.sqrt(x) * 0\n"
        "\n"
        "x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
        "with torch.autograd.detect_anomaly():\n"
        "    y = f(x).sum()\n"
        "    y.backward()\n",
    )
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", path],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert f"{path}:7: UserWarning: {ENABLED}\n" in result.stderr
    assert (
        f"{path}:9: UserWarning: Error detected in SqrtBackward0. Traceback of forward call that "
        "caused the error:\n"
        f'  File "{path}", line 8, in <module>\n'
        "    y = f(x).sum()\n"
        f'  File "{path}", line 4, in f\n'
        "    return torch.sqrt(x) * 0\n" + TRIGGERED + "python_anomaly_mode.cpp:122.)\n"
    ) in result.stderr
    assert result.stderr.endswith(
        "RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.\n"
    )


def test_the_mode_costs_nothing_once_off():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with engine.autograd.detect_anomaly():
            assert modes.active() and backward.NODE_WATCH
    assert not modes.active() and not backward.NODE_WATCH
    x = engine.ones(2, requires_grad=True)
    assert (x * 2).grad_fn._x is None  # no trace, no extras
