import numpy as np

x = np.arange(6, dtype=np.float64).reshape(2, 3)
y = np.array([10.0, 20.0, 30.0])
print(x + y)
print(x * 2 - 1)
print(y / x[1])
print(x**2)
print(-x, abs(-x))
print(x // 2, x % 2)
col = np.array([[1.0], [2.0]])
print(x * col)
print(repr(np.array([1, 2], dtype=np.float32) * 2.5))
print(repr(np.array([1, 2, 3]) / 2))
print(repr(np.array([1, 2, 3]) // 2))
print(x > 2, x == 3)
print((x > 1) & (x < 4))
z = np.zeros(3)
z += 1
z *= y
z -= 5
print(z)
i = np.arange(4)
i += 2
print(repr(i))
print(1 - x, 2 / (x + 1))
print(x @ x.T)
print(np.ones(3) @ np.arange(3.0))
