import torch

x = torch.arange(6.0)
try:
    x.view(4, 2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.reshape(-1, -1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.reshape(5)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.view(-1, 4)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.permute(1, 0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.transpose(0, 2)
except IndexError as e:
    print(type(e).__name__, e)
try:
    x.squeeze(1)
except IndexError as e:
    print(type(e).__name__, e)
try:
    x.unsqueeze(3)
except IndexError as e:
    print(type(e).__name__, e)
try:
    x.chunk(0)
except RuntimeError as e:
    print(type(e).__name__, e)
