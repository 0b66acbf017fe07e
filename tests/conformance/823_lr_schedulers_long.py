# Learning rates of every scheduler over 20-50 steps with several settings, two param groups,
# get_last_lr, param_groups' lr/initial_lr/momentum, and state_dict round trips mid-schedule.
import torch
from torch.optim import lr_scheduler as S


def make_opt(lr=0.1, momentum=0.9, second_lr=0.05, adam=False):
    a = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor([0.5], requires_grad=True)
    groups = [{"params": [a]}, {"params": [b], "lr": second_lr}]
    if adam:
        return torch.optim.Adam(groups, lr=lr)
    return torch.optim.SGD(groups, lr=lr, momentum=momentum)


def lrs(opt):
    return [round(g["lr"], 12) for g in opt.param_groups]


def run(name, build, steps, metric=None, **opt_kwargs):
    opt = make_opt(**opt_kwargs)
    sched = build(opt)
    rows = [lrs(opt)]
    for epoch in range(steps):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(epoch))
        rows.append(lrs(opt))
        assert [round(v, 12) for v in sched.get_last_lr()] == rows[-1]
    print(name, "-" if name == "ChainedScheduler" else sched.last_epoch)
    for start in range(0, len(rows), 10):
        print("  ", start, rows[start : start + 10])
    return opt, sched


run("StepLR 4 0.5", lambda o: S.StepLR(o, step_size=4, gamma=0.5), 30)
run("StepLR 1 0.9", lambda o: S.StepLR(o, step_size=1, gamma=0.9), 20)
run("MultiStepLR", lambda o: S.MultiStepLR(o, milestones=[3, 10, 10, 25], gamma=0.2), 30)
run("ExponentialLR", lambda o: S.ExponentialLR(o, gamma=0.93), 40)
run("CosineAnnealingLR 10", lambda o: S.CosineAnnealingLR(o, T_max=10), 45)
run("CosineAnnealingLR 7 eta", lambda o: S.CosineAnnealingLR(o, T_max=7, eta_min=0.004), 30)
run("LinearLR", lambda o: S.LinearLR(o, start_factor=0.1, total_iters=12), 20)
run("LinearLR down", lambda o: S.LinearLR(o, start_factor=1.0, end_factor=0.05, total_iters=25), 30)
run("ConstantLR", lambda o: S.ConstantLR(o, factor=0.25, total_iters=6), 20)
run("PolynomialLR", lambda o: S.PolynomialLR(o, total_iters=15, power=0.5), 20)
run("LambdaLR", lambda o: S.LambdaLR(o, [lambda e: 1 / (1 + e), lambda e: 0.97**e]), 25)
run("MultiplicativeLR", lambda o: S.MultiplicativeLR(o, lambda e: 0.95 if e % 3 else 1.0), 25)
run(
    "OneCycleLR cos",
    lambda o: S.OneCycleLR(o, max_lr=[1.0, 0.4], total_steps=40, pct_start=0.25),
    39,
)
run(
    "OneCycleLR linear 3-phase",
    lambda o: S.OneCycleLR(
        o, max_lr=0.5, epochs=5, steps_per_epoch=6, anneal_strategy="linear", three_phase=True
    ),
    30,
)
opt, _ = run(
    "OneCycleLR adam",
    lambda o: S.OneCycleLR(o, max_lr=0.01, total_steps=25, div_factor=10.0),
    24,
    adam=True,
)
print([round(b, 12) for b in opt.param_groups[0]["betas"]])
run("CyclicLR triangular", lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=5), 30)
run(
    "CyclicLR exp_range",
    lambda o: S.CyclicLR(
        o, [0.01, 0.02], 0.2, step_size_up=4, step_size_down=6, mode="exp_range", gamma=0.97
    ),
    30,
)
run("WarmRestarts", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=5, T_mult=2, eta_min=0.001), 40)
run(
    "SequentialLR",
    lambda o: S.SequentialLR(
        o,
        [S.LinearLR(o, start_factor=0.2, total_iters=5), S.CosineAnnealingLR(o, T_max=20)],
        milestones=[5],
    ),
    30,
)
run(
    "ChainedScheduler",
    lambda o: S.ChainedScheduler([S.ExponentialLR(o, gamma=0.95), S.StepLR(o, 6, gamma=0.5)]),
    25,
)
plateau_metrics = [1.0, 0.8, 0.79, 0.8, 0.81, 0.6, 0.61, 0.62, 0.63, 0.64, 0.65] * 3
run(
    "ReduceLROnPlateau",
    lambda o: S.ReduceLROnPlateau(o, factor=0.5, patience=2, cooldown=1, min_lr=[0.01, 0.005]),
    33,
    metric=lambda e: plateau_metrics[e],
)


# state_dict round trips: save mid-schedule, load into a fresh scheduler, continue both
def round_trip(name, build, before, after):
    opt = make_opt()
    sched = build(opt)
    for _ in range(before):
        opt.step()
        sched.step()
    state = sched.state_dict()
    opt2 = make_opt()
    twin = build(opt2)
    twin.load_state_dict(state)
    for g2, g in zip(opt2.param_groups, opt.param_groups):
        g2["lr"] = g["lr"]
    print(name, sorted(state), twin.last_epoch, [round(v, 12) for v in twin.get_last_lr()])
    for _ in range(after):
        opt.step()
        sched.step()
        opt2.step()
        twin.step()
    print("  ", lrs(opt), lrs(opt2), sched.last_epoch == twin.last_epoch)


round_trip("StepLR", lambda o: S.StepLR(o, 3, gamma=0.5), 7, 8)
round_trip("CosineAnnealingLR", lambda o: S.CosineAnnealingLR(o, T_max=9), 5, 12)
round_trip("ExponentialLR", lambda o: S.ExponentialLR(o, gamma=0.9), 4, 6)
round_trip("LinearLR", lambda o: S.LinearLR(o, start_factor=0.3, total_iters=8), 3, 10)
round_trip("OneCycleLR", lambda o: S.OneCycleLR(o, max_lr=0.3, total_steps=30), 10, 15)
round_trip("LambdaLR", lambda o: S.LambdaLR(o, lambda e: 0.9**e), 6, 6)
round_trip("WarmRestarts", lambda o: S.CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2), 9, 9)

opt = make_opt()
plateau = S.ReduceLROnPlateau(opt, mode="max", patience=1, factor=0.3)
for m in [0.1, 0.2, 0.2, 0.2, 0.25]:
    plateau.step(m)
state = plateau.state_dict()
other = S.ReduceLROnPlateau(make_opt(), mode="min")
other.load_state_dict(state)
print(other.mode, other.best, other.num_bad_epochs, other.last_epoch, other.get_last_lr())
other.step(0.1)
print(other.num_bad_epochs, other.best)
