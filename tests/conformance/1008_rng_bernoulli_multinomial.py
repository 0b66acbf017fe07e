import torch

torch.manual_seed(0)
p = torch.tensor([0.1, 0.5, 0.9, 0.25])
print(torch.bernoulli(p))
print(torch.bernoulli(p.repeat(3, 1)))
print(torch.bernoulli(torch.ones(4), p=0.5))
probs = torch.rand(3, 3)
print(probs, torch.bernoulli(probs))

weights = torch.tensor([0.0, 10.0, 3.0, 0.0, 1.0])
print(torch.multinomial(weights, 2))
print(torch.multinomial(weights, 4, replacement=True))
print(torch.multinomial(weights, 1))
rows = torch.tensor([[1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0]])
print(torch.multinomial(rows, 3))
print(torch.multinomial(rows, 6, replacement=True))
print(rows.multinomial(2))

# sampling from a softmax, as a language model does
torch.manual_seed(4)
logits = torch.randn(8)
dist = torch.softmax(logits, dim=0)
print(dist)
print([torch.multinomial(dist, 1).item() for _ in range(10)])
counts = torch.zeros(5)
for i in torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.2, 0.2]), 2000, replacement=True):
    counts[i] += 1
print(counts)
