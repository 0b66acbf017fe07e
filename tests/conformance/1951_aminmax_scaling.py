# torch.aminmax as a quantization observer and min-max feature scaling use it: the
# torch.return_types.aminmax named tuple, dim/keepdim, the one AminmaxBackward0 node of both
# results and its gradient shared among ties
import torch

x = torch.tensor([[1.0, -3.0, 4.0], [0.5, 9.0, -2.0]], requires_grad=True)
r = torch.aminmax(x)
print(r)
print(type(r).__name__, r.min, r.max, r[0], len(r))
mn, mx = torch.aminmax(x, dim=0)
print(mn, mx, mn.grad_fn, mx.grad_fn)
print(x.aminmax(dim=1, keepdim=True))

# min-max scaling of each feature (column) to [0, 1]
lo, hi = torch.aminmax(x, dim=0, keepdim=True)
scaled = (x - lo) / (hi - lo)
print(scaled)
scaled.sum().backward()
print(x.grad)

# a MinMaxObserver-style scale and zero point for uint8 quantization
activations = torch.tensor([-0.8, 0.1, 2.4, 1.3, -0.2])
min_val, max_val = torch.aminmax(activations)
scale = (max_val - min_val) / 255
zero_point = torch.round(-min_val / scale).clamp(0, 255).to(torch.int64)
print(min_val, max_val, scale, zero_point)
q = torch.clamp(torch.round(activations / scale) + zero_point, 0, 255)
print(q)

# ties: the gradient is shared
t = torch.tensor([3.0, 1.0, 3.0, 1.0], requires_grad=True)
a, b = torch.aminmax(t)
(2 * a + b).backward()
print(t.grad)
print(torch.aminmax(torch.tensor([1, 7, -2], dtype=torch.int32)))
print(torch.aminmax(torch.tensor(5.0), dim=0))
try:
    torch.aminmax(torch.tensor([]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.aminmax(torch.ones(0, 3), dim=0)
except IndexError as e:
    print("IndexError:", e)
