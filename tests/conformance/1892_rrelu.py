# Randomized leaky ReLU (Xu et al. 2015): random negative slopes in training, their mean in eval;
# with a fixed seed the slopes are reproducible, and the gradient is the slope drawn.
import torch
import torch.nn as nn
import torch.nn.functional as F

act = nn.RReLU(0.1, 0.3)
print(act, nn.RReLU(), nn.RReLU(inplace=True))
x = torch.tensor([[-1.0, 2.0, -3.0], [0.5, -0.25, -4.0]], requires_grad=True)

torch.manual_seed(0)
y = act(x)
print(y, y.grad_fn.name())
print(
    y.grad_fn._saved_noise,
    y.grad_fn._saved_lower,
    y.grad_fn._saved_upper,
    y.grad_fn._saved_training,
)
y.sum().backward()
print(x.grad)

act.eval()
x.grad = None
y = act(x)
print(y)
y.sum().backward()
print(x.grad)

torch.manual_seed(1)
a = F.rrelu(x, training=True)
b = F.rrelu(x, training=True)
print(torch.equal(a, b), a)
torch.manual_seed(1)
print(torch.equal(F.rrelu(x, training=True), a), torch.rand(2))

g = torch.Generator().manual_seed(7)
print(torch.rrelu(x.detach(), 0.2, 0.4, True, g))
z = x.detach().clone()
out = F.rrelu(z, inplace=True)
print(out is z, z)
w = x * 1
torch.rrelu_(w, training=False)
print(w.grad_fn)

# a small RReLU network trained for a few steps
torch.manual_seed(2)
net = nn.Sequential(nn.Linear(2, 6), nn.RReLU(), nn.Linear(6, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
data = torch.randn(10, 2)
target = data.sum(1, keepdim=True)
for step in range(4):
    opt.zero_grad()
    loss = ((net(data) - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
net.eval()
print(net(data[:3]))

try:
    F.rrelu(x, 0.5, 0.1, True)
except RuntimeError as e:
    print("RuntimeError:", e)
