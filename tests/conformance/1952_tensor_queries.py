# The torch-level tensor queries and small ops of the docs: is_nonzero, is_same_size,
# is_complex, typename, adjoint (a transpose view) and rsub (other - alpha * input), with
# PyTorch's errors for the common misuses
import torch

print(torch.is_nonzero(torch.tensor([0.0])), torch.is_nonzero(torch.tensor([1.5])))
print(torch.is_nonzero(torch.tensor([False])), torch.is_nonzero(torch.tensor([3])))
for bad in (torch.tensor([1, 3, 5]), torch.tensor([])):
    try:
        torch.is_nonzero(bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.is_nonzero(1)
except TypeError as e:
    print("TypeError:", e)

a = torch.zeros(2, 3)
print(torch.is_same_size(a, torch.ones(2, 3)), torch.is_same_size(a, torch.ones(3, 2)))
print(torch.is_complex(a), a.is_complex(), torch.is_complex(torch.tensor([1, 2])))
print(torch.typename(a), torch.typename(torch.tensor([1, 2])), torch.typename(a.double()))
print(torch.typename(torch.tensor([True])), torch.typename(torch.nn.Linear(2, 2)))
print(torch.typename(3), torch.typename([1]), torch.typename(torch.float32))

m = torch.arange(6.0).view(2, 3).requires_grad_()
adj = torch.adjoint(m)
print(adj, adj.shape, adj.is_contiguous())
print(m.adjoint().grad_fn, torch.adjoint(torch.ones(4, 2, 3)).shape)
(adj * torch.arange(6.0).view(3, 2)).sum().backward()
print(m.grad)
try:
    torch.adjoint(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)

# rsub: 1 - mask for an additive attention mask, other - alpha * input
mask = torch.tensor([[1.0, 1.0, 0.0]])
print(torch.rsub(mask, 1.0) * -10000.0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
r0 = torch.rsub(x, y, alpha=2)
r1 = torch.rsub(x, 5, alpha=3)
print(r0, r1, r1.grad_fn._saved_alpha)
(r0.sum() + r1.sum()).backward()
print(x.grad, y.grad)
print(
    torch.rsub(torch.tensor([1, 2]), 2.5),
    torch.rsub(torch.tensor([1, 2]), torch.tensor([5, 5]), alpha=2),
)
try:
    torch.rsub(torch.tensor([1, 2]), 2, alpha=1.5)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.rsub(torch.tensor([True]), torch.tensor([False]))
except RuntimeError as e:
    print("RuntimeError:", e)
