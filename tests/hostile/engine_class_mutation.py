# expect: AttributeError
import torch

torch.Tensor.add = None
