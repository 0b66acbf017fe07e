# saved_tensors_hooks: which tensors each op packs, in PyTorch's order, and when backward
# unpacks them.
import torch
from torch.autograd.graph import saved_tensors_hooks

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([0.25, 0.5, 0.75], requires_grad=True)
log = []


def label(t):
    for name, v in (("x", x), ("y", y), ("w", w)):
        if t is v:
            return name
    if t.grad_fn is not None:
        return "result of " + t.grad_fn.name()
    return "a tensor of shape " + str(tuple(t.shape))


def pack(t):
    log.append("pack " + label(t))
    return label(t), t


def unpack(packed):
    log.append("unpack " + packed[0])
    return packed[1]


def run(title, f):
    log.clear()
    with saved_tensors_hooks(pack, unpack):
        out = f()
    forward = list(log)
    log.clear()
    out.sum().backward()
    print(title, forward, log)


run("mul", lambda: x * y)
run("mul by a number", lambda: x * 2)
run("div by a number", lambda: x / 2)
run("addmm", lambda: torch.addmm(w.view(1, 3), x.detach()[:1].view(1, 1), y.view(1, 3)))
run("linear", lambda: torch.nn.functional.linear(x.view(1, 3), y.view(1, 3)))
run("mul, other detached", lambda: x * y.detach())
run("same tensor twice", lambda: x * x)
run("div", lambda: x / y)
run("pow 2", lambda: x.pow(2))
run("pow tensor", lambda: x.pow(y.abs()))
run("exp", lambda: x.exp())
run("tanh", lambda: x.tanh())
run("sigmoid", lambda: x.sigmoid())
run("sin", lambda: x.sin())
run("log", lambda: x.log())
run("sqrt", lambda: x.sqrt())
run("add", lambda: x + y)
run("sum", lambda: x.sum())
run("relu", lambda: y.relu())
run("abs", lambda: y.abs())
run("square", lambda: x**2)
run("max", lambda: x.max())
run("prod", lambda: x.prod())
run("softmax", lambda: torch.softmax(x, 0))
run("log_softmax", lambda: torch.log_softmax(x, 0))
run("clamp", lambda: y.clamp(0, 1))
run("mse_loss", lambda: torch.nn.functional.mse_loss(x, y))
run("addcmul", lambda: torch.addcmul(x, y, w))
run("atan2", lambda: torch.atan2(x, y))
run("maximum", lambda: torch.maximum(x, y))
run("dot", lambda: torch.dot(x, y))
run("norm", lambda: x.norm())
run("std", lambda: x.std())
run("cumprod", lambda: x.cumprod(0))
run("chain", lambda: (x * y).exp().sin())
run("mm", lambda: x.view(3, 1).mm(y.view(1, 3)))
run("outer", lambda: torch.outer(x, y))
run("softplus", lambda: torch.nn.functional.softplus(x))
run("silu", lambda: torch.nn.functional.silu(x))
run("gelu", lambda: torch.nn.functional.gelu(x))
run("in-place sigmoid_", lambda: (x * 1).sigmoid_())
run("in-place exp_", lambda: (x + 0).exp_())
print(w.grad)
