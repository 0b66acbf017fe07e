# A learner passes a Python list where a tensor is expected (PyTorch basics tutorial)
import torch

data = [1.0, 2.0, 3.0]
for name, fn in [
    ("sum", torch.sum),
    ("mean", torch.mean),
    ("max", torch.max),
    ("exp", torch.exp),
    ("sigmoid", torch.sigmoid),
    ("argmax", torch.argmax),
]:
    try:
        fn(data)
    except TypeError as e:
        print(name, "->", e)
t = torch.tensor(data)
print(torch.sum(t), torch.mean(t), torch.max(t), torch.argmax(t))
