# A custom autograd.Function with a jvp staticmethod, as in the tutorial.
import torch
import torch.autograd.forward_ad as fwAD


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        # Tensors stored in ctx can be used in the subsequent forward grad computation.
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        # If the tensor stored in ctx will not also be used in the backward pass,
        # one can manually free it using ``del``
        del ctx.result
        return gO


fn = Fn.apply

primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10, dtype=torch.double)

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp.shape, jvp.dtype)
    print(torch.allclose(jvp, tangent * primal.exp()))


class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_forward(a, b)
        ctx.k = k
        return a * b * k

    @staticmethod
    def backward(ctx, g):
        return None, None, None

    @staticmethod
    def jvp(ctx, ta, tb, tk):
        print("jvp receives", ta, tb, tk)
        a, b = ctx.saved_tensors
        return (ta * b + tb * a) * ctx.k


class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.exp()

    @staticmethod
    def backward(ctx, g):
        return g


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.exp(), a * 2

    @staticmethod
    def backward(ctx, g1, g2):
        return g1

    @staticmethod
    def jvp(ctx, ta):
        return ta, ta * 2


x = torch.tensor([1.0, 2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([0.5, 1.0]))
    print(Mul.apply(d, torch.tensor([3.0, 4.0]), 2.0))
    print(Mul.apply(d, d, 2.0))
    print(Mul.apply(x, x, 1.0))
    print(TwoOut.apply(d))
    try:
        NoJvp.apply(d)
    except NotImplementedError as e:
        print("NotImplementedError:", e)
    print(NoJvp.apply(x))
