import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x**2


x = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
y = Cube.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
(g2,) = torch.autograd.grad(g.sum(), x)
print(g2)

y = Cube.apply(x)
y.sum().backward(retain_graph=True)
print(x.grad)
y.sum().backward()
print(x.grad)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.grad_fn.saved_tensors  # noqa: B018
except RuntimeError as e:
    print("RuntimeError:", e)


class WrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b

    @staticmethod
    def backward(ctx, g):
        return g


try:
    WrongCount.apply(x, x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class ExtraNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None


x.grad = None
ExtraNone.apply(x).sum().backward()
print(x.grad)


class GradForNumber(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        return a * k

    @staticmethod
    def backward(ctx, g):
        return g * 2, g


try:
    GradForNumber.apply(x, 2.0).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.sum()

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


try:
    BadShape.apply(x).backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class Broadcasting(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1

    @staticmethod
    def backward(ctx, g):
        return g.expand(2, 3)


x.grad = None
Broadcasting.apply(x).sum().backward()
print(x.grad)

base = torch.tensor([1.0, 2.0], requires_grad=True)
hidden = base * 1
out = Cube.apply(hidden)
with torch.no_grad():
    hidden.mul_(2)
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class SavesNumber(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a, 3)
        return a


try:
    SavesNumber.apply(x)
except TypeError as e:
    print("TypeError:", e)


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2


try:
    NoBackward.apply(x).sum().backward()
except NotImplementedError as e:
    print("NotImplementedError:", e)
