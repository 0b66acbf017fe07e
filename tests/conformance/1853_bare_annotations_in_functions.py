# Bare annotations in a function make the name local (and are never evaluated), annotated
# attribute targets assign as usual: a manual-backprop helper written in typed style.
import torch


def manual_tanh_backward(x: torch.Tensor, grad_out: torch.Tensor):
    y: torch.Tensor
    dx: "torch.Tensor"  # noqa: UP037 - a string annotation on purpose
    y = torch.tanh(x)
    dx = grad_out * (1 - y * y)
    return dx


class Stats:
    pass


x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
y = torch.tanh(x)
y.backward(torch.ones(4))
manual = manual_tanh_backward(x.detach(), torch.ones(4))
print(x.grad)
print(manual)
print(torch.allclose(x.grad, manual))
s = Stats()
s.grad_norm: float = x.grad.norm().item()
s.values: list = []
s.values.append(round(s.grad_norm, 4))
print(s.values)


def unbound():
    v: int
    return v  # noqa: F821 - UnboundLocalError on purpose


try:
    unbound()
except UnboundLocalError as error:
    print("UnboundLocalError:", error)
