import torch

torch.manual_seed(3)
a = torch.rand(4, requires_grad=True)
p = torch.full((4,), 0.4, requires_grad=True)
for name, fill in [
    ("uniform_", lambda t: t.uniform_(-1, 1)),
    ("normal_", lambda t: t.normal_()),
    ("bernoulli_ float", lambda t: t.bernoulli_(0.5)),
    ("bernoulli_ tensor", lambda t: t.bernoulli_(p)),
    ("exponential_", lambda t: t.exponential_()),
    ("random_", lambda t: t.random_(0, 5)),
]:
    y = fill(a * 2)
    print(name, y.grad_fn.name(), len(y.grad_fn.next_functions))
    (y * 3 + a).sum().backward()
    print(a.grad, p.grad)
    a.grad = None
    p.grad = None
b = torch.bernoulli(p)
print(b, b.grad_fn.name())
b.sum().backward()
print(p.grad)
