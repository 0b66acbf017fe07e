import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for item in x:
    print(item)
total = 0
for item in x:
    total = total + item * item
print(total)
total.backward()
print(x.grad)

m = torch.tensor([[1, 2], [3, 4]])
for row in m:
    print(row)
print(len(m), len(x))
print(list(torch.arange(3)))
try:
    for item in torch.tensor(1.0):
        print(item)
except TypeError as e:
    print(type(e).__name__, e)
