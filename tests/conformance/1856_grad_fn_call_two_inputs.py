# Calling a two-input node: PyTorch returns one gradient per input, not yet summed to the
# input's shape (broadcasting is undone by the backward pass, not by the node).
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
b = torch.tensor(0.25, requires_grad=True)
y = x * w + b
gx_w = y.grad_fn.next_functions[0][0]
print(y.grad_fn, gx_w)
print(y.grad_fn(torch.ones(2, 2)))
gx, gw = gx_w(torch.ones(2, 2))
print(gx)
print(gw, gw.shape)
print(gw.grad_fn)
with torch.no_grad():
    print(gx_w(torch.ones(2, 2))[1].requires_grad)
y.sum().backward()
print(w.grad, b.grad)
