# Preallocated buffers reused through out= in a loop (no new tensors), out as an input, slices
# of a bigger buffer as outs.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
acc = torch.zeros(2, 2)
tmp = torch.empty(2, 2)
for step in range(3):
    torch.mul(x, step + 1, out=tmp)
    torch.add(acc, tmp, out=acc)
    print(step, acc, tmp)

# a running power by matrix products into two buffers
p = torch.eye(2)
q = torch.empty(2, 2)
m = torch.tensor([[0.5, 0.25], [0.0, 1.0]])
for _ in range(3):
    torch.mm(p, m, out=q)
    p, q = q, p
print(p)

# rows of one result buffer filled one by one
rows = torch.zeros(3, 4)
for k in range(3):
    torch.linspace(0, k, 4, out=rows[k])
print(rows)
for k in range(3):
    torch.sum(x * k, 1, out=rows[k, :2])
print(rows)

# out is one of the inputs
y = torch.tensor([1.0, -2.0, 3.0])
torch.mul(y, y, out=y)
print(y)
torch.clamp(y, max=4.0, out=y)
print(y)
torch.where(y > 3, y, -y, out=y)
print(y)
z = torch.tensor([[2.0, 1.0], [0.5, 3.0]])
torch.cumprod(z, 1, out=z)
print(z)
