import torch


def chain(t):
    fn = t.grad_fn
    return (
        fn.name()
        + " <- "
        + ", ".join("None" if n is None else n.name() for n, _ in fn.next_functions)
    )


a = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
w = torch.tensor([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], requires_grad=True)
v = torch.tensor([1.0, 2.0, -1.0], requires_grad=True)
m = torch.tensor([[1.0, 0.0], [2.0, 1.0]], requires_grad=True)
b = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
for name, out in [
    ("3d @ 2d", a @ w),
    ("3d @ 1d", a @ v),
    ("2d @ 3d", m @ a),
    ("1d @ 3d", torch.tensor([1.0, -1.0], requires_grad=True) @ a),
    ("3d @ 3d", a @ b),
    ("broadcast", a.unsqueeze(0) @ b.unsqueeze(1)),
    ("batch one", a[:1] @ b),
]:
    print(name, tuple(out.shape), chain(out))
    print(out.sum())
out = a @ w
out.backward(torch.ones_like(out))
print(a.grad)
print(w.grad)
c = torch.ones(2, 3, 4)
out = a @ c
print(chain(out))
out.sum().backward()
print(a.grad)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(torch.inner(x, x), torch.outer(x[0], x[1]))
print(torch.inner(x, x).grad_fn.name())
