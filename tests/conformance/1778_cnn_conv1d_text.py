# Conv1d over sequences (text-CNN style, as in Chinese course material): embedding -> conv1d -> max over time
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(20, 6)
convs = nn.ModuleList([nn.Conv1d(6, 4, k) for k in (2, 3, 4)])
fc = nn.Linear(12, 2)
print(convs)
tokens = torch.tensor([[1, 5, 7, 2, 9, 3, 4], [8, 1, 1, 0, 6, 2, 5]])
x = emb(tokens).permute(0, 2, 1)
print(x.shape)
feats = []
for conv in convs:
    h = F.relu(conv(x))
    print(h.shape, h.grad_fn)
    feats.append(F.max_pool1d(h, h.shape[2]).squeeze(2))
out = fc(torch.cat(feats, dim=1))
print(out)
loss = F.cross_entropy(out, torch.tensor([0, 1]))
loss.backward()
print(loss)
print(convs[1].weight.grad[0])
print(emb.weight.grad[1])
c = nn.Conv1d(1, 1, 3, padding="same", bias=False)
print(c, c(torch.arange(5.0).reshape(1, 1, 5)))
print(nn.MaxPool1d(2), F.avg_pool1d(x, 2).shape)
