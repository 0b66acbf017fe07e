# nn's activation modules beyond ReLU/Tanh/Sigmoid, F.logsigmoid, and the Smooth L1 and Huber
# losses as modules: reprs, values and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-2.5, 2.5, 6, requires_grad=True)
layers = [
    nn.GELU(),
    nn.GELU(approximate="tanh"),
    nn.SiLU(),
    nn.ELU(alpha=0.5),
    nn.SELU(),
    nn.Softplus(beta=2.0, threshold=5.0),
    nn.LogSigmoid(),
]
for layer in layers:
    y = layer(x)
    print(layer, y.grad_fn.name())
    print(y)
    (grad,) = torch.autograd.grad(y.sum(), x)
    print(grad)

print(nn.SiLU(inplace=True), nn.ELU(inplace=True), nn.Softplus())
y = F.logsigmoid(x)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
(g,) = torch.autograd.grad(F.logsigmoid(x).sum(), x, create_graph=True)
print(g.grad_fn.name())
print(torch.autograd.grad(g.sum(), x)[0])
print(F.logsigmoid(torch.tensor([-100.0, -20.0, 0.0, 20.0, 50.0])))

model = nn.Sequential(nn.Linear(2, 3), nn.GELU(), nn.Linear(3, 1), nn.Softplus())
print(model)
target = torch.tensor([[0.5], [1.0]])
inputs = torch.tensor([[0.1, 0.2], [0.3, -0.4]])
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
for loss_fn in (nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.1), nn.HuberLoss(delta=0.2)):
    loss = loss_fn(model(inputs), target)
    print(loss_fn, loss, loss.grad_fn.name())
try:
    F.logsigmoid(torch.tensor([1, 2]))
except NotImplementedError as e:
    print("NotImplementedError:", e)
