import math

import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.uniform_(w, -0.1, 0.1))
print(nn.init.normal_(w, 0.0, 0.02))
print(nn.init.xavier_uniform_(w))
print(nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh")))
print(nn.init.kaiming_uniform_(w, a=math.sqrt(5)))
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
print(nn.init.constant_(torch.empty(2), 0.5), nn.init.zeros_(torch.empty(2)))

conv_like = torch.empty(4, 2, 3, 3)
nn.init.kaiming_uniform_(conv_like, nonlinearity="relu")
print(conv_like[0, 0])


# a custom init over a model's modules
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)


torch.manual_seed(5)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
model.apply(init_weights)
print(model[0].weight, model[2].weight, model[2].bias)
g = torch.Generator().manual_seed(8)
print(nn.init.normal_(torch.empty(4), generator=g))
