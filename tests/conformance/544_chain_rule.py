import torch

x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
y = (x.sin() * x.exp() + x.cos().pow(2)).tanh().sum()
print(y)
y.backward()
print(x.grad)

a = torch.tensor(2.0, requires_grad=True)
b = ((a * a + 1).log() / a).sigmoid()
print(b)
b.backward()
print(a.grad)
