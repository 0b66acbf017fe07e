# Tangent dtypes (a float64 tangent stays float64) and custom Functions returning views.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2, dtype=torch.float64))
    print(d * 2)
    print((d * 2).sin())
    print(d + torch.ones(2, dtype=torch.float64))
    h = fwAD.make_dual(
        torch.ones(2, dtype=torch.float64), torch.tensor([0.5, 0.25], dtype=torch.float64)
    )
    print(h.float(), h.to(torch.float32) * 3)

    class Ident(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def jvp(ctx, ta):
            return ta.view_as(ta)

    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def jvp(ctx, ta):
            return ta

    class Head(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a[:1]

        @staticmethod
        def jvp(ctx, ta):
            return ta[:1] * 1

    e = fwAD.make_dual(torch.tensor([3.0, 4.0]), torch.tensor([1.0, -1.0]))
    y = Ident.apply(e)
    print(y, y is e, fwAD.unpack_dual(e).tangent)
    for fn in (Same, Head):
        try:
            print(fn.apply(e))
        except RuntimeError as err:
            print(fn.__name__, "RuntimeError:", err)
