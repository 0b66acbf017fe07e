import torch


def attempt(label, run, *args, **kwargs):
    try:
        print(label, run(*args, **kwargs))
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


def on_result(hook, dtype=torch.float32):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True, dtype=dtype)
    y = a * 2
    y.register_hook(hook)
    y.sum().backward()
    return a.grad


def on_leaf(hook):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a.register_hook(hook)
    (a * a).sum().backward()
    return a.grad


def resized(g):
    return torch.ones(2)


def to_long(g):
    return g.long()


def to_double(g):
    return g.double()


def to_int32(g):
    return g.int()


def to_bool(g):
    return g > 0


def to_half(g):
    return g.half()


def zero_dim(g):
    return torch.tensor(1.0)


def row(g):
    return torch.ones(1, 3)


def a_number(g):
    return 3


def a_list(g):
    return [1.0, 2.0, 3.0]


def with_graph(g):
    return g.clone().requires_grad_()


def scaled(g):
    return g * 10


class Callable:
    def __call__(self, g):
        return torch.ones(5)


class Holder:
    def method(self, g):
        return g.double()


for where, run in [("result", on_result), ("leaf", on_leaf)]:
    for hook in [resized, to_long, to_double, to_int32, to_bool, to_half, zero_dim, row]:
        attempt(f"{where} {hook.__name__}:", run, hook)
    for hook in [a_number, a_list, with_graph, scaled, lambda g: g.long(), lambda g: None]:
        attempt(f"{where} {hook.__name__}:", run, hook)
    attempt(f"{where} callable object:", run, Callable())
    attempt(f"{where} bound method:", run, Holder().method)

attempt("float64 to float32:", lambda: on_result(lambda g: g.float(), torch.float64))

# a hook's replacement is what later hooks see; a checked failure stops the pass
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a * 2
y.register_hook(scaled)
y.register_hook(lambda g: print("second hook sees", g))
y.sum().backward()
print(a.grad)

# a hook on an output that received no gradient runs with None and may not invent one
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
p, q = x.unbind(0)
q.register_hook(lambda g: print("hook on q got", g))
(p * 2).sum().backward()
print(x.grad)
for hook in [lambda g: torch.ones(2), lambda g: 3]:
    p, q = x.unbind(0)
    q.register_hook(hook)
    attempt("replacing None:", (p * 2).sum().backward)

# with create_graph the checks are the same
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for hook in [resized, to_double, scaled]:
    y = a * a
    y.register_hook(hook)
    attempt(f"create_graph {hook.__name__}:", torch.autograd.grad, y.sum(), a, create_graph=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b.register_hook(resized)
attempt("autograd.grad on a hooked leaf:", lambda: torch.autograd.grad((b * b).sum(), b))
