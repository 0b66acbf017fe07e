# torch.relu_, torch.sigmoid_, torch.sin_ ... : the top-level in-place functions
import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
a = x * 1
print(torch.relu_(a), a.grad_fn)
b = x * 1
torch.sigmoid_(b)
print(b)
b.sum().backward()
print(x.grad)
c = x.detach().clone()
print(torch.sin_(c), torch.exp_(c), torch.clamp_(c, 0, 1.5), torch.zero_(c))
d = x * 1
print(torch.tanh_(d).grad_fn, torch.neg_(d).grad_fn, torch.square_(d).grad_fn)
print(torch.fill_(x * 1, 2.0).grad_fn, torch.xlogy_(x * 1, 2.0).grad_fn)
print(torch.dropout_(x * 1, 0.0, True), torch.selu_(x * 1).grad_fn)
try:
    torch.relu_(1)
except TypeError as e:
    print(e)
try:
    torch.relu_(x)
except RuntimeError as e:
    print(e)
