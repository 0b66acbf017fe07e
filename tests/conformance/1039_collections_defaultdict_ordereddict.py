# collections.defaultdict and OrderedDict: history of training values, ordered layers.
from collections import OrderedDict, defaultdict

import torch

history = defaultdict(list)
w = torch.tensor([1.0, -2.0], requires_grad=True)
for _ in range(3):
    loss = (w**2).sum()
    loss.backward()
    history["loss"].append(round(loss.item(), 4))
    history["grad_norm"].append(round(w.grad.norm().item(), 4))
    with torch.no_grad():
        w -= 0.25 * w.grad
    w.grad = None
print(dict(history), history.default_factory)
print(history)
counts = defaultdict(int)
for word in ["the", "cat", "and", "the", "hat", "and", "the", "bat"]:
    counts[word] += 1
print(counts, counts["missing"], len(counts))
nested = defaultdict(lambda: defaultdict(float))
nested["a"]["x"] += 1.5
print(dict(nested["a"]), "b" in nested)
layers = OrderedDict()
layers["fc1"] = torch.nn.Linear(2, 3)
layers["act"] = torch.nn.Tanh()
layers["fc2"] = torch.nn.Linear(3, 1)
model = torch.nn.Sequential(layers)
print(model)
order = OrderedDict.fromkeys("abcde")
order.move_to_end("b")
order.move_to_end("e", last=False)
print(list(order), order.popitem(), order.popitem(last=False))
print(
    OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1),
    OrderedDict(a=1, b=2) == {"b": 2, "a": 1},
)
print(OrderedDict([("x", 1), ("y", 2)]))
