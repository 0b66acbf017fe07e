# ruff: noqa: F401 - F is named inside the eval strings
# A model configured by strings (config files, hyper-parameter sweeps): the activation and the
# loss named in text and built with eval, then trained a few steps
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
config = {"activation": "nn.LeakyReLU(0.1)", "loss": "F.smooth_l1_loss", "hidden": "2 * 4"}
act = eval(config["activation"])
loss_fn = eval(config["loss"])
hidden = eval(config["hidden"])
print(act, loss_fn.__name__, hidden)
model = nn.Sequential(nn.Linear(3, hidden), act, nn.Linear(hidden, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(16, 3)
y = x.sum(1, keepdim=True)
for step in range(4):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), loss.grad_fn)
for name in ("torch.sigmoid", "torch.tanh", "F.softplus"):
    t = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    eval(name)(t).sum().backward()
    print(name, t.grad)
print(eval("[2 ** i for i in range(4)]"), eval(" 1 + 1"), eval("3 * 3\n"))
for text in ("nn.ReLU(", "1 +* 2", "x = 1", ""):
    try:
        eval(text)
    except SyntaxError as e:
        print("SyntaxError:", e.msg if e.msg == "'(' was never closed" else e)
try:
    eval("undefined_layer")
except NameError as e:
    print("NameError:", e)
try:
    eval(3)
except TypeError as e:
    print("TypeError:", e)
