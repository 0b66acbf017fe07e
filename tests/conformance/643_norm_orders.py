import torch

x = torch.tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], requires_grad=True)
for p in ["fro", 1, 2, 3, 0.5, 0, float("inf"), float("-inf")]:
    n = x.norm(p)
    print(p, n, n.grad_fn.name())
    n.backward()
    print(x.grad)
    x.grad = None
print(torch.norm(x, dim=1), x.norm(1, dim=0, keepdim=True))
print(x.norm(float("inf"), dim=1))
print(x.norm().grad_fn._saved_ord, x.norm(3).grad_fn._saved_ord)
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print(z.grad)
