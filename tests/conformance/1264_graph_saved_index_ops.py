# What index ops' nodes show as _saved_index (the index tensor itself) and _saved_dim.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
i = torch.tensor([[0, 0], [1, 0]])
j = torch.tensor([1, 0])
src = torch.ones(2, 2, requires_grad=True)

g = x.gather(1, i)
fn = g.grad_fn
print(fn.name(), fn._saved_index, fn._saved_index is i, fn._saved_dim, fn._saved_self is x)
fn = torch.gather(x, -1, i).grad_fn
print(fn._saved_dim, fn._saved_index is i)
for out in (
    x.scatter(0, i, 5.0),
    x.scatter(0, i, src),
    x.scatter_add(0, i, src),
    x.scatter_reduce(0, i, src, "sum"),
):
    fn = out.grad_fn
    print(fn.name(), fn._saved_index.tolist(), fn._saved_index is i, fn._saved_dim)
for out in (
    x.index_select(0, j),
    x.index_fill(1, j, 2.0),
    torch.index_select(x, 1, j),
):
    fn = out.grad_fn
    print(fn.name(), fn._saved_index, fn._saved_index is j, fn._saved_dim)
for out in (x.index_add(0, j, src), x.index_copy(0, j, src)):
    fn = out.grad_fn
    print(fn.name(), fn._saved_index is j, fn._saved_dim, fn._saved_source is src)
(g.sum() + x.index_select(0, j).pow(2).sum()).backward()
print(x.grad)
