import torch

# a graph walk by next_functions
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = (x.t() @ x).relu().sum(1).mean()


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


walk(y.grad_fn)

# gradient clipping by a hook
x.register_hook(lambda g: g.clamp(-0.1, 0.1))
y.backward()
print(x.grad)

# hooks and retain_grad under autograd.grad
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * a
b.retain_grad()
b.register_hook(lambda g: g + 1)
print(torch.autograd.grad(b.sum(), a), b.grad)
a.register_hook(lambda g: g * 100)
print(torch.autograd.grad((a * 3).sum(), a), a.grad)

# a hook that removes itself
c = torch.tensor([1.0], requires_grad=True)
handles = []


def once(g):
    handles[0].remove()
    return g * 5


handles.append(c.register_hook(once))
(c * 1).sum().backward()
print(c.grad)
(c * 1).sum().backward()
print(c.grad)

# an AccumulateGrad pre-hook, removed again
d = torch.tensor([1.0, 2.0], requires_grad=True)
acc = (d * 1).grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is d)
handle = acc.register_prehook(lambda gs: (gs[0] * 0,))
(d * 3).sum().backward()
print(d.grad)
handle.remove()
(d * 3).sum().backward()
print(d.grad)

# the optimizer-in-backward idiom: a post-accumulate hook steps and clears .grad
e = torch.tensor([1.0, 2.0], requires_grad=True)


def step(t):
    with torch.no_grad():
        t.sub_(0.1 * t.grad)
    t.grad = None


e.register_post_accumulate_grad_hook(step)
(e * e).sum().backward()
print(e, e.grad)

# a hook writing into the gradient it receives: sum's gradient is expanded, so it may not
f = torch.tensor([1.0, 2.0], requires_grad=True)
h = f * 2


def scale_in_place(g):
    g.mul_(3)


h.register_hook(scale_in_place)
try:
    h.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)
h = f * 2
h.register_hook(scale_in_place)
(h * h).sum().backward()  # a gradient of its own: written in place, and passed on
print(f.grad)

# a leaf used twice: its hook runs once, on the summed gradient
k = torch.tensor([1.0], requires_grad=True)
calls = []
k.register_hook(lambda g: calls.append(g.item()))
(k * 2 + k * 3).sum().backward()
print(calls, k.grad)
