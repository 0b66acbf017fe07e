# expect: RuntimeError
import torch

x = torch.ones(2**16, 1).expand(2**16, 2**16)
