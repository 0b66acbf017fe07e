# writing through range indices: one-hot targets, masking the diagonal, and gradients
import torch

n = 4
labels = torch.tensor([1, 0, 3, 2])
one_hot = torch.zeros(n, 4)
one_hot[range(n), labels] = 1
print(one_hot)
w = torch.arange(16.0).reshape(4, 4).requires_grad_()
m = w * 1
m[range(n), range(n)] = 0.0
print(m, m.grad_fn)
m.sum().backward()
print(w.grad)
t = torch.arange(12.0).reshape(3, 4)
print(t[range(0, 3, 2), 1:], t[:, range(4)].shape, t[range(-1, 1)])
print(t[range(0)].shape)
print(t[(range(2), range(1, 3))])
print(t[[range(2), [1, 2]]])
