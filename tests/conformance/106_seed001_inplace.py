import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = w * x
y += 1  # in-place addition
loss = (y - 5) ** 2
try:
    loss.backward()
    print("Backward pass successful (might be incorrect gradient)")
except RuntimeError as e:
    print(f"RuntimeError: {e}")
print(x.grad, w.grad)
# out-of-place is recommended
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = w * x
y = y + 1  # out-of-place addition
loss = (y - 5) ** 2
loss.backward()
print("Backward pass successful (correct gradient)")
print(x.grad, w.grad)
