# torch.autograd.graph.Node: the base every grad_fn is an instance of; name, next_functions,
# metadata, hooks on nodes.
import torch
from torch.autograd.graph import Node

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * 2).exp().sum()
print(Node)
print(isinstance(y.grad_fn, Node), isinstance(x, Node), isinstance(3, Node), isinstance(None, Node))
node = y.grad_fn
while node is not None:
    print(node.name(), isinstance(node, Node), issubclass(type(node), Node))
    nxt = [f for f, _ in node.next_functions if f is not None]
    node = nxt[0] if nxt else None
print(issubclass(int, Node))
try:
    Node()
except TypeError as err:
    print("TypeError:", err)

m = (x * 3).grad_fn
print(m.metadata, type(m.metadata).__name__)
m.metadata["note"] = "scaled by 3"
print(m.metadata)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return 2 * t * g


s = Square.apply(x)
print(isinstance(s.grad_fn, Node), s.grad_fn.name())

# hooks registered on nodes
calls = []
z = x.sin()
w = z * z
h1 = w.grad_fn.register_prehook(lambda gout: calls.append(("pre", gout[0].tolist())))
h2 = w.grad_fn.register_hook(
    lambda gin, gout: calls.append(("post", [None if g is None else g.shape for g in gin]))
)


def double(gin, gout):
    return tuple(None if g is None else g * 2 for g in gin)


z.grad_fn.register_hook(double)
w.sum().backward()
print(calls)
print(x.grad)
h1.remove()
h2.remove()

# increment_version: what an in-place write does to the version counter
v = torch.ones(2)
print(v._version)
torch.autograd.graph.increment_version(v)
torch.autograd.graph.increment_version([v, v])
print(v._version)
try:
    torch.autograd.graph.increment_version(3)
except RuntimeError as err:
    print("RuntimeError:", err)
u = x * 1
k = u * u
torch.autograd.graph.increment_version(u)
try:
    k.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:80])
