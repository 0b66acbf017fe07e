# fill_diagonal_ (the docs' examples) and through a tensor with history (CopySlices)
import torch

a = torch.zeros(3, 3)
print(a.fill_diagonal_(5.0))
b = torch.zeros(7, 3)
print(b.fill_diagonal_(5.0))
c = torch.zeros(7, 3)
print(c.fill_diagonal_(5.0, wrap=True))
print(torch.zeros(2, 2, 2).fill_diagonal_(1.0))
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
d = x * 1
d.fill_diagonal_(7.0)
print(d, d.grad_fn)
d.sum().backward()
print(x.grad)
for t in (torch.zeros(3), torch.zeros(2, 3, 4)):
    try:
        t.fill_diagonal_(1)
    except RuntimeError as e:
        print(e)
