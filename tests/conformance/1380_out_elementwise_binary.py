# out= on the binary arithmetic functions: the result lands in out, which is returned.
import torch

a = torch.tensor([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
b = torch.tensor([2.0, -0.5, 4.0])

o = torch.empty(0)
r = torch.add(a, b, out=o)
print(r is o, o)
print(torch.add(a, b, alpha=2, out=torch.empty(0)))
print(torch.sub(a, 1.5, out=torch.empty(0)))
print(torch.sub(a, b, alpha=0.5, out=torch.empty(0)))
print(torch.subtract(b, a, out=torch.empty(0)))
print(torch.mul(a, b, out=torch.empty(0)))
print(torch.multiply(a, 3, out=torch.empty(0)))
print(torch.div(a, b, out=torch.empty(0)))
print(torch.div(a, b, rounding_mode="floor", out=torch.empty(0)))
print(torch.div(a, b, rounding_mode="trunc", out=torch.empty(0)))
print(torch.divide(a, 4, out=torch.empty(0)))
print(torch.true_divide(a, b, out=torch.empty(0)))
print(torch.floor_divide(a, b, out=torch.empty(0)))
print(torch.pow(a.abs(), 1.5, out=torch.empty(0)))
print(torch.pow(a, 2, out=torch.empty(0)))
print(torch.pow(2, b, out=torch.empty(0)))
print(torch.pow(a.abs(), b, out=torch.empty(0)))
print(torch.square(b, out=torch.empty(0)))

# a number first
print(torch.add(1, b, out=torch.empty(0)))
print(torch.mul(2.5, b, out=torch.empty(0)))

# integer tensors into integer and float outs
i = torch.tensor([7, -3, 10])
j = torch.tensor([2, 2, 3])
print(torch.add(i, j, out=torch.empty(0, dtype=torch.long)))
print(torch.mul(i, j, out=torch.empty(0, dtype=torch.float64)))
print(torch.div(i, j, out=torch.empty(0)))
print(torch.floor_divide(i, j, out=torch.empty(0, dtype=torch.long)))

# the float result cast to out's wider dtype
d = torch.add(a, b, out=torch.empty(0, dtype=torch.float64))
print(d.dtype, d)
