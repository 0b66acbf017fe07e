# itertools.groupby and tee.
import itertools

words = ["apple", "avocado", "banana", "blueberry", "cherry", "apricot"]
for key, group in itertools.groupby(words, key=lambda w: w[0]):
    print(key, list(group))
for key, group in itertools.groupby(sorted(words, key=len), key=len):
    print(key, sorted(group))
print([(k, len(list(g))) for k, g in itertools.groupby("aaabccdddd")])
groups = itertools.groupby([1, 1, 2, 3, 3])
first_key, first_group = next(groups)
second_key, _ = next(groups)
print(first_key, second_key, list(first_group))
a, b = itertools.tee(iter([1, 2, 3, 4]))
print(next(a), next(a), list(b), list(a))
c, d, e = itertools.tee(range(3), 3)
print(list(c), list(zip(d, e)))
lagged, current = itertools.tee([10, 11, 13, 16])
next(current)
print([y - x for x, y in zip(lagged, current)])
