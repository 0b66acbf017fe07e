import torch
import torch.nn as nn

# LSTM in float64 (PyTorch's composite path: StackBackward0), with proj_size, and a float64 GRU
# cell used in a loop; the gradients of the initial states.
torch.manual_seed(0)
lstm = nn.LSTM(3, 5, num_layers=2, dtype=torch.float64)
x = torch.randn(4, 2, 3, dtype=torch.float64)
h0 = torch.zeros(2, 2, 5, dtype=torch.float64, requires_grad=True)
c0 = torch.zeros(2, 2, 5, dtype=torch.float64, requires_grad=True)
out, (h, c) = lstm(x, (h0, c0))
print(out.grad_fn, h.grad_fn, out.dtype)
(out.sum() + c.sum()).backward()
print(h0.grad[1])
print(c0.grad[0])
proj = nn.LSTM(3, 5, proj_size=2)
print(proj, [tuple(p.shape) for p in proj.parameters()])
out, (h, c) = proj(torch.randn(4, 2, 3))
print(out.shape, h.shape, c.shape, out.grad_fn)
cell = nn.GRUCell(3, 2).double()
hx = torch.zeros(2, 2, dtype=torch.float64)
for t in range(4):
    hx = cell(x[t], hx)
print(hx)
