# How dual tensors print: the tangent last, after grad_fn; 0-d tangents as numbers.
import torch
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    x = torch.tensor(2.0)
    print(fwAD.make_dual(x, torch.tensor(1.5)))
    print(fwAD.make_dual(x, torch.tensor(1.0)))
    print(fwAD.make_dual(x, torch.tensor(0.1)))
    print(fwAD.make_dual(torch.tensor(2.0, requires_grad=True), torch.tensor(1.25)))
    d = fwAD.make_dual(torch.tensor([2.0, 3.0], requires_grad=True), torch.tensor([1.25, 1e-5]))
    print(d)
    print(
        fwAD.make_dual(
            torch.tensor([2.0, 3.0], dtype=torch.float64),
            torch.tensor([1.25, 1e5], dtype=torch.float64),
        )
    )
    print(fwAD.make_dual(torch.ones(2, 3), torch.ones(2, 3)))
    print(fwAD.make_dual(torch.ones(2, 2, 2), torch.ones(2, 2, 2) * 0.5))
    print(fwAD.make_dual(torch.zeros(0), torch.zeros(0)))
    w = fwAD.make_dual(torch.arange(12.0).reshape(3, 4), torch.linspace(0.5, 2, 12).reshape(3, 4))
    print(w)
    print(w.sum(dim=0))
    print(w.sum())
    print(repr(w[0, 0]), str(w[1]))
    print(f"{w.sum().item():.3f}")
    print(torch.stack([w[0], w[1]]))
    print(w.max(dim=1))
    print(w.sort(dim=0, descending=True))
    e = fwAD.make_dual(torch.tensor([1e-8, 1.0]), torch.tensor([3.0, 1e9]))
    print(e)
    print([e, e * 2])
    print(torch.nn.Parameter(torch.ones(2)))
