import torch
import torch.nn as nn


def show(grads):
    return [None if g is None else g.tolist() for g in grads]


def hook(module, grad_input, grad_output):
    print(type(module).__name__, "grad_input", show(grad_input), "grad_output", show(grad_output))


class Mixed(nn.Module):
    def forward(self, x, scale, extra):
        print("inside forward:", x.grad_fn.name() if x.grad_fn else None, extra[0].grad_fn)
        return x * scale + extra[0]


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
m = Mixed()
m.register_full_backward_hook(hook)
m(a, 3.0, [b]).sum().backward()
print(a.grad, b.grad)


class ManyOut(nn.Module):
    def forward(self, x):
        return x * 2, 5, x.detach()


mo = ManyOut()
mo.register_full_backward_hook(hook)
mo.register_full_backward_pre_hook(lambda mod, go: print("pre", show(go)))
outs = mo(a)
print(outs[0].grad_fn.name(), outs[1], outs[2].grad_fn, outs[2].requires_grad)
outs[0].sum().backward()


class KeywordOnly(nn.Module):
    def forward(self, x=None):
        return x * 2


k = KeywordOnly()
k.register_full_backward_hook(hook)
k(x=a).sum().backward()


class DictOut(nn.Module):
    def forward(self, x):
        return {"y": x * 2}


d = DictOut()
d.register_full_backward_hook(hook)
out = d(a)
print(out["y"].grad_fn.name())
out["y"].sum().backward()
print("dict outputs: no hook call")


class Passthrough(nn.Module):
    def forward(self, x):
        return x


p = Passthrough()
p.register_full_backward_hook(hook)
y = p(a * 1)
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
y.sum().backward()


class Unused(nn.Module):
    def forward(self, x, y):
        return x * 2


u = Unused()
u.register_full_backward_hook(hook)
a.grad = b.grad = None
u(a, b).sum().backward()
print(a.grad, b.grad)
