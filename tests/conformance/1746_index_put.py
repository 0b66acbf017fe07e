# index_put_ / index_put (with accumulate), and the errors of a wrong indices argument
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
v = torch.tensor([10.0, 20.0], requires_grad=True)
a = x * 1
a.index_put_((torch.tensor([0, 1]), torch.tensor([2, 0])), v)
print(a, a.grad_fn)
a.sum().backward()
print(x.grad, v.grad)
b = x * 1
b.index_put_((torch.tensor([0, 0]), torch.tensor([2, 2])), torch.tensor(1.0), accumulate=True)
print(b, b.grad_fn)
c = (x * 1).index_put((torch.tensor([1]),), torch.tensor(5.0))
print(c, c.grad_fn)
counts = torch.zeros(5)
counts.index_put_((torch.tensor([0, 2, 2, 4, 2]),), torch.ones(5), accumulate=True)
print(counts)
w = torch.zeros(3, requires_grad=True)
g = torch.zeros(3).index_put_((torch.tensor([1, 1]),), w[:2] * 3, accumulate=True)
g.sum().backward()
print(g, w.grad)
print((x * 1).index_put_([torch.tensor([True, False])], torch.tensor(5.0)))
for bad in (torch.tensor([0]), (torch.tensor([0.0]),)):
    try:
        (x * 1).index_put_(bad, torch.tensor(5.0))
    except (TypeError, IndexError) as e:
        print(type(e).__name__, e)
