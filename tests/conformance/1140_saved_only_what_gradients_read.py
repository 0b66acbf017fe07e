# A node saves only what the formulas of the inputs that require grad read (linear/addmm, div),
# as PyTorch: _saved_* of the others are None, and saved-tensor hooks see only what is saved.
import torch

x = torch.ones(2, 3)
W = torch.ones(4, 3, requires_grad=True)
b = torch.zeros(4, requires_grad=True)
y = torch.nn.functional.linear(x, W, b)
fn = y.grad_fn
print(type(fn).__name__)
print(fn._saved_mat1 is None, fn._saved_mat2 is None)
x2 = torch.ones(2, 3, requires_grad=True)
W2 = torch.ones(4, 3)
fn2 = torch.nn.functional.linear(x2, W2, b).grad_fn
print(fn2._saved_mat1 is None, fn2._saved_mat2 is None)
fn3 = torch.addmm(b, x2, W2.t()).grad_fn
print(type(fn3).__name__, fn3._saved_mat1 is None, fn3._saved_mat2 is None)
a = torch.ones(3, requires_grad=True)
c = torch.full((3,), 2.0)
fn4 = (a / c).grad_fn
print(type(fn4).__name__, fn4._saved_self is None, fn4._saved_other is None)
fn5 = (c / a).grad_fn
print(fn5._saved_self is None, fn5._saved_other is None)
seen = []
with torch.autograd.graph.saved_tensors_hooks(
    lambda t: seen.append(tuple(t.shape)) or t, lambda t: t
):
    torch.nn.functional.linear(x, W, b)
    a / c
print(seen)
