import torch
import torch.nn.functional as F

z = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
loss = F.binary_cross_entropy_with_logits(z, y)
print(loss)
loss.backward()
print(z.grad)

z.grad = None
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="sum")
print(loss)
loss.backward()
print(z.grad)

out = F.binary_cross_entropy_with_logits(z, y, reduction="none")
print(out)
print(F.binary_cross_entropy_with_logits(z, y, weight=torch.tensor([1.0, 2.0, 0.5])))
print(F.binary_cross_entropy_with_logits(z, y, pos_weight=torch.tensor([2.0, 2.0, 2.0])))
