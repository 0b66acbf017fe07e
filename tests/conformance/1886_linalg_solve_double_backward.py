# Second derivatives through torch.linalg.solve (a Newton step's sensitivity, as in the
# implicit-differentiation tutorials): the gradient's own graph, node by node, as PyTorch builds it.
import torch


def chain(t, depth=4):
    node, names = t.grad_fn, []
    for _ in range(depth):
        if node is None:
            break
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


A = torch.tensor([[3.0, 1.0], [1.0, 2.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
x = torch.linalg.solve(A, b)
ga, gb = torch.autograd.grad(x.sum(), (A, b), create_graph=True)
print(chain(ga))
print(chain(gb))
print(ga, gb)
print(torch.autograd.grad(ga.sum(), (A, b)))

B = torch.tensor([[1.0, 0.0], [2.0, 1.0]], dtype=torch.float64, requires_grad=True)
y = torch.linalg.solve(A, B)
g1, g2 = torch.autograd.grad((y**2).sum(), (A, B), create_graph=True)
print(chain(g1), chain(g2))
print(torch.autograd.grad(g1.sum() + g2.sum(), (A, B)))
d = torch.linalg.det(A)
(gd,) = torch.autograd.grad(d, A, create_graph=True)
print(chain(gd))
print(torch.autograd.grad(gd.sum(), A)[0])
