import numpy as np

rng = np.random.default_rng(42)
print(rng.random(4))
print(rng.normal(size=(2, 3)))
print(rng.integers(0, 100, size=6))
print(rng.uniform(0, 5, size=3))
print(rng.standard_normal(2))
print(rng.choice(10, size=4, replace=False))
print(rng.permutation(5))
rng2 = np.random.default_rng(42)
print(np.allclose(rng2.random(4), np.random.default_rng(42).random(4)))
print(rng.random(), rng.integers(5))
print(rng.random(3, dtype=np.float32))
