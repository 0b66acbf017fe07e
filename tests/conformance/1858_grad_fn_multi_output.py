# Nodes of ops with several outputs take one gradient per output (None for the unused ones),
# and the leaf's AccumulateGrad node can be called too.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
parts = x.unbind(0)
print(parts[0].grad_fn)
print(parts[0].grad_fn(torch.tensor(1.0), None, torch.tensor(3.0)))
a, b = x.split([1, 2])
print(a.grad_fn(torch.ones(1), torch.full((2,), 2.0)))
values, indices = torch.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True).max(dim=1)
print(values.grad_fn(torch.ones(2)))
m = torch.stack([x, 2 * x])
print(m.grad_fn(torch.ones(2, 3)))
acc = (x * 2).grad_fn.next_functions[0][0]
print(acc(torch.ones(3)), x.grad)
print(acc(torch.ones(3)), x.grad)
