# Masked attention scores: torch.masked.softmax over the allowed keys, masked amax/amin, and the
# gradients through them.
import torch

torch.manual_seed(2)
scores = torch.randn(2, 4, requires_grad=True)
allowed = torch.tensor([[True, True, False, True], [False, True, True, False]])
attn = torch.masked.softmax(scores, 1, mask=allowed)
print(attn)
print(torch.masked.log_softmax(scores, 1, mask=allowed))
top = torch.masked.amax(scores, 1, mask=allowed)
low = torch.masked.amin(scores, 1, mask=allowed)
print(top, low)
print(torch.masked.argmax(scores, 1, mask=allowed), torch.masked.argmin(scores, 1, mask=allowed))
values = torch.arange(8.0).reshape(2, 4)
(attn * values).sum().backward(retain_graph=True)
print(scores.grad)
scores.grad = None
(top - low).sum().backward()
print(scores.grad)
