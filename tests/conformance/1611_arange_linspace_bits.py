import torch

# d2l's MLP chapter: arange's element 80 is start + 80 * step computed in double with one
# rounding (4.44e-16), so ReLU's gradient there is 1, not 0.
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
print(x[80].item(), bool(x[80] == 0))
y = torch.relu(x)
y.backward(torch.ones_like(x))
print(x.grad[78:83])
print(torch.arange(-1, 1, 0.1))


def report(name, values, start, step, count):
    """Which elements differ from start + step * i (Python floats) rounded once, and by how much
    (last-bit differences become leading digits)."""
    exact = torch.tensor([start + step * i for i in range(count)], dtype=torch.float64)
    differs = (values != exact.to(values.dtype)).nonzero().flatten().tolist()
    print(name, values.dtype, len(values), len(differs), differs[:24])
    print([(values.double() - exact)[i].item() for i in differs[:6]])


for dtype in (torch.float32, torch.float64, torch.float16):
    report("arange", torch.arange(-8.0, 8.0, 0.1, dtype=dtype), -8.0, 0.1, 160)
    report("arange", torch.arange(0.3, 100.7, 0.37, dtype=dtype), 0.3, 0.37, 272)
    report("arange", torch.arange(10, 0, -0.7, dtype=dtype), 10.0, -0.7, 15)
    report("arange", torch.arange(-4, 4, 0.001, dtype=dtype), -4.0, 0.001, 8000)
    report("linspace", torch.linspace(-5, 5, 1000, dtype=dtype), -5.0, 10 / 999, 1000)
    report("linspace", torch.linspace(0.3, 100.7, 77, dtype=dtype), 0.3, 100.4 / 76, 77)
    report("linspace", torch.linspace(3, -2, 50, dtype=dtype), 3.0, -5 / 49, 50)

print(torch.linspace(-1, 1, 21))
print(torch.linspace(0, 1, 5, dtype=torch.float64).tolist())
print(torch.linspace(10, -3, 40, dtype=torch.int64).tolist())
print(torch.linspace(-3, 10, 9, dtype=torch.int32).tolist())
print(torch.linspace(0.5, 1, 1), torch.linspace(0, 1, 0))
print(torch.logspace(-2, 2, 5, base=2))
print(torch.logspace(0, 3, 4, dtype=torch.int64))
lg = torch.logspace(0.075, 25.175, 77)
naive = torch.tensor([10 ** (0.075 + 25.1 / 76 * i) for i in range(77)], dtype=torch.float64)
print((lg != naive.float()).nonzero().flatten().tolist())
print(torch.logspace(0, 6, 7, dtype=torch.float16))
print(torch.arange(0, 5, 0.5, dtype=torch.int32).tolist())
print(torch.arange(1.5, 9.7, 1.1, dtype=torch.int64).tolist())
try:
    torch.arange(0, 5, 0.5, dtype=torch.int64)
except ValueError as error:
    print("ValueError:", error)
