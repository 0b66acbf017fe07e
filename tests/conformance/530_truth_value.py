import torch

print(bool(torch.tensor([1.0])))
print(bool(torch.tensor(0.0)))
print(bool(torch.tensor([[3]])))
if torch.tensor(2.0) > 1:
    print("greater")
x = torch.tensor([1.0, 2.0])
try:
    if x > 0:
        print("unreachable")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    bool(torch.tensor([]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(float(torch.tensor([2.5])), int(torch.tensor(3.7)))
print(not torch.tensor(0))
y = torch.tensor(1.5, requires_grad=True)
print(bool(y), float(y))
