# xlogy_ in place (entropy terms as in the information-theory tutorials)
import torch

x = torch.tensor([0.0, 0.5, 1.0, 2.0], requires_grad=True)
p = torch.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
a = x * 1
a.xlogy_(p)
print(a, a.grad_fn)
a.sum().backward()
print(x.grad, p.grad)
b = x * 1
b.xlogy_(2)
print(b, b.grad_fn)
try:
    torch.arange(3).xlogy_(2)
except RuntimeError as e:
    print(e)
