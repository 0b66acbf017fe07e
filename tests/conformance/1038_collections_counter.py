# collections.Counter: counting, most_common, arithmetic, elements, update/subtract.
from collections import Counter

import torch

labels = torch.tensor([0, 2, 1, 2, 2, 0, 1, 2])
counts = Counter(labels.tolist())
print(counts, counts.most_common(1), counts[2], counts[7])
text = Counter("abracadabra")
print(text.most_common(3), sorted(text.elements()), text.total())
other = Counter(a=1, b=5, z=2)
print(text + other)
print(text - other)
print(text | other)
print(text & other)
text.update("aaz")
text.subtract({"b": 10})
print(text, +text, -text)
print(sorted(Counter(["x", "y", "x"]).items()), list(Counter({"k": 2}).keys()))
weights = torch.tensor([1.0 / counts[c] for c in labels.tolist()], requires_grad=True)
loss = (weights * labels).sum()
loss.backward()
print(weights, weights.grad)
print(isinstance(counts, dict), type(text + other).__name__, Counter() == Counter(a=0))
