import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
ops = [
    ("add_", lambda t: t.add_(1)),
    ("sub_", lambda t: t.sub_(0.5)),
    ("mul_", lambda t: t.mul_(3)),
    ("div_", lambda t: t.div_(2)),
    ("pow_", lambda t: t.pow_(2)),
    ("clamp_", lambda t: t.clamp_(0.0, 1.0)),
    ("exp_", lambda t: t.exp_()),
    ("neg_", lambda t: t.neg_()),
    ("relu_", lambda t: t.relu_()),
    ("sigmoid_", lambda t: t.sigmoid_()),
    ("tanh_", lambda t: t.tanh_()),
    ("abs_", lambda t: t.abs_()),
    ("fill_", lambda t: t.fill_(4.0)),
    ("zero_", lambda t: t.zero_()),
    ("copy_", lambda t: t.copy_(torch.tensor([1.0, 2.0, 3.0]))),
]
for name, op in ops:
    y = x * 1
    r = op(y)
    print(name, r is y, y, y.grad_fn.name())
    y.sum().backward()
    print(x.grad)
    x.grad = None
