import torch


# "Visualising optimizers on the Rosenbrock function" blog posts: each optimizer from (-1.5, 2)
# for 100 steps; the point reached every 25 steps.
def rosenbrock(p):
    x, y = p
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


makers = [
    ("ASGD", lambda ps: torch.optim.ASGD(ps, lr=1e-3)),
    ("Adadelta", lambda ps: torch.optim.Adadelta(ps, lr=1.0)),
    ("Adamax", lambda ps: torch.optim.Adamax(ps, lr=0.05)),
    ("NAdam", lambda ps: torch.optim.NAdam(ps, lr=0.05)),
    ("RAdam", lambda ps: torch.optim.RAdam(ps, lr=0.05)),
    ("Rprop", lambda ps: torch.optim.Rprop(ps, lr=0.01)),
]
for name, make in makers:
    p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = make([p])
    for step in range(1, 101):
        opt.zero_grad()
        loss = rosenbrock(p)
        loss.backward()
        opt.step()
        if step % 25 == 0:
            print(name, step, f"{loss.item():.6f}", p.detach())
