import torch
import torch.nn as nn


class Pair(nn.Module):
    def forward(self, a, b):
        return a * b, a + b


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
m = Pair()


def scale_first(module, grad_output):
    print("pre hook sees", grad_output)
    return (grad_output[0] * 100, grad_output[1])


def report(module, grad_input, grad_output):
    print("full hook sees grad_input", grad_input)
    print("full hook sees grad_output", grad_output)


m.register_full_backward_pre_hook(scale_first)
m.register_full_backward_hook(report)
first, second = m(a, b)
print(first.grad_fn.name(), second.grad_fn.name(), first.grad_fn is second.grad_fn)
first.sum().backward()
print("a.grad", a.grad)

# prepend puts a hook first; remove takes it out
a.grad = None
m2 = nn.Identity()
order = []
ha = m2.register_full_backward_pre_hook(lambda mod, go: order.append("a"))
hb = m2.register_full_backward_pre_hook(lambda mod, go: order.append("b"), prepend=True)
hc = m2.register_full_backward_hook(lambda mod, gi, go: order.append("c"))
hd = m2.register_full_backward_hook(lambda mod, gi, go: order.append("d"), prepend=True)
m2(a).sum().backward()
print(order)
hb.remove()
hd.remove()
order.clear()
m2(a).sum().backward()
print(order)


# a pre-hook that returns a wrong number of gradients
class Double(nn.Module):
    def forward(self, a):
        return a * 2


bad = Double()
bad.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
try:
    bad(a).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
bad2 = Double()
bad2.register_full_backward_pre_hook(lambda mod, go: go[0])
try:
    bad2(a).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
