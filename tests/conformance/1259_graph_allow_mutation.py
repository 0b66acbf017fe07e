# allow_mutation_on_saved_tensors: in-place changes of saved tensors inside the block do not
# break backward; outside, PyTorch's version error.
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = x * 1
s = w.sin()
w.mul_(2)
try:
    s.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)

with allow_mutation_on_saved_tensors() as ctx:
    print(type(ctx).__name__)
    w = x * 1
    s = w.sin()
    w.mul_(2)
    s.sum().backward()
    print(x.grad, w)

    x.grad = None
    w = x * 1
    p = w * w
    w[0] = 10.0
    w.add_(1)
    p.sum().backward()
    print(x.grad, w)

    x.grad = None
    e = x.exp()
    q = e * 3
    e.zero_()
    q.sum().backward()
    print(x.grad, e)

    # a parameter updated in place between forward and backward
    lin = torch.nn.Linear(2, 1)
    with torch.no_grad():
        lin.weight.fill_(0.5)
        lin.bias.fill_(0.0)
    inp = torch.tensor([[1.0, 2.0]], requires_grad=True)
    out = lin(inp).sum()
    with torch.no_grad():
        lin.weight.mul_(10)
    out.backward()
    print(inp.grad, lin.weight)

try:
    with allow_mutation_on_saved_tensors():
        with allow_mutation_on_saved_tensors():
            pass
except RuntimeError as err:
    print("RuntimeError:", err)
with allow_mutation_on_saved_tensors():
    print("usable again")

# a graph recorded inside refuses its saved values once the block is left
with allow_mutation_on_saved_tensors():
    w = x * 1
    s = w.sin()
    w.mul_(2)
    t = x.exp()
    u = x + 1
try:
    s.sum().backward()
except AssertionError as err:
    print("AssertionError:", err)
try:
    _ = t.grad_fn._saved_result
except AssertionError as err:
    print("AssertionError:", err)
x.grad = None
u.sum().backward()
print(x.grad)
