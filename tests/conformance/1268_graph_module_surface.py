# The torch.autograd.graph module as scripts import it; its context managers as decorators.
import torch
import torch.autograd.graph as g
from torch.autograd import graph
from torch.autograd.graph import (
    allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks,
    saved_tensors_hooks,
)

print(g is graph, g.Node, graph.GradientEdge)
print(torch.autograd.graph.saved_tensors_hooks)
x = torch.ones(2, requires_grad=True)
with g.saved_tensors_hooks(lambda t: t, lambda t: t) as h:
    print(h)
    y = x * x
print(type(g.get_gradient_edge(y)))
print(g.save_on_cpu, g.disable_saved_tensors_hooks, g.register_multi_grad_hook)
print(g.allow_mutation_on_saved_tensors, g.increment_version)


@disable_saved_tensors_hooks("no hooks in f")
def f(x):
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        return x * 2


try:
    f(torch.ones(1))
except RuntimeError as err:
    print("RuntimeError:", err)


@allow_mutation_on_saved_tensors()
def h(x):
    w = x * 1
    s = w.sin()
    w.mul_(3)
    s.sum().backward()
    return w


x = torch.tensor([0.5, 1.0], requires_grad=True)
print(h(x), x.grad)
