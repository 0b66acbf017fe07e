# Turning tracking off: torch.no_grad() blocks and detach().
import torch

w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x = torch.tensor([1.0, -1.0])

y = torch.matmul(w, x)
print("tracked:", y.requires_grad, y.grad_fn.name())

with torch.no_grad():
    y = torch.matmul(w, x)
print("inside no_grad:", y.requires_grad, y.grad_fn)

frozen = torch.matmul(w, x).detach()
print("detached:", frozen.requires_grad, frozen.is_leaf)

# detach shares storage with the original: a change through one is seen by the other
d = w.detach()
d[0, 0] = 10.0
print("w after writing through its detached view:", w)
