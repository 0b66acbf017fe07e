import torch


def quadratic_steps(title, steps, **options):
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    target = torch.tensor([0.3, 0.1, -0.4])
    opt = torch.optim.SGD([w], **options)
    print(title)
    for step in range(steps):
        opt.zero_grad()
        loss = ((w - target) ** 2 * torch.tensor([1.0, 3.0, 0.5])).sum() + w.prod()
        loss.backward()
        opt.step()
        print(step, w, f"{loss.item():.5f}")
    return opt


opt = quadratic_steps("plain", 4, lr=0.1)
print(opt)
print(opt.state)
opt = quadratic_steps("momentum", 5, lr=0.05, momentum=0.9)
print(opt.state)
quadratic_steps(
    "dampening + weight decay", 4, lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.1
)
quadratic_steps("nesterov", 5, lr=0.05, momentum=0.9, nesterov=True)
opt = quadratic_steps(
    "nesterov + weight decay", 4, lr=0.02, momentum=0.5, nesterov=True, weight_decay=0.5
)
print(opt)
quadratic_steps("maximize", 3, lr=0.01, maximize=True, momentum=0.3)

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
opt.step()
print("no grad yet:", w, opt.state)
print(opt.param_groups)
print(opt.defaults)
