import torch


def attempt(label, run, *args, **kwargs):
    try:
        print(label, run(*args, **kwargs))
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


# next_functions lists the tensor inputs only; backward still returns one value per input
t = torch.tensor([1.0, 2.0], requires_grad=True)
y = Scale.apply(t, 2.0)
print(y, y.grad_fn.next_functions, y.grad_fn.needs_input_grad)
y.sum().backward()
print(t.grad)


class Mixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k, b, c):
        return a * k + b * (1 if c is None else c)

    @staticmethod
    def backward(ctx, g):
        print("needs_input_grad", ctx.needs_input_grad)
        return g, None, g, None


u = torch.tensor([1.0, 1.0])  # does not require grad: an empty edge
v = torch.tensor([5.0, 5.0], requires_grad=True)
for args in [(t, 3.0, u, None), (u, 1.0, v, 2), (t, 1.0, v, torch.tensor(2.0))]:
    t.grad = v.grad = None
    y = Mixed.apply(*args)
    print(y.grad_fn.next_functions)
    y.sum().backward()
    print(t.grad, v.grad)


class NumberGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        return a * k

    @staticmethod
    def backward(ctx, g):
        return g, g  # a gradient for the number


attempt("gradient for a number:", NumberGrad.apply(t, 2.0).sum().backward)


class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        return a * k

    @staticmethod
    def backward(ctx, g):
        return g, None, g


attempt("three gradients for two inputs:", TooMany.apply(t, 2.0).sum().backward)


# keyword arguments are bound to forward's parameters; defaults are not filled in
class WithDefaults(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=3.0, b=None):
        ctx.k = k
        return x * k if b is None else x * k + b

    @staticmethod
    def backward(ctx, g):
        print("needs_input_grad", ctx.needs_input_grad)
        return (g * ctx.k,) + (None, g)[: len(ctx.needs_input_grad) - 1]


b = torch.tensor([1.0, 1.0], requires_grad=True)
for label, args, kwargs in [
    ("positional", (t, 2.0), {}),
    ("default", (t,), {}),
    ("k by keyword", (t,), {"k": 2.0}),
    ("x by keyword", (), {"x": t}),
    ("b and k by keyword", (t,), {"b": b, "k": 5.0}),
    ("b skips k", (t,), {"b": b}),
    ("unknown keyword", (t,), {"z": 1}),
    ("k twice", (t, 1.0), {"k": 2.0}),
]:
    t.grad = b.grad = None
    try:
        y = WithDefaults.apply(*args, **kwargs)
        print(label, y, y.grad_fn.next_functions)
        y.sum().backward()
        print(" grads", t.grad, b.grad)
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


# with setup_context, every call is bound with its defaults
class Separate(torch.autograd.Function):
    @staticmethod
    def forward(x, k=2.0, b=None):
        return x * k if b is None else x * k + b

    @staticmethod
    def setup_context(ctx, inputs, output):
        print("inputs", len(inputs), [type(i).__name__ for i in inputs])
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, g):
        print("needs_input_grad", ctx.needs_input_grad)
        return g * ctx.k, None, g


for label, args, kwargs in [
    ("no keywords", (t,), {}),
    ("b by keyword", (t,), {"b": b}),
    ("x by keyword", (), {"x": t}),
    ("unknown keyword", (t,), {"z": 1}),
    ("k twice", (t, 1.0), {"k": 2.0}),
    ("nothing", (), {}),
    ("too many", (t, 1.0, b, 3), {}),
]:
    t.grad = b.grad = None
    try:
        y = Separate.apply(*args, **kwargs)
        print(label, y, y.grad_fn.next_functions)
        y.sum().backward()
        print(" grads", t.grad, b.grad)
    except (RuntimeError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)


# mark_dirty: a leaf "has been used", a view of a leaf "is being used", and dirty inputs must be
# returned
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


class DirtyNotReturned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x * 1

    @staticmethod
    def backward(ctx, g):
        return g * 2


attempt("dirty leaf:", Dirty.apply, torch.tensor([1.0, 2.0], requires_grad=True))
leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
attempt("dirty view of a leaf:", Dirty.apply, leaf[:2])
attempt("dirty, no grad needed:", Dirty.apply, torch.tensor([1.0, 2.0]))
attempt("dirty, not returned:", DirtyNotReturned.apply, t * 1)
a = torch.tensor([1.0, 2.0], requires_grad=True)
h = a * 1
r = Dirty.apply(h)
print(r is h, r, h._version, type(r.grad_fn).__name__)
r.sum().backward()
print(a.grad)


# an input returned as it is comes back as a new tensor, recorded or not
class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


y = Identity.apply(a)
print(y is a, y, type(y.grad_fn).__name__)
with torch.no_grad():
    y = Identity.apply(a)
print(y is a, y.requires_grad, y.grad_fn)
plain = torch.ones(2)
y = Identity.apply(plain)
print(y is plain, y.requires_grad)
with torch.no_grad():
    y = Dirty.apply(plain)
print(y is plain, y, plain)
