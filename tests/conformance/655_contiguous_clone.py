import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
t = x.t()
print(x.is_contiguous(), t.is_contiguous())
c = t.contiguous()
print(c.is_contiguous())
print(c)
print(c.grad_fn.name())
k = x.clone()
print(k)
print(k.grad_fn.name(), k.is_leaf)
(c.sum() + (k * 2).sum()).backward()
print(x.grad)
try:
    t.view(6)
except RuntimeError as e:
    print(type(e).__name__, e)
print(t.reshape(6))
print(x.contiguous() is x)
