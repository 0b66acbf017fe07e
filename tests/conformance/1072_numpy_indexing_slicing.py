import numpy as np

a = np.arange(20, dtype=np.float64).reshape(4, 5)
print(a[0], a[-1, -1], repr(a[1, 2]))
print(a[1:3, ::2])
print(a[:, 1])
print(a[..., 0])
print(a[None, 0].shape, a[:, None].shape)
print(a[a % 3 == 0])
print(a[[0, 2, 3]])
print(a[[0, 1], [4, 3]])
print(a[np.array([True, False, True, False])])
b = a.copy()
b[0] = -1
b[1, 1:4] = [7, 8, 9]
b[b > 15] = 0
b[:, 4] += 100
print(b)
print(a[0])
v = a[2]
v[0] = 1000
print(a[2, 0])
for row in a[:2]:
    print(row.sum())
print(len(a), a.T.shape, a.reshape(-1).shape)
print(a.flatten()[:4], a.ravel()[-2:])
print(5.0 in a, 1234.0 in a)
