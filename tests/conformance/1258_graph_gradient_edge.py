# GradientEdge and get_gradient_edge: edges as inputs= of autograd.grad and backward.
import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge

a = torch.tensor([1.0, 2.0], requires_grad=True)
y = a * 2
edge = get_gradient_edge(y)
print(type(edge).__name__, edge.node.name(), edge.output_nr, edge.ownership_token)
print(isinstance(edge, tuple), len(edge), edge[1])
leaf_edge = get_gradient_edge(a)
print(leaf_edge.node.name(), leaf_edge.output_nr)
print(GradientEdge)

z = y.exp().sum()
print(torch.autograd.grad(z, edge, retain_graph=True))
print(torch.autograd.grad(z, [leaf_edge, y]))

# the edge stays valid when the tensor is gone: the gradient flowing into y's node
y = a * 3
edge = get_gradient_edge(y)
out = (y * y).sum()
del y
print(torch.autograd.grad(out, edge, retain_graph=True))
out.backward(inputs=[get_gradient_edge(a)])
print(a.grad)

# built by hand
w = a.sin()
e2 = GradientEdge(w.grad_fn, 0)
print(torch.autograd.grad(w.sum(), e2))

# a node with several outputs
v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
vals, idx = v.sort()
first, second, third = vals.unbind()
e3 = get_gradient_edge(second)
print(e3.node.name(), e3.output_nr)
print(torch.autograd.grad(first * 2 + second * 5, [e3, v]))

try:
    get_gradient_edge(torch.tensor([1.0]))
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    torch.autograd.grad(a.sum(), [1])
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    torch.autograd.backward(a.sum(), inputs=["a"])
except RuntimeError as err:
    print("RuntimeError:", err)
