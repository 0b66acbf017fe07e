import torch
import torch.nn.functional as F

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
out = F.dropout(x, p=0.5, training=False)
print(out)
print(out is x, out.requires_grad)
(out * 2).sum().backward()
print(x.grad)
print(F.dropout(x, p=0.0, training=False))
out0 = F.dropout(x, p=0.0)
print(out0)
try:
    F.dropout(x, p=1.5)
except ValueError as e:
    print(type(e).__name__, e)
