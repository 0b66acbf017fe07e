import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
feature_maps = torch.randn(2, 4, 3, 3)
drop = nn.Dropout2d(p=0.5)
print(drop)
out = drop(feature_maps)
# whole channels are zeroed, the others scaled by 2
print((out.abs().sum(dim=(2, 3)) == 0).int())
print(out[0, :, 0, 0], feature_maps[0, :, 0, 0])

print(F.dropout1d(torch.ones(2, 3, 4), 0.5))
print(F.dropout3d(torch.ones(1, 3, 1, 2, 2), 0.5).flatten())

# SELU networks use alpha dropout: mean and variance are kept
torch.manual_seed(1)
x = torch.randn(10000)
y = F.alpha_dropout(x, 0.2, training=True)
print(round(x.mean().item(), 2), round(y.mean().item(), 2), round(y.std().item(), 2))
net = nn.Sequential(nn.Linear(5, 5), nn.SELU(), nn.AlphaDropout(0.1), nn.Linear(5, 1))
print(net(torch.ones(3, 5)).flatten())
net.eval()
print(net(torch.ones(3, 5)).flatten())
print(F.feature_alpha_dropout(torch.ones(2, 3, 2), 0.5, training=True))
