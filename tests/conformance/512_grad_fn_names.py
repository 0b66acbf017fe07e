import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
outs = [
    x + y,
    x + 1,
    1 + x,
    x - y,
    x - 1,
    1 - x,
    x * y,
    x * 2,
    2 * x,
    x / y,
    x / 2,
    2 / x,
    x**2,
    2**x,
    x**y,
    -x,
    x.sum(),
    x.mean(),
    x.exp(),
    x.log(),
    x.sin(),
    x.cos(),
    x.tanh(),
    x.sigmoid(),
    x.relu(),
    x.abs(),
    x.norm(),
    x @ y,
    x.pow(2),
]
for out in outs:
    fn = out.grad_fn
    print(type(fn).__name__, fn.name())
