# Summing a list of tensors with torch.sum: PyTorch's message, then the fix (torch.stack)
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
print([round(wi.item(), 4) for wi in w])
try:
    loss = torch.sum([wi * 2 for wi in w])
except TypeError as e:
    print("TypeError:", e)
loss = torch.stack([wi * 2 for wi in w]).sum()
loss.backward()
print(loss.grad_fn.name(), w.grad)
