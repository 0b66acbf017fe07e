import torch

a = torch.ones(5)
b = a.numpy()
print(b, b.dtype)
a.add_(1)
print(a)
print(b)
b[2] = 10
print(a)
w = torch.randn(3, requires_grad=True)
try:
    w.numpy()
except RuntimeError as error:
    print("RuntimeError:", error)
print(w.detach().numpy().shape)
with torch.no_grad():
    print(w.numpy().dtype)
x = torch.arange(6).reshape(2, 3)
n = x.numpy()
print(repr(n))
print(repr(torch.tensor(3.5).numpy()))
print(torch.from_numpy(x.numpy()).equal(x))
y = (torch.linspace(0, 1, 4, dtype=torch.float64) * 2).numpy()
print(y, type(y).__name__)
print(x.numpy().tolist(), x.numpy().sum())
a = torch.arange(4.0).numpy()
for make in (torch.from_numpy, torch.tensor, torch.as_tensor):
    try:
        make(a[::-1])
    except ValueError as error:
        print("ValueError:", error)
print(torch.from_numpy(torch.arange(6.0).reshape(2, 3).numpy().T))
print(torch.tensor(a[::-1].copy()))
