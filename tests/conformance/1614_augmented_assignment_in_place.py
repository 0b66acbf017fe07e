import numpy as np
import torch

# `x *= k` changes x itself (its __imul__), as every augmented assignment with an in-place form.
t = torch.ones(2)
u = t
u *= 3
print(t, u is t)
u %= 2
print(t, u is t)
u **= 2
print(t)
u /= 4
print(t)
u += 1
print(t)
u -= 1
print(t)
a = np.ones(2)
b = a
b *= 3
print(a)
b %= 2
print(a)


class Counter:
    def __init__(self):
        self.v = 1

    def __imul__(self, other):
        self.v *= other
        return self

    def __imod__(self, other):
        self.v %= other
        return self


k = Counter()
k2 = k
k2 *= 5
print(k.v, k is k2)
k2 %= 3
print(k.v, k is k2)
i = torch.tensor([5, 7])
j = i
j &= 3
print(i)
j |= 4
print(i)
s = [1, 2]
s2 = s
s2 *= 2
print(s, s is s2)
tup = (1, 2)
tup2 = tup
tup2 *= 2
print(tup, tup2)
text = "%d-"
text %= 5
print(text)
n = 7
n *= 6
n %= 5
print(n)

# the SGD step as tutorials write it, on a view of a parameter
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
with torch.no_grad():
    step = w.grad
    step *= 0.1
    w -= step
print(w, w.grad)
