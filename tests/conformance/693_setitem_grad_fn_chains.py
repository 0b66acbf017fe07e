import torch


def chain(t):
    names = []
    fn = t.grad_fn
    while fn is not None and type(fn).__name__ != "AccumulateGrad":
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0]
    return names


x = torch.arange(12.0).reshape(3, 4).requires_grad_()
v = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)


def write_0(y):
    y[0] = 5.0


def write_all(y):
    y[...] = 1.0


def write_slice(y):
    y[:] = v


def write_column(y):
    y[1:, 2] = 7.0


def write_mask(y):
    y[y > 4] = 0.0


def write_rows(y):
    y[[0, 2]] = v


def write_mixed(y):
    y[0, [1, 3]] = v[:2]


def write_select(y):
    y[:, 1] = v[:3]


writes = [
    ("y[0] = 5.0", write_0),
    ("y[...] = 1.0", write_all),
    ("y[:] = v", write_slice),
    ("y[1:, 2] = 7.0", write_column),
    ("y[y > 4] = 0.0", write_mask),
    ("y[[0, 2]] = v", write_rows),
    ("y[0, [1, 3]] = v[:2]", write_mixed),
    ("y[:, 1] = v[:3]", write_select),
]
for label, write in writes:
    y = x * 1
    write(y)
    print(label, chain(y), [f is not None for f, _ in y.grad_fn.next_functions])
    (y * y).sum().backward()
    print(x.grad.sum().item(), None if v.grad is None else v.grad.tolist())
    x.grad = None
    v.grad = None
