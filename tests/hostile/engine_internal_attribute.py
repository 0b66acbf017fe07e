# expect: AttributeError
import torch

print(torch.ops.OPS)
