import torch

# Per-parameter options and maximize=True with the newer optimizers (the docs' param-group
# pattern), weight decay, and a learning-rate scheduler driving Adamax and NAdam.
torch.manual_seed(0)
a = torch.nn.Parameter(torch.randn(3))
b = torch.nn.Parameter(torch.randn(3))
opt = torch.optim.RAdam([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1, weight_decay=0.01)
for _step in range(8):
    opt.zero_grad()
    loss = (a**2).sum() + ((b - 1) ** 2).sum()
    loss.backward()
    opt.step()
print(a.data, b.data)
print(opt.param_groups[1]["lr"], opt.param_groups[0]["weight_decay"])
c = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.Adadelta([c], maximize=True, lr=2.0)
for _ in range(5):
    opt.zero_grad()
    (-((c - 3) ** 2)).sum().backward()
    opt.step()
print(c.data)
for cls in (torch.optim.Adamax, torch.optim.NAdam, torch.optim.ASGD):
    d = torch.nn.Parameter(torch.tensor([2.0, -1.0]))
    opt = cls([d], lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(6):
        opt.zero_grad()
        (d**2).sum().backward()
        opt.step()
        sched.step()
    print(cls.__name__, d.data, sched.get_last_lr())
