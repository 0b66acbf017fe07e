# A custom autograd Function: forward computes, backward gives the local derivative by hand.
import torch


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x**2


x = torch.tensor([1.0, 2.0, -1.5], requires_grad=True)
y = Cube.apply(x)
print(y)
y.sum().backward()
print("d(sum x^3)/dx = 3x^2:", x.grad)
