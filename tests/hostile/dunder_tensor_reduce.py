# expect: AttributeError
import torch

x = torch.ones(2)
x.__reduce_ex__(2)
