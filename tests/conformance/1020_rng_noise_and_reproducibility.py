import torch
import torch.nn as nn


def run(seed):
    torch.manual_seed(seed)
    model = nn.Linear(3, 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    X = torch.randn(16, 3)
    y = X.sum(dim=1, keepdim=True)
    for _ in range(20):
        noisy = X + 0.05 * torch.randn_like(X)  # input noise as a regulariser
        opt.zero_grad()
        loss = ((model(noisy) - y) ** 2).mean()
        loss.backward()
        opt.step()
    return model.weight.detach().clone(), loss.item()


w1, l1 = run(10)
w2, l2 = run(10)
w3, l3 = run(11)
print(w1, round(l1, 5))
print(torch.equal(w1, w2), l1 == l2, torch.equal(w1, w3))
print(w3, round(l3, 5))

# a generator per data stream keeps streams independent of the model's draws
data_gen = torch.Generator().manual_seed(5)
torch.manual_seed(0)
batch1 = torch.randn(2, 3, generator=data_gen)
layer = nn.Linear(3, 3)
batch2 = torch.randn(2, 3, generator=data_gen)
data_gen.manual_seed(5)
print(torch.equal(batch1, torch.randn(2, 3, generator=data_gen)))
print(batch2)
print(layer.weight)
