# scatter_reduce / index_reduce with prod under create_graph: the gradients' graphs (include_self
# False included), second derivatives with zeros, and the Error node of two zeros in one group.
import warnings

import torch

warnings.simplefilter("ignore")  # index_reduce is in beta
base = torch.tensor(
    [[1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 2.0, 5.0], [4.0, 4.0, 0.0, 1.5]], dtype=torch.float64
)
values = torch.tensor(
    [[0.0, 2.0, 3.0, 0.0], [2.0, 2.5, 0.0, 5.0], [4.0, 1.0, 0.5, -1.0]], dtype=torch.float64
)
index = torch.tensor([[0, 1, 0, 3], [2, 2, 1, 2], [3, 3, 3, 0]])
rows = torch.tensor([0, 0, 2])
w = torch.linspace(-1.0, 2.0, 12, dtype=torch.float64).reshape(3, 4)


def reduce(kind, x, src, include_self):
    if kind == "scatter":
        return x.scatter_reduce(1, index, src, "prod", include_self=include_self)
    return x.index_reduce(0, rows, src, "prod", include_self=include_self)


def names(fn):
    if fn is None:
        return None
    return [fn.name(), [names(n) for n, _ in fn.next_functions]]


for kind in ["scatter", "index"]:
    for include_self in [True, False]:
        x = base.clone().requires_grad_()
        src = values.clone().requires_grad_()
        y = reduce(kind, x, src, include_self)
        gx, gs = torch.autograd.grad((y * w).sum(), (x, src), create_graph=True)
        print(kind, include_self)
        print(gx, gs, sep="\n")
        print(names(gx.grad_fn))
        print(names(gs.grad_fn))
        print(torch.autograd.grad((gx * w.flip(0)).sum() + (gs * gs).sum(), (x, src)))

    two = values.clone()
    two[1, 0] = two[1, 3] = 0.0  # two zeros of the source reduced into one position
    x = base.clone().requires_grad_()
    src = two.requires_grad_()
    gx, gs = torch.autograd.grad(
        (reduce(kind, x, src, True) * w).sum(), (x, src), create_graph=True
    )
    print(gs)
    try:
        torch.autograd.grad(gs.sum(), (x, src))
    except RuntimeError as e:
        print("RuntimeError:", e)
    print(torch.autograd.grad(gx.sum(), (x, src)))
