import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2


def double(grad):
    print("hook saw", grad)
    return grad * 2


def observe(grad):
    print("observe", grad)


handle = y.register_hook(double)
y.register_hook(observe)
y.sum().backward()
print(x.grad)

x.grad = None
y = x * 2
handle = y.register_hook(double)
handle.remove()
y.sum().backward()
print(x.grad)

x.grad = None
y = x * 2
y.register_hook(lambda g: g + 1)
y.register_hook(lambda g: g * 10)
y.sum().backward()
print(x.grad)
print(type(handle).__name__)
