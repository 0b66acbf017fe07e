# register_multi_grad_hook (mode="any"): called once per backward pass with the first
# gradient computed among the tensors.
import torch
from torch.autograd.graph import register_multi_grad_hook

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
seen = []


def first(grad):
    seen.append(grad.tolist())
    print("any:", grad)


handle = register_multi_grad_hook((a, b), first, mode="any")
(a * b).sum().backward()
(a * 3).sum().backward()
(b * 5).sum().backward()
print(seen)
handle.remove()
(a * b).sum().backward()
print(len(seen))

# a hook on an intermediate value
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x.pow(2)
k = h.sin()
handle = register_multi_grad_hook((h, k), first, mode="any")
k.sum().backward()
handle.remove()
print(x.grad)
