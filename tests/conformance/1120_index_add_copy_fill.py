# index_add / index_copy / index_fill: values, grad_fns, gradients, in-place forms, errors.
import torch

x = torch.arange(12.0, dtype=torch.float64).reshape(3, 4).requires_grad_()
src = torch.tensor([[1.0, -2.0, 0.5, 3.0], [4.0, 0.0, -1.0, 2.0]], dtype=torch.float64)
src.requires_grad_()
idx = torch.tensor([2, 0])
w = torch.linspace(-1.0, 2.0, 12, dtype=torch.float64).reshape(3, 4)


def report(name, y, *inputs):
    print(name, type(y.grad_fn).__name__, y.dtype, tuple(y.shape))
    print(y)
    grads = torch.autograd.grad((y * w).sum(), inputs)
    for g in grads:
        print(g)


report("index_add", x.index_add(0, idx, src), x, src)
report("index_add alpha", torch.index_add(x, 0, torch.tensor([1, 1]), src, alpha=-0.5), x, src)
report("index_add dim1", x.index_add(1, torch.tensor([3, 0, 3]), x[:, :3] * 2), x)
report("index_copy", x.index_copy(0, idx, src), x, src)
report("index_copy dim1", torch.index_copy(x, 1, torch.tensor([1, 2]), src.t()[:3]), x, src)
report("index_fill", x.index_fill(1, torch.tensor([0, 2, 2]), -1.5), x)
report("index_fill negative", x.index_fill(0, torch.tensor([-1]), 7), x)
v = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
report("index_fill tensor", torch.index_fill(x, 1, torch.tensor([1, 1, 3]), v), x, v)

# in place, on a non-leaf
y = x * 1
out = y.index_add_(1, torch.tensor([0, 1, 0, 1]), x.detach() * 0.5, alpha=2)
print(out is y, type(y.grad_fn).__name__, y)
y = x * 1
y.index_copy_(0, torch.tensor([1]), src[:1])
y.index_fill_(1, torch.tensor([3]), v)
print(type(y.grad_fn).__name__, y)
(y * w).sum().backward()
print(x.grad, src.grad, v.grad)

# integer tensors
a = torch.zeros(2, 3, dtype=torch.int64)
print(a.index_add(1, torch.tensor([2, 2]), torch.tensor([[1, 2], [3, 4]]), alpha=3))
print(
    a.index_fill(0, torch.tensor([1]), 9),
    a.index_copy(0, torch.tensor([0]), torch.ones(1, 3, dtype=torch.int64)),
)

checks = [
    lambda: x.index_add(0, idx.float(), src),
    lambda: x.index_add(0, torch.tensor([0, 5]), src),
    lambda: x.index_add(0, torch.tensor([0, -1]), src),
    lambda: x.index_add(0, idx, torch.zeros(3, 4, dtype=torch.float64)),
    lambda: x.index_add(0, idx, torch.zeros(2, 5, dtype=torch.float64)),
    lambda: x.index_add(0, torch.tensor([[0], [1]]), src),
    lambda: x.index_add(0, idx, src.float()),
    lambda: x.index_add_(0, idx, src),
    lambda: x.index_copy(0, idx.int(), src),
    lambda: x.index_copy(0, torch.tensor([0, 3]), src),
    lambda: x.index_copy(0, idx, torch.zeros(3, 4, dtype=torch.float64)),
    lambda: x.index_copy(0, idx, torch.zeros(2, 5, dtype=torch.float64)),
    lambda: x.index_copy(0, idx, src.float()),
    lambda: x.index_copy(0, torch.tensor([[0]]), src),
    lambda: x.index_fill(1, idx.int(), 1.0),
    lambda: x.index_fill(1, torch.tensor([4]), 1.0),
    lambda: x.index_fill(1, torch.tensor([[0]]), 1.0),
    lambda: x.index_fill(1, idx, torch.tensor([1.0])),
    lambda: x.index_fill(2, idx, 1.0),
]
for check in checks:
    try:
        check()
        print("no error")
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
