# expect: RuntimeError
import torch

x = torch.ones(2**16, 1) @ torch.ones(1, 2**16)
