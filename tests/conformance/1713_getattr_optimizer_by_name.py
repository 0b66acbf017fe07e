# ruff: noqa: B009 - getattr with names is the subject
# Choosing the optimizer, scheduler and init function by name with getattr on the modules
# (the usual way config-driven training scripts do it)
import torch
from torch import nn

config = {"optimizer": "Adam", "lr": 0.05, "init": "xavier_uniform_", "scheduler": "StepLR"}
for opt_name in ("SGD", "Adam", "RMSprop"):
    torch.manual_seed(8)
    model = nn.Linear(3, 1)
    getattr(nn.init, config["init"])(model.weight)
    getattr(nn.init, "zeros_")(model.bias)
    opt_cls = getattr(torch.optim, opt_name)
    opt = opt_cls(model.parameters(), lr=config["lr"])
    sched = getattr(torch.optim.lr_scheduler, config["scheduler"])(opt, step_size=2, gamma=0.5)
    x = torch.randn(12, 3)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5]])
    for _step in range(4):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
    print(opt_name, type(opt).__name__, round(loss.item(), 5), sched.get_last_lr())
print(getattr(torch, "relu")(torch.tensor([-1.0, 1.0])), getattr(torch, "no_such_fn", None))
print(hasattr(torch.optim, "Adam"), hasattr(nn, "Linear"), hasattr(torch, "nonexistent"))
try:
    getattr(torch.optim, "Adamm")
except AttributeError as e:
    print("AttributeError:", e)
