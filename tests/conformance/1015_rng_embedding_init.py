import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(10, 3)
print(emb.weight)
idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
print(emb(idx))

torch.manual_seed(0)
emb2 = nn.Embedding(5, 4, padding_idx=0)
print(emb2.weight)

torch.manual_seed(1)
vocab = nn.Embedding(20, 8)
head = nn.Linear(8, 20)
tokens = torch.tensor([3, 7, 1])
logits = head(vocab(tokens))
print(logits.shape, logits[0, :5])
loss = nn.functional.cross_entropy(logits, torch.tensor([7, 1, 3]))
loss.backward()
print(loss, vocab.weight.grad[3])
