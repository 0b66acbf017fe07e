# Python's random module: a seeded stream gives CPython's numbers, used to build tensors.
import random

import torch

random.seed(0)
print(random.random(), random.random())
print(random.randint(1, 6), random.randrange(10), random.randrange(5, 50, 5))
print(random.uniform(-1.0, 1.0), random.gauss(0.0, 1.0), random.normalvariate(2.0, 0.5))
print(random.choice(["sgd", "adam", "rmsprop"]), random.getrandbits(32))
xs = list(range(10))
random.shuffle(xs)
print(xs)
print(random.sample(range(100), 5))
print(random.choices("abc", weights=[5, 1, 1], k=8))
print(random.triangular(0, 1, 0.2), random.expovariate(2.0), random.betavariate(2, 3))
random.seed("a string seed")
print(random.random())
random.seed(12345)
state = random.getstate()
first = [random.random() for _ in range(3)]
random.setstate(state)
print(first == [random.random() for _ in range(3)])
rng = random.Random(7)
other = random.Random(7)
print(rng.random() == other.random(), rng.randint(0, 100), type(rng).__name__)
w = torch.tensor([rng.gauss(0, 1) for _ in range(4)], requires_grad=True)
x = torch.tensor([rng.uniform(-1, 1) for _ in range(4)])
loss = ((w * x).sum() - 1.0) ** 2
loss.backward()
print(w)
print(w.grad)
