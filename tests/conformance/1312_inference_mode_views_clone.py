# Views and detach of inference tensors stay inference tensors; clone gives a normal tensor
import torch

with torch.inference_mode():
    base = torch.arange(6.0).reshape(2, 3)
    row = base[0]
print(base.is_inference(), row.is_inference())
print(base.t().is_inference(), base.view(6).is_inference(), base[:, 1].is_inference())
print(base.detach().is_inference(), base.unsqueeze(0).is_inference())
for make in (lambda: base.view(3, 2)._version, lambda: row.add_(1), lambda: base.t().mul_(2)):
    try:
        make()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(base)

c = base.clone()
print(c.is_inference(), c.requires_grad)
c.add_(100)
print(c, base)

# the workaround: clone, then train
w = base.clone().requires_grad_()
loss = (w * w).sum()
loss.backward()
print(loss, w.grad, w.is_inference())

# a view of a normal tensor taken inside the mode is a normal tensor
x = torch.ones(4, requires_grad=True)
with torch.inference_mode():
    part = x[:2]
    print(part.is_inference())
    x.data.mul_(1)
print(x.is_inference())
