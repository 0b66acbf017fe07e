# What goes wrong when calling nodes: wrong argument counts, non-tensors, and saved tensors
# freed by an earlier backward (PyTorch's messages).
import torch

x = torch.tensor([0.5, 1.5], requires_grad=True)
y = x.sin()
for args in [(), (torch.ones(2), torch.ones(2)), (2.0,), ([1.0, 1.0],)]:
    try:
        y.grad_fn(*args)
    except TypeError as error:
        print("TypeError:", error)
print(y.grad_fn(None))
z = y.sum()
z.backward(retain_graph=True)
print(y.grad_fn(torch.ones(2)))
y2 = x.cos()
y2.sum().backward()
try:
    y2.grad_fn(torch.ones(2))
except RuntimeError as error:
    print("RuntimeError:", str(error)[:64])
s = (x * 3).sum()
s.backward()
print(s.grad_fn(torch.tensor(2.0)))
