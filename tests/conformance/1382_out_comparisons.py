# out= on comparisons, logical and bitwise functions: bool results cast into any out dtype.
import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, -5.0, 6.0]])
b = torch.tensor([1.0, 0.0, 7.0])

for name, fn in [
    ("eq", torch.eq),
    ("ne", torch.ne),
    ("lt", torch.lt),
    ("le", torch.le),
    ("gt", torch.gt),
    ("ge", torch.ge),
    ("greater", torch.greater),
    ("less_equal", torch.less_equal),
    ("not_equal", torch.not_equal),
]:
    print(name, fn(a, b, out=torch.empty(0, dtype=torch.bool)))
    print(name, fn(a, 2.0, out=torch.empty(0)))
    print(name, fn(a, b, out=torch.empty(0, dtype=torch.long)))

for name, fn in [
    ("logical_and", torch.logical_and),
    ("logical_or", torch.logical_or),
    ("logical_xor", torch.logical_xor),
]:
    print(name, fn(a, b, out=torch.empty(0, dtype=torch.bool)))
    print(name, fn(a > 1, b > 0, out=torch.empty(0)))

i = torch.tensor([12, 10, 7])
for name, fn in [
    ("bitwise_and", torch.bitwise_and),
    ("bitwise_or", torch.bitwise_or),
    ("bitwise_xor", torch.bitwise_xor),
]:
    print(name, fn(i, 6, out=torch.empty(0, dtype=torch.long)))
    print(name, fn(i, i - 1, out=torch.empty(0)))

m = torch.tensor([True, False, True])
print(torch.bitwise_and(m, torch.tensor([True, True, False]), out=torch.empty(0, dtype=torch.bool)))

try:
    torch.add(i, i, out=torch.empty(0, dtype=torch.bool))
except RuntimeError as error:
    print("RuntimeError:", error)
try:
    torch.bitwise_and(i, 3, out=torch.empty(0, dtype=torch.bool))
except RuntimeError as error:
    print("RuntimeError:", error)
