# Float32 exp, tanh, log1p, ... on scalars and short vectors, values and gradients, at full
# precision (`.item()`): equal to PyTorch's within float32 rounding. Saturated tanh (|x| > 9) is
# left out of the gradients: there tanh is 1 or 1 - 2**-24 depending on the kernel, so 1 - tanh²
# is 0 or 1.2e-07, both within float32 rounding of the exact 3e-08.
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
    x = torch.tensor(values[:-2] if name == "tanh" else values, requires_grad=True)
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
