# itertools' iterators: count, cycle, repeat, accumulate, chain, compress, the *while ones,
# filterfalse, islice, starmap, zip_longest, pairwise.
import itertools

import torch

print(list(itertools.islice(itertools.count(10, 5), 4)))
print(list(itertools.islice(itertools.count(0.5, 0.25), 3)))
print(list(itertools.islice(itertools.cycle("abc"), 7)))
print(list(itertools.repeat("x", 3)), list(map(pow, range(5), itertools.repeat(2))))
print(list(itertools.accumulate([1, 2, 3, 4, 5])))
print(list(itertools.accumulate([3, 1, 4, 1, 5], max)))
print(list(itertools.accumulate([1, 2, 3], lambda a, b: a * b, initial=10)))
print(list(itertools.chain([1, 2], (3,), "ab")))
print(list(itertools.chain.from_iterable([[1], [2, 3], []])))
print(list(itertools.compress("abcdef", [1, 0, 1, 0, 1, 1])))
print(list(itertools.dropwhile(lambda v: v < 3, [1, 2, 3, 1, 4])))
print(list(itertools.takewhile(lambda v: v < 3, [1, 2, 3, 1, 4])))
print(list(itertools.filterfalse(lambda v: v % 2, range(8))))
print(list(itertools.islice(range(20), 2, 12, 3)))
print(list(itertools.starmap(pow, [(2, 3), (3, 2), (10, 0)])))
print(list(itertools.zip_longest("ab", [1, 2, 3], fillvalue="-")))
print(list(itertools.pairwise([1, 4, 9, 16])))
losses = [torch.tensor(v) for v in [4.0, 3.0, 3.5, 1.0]]
running = list(itertools.accumulate(losses))
print(running[-1], [round(t.item(), 2) for t in running])
w = torch.tensor(2.0, requires_grad=True)
steps = [w * k for k in itertools.islice(itertools.count(1), 3)]
total = sum(itertools.chain(steps, [w**2]))
total.backward()
print(total, w.grad)
diffs = [b - a for a, b in itertools.pairwise([1.0, 2.5, 4.5])]
print(diffs, type(itertools.count()).__name__)
