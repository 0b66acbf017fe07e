# A custom Function's ctx.save_for_backward goes through the saved-tensor hooks: packed after
# forward, unpacked when backward reads ctx.saved_tensors.
import torch
from torch.autograd.graph import saved_tensors_hooks

log = []


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c):
        log.append("forward")
        ctx.save_for_backward(a, b, None)
        ctx.c = c
        return a * b + c

    @staticmethod
    def backward(ctx, g):
        log.append("backward")
        a, b, none = ctx.saved_tensors
        log.append(("saved", none))
        return g * b, g * a, None


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)


def pack(t):
    log.append(("pack", t is a, t is b, t.requires_grad))
    return t


def unpack(t):
    log.append("unpack")
    return t


with saved_tensors_hooks(pack, unpack):
    out = MulAdd.apply(a, b, 1.0)
log.append("after")
out.sum().backward()
for entry in log:
    print(entry)
print(a.grad, b.grad)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        result = t.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, g):
        (result,) = ctx.saved_tensors
        return g * result


log.clear()
x = torch.tensor([0.0, 1.0], requires_grad=True)
with saved_tensors_hooks(lambda t: log.append(("pack output", t.grad_fn.name())) or t, unpack):
    y = Exp.apply(x)
y.sum().backward()
print(log, x.grad)
