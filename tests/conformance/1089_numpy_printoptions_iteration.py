import numpy as np
import torch

a = np.array([1.123456789, 2e-9, 300.5])
print(a)
np.set_printoptions(precision=3, suppress=True)
print(a, repr(a), np.float64(1.23456789))
print(torch.tensor([1.123456789]))
np.set_printoptions(precision=8)
print(a)
print(np.get_printoptions()["precision"])
a = np.arange(4.0)
for x in a:
    print(repr(x))
print(list(np.arange(6).reshape(3, 2)))
print(3.0 in a, np.random.default_rng(0).choice(10**15, 3))
