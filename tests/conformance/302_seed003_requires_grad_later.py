import torch

# requires_grad can be set at creation or later with requires_grad_(True)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.tensor([[0.1, -0.2, 0.3]] * 5)
b = torch.tensor([0.5, -0.5, 0.0])
print(w.requires_grad, b.requires_grad)
w.requires_grad_(True)
b.requires_grad_(True)
print(w.requires_grad, b.requires_grad)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
loss.backward()
print(w.grad)
print(b.grad)
