import torch

# only one backward per graph unless retain_graph=True
x = torch.ones(5)
w = torch.tensor([[0.1, -0.2, 0.3]] * 5, requires_grad=True)
b = torch.tensor([0.5, -0.5, 0.0], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, torch.zeros(3))
loss.backward()
try:
    loss.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
