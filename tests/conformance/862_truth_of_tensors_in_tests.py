# Tensors in tests: one-element tensors have a truth value, others raise; chained comparisons
# test the intermediate result only; all/any test each element.
import torch

one = torch.tensor([1.0])
print(one < 2 < 3, 1 < torch.tensor(2.0) < 3)
print(torch.tensor(2.0) > 3 > 1)
print(0 < torch.tensor(1.0) < torch.tensor(2.0) < 3)
r = torch.tensor(1.0) < torch.tensor([2.0, 3.0])
print(r)
print(1 < 2 < torch.tensor([2.0, 3.0]))
try:
    print(torch.ones(2) < 2 < 3)
except RuntimeError as error:
    print("RuntimeError:", error)
if torch.tensor(0.5):
    print("if tensor(0.5)")
if not torch.tensor([0]):
    print("if not tensor([0])")
print("yes" if torch.tensor(True) else "no", "yes" if torch.tensor([0.0]) else "no")
try:
    if torch.ones(3):
        pass
except RuntimeError as error:
    print("RuntimeError:", error)
try:
    print(1 if torch.ones(2, 2) else 0)
except RuntimeError as error:
    print("RuntimeError:", error)
x = torch.tensor(3.0)
steps = 0
while x > 0.5:
    x = x / 2
    steps += 1
print(steps, x)
print(all([torch.tensor(1.0), torch.tensor(2.0)]), any([torch.tensor(0.0), torch.tensor(0.0)]))
print(all(torch.tensor([1, 2, 3]) > 0), any(torch.tensor([1, -2, 3]) < 0))
print(all(v > 0 for v in torch.tensor([1.0, -1.0])), any([]), all([]))
try:
    print(all([torch.ones(2)]))
except RuntimeError as error:
    print("RuntimeError:", error)
values = torch.tensor([0.5, -1.0, 2.0, 0.0])
print([v.item() for v in values if v > 0 and v < 1], [v.item() for v in values if v or v < 0])
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
grad = w.grad or torch.zeros(2)
print(grad, loss.grad_fn is not None and loss.requires_grad)
assert torch.tensor(1.0) and torch.tensor([2.0]), "not raised"
