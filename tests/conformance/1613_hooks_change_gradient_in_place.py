# A hook that changes its gradient in place (g.mul_, g *= ...) and returns None: the gradient
# used downstream and accumulated is that tensor, as changed.
import torch
import torch.nn as nn

print("leaf mul_ 0-d")
d = torch.tensor(1.0, requires_grad=True)
d.register_hook(lambda g: g.mul_(100))
(d * 2).backward()
print(d.grad)

print("leaf *= returning None, accumulate twice")
d = torch.tensor([1.0, 2.0], requires_grad=True)


def times100(g):
    g *= 100


d.register_hook(times100)
(d * 2).sum().backward()
print(d.grad)
(d * 3).sum().backward()
print(d.grad)

print("leaf used twice (sum of two edges)")
d = torch.tensor([1.0, 2.0], requires_grad=True)
d.register_hook(lambda g: g.add_(1))
(d * 2 + d * d).sum().backward()
print(d.grad)

print("non-leaf hook modifies in place; upstream sees it")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g.mul_(10))
(y * y).sum().backward()
print(x.grad)

print("non-leaf retain_grad then hook: retained before or after?")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
y.register_hook(lambda g: g.add_(1))
(y * 2).sum().backward()
print(x.grad, y.grad)

print("hook before retain_grad")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g.add_(1))
y.retain_grad()
(y * 2).sum().backward()
print(x.grad, y.grad)

print("two hooks, second sees first's in-place change")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
seen = []
y.register_hook(lambda g: g.mul_(2))
y.register_hook(lambda g: seen.append(g.clone()))
try:
    y.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
(y * torch.tensor([1.0, 1.0])).sum().backward()
print(seen, x.grad)

print("hook modifies in place and returns a new tensor")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1


def both(g):
    g.mul_(3)
    return g + 1


y.register_hook(both)
(y * 2).sum().backward()
print(x.grad)

print("leaf hook, second backward adds into .grad")
w = torch.tensor([1.0, -1.0], requires_grad=True)
w.register_hook(lambda g: g.mul_(0.5))
(w * 4).sum().backward()
(w * 4).sum().backward()
print(w.grad)

print("post accumulate grad hook modifies .grad in place")
w = torch.tensor([1.0, 2.0], requires_grad=True)


def post(p):
    p.grad.mul_(10)


w.register_post_accumulate_grad_hook(post)
(w * w).sum().backward()
print(w.grad)
(w * w).sum().backward()
print(w.grad)

print("leaf hook and post accumulate hook")
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.register_hook(lambda g: g.add_(1))
w.register_post_accumulate_grad_hook(lambda p: print("post sees", p.grad))
(w * 3).sum().backward()
print(w.grad)

print("hook on output of a shared gradient: add")
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * 1
e = b * 1
c.register_hook(lambda g: g.mul_(7))
(c + e).mul(torch.tensor([1.0, 2.0])).sum().backward()
print(a.grad, b.grad)
print("the gradient given to backward is the one the hook changes")
a = torch.tensor([1.0, 2.0], requires_grad=True)
c = a * 1
c.register_hook(lambda g: g.mul_(7))
given = torch.tensor([1.0, 2.0])
c.backward(given)
print(a.grad, given)

print("grad_fn prehook in place")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 5
z = y.sin()


def pre(gs):
    gs[0].mul_(2)


z.grad_fn.register_prehook(pre)
z.backward(torch.ones(2))
print(x.grad)

print("grad_fn post hook modifies grad_inputs in place")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 5


def posth(gi, go):
    gi[0].mul_(3)


y.grad_fn.register_hook(posth)
y.backward(torch.ones(2))
print(x.grad)

print("module full backward hook in place")
torch.manual_seed(0)
lin = nn.Linear(2, 1)


def mhook(module, grad_input, grad_output):
    grad_input[0].mul_(10)


lin.register_full_backward_hook(mhook)
inp = torch.tensor([[1.0, 2.0]], requires_grad=True)
lin(inp).backward(torch.ones(1, 1))
print(inp.grad, lin.weight.grad)

print("module full backward pre hook in place")
torch.manual_seed(0)
lin = nn.Linear(2, 1)


def mpre(m, go):
    go[0].mul_(4)


lin.register_full_backward_pre_hook(mpre)
inp = torch.tensor([[1.0, 2.0]], requires_grad=True)
lin(inp).backward(torch.ones(1, 1))
print(inp.grad, lin.weight.grad, lin.bias.grad)

print("autograd.grad with hook in place")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g.mul_(3))
print(torch.autograd.grad(y, x, torch.ones(2)))
x.register_hook(lambda g: g.mul_(5))
print(torch.autograd.grad(x * 2, x, torch.ones(2)))
print(x.grad)

print("0-d gradients changed in place")
d = torch.tensor(1.0, requires_grad=True)


def h(g):
    g *= 100


d.register_hook(h)
(d * 2).backward()
print(d.grad)
x = torch.tensor(2.0, requires_grad=True)
y = x * 3


def h2(g):
    g.add_(1)


y.register_hook(h2)
(y * y).backward()
print(x.grad)
x = torch.tensor(2.0, requires_grad=True)
x.register_hook(h2)
y = x.exp()
y.backward()
print(x.grad)
w = torch.tensor(2.0, requires_grad=True)


def post3(p):
    p.grad.mul_(3)


w.register_post_accumulate_grad_hook(post3)
(w * w).backward()
print(w.grad)
a = torch.tensor(1.5, requires_grad=True)
b = a * a
b.retain_grad()


def h3(g):
    g.mul_(2)


b.register_hook(h3)
b.sin().backward()
print(a.grad, b.grad)
