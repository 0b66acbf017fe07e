import math

import torch
import torch.nn as nn

w = torch.empty(3, 5)
print(nn.init.zeros_(w) is w)
print(w)
print(nn.init.ones_(w))
print(nn.init.constant_(w, 0.25))
print(w._version > 0)

print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"))
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("sigmoid"))
try:
    nn.init.calculate_gain("swish")
except ValueError as e:
    print("ValueError:", e)

torch.manual_seed(0)
big = torch.empty(200, 100)
nn.init.uniform_(big, -0.5, 0.5)
print(bool(big.min() >= -0.5), bool(big.max() <= 0.5), big.shape)
nn.init.xavier_uniform_(big)
limit = math.sqrt(6.0 / (200 + 100))
print(bool(big.abs().max() <= limit), bool(big.abs().max() > limit * 0.9))
nn.init.kaiming_uniform_(big, a=math.sqrt(5))
print(bool(big.abs().max() <= 1 / math.sqrt(100)))
nn.init.kaiming_uniform_(big, mode="fan_out", nonlinearity="relu")
print(bool(big.abs().max() <= math.sqrt(6.0 / 200)))
nn.init.normal_(big, mean=3.0, std=0.01)
print(round(big.mean().item(), 2), round(big.std().item(), 2))
nn.init.xavier_normal_(big, gain=2.0)
print(round(big.std().item(), 2), round(2.0 * math.sqrt(2.0 / 300), 2))
nn.init.kaiming_normal_(big)
print(round(big.std().item(), 2), round(math.sqrt(2.0 / 100), 2))

p = nn.Parameter(torch.ones(2, 2))
out = nn.init.constant_(p, 3.0)
print(out is p)
print(p)
try:
    nn.init.xavier_uniform_(torch.empty(4))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.kaiming_uniform_(torch.empty(2, 2), mode="fan_middle")
except ValueError as e:
    print("ValueError:", e)
