import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(4, 6)
print(F.dropout(x, p=0.5))
print(F.dropout(x, p=0.2, training=True))
print(F.dropout(x, p=0.2, training=False))

drop = nn.Dropout(p=0.3)
torch.manual_seed(1)
y = torch.randn(3, 5)
print(drop(y))
drop.eval()
print(torch.equal(drop(y), y))
drop.train()
print(drop(y))

# dropout keeps the expected value
torch.manual_seed(2)
big = F.dropout(torch.ones(10000), p=0.4)
print((big == 0).sum(), big.mean())

# gradients flow through the kept units only
torch.manual_seed(3)
w = torch.randn(6, requires_grad=True)
out = F.dropout(w, p=0.5).sum()
out.backward()
print(w.grad)
print(F.dropout(torch.ones(5, dtype=torch.float64), 0.25))
