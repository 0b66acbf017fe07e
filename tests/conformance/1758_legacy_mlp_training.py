# A small MLP trained on FloatTensor inputs and LongTensor labels, as 2018 course notebooks did.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
X = torch.FloatTensor([[0, 0], [0, 1], [1, 0], [1, 1]])
y = torch.LongTensor([0, 1, 1, 0])
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(30):
    opt.zero_grad()
    out = model(X)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 4), model[0].weight.grad.type())
pred = model(X).argmax(1)
print(pred, pred.type(), (pred == y).type(torch.FloatTensor).mean())
print(isinstance(model[0].weight, torch.FloatTensor), model[0].weight.type())
