import torch
from torch import nn
from torch.optim.lr_scheduler import LambdaLR, LRScheduler, MultiStepLR, StepLR

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
y = torch.tensor([[1.0], [0.0], [2.0]])


def make_opt(lr=0.1, momentum=0.0):
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)


def train_step(opt):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    return loss


def run(name, opt, sched, steps=8, show_epoch=True):
    print(name, sched.get_last_lr(), opt.param_groups[0]["lr"])
    for epoch in range(steps):
        train_step(opt)
        sched.step()
        last = sched.last_epoch if show_epoch else "-"
        print(" ", epoch, sched.get_last_lr(), opt.param_groups[0]["lr"], last)


opt = make_opt()
run("StepLR", opt, StepLR(opt, step_size=3, gamma=0.5))
opt = make_opt()
run("MultiStepLR", opt, MultiStepLR(opt, milestones=[2, 5, 5], gamma=0.3))
opt = make_opt()
run("LambdaLR", opt, LambdaLR(opt, lr_lambda=lambda e: 0.95**e))
opt = make_opt()
run("MultiplicativeLR", opt, torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.9))
opt = make_opt()
run("ConstantLR", opt, torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=3))
opt = make_opt()
run("LinearLR", opt, torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4))
opt = make_opt()
run("ExponentialLR", opt, torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.7))
opt = make_opt()
run(
    "CosineAnnealingLR",
    opt,
    torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=3, eta_min=0.01),
    10,
)
opt = make_opt()
run("PolynomialLR", opt, torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=5, power=2.0))
opt = make_opt(momentum=0.9)
run("OneCycleLR", opt, torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10), 9)
print(
    opt.param_groups[0]["momentum"],
    opt.param_groups[0]["initial_lr"],
    opt.param_groups[0]["min_lr"],
)
opt = make_opt(momentum=0.9)
run(
    "OneCycleLR linear 3-phase",
    opt,
    torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=0.5, epochs=2, steps_per_epoch=5, anneal_strategy="linear", three_phase=True
    ),
    9,
)
opt = make_opt(momentum=0.9)
run(
    "CyclicLR",
    opt,
    torch.optim.lr_scheduler.CyclicLR(
        opt, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2"
    ),
    12,
)
print(opt.param_groups[0]["momentum"])
opt = make_opt(momentum=0.9)
run(
    "CyclicLR exp_range",
    opt,
    torch.optim.lr_scheduler.CyclicLR(
        opt, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode="exp_range", gamma=0.9
    ),
    8,
)
opt = make_opt()
run(
    "CosineAnnealingWarmRestarts",
    opt,
    torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001),
    12,
)

# step(epoch): the closed forms (with a deprecation warning on stderr)
opt = make_opt()
s = StepLR(opt, step_size=2, gamma=0.5)
for e in [5, 1, 4]:
    s.step(e)
    print("StepLR step(epoch)", e, s.get_last_lr())
opt = make_opt()
s = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
for e in [3, 7]:
    s.step(e)
    print("Cosine step(epoch)", e, s.get_last_lr())

# Two groups, per-group lambdas
a = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([2.0], requires_grad=True)
opt2 = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.2)
s = LambdaLR(opt2, [lambda e: 1.0 / (e + 1), lambda e: 0.5**e])
print(s.base_lrs, s.get_last_lr())
for _ in range(4):
    opt2.step()
    s.step()
    print(
        s.get_last_lr(),
        [g["lr"] for g in opt2.param_groups],
        [g["initial_lr"] for g in opt2.param_groups],
    )

# Chained and sequential
opt = make_opt(lr=1.0)
s1 = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
s2 = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
chained = torch.optim.lr_scheduler.ChainedScheduler([s1, s2])
run("ChainedScheduler", opt, chained, 5, show_epoch=False)
opt = make_opt(lr=1.0)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.8)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
run("SequentialLR", opt, seq, 7)
opt = make_opt(lr=0.5)
seq2 = torch.optim.lr_scheduler.SequentialLR(
    opt,
    [
        torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2),
        torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4),
        StepLR(opt, step_size=2, gamma=0.1),
    ],
    milestones=[2, 6],
)
run("SequentialLR x3", opt, seq2, 10)

# ReduceLROnPlateau
opt = make_opt(lr=1.0)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(
    opt, mode="min", factor=0.5, patience=1, cooldown=1, min_lr=0.1
)
metrics = [1.0, 0.9, 0.95, 0.91, 0.92, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.91, 0.92, 0.93]
for m in metrics:
    plateau.step(m)
    print(
        "plateau",
        m,
        plateau.get_last_lr(),
        plateau.best,
        plateau.num_bad_epochs,
        plateau.cooldown_counter,
        plateau.last_epoch,
    )
opt = make_opt(lr=0.1)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(
    opt, mode="max", threshold=0.1, threshold_mode="abs", patience=0
)
for m in [0.5, 0.55, 0.7, torch.tensor(0.75), 0.9]:
    plateau.step(m)
    print("plateau max", plateau.get_last_lr(), plateau.best, plateau.num_bad_epochs)
print(sorted(plateau.state_dict().keys()))

# state_dict / load_state_dict
opt = make_opt()
s = StepLR(opt, step_size=2, gamma=0.5)
for _ in range(3):
    opt.step()
    s.step()
sd = s.state_dict()
print(sorted(sd.keys()))
print(
    sd["last_epoch"],
    sd["_step_count"],
    sd["base_lrs"],
    sd["_last_lr"],
    sd["step_size"],
    sd["gamma"],
)
opt3 = make_opt()
s3 = StepLR(opt3, step_size=5, gamma=0.9)
s3.load_state_dict(sd)
print(s3.last_epoch, s3.step_size, s3.gamma, s3.get_last_lr())
opt3.step()
s3.step()
print(s3.get_last_lr(), opt3.param_groups[0]["lr"])
print(sorted(LambdaLR(make_opt(), lambda e: 1.0).state_dict().keys()))
print(sorted(chained.state_dict().keys()), len(chained.state_dict()["_schedulers"]))
print(sorted(seq.state_dict().keys()), seq.state_dict()["_milestones"])
print(
    sorted(torch.optim.lr_scheduler.CyclicLR(make_opt(momentum=0.5), 0.1, 1.0).state_dict().keys())
)
print(
    sorted(
        torch.optim.lr_scheduler.OneCycleLR(make_opt(momentum=0.5), 1.0, total_steps=5)
        .state_dict()
        .keys()
    )
)
print(sorted(make_opt().param_groups[0].keys()))
opt = make_opt()
StepLR(opt, 3)
print(sorted(opt.param_groups[0].keys()))

# scheduler.step() before optimizer.step() only warns; lr still moves
opt = make_opt()
s = StepLR(opt, step_size=1, gamma=0.5)
s.step()
s.step()
print("early step", s.get_last_lr(), opt.param_groups[0]["lr"])

# resuming with last_epoch
opt = make_opt()
s = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
opt.step()
s.step()
s2 = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5, last_epoch=1)
print("resume", s2.get_last_lr(), s2.last_epoch, s2.base_lrs)

print(isinstance(s, torch.optim.lr_scheduler.LRScheduler), type(s).__name__)

# errors
errors = [
    lambda: StepLR("not an optimizer", 3),
    lambda: StepLR(make_opt(), 3, last_epoch=4),
    lambda: LambdaLR(opt2, [lambda e: 1.0]),
    lambda: torch.optim.lr_scheduler.MultiplicativeLR(make_opt(), 0.5),
    lambda: torch.optim.lr_scheduler.ConstantLR(make_opt(), factor=1.5),
    lambda: torch.optim.lr_scheduler.LinearLR(make_opt(), start_factor=0.0),
    lambda: torch.optim.lr_scheduler.LinearLR(make_opt(), end_factor=2.0),
    lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(make_opt(), factor=1.0),
    lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(make_opt(), mode="avg"),
    lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(make_opt(), threshold_mode="pct"),
    lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt2, min_lr=[0.1, 0.2, 0.3]),
    lambda: torch.optim.lr_scheduler.SequentialLR(make_opt(), [], milestones=[]),
    lambda: torch.optim.lr_scheduler.ChainedScheduler([]),
    lambda: torch.optim.lr_scheduler.OneCycleLR(make_opt(), max_lr=1.0),
    lambda: torch.optim.lr_scheduler.OneCycleLR(make_opt(), max_lr=1.0, total_steps=0),
    lambda: torch.optim.lr_scheduler.OneCycleLR(
        make_opt(), max_lr=1.0, total_steps=10, pct_start=2.0
    ),
    lambda: torch.optim.lr_scheduler.OneCycleLR(
        make_opt(), max_lr=1.0, total_steps=10, anneal_strategy="exp"
    ),
    lambda: torch.optim.lr_scheduler.OneCycleLR(make_opt(), max_lr=1.0, total_steps=10),
    lambda: torch.optim.lr_scheduler.OneCycleLR(
        make_opt(), max_lr=[1.0, 2.0], total_steps=10, cycle_momentum=False
    ),
    lambda: torch.optim.lr_scheduler.CyclicLR(make_opt(), 0.1, 1.0, mode="sawtooth"),
    lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=0),
    lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=2, T_mult=0),
    lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=2).step(-1),
]
for make in errors:
    try:
        make()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)

opt = make_opt()
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
for bad in [
    lambda: torch.optim.lr_scheduler.SequentialLR(opt, [plateau], milestones=[]),
    lambda: torch.optim.lr_scheduler.ChainedScheduler([plateau]),
    lambda: torch.optim.lr_scheduler.SequentialLR(opt, [StepLR(opt, 2)], milestones=[1]),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

opt = make_opt()
oc = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2, cycle_momentum=False)
try:
    for _ in range(3):
        opt.step()
        oc.step()
        print("onecycle", oc.get_last_lr())
except ValueError as e:
    print(type(e).__name__, e)

# Adam betas cycled by OneCycleLR, mismatched optimizers, a scheduler subclass
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.01)
oc = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=6)
for _ in range(5):
    opt.zero_grad()
    (w**2).sum().backward()
    opt.step()
    oc.step()
    print(oc.get_last_lr(), opt.param_groups[0]["betas"])
print(w)
opt_b = torch.optim.SGD([torch.tensor([1.0], requires_grad=True)], lr=0.1)
try:
    torch.optim.lr_scheduler.ChainedScheduler([StepLR(opt, 2), StepLR(opt_b, 2)])
except ValueError as e:
    print(type(e).__name__, e)


class Halving(LRScheduler):
    def __init__(self, optimizer, last_epoch=-1):
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base_lr * 0.5**self.last_epoch for base_lr in self.base_lrs]


opt = torch.optim.SGD([w], lr=0.8)
h = Halving(opt)
for _ in range(3):
    opt.step()
    h.step()
    print(h.get_last_lr(), h.last_epoch)
print(h)
print(StepLR)
s = torch.optim.lr_scheduler.StepLR(opt, 2)
print(s.get_lr())
print(torch.optim.lr_scheduler.ReduceLROnPlateau(opt).step(torch.tensor([0.5])))
