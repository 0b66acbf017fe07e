import torch

base = torch.zeros(2, 3)
v = base.view(6)
v[1] = 5.0
print(base)
t = base.t()
t[0, 1] = 7.0
print(base)
r = base[1]
r += 1
print(base)
print(v)
print(t)
