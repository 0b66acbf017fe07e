# Float32 exp, tanh, log1p, ... to the last bit (`.item()` shows every bit), on scalars and
# short vectors, values and gradients.
import torch

values = [-7.25, -3.0, -1.5, -0.75, -0.1, 0.001, 0.3, 0.5, 1.0, 1.7, 2.5, 3.3, 6.0, 9.75, 15.5]
positive = [0.001, 0.02, 0.3, 0.5, 1.0, 1.7, 2.5, 3.3, 6.0, 9.75, 15.5, 123.0, 4567.0]

for name, fn in [
    ("exp", torch.exp),
    ("expm1", torch.expm1),
    ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid),
]:
    print(name, [fn(torch.tensor(v)).item() for v in values])
    x = torch.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    print(name, "grad", x.grad.tolist())

for name, fn in [("log2", torch.log2), ("log10", torch.log10), ("log1p", torch.log1p)]:
    print(name, [fn(torch.tensor(v)).item() for v in positive])
    x = torch.tensor(positive, requires_grad=True)
    print(name, "vector", fn(x).tolist())

x = torch.tensor(3.0, requires_grad=True)
y = x**2 * torch.exp(-x) + torch.tanh(x)
y.backward()
print(y.item(), x.grad.item())
