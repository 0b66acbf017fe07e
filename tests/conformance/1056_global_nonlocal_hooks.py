# Counting hook calls with `nonlocal` closures and a `global` counter.
import torch

calls = 0


def count_global(grad):
    global calls
    calls += 1
    return grad * 2


def make_recorder():
    seen = []
    total = 0

    def hook(grad):
        nonlocal total
        total += 1
        seen.append(grad.clone())

    def report():
        return total, seen

    return hook, report


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
hook, report = make_recorder()
y = x * x
y.register_hook(hook)
y.register_hook(count_global)
y.sum().backward()
print(x.grad, calls, report())


def make_step(lr):
    steps = 0

    def step(param):
        nonlocal steps, lr
        steps += 1
        lr = lr * 0.5
        with torch.no_grad():
            param -= lr * param.grad
        return steps, lr

    return step


step = make_step(1.0)
print(step(x), step(x), x)
