# `or` / `and` return one of their operands, and test the truth of every operand but the last.
import torch

print(None or torch.ones(2))
print(0 or torch.zeros(3))
print(torch.zeros(()) and None, torch.ones(()) and None)
print([] or torch.arange(3.0))
print(1 and torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(False or None or torch.full((2,), 7.0))
print(True and 1 and torch.ones(2, 2))
x = None
y = x or torch.tensor([0.5, 1.5])
print(y)
z = y is not None and y * 2
print(z)

# The hook idiom: print the gradient, then change it.
a = torch.tensor([1.0, 2.0], requires_grad=True)
a.register_hook(lambda g: print("hook", g) or g * 2)
(a * 3).sum().backward()
print(a.grad)

b = torch.tensor([1.0, -1.0], requires_grad=True)
c = b * b
c.register_hook(lambda g: None if print("c grad", g) else g)
c.sum().backward()
print(b.grad)


def maybe(t, default=None):
    return default or t


print(maybe(torch.ones(3)), maybe(torch.ones(3), torch.zeros(1)))
print((lambda t: t.grad or "no grad")(torch.ones(2)))

# The operand that is tested must have one truth value.
for expression in (lambda: torch.ones(2) or 1, lambda: torch.ones(2) and 1):
    try:
        expression()
    except RuntimeError as error:
        print("RuntimeError:", error)
try:
    print(not torch.ones(2))
except RuntimeError as error:
    print("RuntimeError:", error)
print(not torch.zeros(()), not torch.tensor([3]))
