import torch


def run(title, steps, **options):
    w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
    opt = torch.optim.RMSprop([w], **options)
    print(title)
    for step in range(steps):
        opt.zero_grad()
        loss = (torch.tanh(x @ w) - 0.5).pow(2).sum()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.4f}")
    print(w)
    return opt


opt = run("rmsprop defaults", 5)
print(opt)
print(opt.state)
run("rmsprop momentum", 5, lr=0.01, momentum=0.9)
opt = run("rmsprop centered", 5, lr=0.01, centered=True, weight_decay=0.1)
print(list(opt.state[opt.param_groups[0]["params"][0]].keys()))
run("rmsprop centered momentum alpha", 6, lr=0.02, centered=True, momentum=0.5, alpha=0.9)
run("rmsprop maximize", 3, lr=0.001, maximize=True)
