# collections.deque: a moving average of losses, rotation, maxlen.
from collections import deque

import torch

window = deque(maxlen=3)
w = torch.tensor(3.0, requires_grad=True)
for step in range(6):
    loss = (w - 1.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.3 * w.grad
    w.grad = None
    window.append(loss.item())
    print(step, round(sum(window) / len(window), 6), len(window))
print(window.maxlen)
d = deque([1, 2, 3])
d.appendleft(0)
d.extend([4, 5])
d.extendleft([-1, -2])
print(d, d.pop(), d.popleft(), d)
d.rotate(2)
print(d)
d.rotate(-3)
print(d, d[0], d[-1], d.index(3), d.count(1), 3 in d)
d.remove(3)
d.reverse()
print(d, list(d), len(d))
print(deque("ab") * 2, deque([1]) + deque([2]))
d2 = deque(range(5), 2)
print(d2, repr(deque()))
