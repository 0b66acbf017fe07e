import torch

x = torch.arange(6.0).reshape(2, 3)
try:
    x[2]
except IndexError as e:
    print(type(e).__name__, e)
try:
    x[0, 3]
except IndexError as e:
    print(type(e).__name__, e)
try:
    x[0, 0, 0]
except IndexError as e:
    print(type(e).__name__, e)
try:
    x[torch.tensor([0, 5])]
except IndexError as e:
    print(type(e).__name__, e)
try:
    x[torch.tensor([True, False, True])]
except IndexError as e:
    print(type(e).__name__, e)
try:
    x[::-1]
except ValueError as e:
    print(type(e).__name__, e)
try:
    x[torch.tensor([0.0])]
except IndexError as e:
    print(type(e).__name__, e)
try:
    torch.tensor(1.0)[0]
except IndexError as e:
    print(type(e).__name__, e)
