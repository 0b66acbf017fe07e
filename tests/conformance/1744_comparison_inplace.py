# the comparison in-place methods: 0/1 in the tensor's own dtype
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
a = x * 1
a.eq_(2.0)
print(a, a.grad_fn)
a.sum().backward()
print(x.grad)
b = x * 1
b.lt_(torch.tensor([1.0, 2.0, 3.0]))
print(b)
c = torch.arange(3)
print(c.gt_(1), torch.arange(3).gt_(1.5), torch.arange(4).ne_(2), torch.arange(4).le_(1))
print(torch.tensor([True, False]).eq_(1), torch.arange(3.0).ge_(1).dtype)
print(torch.arange(3.0).greater_(0), torch.arange(3.0).less_equal_(1))
try:
    torch.arange(3).eq_(torch.tensor([[0], [1]]))
except RuntimeError as e:
    print(e)
try:
    torch.ones(3, requires_grad=True).eq_(1)
except RuntimeError as e:
    print(e)
