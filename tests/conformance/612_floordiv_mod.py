import torch

a = torch.tensor([7, -7, 7, -7])
b = torch.tensor([2, 2, -2, -2])
print(a // b)
print(a % b)
print(a // 3, a % 3)
print(10 // torch.tensor([3, -3]), 10 % torch.tensor([3, -3]))
x = torch.tensor([7.5, -7.5, 2.0], requires_grad=True)
f = x // 2
m = x % 2
print(f)
print(m)
print(f.grad_fn.name(), m.grad_fn.name())
m.sum().backward()
print(x.grad)
print(torch.fmod(torch.tensor([-7.0, 7.0]), 3), torch.remainder(torch.tensor([-7.0, 7.0]), 3))
print(torch.floor_divide(torch.tensor([-7.0, 7.0]), 2))
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([1.0, -1.0, 0.0]) // 0)
