# Inspecting what autograd saved: grad_fn._saved_alpha (autograd mechanics notes)
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
for label, y in [
    ("a + b", a + b),
    ("torch.add(a, b, alpha=2)", torch.add(a, b, alpha=2)),
    ("a - b", a - b),
    ("torch.sub(a, b, alpha=0.5)", torch.sub(a, b, alpha=0.5)),
    ("a.add(b, alpha=-1)", a.add(b, alpha=-1)),
]:
    print(label, y.grad_fn.name(), y.grad_fn._saved_alpha)
y = torch.add(a, b, alpha=3)
y.sum().backward()
print(a.grad, b.grad)
