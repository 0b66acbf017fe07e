import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y * 2
events = []


def make_hook(label, factor):
    def hook(grad):
        events.append(label)
        print(label, grad)
        return grad * factor

    return hook


x.register_hook(make_hook("x-hook", 1))
y.register_hook(make_hook("y-first", 2))
y.retain_grad()
y.register_hook(make_hook("y-second", 10))
z.register_hook(make_hook("z-hook", 1))
z.sum().backward()
print(events)
print(y.grad)
print(x.grad)

a = torch.tensor([1.0], requires_grad=True)
b = a * 1
b.register_hook(lambda g: print("none returned", g))
b.register_hook(lambda g: g + 100)
b.backward(torch.tensor([1.0]))
print(a.grad)
