# function.__code__ as training utilities use it: calling a user callback with as many
# arguments as it takes (co_argcount), listing a function's parameter names (co_varnames),
# and naming the loss functions in a log (co_name)
import torch


def mse(pred, target):
    diff = pred - target
    return (diff**2).mean()


def l1(pred, target, reduction="mean"):
    return (pred - target).abs().mean() if reduction == "mean" else (pred - target).abs().sum()


def on_step(step):
    print("callback(step) at", step)


def on_step_loss(step, loss):
    print("callback(step, loss) at", step, round(loss, 5))


def call_callback(fn, step, loss):
    n = fn.__code__.co_argcount
    return fn(step) if n == 1 else fn(step, loss)


print(mse.__code__.co_argcount, mse.__code__.co_varnames, mse.__code__.co_nlocals)
print(l1.__code__.co_argcount, l1.__code__.co_varnames[: l1.__code__.co_argcount])
print(mse.__code__.co_name, (lambda a, b=1: a).__code__.co_name)
print((lambda a, b=1: a).__code__.co_argcount, call_callback.__code__.co_varnames)
w = torch.tensor([0.5, -0.3], requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, 1.0], [0.0, 1.0]])
y = torch.tensor([1.0, 2.0, 0.5])
for step, (loss_fn, cb) in enumerate([(mse, on_step), (l1, on_step_loss)]):
    loss = loss_fn(x @ w, y)
    loss.backward()
    print(loss_fn.__code__.co_name, loss.grad_fn, w.grad)
    call_callback(cb, step, loss.item())
    w.grad = None


class Trainer:
    def fit(self, epochs, lr=0.1):
        total = 0
        return epochs * lr + total


print(Trainer.fit.__code__.co_varnames, Trainer().fit.__code__.co_argcount)
print(Trainer.fit.__code__.co_qualname, Trainer.fit.__code__ == Trainer().fit.__code__)


def outer(scale):
    def inner(t):
        return t * scale

    return inner


f = outer(3.0)
print(f.__code__.co_freevars, outer.__code__.co_cellvars, f.__code__.co_qualname)
print(f(torch.tensor([1.0, 2.0])))
