import torch
import torch.nn.functional as F

p = torch.tensor([0.9, 0.2, 0.6], requires_grad=True)
y = torch.tensor([1.0, 0.0, 0.0])
loss = F.binary_cross_entropy(p, y)
print(loss)
print(loss.grad_fn.name())
loss.backward()
print(p.grad)
print(F.binary_cross_entropy(p, y, reduction="none"))
print(F.binary_cross_entropy(p, y, weight=torch.tensor([1.0, 2.0, 3.0]), reduction="sum"))
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
try:
    F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
