import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
m = x * y
print(m.grad_fn._saved_self)
print(m.grad_fn._saved_other)
print(m.grad_fn._saved_self is x, torch.equal(m.grad_fn._saved_other, y))
e = x.exp()
print(e.grad_fn._saved_result)
p = x.pow(3)
print(p.grad_fn._saved_self, p.grad_fn._saved_exponent)
s = x.sum()
print(s.grad_fn._saved_self_sym_sizes)
print(m.grad_fn._saved_self.grad_fn)
m.sum().backward()
try:
    m.grad_fn._saved_self  # noqa: B018
except RuntimeError as e2:
    print(type(e2).__name__, e2)
