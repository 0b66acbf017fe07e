import numpy as np
import torch

a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a)
print(b)
b.mul_(3)
print(a)
a[0] = -7
print(b)
c = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(c)
print(t, t.dtype, t.shape)
i = torch.from_numpy(np.array([1, 2, 3]))
print(i, i.dtype)
copy = torch.tensor(c)
copy[0, 0] = 100
print(c[0, 0])
shared = torch.as_tensor(c)
shared[0, 0] = 50
print(c[0, 0])
print(torch.as_tensor(c, dtype=torch.float64).dtype)
print(torch.tensor(np.float64(2.5)), torch.tensor(np.int64(3)))
print(torch.tensor([np.float32(1.5), np.float32(2.0)]))
print(torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))
print(torch.tensor([np.float64(1.5), 2.0]), torch.tensor([np.int64(1), 2]))
print(torch.tensor(np.array(range(4))), np.asarray(torch.arange(3)))
