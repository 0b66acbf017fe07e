"""`torch.optim.lr_scheduler`: learning rates against closed-form schedules, state round trips."""

from __future__ import annotations

import math
import warnings

import pytest

import autodiff_cli.engine as E

lr_scheduler = E.optim.lr_scheduler


def make_optimizer(lr: float = 0.1, momentum: float = 0.0) -> E.optim.SGD:
    param = E.tensor([1.0, -1.0], requires_grad=True)
    return E.optim.SGD([param], lr=lr, momentum=momentum)


def stepped(optimizer: E.optim.SGD, scheduler: lr_scheduler.LRScheduler, n: int) -> list[float]:
    """The lr after each of `n` (optimizer.step, scheduler.step) pairs, from the scheduler."""
    lrs = []
    for _ in range(n):
        optimizer.step()
        scheduler.step()
        lrs.append(scheduler.get_last_lr()[0])
        assert optimizer.param_groups[0]["lr"] == lrs[-1]
    return lrs


def test_step_lr_matches_closed_form() -> None:
    optimizer = make_optimizer(lr=0.2)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.5)
    assert scheduler.get_last_lr() == [0.2]
    assert optimizer.param_groups[0]["initial_lr"] == 0.2
    lrs = stepped(optimizer, scheduler, 10)
    expected = [0.2 * 0.5 ** (epoch // 3) for epoch in range(1, 11)]
    assert lrs == pytest.approx(expected, rel=1e-12)


def test_multistep_and_exponential_closed_forms() -> None:
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.MultiStepLR(optimizer, milestones=[2, 4, 4], gamma=0.1)
    lrs = stepped(optimizer, scheduler, 6)
    assert lrs == pytest.approx([1.0, 0.1, 0.1, 0.001, 0.001, 0.001], rel=1e-12)
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
    assert stepped(optimizer, scheduler, 5) == pytest.approx([0.9**e for e in range(1, 6)])


def test_cosine_annealing_matches_closed_form() -> None:
    base, eta_min, t_max = 0.1, 0.001, 5
    optimizer = make_optimizer(lr=base)
    scheduler = lr_scheduler.CosineAnnealingLR(optimizer, T_max=t_max, eta_min=eta_min)
    lrs = stepped(optimizer, scheduler, 12)
    expected = [
        eta_min + (base - eta_min) * (1 + math.cos(math.pi * e / t_max)) / 2 for e in range(1, 13)
    ]
    assert lrs == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_linear_and_polynomial_warmup() -> None:
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.LinearLR(optimizer, start_factor=0.25, total_iters=3)
    assert scheduler.get_last_lr() == [0.25]
    assert stepped(optimizer, scheduler, 5) == pytest.approx([0.5, 0.75, 1.0, 1.0, 1.0])
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.PolynomialLR(optimizer, total_iters=4, power=2.0)
    expected = [(1 - min(4, e) / 4) ** 2 for e in range(1, 7)]
    assert stepped(optimizer, scheduler, 6) == pytest.approx(expected, abs=1e-15)


def test_sequential_warmup_then_decay() -> None:
    optimizer = make_optimizer(lr=1.0)
    warm = lr_scheduler.ConstantLR(optimizer, factor=0.5, total_iters=10)
    decay = lr_scheduler.ExponentialLR(optimizer, gamma=0.5)
    scheduler = lr_scheduler.SequentialLR(optimizer, [warm, decay], milestones=[2])
    assert scheduler.get_last_lr() == [0.5]
    assert stepped(optimizer, scheduler, 4) == pytest.approx([0.5, 1.0, 0.5, 0.25])


def test_reduce_on_plateau_reduces_after_patience() -> None:
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=1, min_lr=0.2)
    lrs = []
    for metric in [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]:
        scheduler.step(metric)
        lrs.append(scheduler.get_last_lr()[0])
    assert lrs == [1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.2]


def test_load_state_dict_restores_progress() -> None:
    optimizer = make_optimizer(lr=0.3)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.1)
    stepped(optimizer, scheduler, 3)
    state = scheduler.state_dict()
    assert "optimizer" not in state
    assert state["last_epoch"] == 3 and state["_step_count"] == 4

    other_optimizer = make_optimizer(lr=0.3)
    other = lr_scheduler.StepLR(other_optimizer, step_size=7, gamma=0.5)
    other.load_state_dict(state)
    assert (other.last_epoch, other.step_size, other.gamma) == (3, 2, 0.1)
    assert other.get_last_lr() == scheduler.get_last_lr()
    other_optimizer.param_groups[0]["lr"] = optimizer.param_groups[0]["lr"]
    assert stepped(other_optimizer, other, 3) == stepped(optimizer, scheduler, 3)


def test_lambda_state_dict_keeps_callable_objects_state() -> None:
    class Factor:
        def __init__(self) -> None:
            self.scale = 0.5

        def __call__(self, epoch: int) -> float:
            return self.scale**epoch

    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.LambdaLR(optimizer, [Factor()])
    scheduler.lr_lambdas[0].scale = 0.25
    state = scheduler.state_dict()
    assert state["lr_lambdas"] == [{"scale": 0.25}]
    fresh = lr_scheduler.LambdaLR(make_optimizer(lr=1.0), [Factor()])
    fresh.load_state_dict(state)
    assert fresh.lr_lambdas[0].scale == 0.25
    assert "lr_lambdas" in state  # the caller's dict is left intact


def test_step_before_optimizer_step_only_warns() -> None:
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scheduler.step()
    assert any("before `optimizer.step()`" in str(w.message) for w in caught)
    assert scheduler.get_last_lr() == [0.5]


def test_errors() -> None:
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        lr_scheduler.StepLR([], step_size=1)
    with pytest.raises(KeyError, match="initial_lr"):
        lr_scheduler.StepLR(make_optimizer(), step_size=1, last_epoch=3)
    with pytest.raises(ValueError, match="Factor should be < 1.0."):
        lr_scheduler.ReduceLROnPlateau(make_optimizer(), factor=2.0)


# -- state is an explicit list of fields (issue 19: nothing reads or writes attribute tables) -----


def test_state_dict_holds_only_the_declared_fields() -> None:
    optimizer = make_optimizer(lr=0.5)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    scheduler.note = "set by a script"
    state = scheduler.state_dict()
    assert sorted(state) == [
        "_get_lr_called_within_step",
        "_is_initial",
        "_last_lr",
        "_step_count",
        "base_lrs",
        "gamma",
        "last_epoch",
        "step_size",
    ]
    assert "note" not in state and "optimizer" not in state


def test_load_state_dict_writes_only_known_fields() -> None:
    class Other:
        pass

    scheduler = lr_scheduler.StepLR(make_optimizer(), step_size=2)
    scheduler.load_state_dict(
        {"__class__": Other, "__dict__": {}, "optimizer": None, "pwn": 1, "gamma": 0.25}
    )
    assert type(scheduler) is lr_scheduler.StepLR
    assert scheduler.gamma == 0.25 and isinstance(scheduler.optimizer, E.optim.SGD)
    assert not hasattr(scheduler, "pwn")
    plateau = lr_scheduler.ReduceLROnPlateau(make_optimizer())
    plateau.load_state_dict({"__class__": Other, "mode": "max", "best": 3.0})
    assert type(plateau) is lr_scheduler.ReduceLROnPlateau
    assert (plateau.mode, plateau.mode_worse, plateau.best) == ("max", -math.inf, 3.0)


def test_engine_methods_refuse_a_foreign_self() -> None:
    class Victim:
        secret = 1

    with pytest.raises(TypeError, match="doesn't apply to a 'Victim' object"):
        lr_scheduler.StepLR.state_dict(Victim())
    with pytest.raises(TypeError, match="doesn't apply to a 'Victim' object"):
        lr_scheduler.LRScheduler.load_state_dict(Victim(), {"__class__": int})


def test_callable_state_is_public_plain_values_only() -> None:
    class Factor:
        def __init__(self) -> None:
            self.scale = 0.5
            self._hidden = 2.0
            self.helper = print  # not a plain value: never saved

        def __call__(self, epoch: int) -> float:
            return self.scale**epoch

    factor = Factor()
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.LambdaLR(optimizer, [factor])
    assert scheduler.state_dict()["lr_lambdas"] == [{"scale": 0.5}]
    scheduler.load_state_dict(
        {"lr_lambdas": [{"scale": 0.25, "__class__": int, "_hidden": 9.0, "new": 1}]}
    )
    assert factor.scale == 0.25 and factor._hidden == 2.0 and type(factor) is Factor
    assert not hasattr(factor, "new")
    # a class or a builtin as the lambda: nothing of it is saved
    as_class = lr_scheduler.LambdaLR(make_optimizer(lr=1.0), float)
    assert as_class.state_dict()["lr_lambdas"] == [None]
    cyclic = lr_scheduler.CyclicLR(make_optimizer(momentum=0.9), 0.1, 1.0, scale_fn=float)
    assert cyclic.state_dict()["_scale_fn_custom"] is None


def test_sequential_state_round_trip_restores_inner_schedulers() -> None:
    def build(optimizer: E.optim.SGD) -> lr_scheduler.SequentialLR:
        warm = lr_scheduler.LinearLR(optimizer, start_factor=0.5, total_iters=2)
        decay = lr_scheduler.ExponentialLR(optimizer, gamma=0.5)
        return lr_scheduler.SequentialLR(optimizer, [warm, decay], milestones=[2])

    optimizer = make_optimizer(lr=1.0)
    scheduler = build(optimizer)
    stepped(optimizer, scheduler, 3)
    state = scheduler.state_dict()
    assert sorted(state) == ["_last_lr", "_milestones", "_schedulers", "last_epoch"]
    other_optimizer = make_optimizer(lr=1.0)
    other = build(other_optimizer)
    other.load_state_dict(state)
    other_optimizer.param_groups[0]["lr"] = optimizer.param_groups[0]["lr"]
    assert other._schedulers[1].last_epoch == scheduler._schedulers[1].last_epoch
    assert stepped(other_optimizer, other, 3) == stepped(optimizer, scheduler, 3)


def test_warm_restarts_epoch_argument_matches_stepping() -> None:
    optimizer = make_optimizer(lr=1.0)
    scheduler = lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=3, T_mult=2, eta_min=0.1)
    by_step = stepped(optimizer, scheduler, 20)
    for epoch in (1, 2, 3, 8, 9, 20):
        jumped = lr_scheduler.CosineAnnealingWarmRestarts(
            make_optimizer(lr=1.0), T_0=3, T_mult=2, eta_min=0.1
        )
        jumped.step(epoch)
        assert jumped.get_last_lr()[0] == pytest.approx(by_step[epoch - 1], rel=1e-12)
