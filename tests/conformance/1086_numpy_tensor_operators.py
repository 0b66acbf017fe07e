import numpy as np
import torch

t = torch.ones(2)
a = np.array([1.0, 2.0])
print(t + a, t * a, t - a)
print(t == a, a == t, t != a)
print(np.float64(2.0) * t, t * np.float64(2.0), t * np.float32(2))
print(np.int64(3) + t, t + np.float32(1.5))
print(torch.ones(2, dtype=torch.int32) + np.array([1, 2]))
lr = np.float64(0.5)
w = torch.tensor([1.0, -2.0], requires_grad=True)
loss = (w**2).sum()
loss.backward()
with torch.no_grad():
    w -= lr * w.grad
print(w)
scale = np.sqrt(2.0)
print(torch.ones(3) / scale)
x = torch.arange(10.0)
print(x[np.array([3, 1])], x[np.int64(2)], x[np.array([True] * 5 + [False] * 5)])
x[np.array([0, 1])] = 5.0
print(x)
np.random.seed(0)
order = np.random.permutation(10)
print(x[order[:4]])
