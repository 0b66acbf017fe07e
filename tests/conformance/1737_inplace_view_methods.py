# in-place view methods: the tensor itself changes shape, grad_fns ...Backward1
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
a = x * 2
a.unsqueeze_(0)
print(a.shape, a.grad_fn)
a.squeeze_(0)
print(a.shape, a.grad_fn)
a.t_()
print(a.shape, a.grad_fn, a.grad_fn.next_functions)
a.transpose_(0, 1)
print(a.shape, a.grad_fn)
(a * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(x.grad)
b = (x * 1)[None, :, None]
b.squeeze_()
print(b.shape, b.grad_fn)
c = (x * 1)[None, :, None]
c.squeeze_((0, 2))
print(c.shape, c.grad_fn)
d = torch.zeros(3, 1)
print(d.unsqueeze_(0).shape, d.swapaxes_(0, 2).shape, d.swapdims_(0, 1).shape, d._version)
try:
    x.t_()
except RuntimeError as e:
    print(e)
try:
    torch.zeros(2, 2, 2).t_()
except RuntimeError as e:
    print(e)
