# expect: RuntimeError
import torch

x = torch.ones(4).repeat(2**20, 2**10)
