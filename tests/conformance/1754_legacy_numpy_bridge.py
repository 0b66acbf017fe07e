# torch.Tensor(ndarray) / torch.FloatTensor(ndarray) as data-loading code writes them.
import numpy as np
import torch

a = np.array([[1, 2], [3, 4]])
t = torch.Tensor(a)
print(t, t.dtype)
f = torch.FloatTensor(np.array([0.5, 1.5], dtype=np.float32))
print(f)
longs = torch.LongTensor(np.array([1.7, -2.2]))
print(longs)
shared = np.zeros(3, dtype=np.float32)
s = torch.FloatTensor(shared)
shared[1] = 7
print(s)
d = torch.DoubleTensor(np.arange(4.0).reshape(2, 2))
print(d, d.sum())
try:
    torch.FloatTensor(np.arange(3)[::-1])
except ValueError as e:
    print("ValueError:", str(e)[:40])
