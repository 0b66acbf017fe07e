# A custom autograd.Function (the PyTorch "extending autograd" tutorial's LegendrePolynomial3):
# its node is the ctx, and `grad_fn.apply(grad)` calls the Function's backward directly.
import torch


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        print("backward called with", grad_output)
        return grad_output * 1.5 * (5 * input**2 - 1)


x = torch.linspace(-1, 1, 5, requires_grad=True)
y = LegendrePolynomial3.apply(x)
print(y.grad_fn, type(y.grad_fn).__name__, callable(y.grad_fn))
manual = y.grad_fn.apply(torch.ones(5))
print(manual)
print(y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
print(torch.equal(manual.detach(), x.grad))
try:
    y.grad_fn.apply(torch.ones(5))
except RuntimeError as error:
    print("RuntimeError:", str(error)[:50])
try:
    y.grad_fn(torch.ones(5))
except TypeError as error:
    print("TypeError:", error)
