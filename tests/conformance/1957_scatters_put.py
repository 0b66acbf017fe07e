# The functional scatters of the docs (select_scatter, slice_scatter, diagonal_scatter: the
# out-of-place forms functorch uses for in-place writes), put / put_ with accumulate, their
# grad_fns and gradients to both the input and the source, and the size errors
import torch

a = torch.zeros(2, 2)
b = torch.ones(2)
print(torch.select_scatter(a, b, 0, 0))
print(a.select_scatter(b, 1, -1))
a = torch.zeros(8, 8)
print(torch.slice_scatter(a, torch.ones(2, 8), start=6))
print(torch.slice_scatter(a, torch.ones(8, 2), dim=1, start=2, end=6, step=2))
a = torch.zeros(3, 3)
print(torch.diagonal_scatter(a, torch.ones(3), 0))
print(torch.diagonal_scatter(a, torch.ones(2), 1), torch.diagonal_scatter(a, torch.ones(2), -1))

w = torch.arange(12.0).view(3, 4)
x = torch.zeros(3, 4, requires_grad=True)
s = torch.tensor([5.0, 6.0, 7.0, 8.0], requires_grad=True)
out = torch.select_scatter(x, s, 0, 1)
print(out.grad_fn, out.grad_fn._saved_dim, out.grad_fn._saved_index)
(out * w).sum().backward()
print(x.grad, s.grad)
x.grad = None
s2 = torch.ones(3, 2, requires_grad=True)
out = torch.slice_scatter(x, s2, dim=1, start=1, step=2)
print(out.grad_fn, out.grad_fn._saved_start, out.grad_fn._saved_end, out.grad_fn._saved_step)
(out * w).sum().backward()
print(x.grad, s2.grad)
x.grad = None
d = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.diagonal_scatter(x, d, 1)
print(out, out.grad_fn)
(out * w).sum().backward()
print(x.grad, d.grad)

src = torch.tensor([[4, 3, 5], [6, 7, 8]])
print(src.put_(torch.tensor([1, 3]), torch.tensor([9, 10])))
t = torch.zeros(2, 3, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
p = torch.put(t, torch.tensor([0, -1, 0]), v, accumulate=True)
print(p, p.grad_fn)
(p * torch.arange(6.0).view(2, 3)).sum().backward()
print(t.grad, v.grad)
print(t.detach().put(torch.tensor([4, 1]), torch.tensor([7.0, 8.0])))
for call in (
    lambda: torch.select_scatter(torch.zeros(2, 2), torch.ones(3), 0, 0),
    lambda: torch.slice_scatter(torch.zeros(4, 4), torch.ones(3, 4), start=2),
    lambda: torch.put(torch.zeros(2), torch.tensor([0]), torch.tensor([1.0], dtype=torch.float64)),
):
    try:
        call()
    except RuntimeError as e:
        print("RuntimeError:", e)
for call in (
    lambda: torch.select_scatter(torch.zeros(2, 2), torch.ones(2), 0, 5),
    lambda: torch.put(torch.zeros(2), torch.tensor([2]), torch.tensor([1.0])),
):
    try:
        call()
    except IndexError as e:
        print("IndexError:", e)
