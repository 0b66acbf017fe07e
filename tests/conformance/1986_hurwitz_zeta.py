# torch.special.zeta (the Hurwitz zeta function; Riemann's at q = 1, as in the Basel problem
# exercises and polygamma identities): values and edges, a number on either side, integer inputs,
# the gradient with respect to q and PyTorch's NotImplementedError for x.
import math

import torch

x = torch.tensor([2.0, 3.0, 4.0, 6.0, 1.5])
print(torch.special.zeta(x, torch.tensor(1.0)), math.pi**2 / 6, math.pi**4 / 90)
q = torch.tensor([0.5, 1.0, 2.0, 10.0, 0.1], dtype=torch.float64, requires_grad=True)
z = torch.special.zeta(torch.tensor(3.0, dtype=torch.float64), q)
print(z, z.grad_fn.name())
z.sum().backward()
print(q.grad, torch.polygamma(2, q.detach()) / -2)
print(torch.special.zeta(2.0, torch.tensor([1.0, 2.0, 3.0])).grad_fn)
print(torch.special.zeta(torch.tensor([2, 3]), torch.tensor([1, 2])))
edges_x = torch.tensor([1.0, 0.5, 2.0, 2.0, 2.0, 2.5, float("inf"), 2.0])
edges_q = torch.tensor([1.0, 1.0, 0.0, -1.0, -1.5, -1.5, 1.0, float("inf")])
print(torch.special.zeta(edges_x, edges_q))
xs = torch.tensor([2.0, 3.0], requires_grad=True)
out = torch.special.zeta(xs, 2.0)
print(out.grad_fn.name())
try:
    out.sum().backward()
except Exception as ex:
    print(type(ex).__name__, ex)
