import torch


def run(title, cls, steps, **options):
    w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    b = torch.tensor([0.1, -0.1], requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]])
    y = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    opt = cls([w, b], **options)
    print(title)
    for step in range(steps):
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.4f}")
    print(w)
    print(b)
    return opt


opt = run("adam defaults", torch.optim.Adam, 5)
print(opt)
print(opt.state[opt.param_groups[0]["params"][1]])
run("adam lr=0.1 betas", torch.optim.Adam, 6, lr=0.1, betas=(0.8, 0.95))
run("adam weight_decay", torch.optim.Adam, 5, lr=0.05, weight_decay=0.2)
opt = run("adam amsgrad", torch.optim.Adam, 6, lr=0.1, amsgrad=True)
print(sorted(opt.state[opt.param_groups[0]["params"][0]].keys()))
run("adam maximize eps", torch.optim.Adam, 3, lr=0.01, maximize=True, eps=1e-3)
