"""Engine bases never trust private class attributes a script's subclass defines (issue 29,
hole 6).

A script subclass of `LRScheduler` once set `_fields = ("step", "__dict__", ...)`: the base's
`state_dict()` read those names with getattr and handed back raw bound methods and the attribute
table, and `load_state_dict()` set `__class__`. The state fields now come from the nearest engine
class. The audit table below lists every private class attribute of every engine base a script may
subclass, with why a script's own definition of it is harmless; a new one fails until audited.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine.optim.lr_scheduler import base as lr_base
from autodiff_cli.engine.optim.lr_scheduler import composite
from autodiff_cli.lang.sandbox import typeview

REPO = Path(__file__).resolve().parent.parent

AUDITED = {
    # LRScheduler: the state fields are read from the nearest engine class (`_STATE_FIELDS`).
    ("LRScheduler", "_fields"): "never read from self: lr_scheduler.base._engine_fields",
    ("LRScheduler", "_advance"): "called with the epoch (an int or None)",
    ("LRScheduler", "_current_lrs"): "called without arguments; its result is stored",
    ("LRScheduler", "_initial_step"): "called without arguments",
    ("LRScheduler", "_rule"): "called without arguments; its result is checked by _write_lrs",
    ("LRScheduler", "_write_lrs"): "called with get_lr()'s result (script values)",
    # nn.Module: the tables are instance attributes read from __dict__ once __init__ ran.
    ("Module", "_apply_to_tensors"): "called with a lambda of public Tensor methods",
    ("Module", "_call_forward"): "called with the call's own arguments",
    ("Module", "_check_name"): "called with the script's name and a word",
    ("Module", "_get_name"): "its result is printed (PyTorch's override point)",
    ("Module", "_load_own_state"): "called with the script's state dict and plain lists",
    ("Module", "_named_members"): "called with a table name and the caller's arguments",
    # Optimizer: the base calls only _update; the raw-array helpers are for engine subclasses
    # (which scripts cannot derive from), and _advance calls Optimizer._write itself.
    ("Optimizer", "_update"): "called with a param group dict and a list of Tensors",
    ("Optimizer", "_advance"): "not called by the base; writes through Optimizer._write",
    ("Optimizer", "_grad"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_write"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_zeros_like"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_step_tensor"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_each_param"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_initial_state"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_state_of"): "not called by the base (SGD, Adam... are not script bases)",
    ("Optimizer", "_buffers"): "read only by _initial_state (not called by the base)",
    ("Optimizer", "_decayed_grad"): "not called by the base (SGD, Adam... are not script bases)",
    # autograd.Function: FunctionMeta sets it after the class body ran, so a body's value is lost.
    ("Function", "_backward_cls"): "set by FunctionMeta after the class body",
}


def _engine_base_private_names() -> set[tuple[str, str]]:
    import autodiff_cli.engine.optim.lr_scheduler  # noqa: F401 - the bases' modules are loaded
    import autodiff_cli.engine.utils.data  # noqa: F401

    found = set()
    for base in typeview.resolve_classes(typeview._ENGINE_BASES):
        for klass in base.__mro__[:-1]:
            for name in vars(klass):
                if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
                    found.add((klass.__name__, name))
    return found


def test_every_private_class_attribute_of_an_engine_base_is_audited():
    found = _engine_base_private_names()
    assert ("LRScheduler", "_fields") in found
    assert found - set(AUDITED) == set()


def test_every_engine_scheduler_class_has_registered_state_fields():
    pending, classes = [torch.optim.lr_scheduler.LRScheduler], []
    while pending:
        cls = pending.pop()
        classes.append(cls)
        pending.extend(cls.__subclasses__())
    engine = [c for c in classes if c.__module__.startswith(("torch.", "autodiff_cli."))]
    concrete = [c for c in engine if not c.__name__.startswith("_")]
    assert len(concrete) >= 16
    assert [c.__name__ for c in concrete if c not in lr_base._STATE_FIELDS] == []
    assert lr_base._STATE_FIELDS[composite.SequentialLR] == composite.SequentialLR._fields


def _script_scheduler(fields: tuple[str, ...]) -> type:
    class Evil(torch.optim.lr_scheduler.LRScheduler):
        _fields = fields

        def __init__(self, optimizer):
            self.warmup = 3
            super().__init__(optimizer)

        def get_lr(self):
            return [0.5 for _ in self.optimizer.param_groups]

    return Evil


def _plain(value, depth=0) -> bool:
    if isinstance(value, (int, float, str, bool, type(None))):
        return True
    if isinstance(value, (list, tuple)) and depth < 3:
        return all(_plain(item, depth + 1) for item in value)
    return False


def test_a_subclass_fields_are_not_read():
    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1)
    scheduler = _script_scheduler(("step", "__dict__", "__class__", "_write_lrs"))(optimizer)
    state = scheduler.state_dict()
    assert set(state) == {*lr_base.LRScheduler._fields, "warmup"}
    assert all(_plain(value) for value in state.values()), state
    assert not any(isinstance(v, (types.MethodType, dict, type)) for v in state.values())


def test_a_subclass_load_state_dict_writes_only_fields_and_public_names():
    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1)
    evil = _script_scheduler(("__class__", "step"))
    scheduler = evil(optimizer)
    scheduler.load_state_dict(
        {"__class__": int, "__dict__": {}, "_secret": 1, "warmup": 7, "last_epoch": 4, 5: 6}
    )
    assert type(scheduler) is evil
    assert scheduler.warmup == 7 and scheduler.last_epoch == 4
    assert "_secret" not in vars(scheduler)


def test_engine_schedulers_keep_their_state_keys():
    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1)
    step = torch.optim.lr_scheduler.StepLR(optimizer, 2, gamma=0.5)
    assert set(step.state_dict()) == set(torch.optim.lr_scheduler.StepLR._fields)


SCRIPT = """
import torch
p = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([p], lr=0.1)

class Evil(torch.optim.lr_scheduler.LRScheduler):
    _fields = ("step", "__dict__", "__class__", "_write_lrs", "__reduce_ex__")
    def __init__(self, o):
        self.warmup = 3
        super().__init__(o)
    def get_lr(self):
        return [0.5 for g in self.optimizer.param_groups]

s = Evil(opt)
state = s.state_dict()
print(sorted(state))
print(sorted(type(v).__name__ for v in state.values()))
s.load_state_dict({"__class__": int, "warmup": 7, "last_epoch": 4})
print(type(s).__name__, s.warmup, s.last_epoch)
"""


@pytest.mark.parametrize("isolation", ["1", "0"])
def test_the_attack_as_a_user_runs_it(tmp_path, isolation):
    script = tmp_path / "evil_scheduler.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "AUTODIFF_ISOLATION": isolation},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "['_get_lr_called_within_step', '_is_initial', '_last_lr', '_step_count', 'base_lrs', "
        "'last_epoch', 'warmup']"
    )
    assert lines[1] == "['bool', 'bool', 'int', 'int', 'int', 'list', 'list']"
    assert lines[2] == "Evil 7 4"
