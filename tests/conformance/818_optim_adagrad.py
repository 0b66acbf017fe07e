# torch.optim.Adagrad: steps with lr_decay, weight_decay, initial_accumulator_value, eps and
# maximize; its repr, state and state_dict; param groups; and its argument errors.
import torch
import torch.nn as nn


def run(title, steps, **options):
    w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
    opt = torch.optim.Adagrad([w], **options)
    print(title)
    for step in range(steps):
        opt.zero_grad()
        loss = (torch.tanh(x @ w) - 0.5).pow(2).sum()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.4f}")
    print(w)
    return opt


opt = run("adagrad defaults", 5)
print(opt)
state = opt.state[opt.param_groups[0]["params"][0]]
print(sorted(state.keys()), state["step"], state["sum"])
run("adagrad lr_decay", 5, lr=0.1, lr_decay=0.5)
run("adagrad weight_decay", 4, lr=0.05, weight_decay=0.1)
opt = run("adagrad initial accumulator", 4, lr=0.2, initial_accumulator_value=0.5, eps=1e-3)
print(opt.state[opt.param_groups[0]["params"][0]]["sum"])
run("adagrad maximize", 3, lr=0.01, maximize=True)

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.3, -0.2]]))
    model.bias.fill_(0.1)
opt = torch.optim.Adagrad([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.5}], lr=0.1)
print(opt)
inputs = torch.tensor([[1.0, 2.0], [0.5, -1.0], [-1.0, 0.0]])
target = torch.tensor([[1.0], [0.0], [-1.0]])
for _ in range(3):
    opt.zero_grad()
    loss = ((model(inputs) - target) ** 2).mean()
    loss.backward()
    opt.step()
print(loss, model.weight, model.bias)
sd = opt.state_dict()
print(sd["param_groups"])
print(sd["state"][0]["step"], sd["state"][1]["sum"])
print([g["lr"] for g in opt.param_groups], opt.defaults["lr_decay"])

v = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.Adagrad([v])
opt.step()
print(v, opt.state[v]["step"])

for kwargs in ({"lr": -1.0}, {"lr_decay": -0.1}, {"weight_decay": -1}, {"eps": -1e-3},
               {"initial_accumulator_value": -0.5}):  # fmt: skip
    try:
        torch.optim.Adagrad([v], **kwargs)
    except ValueError as e:
        print(type(e).__name__, e)
