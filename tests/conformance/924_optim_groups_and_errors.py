import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([-1.0], requires_grad=True)
opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}], lr=0.1)
print(opt)
for step in range(3):
    opt.zero_grad()
    loss = (a**2).sum() + (b**3).sum()
    loss.backward()
    opt.step()
    print(step, a, b)
print(opt.state_dict())
opt.param_groups[0]["lr"] = 0.01
opt.zero_grad(set_to_none=False)
print(a.grad, b.grad)
((a * b).sum()).backward()
opt.step()
print(a, b)
opt.zero_grad()
print(a.grad, b.grad)

c = torch.tensor([3.0], requires_grad=True)
opt.add_param_group({"params": [c], "lr": 1.0})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["lr"])


def closure():
    opt.zero_grad()
    loss = (c - 1) ** 2
    loss.backward()
    return loss


print(opt.step(closure))
print(c)

for make in [
    lambda: torch.optim.SGD([a], lr=-1.0),
    lambda: torch.optim.SGD([a], lr=0.1, momentum=-0.5),
    lambda: torch.optim.SGD([a], lr=0.1, nesterov=True),
    lambda: torch.optim.SGD([a], lr=0.1, weight_decay=-1),
    lambda: torch.optim.Adam([a], betas=(1.0, 0.9)),
    lambda: torch.optim.Adam([a], betas=(0.9, -0.1)),
    lambda: torch.optim.Adam([a], eps=-1.0),
    lambda: torch.optim.AdamW([a], lr=-0.1),
    lambda: torch.optim.RMSprop([a], alpha=-0.5),
    lambda: torch.optim.RMSprop([a], momentum=-0.5),
    lambda: torch.optim.SGD([], lr=0.1),
    lambda: torch.optim.SGD([a * 2], lr=0.1),
    lambda: torch.optim.SGD([a, a.detach()], lr=0.1).add_param_group({"params": [a]}),
]:
    try:
        make()
    except ValueError as e:
        print("ValueError:", e)
try:
    torch.optim.SGD(a, lr=0.1)
except TypeError as e:
    print("TypeError:", e)
try:
    torch.optim.SGD([a, 1.0], lr=0.1)
except TypeError as e:
    print("TypeError:", e)
