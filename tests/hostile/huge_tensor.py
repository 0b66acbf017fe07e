# expect: RuntimeError
import torch

x = torch.ones(2**40)
