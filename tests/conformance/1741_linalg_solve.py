# torch.linalg.solve as the docs show it, and its gradient (LinalgSolveExBackward0)
import torch

A = torch.tensor([[3.0, 1.0], [1.0, 2.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([9.0, 8.0], dtype=torch.float64, requires_grad=True)
x = torch.linalg.solve(A, b)
print(x, x.grad_fn)
print(torch.allclose(A @ x, b))
x.sum().backward()
print(A.grad, b.grad)
B = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
X = torch.linalg.solve(A.detach(), B)
print(X, torch.allclose(A.detach() @ X, B))
print(
    torch.autograd.gradcheck(torch.linalg.solve, (A.detach().requires_grad_(), B.requires_grad_()))
)
